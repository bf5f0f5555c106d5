// Package compare decides whether a subject's output equals a golden.
//
// Outputs are compared as JSON, not bytes: key order does not matter,
// numbers compare by exact value ("1" equals "1.0"), strings by their UTF-16
// content (lone surrogates included). Fields a case declares volatile are
// redacted first: they must be there on both sides with the declared JSON
// type, and their values are not compared. Strings a golden marks as runtime
// texts (see RuntimeText) are checked by their pattern unless the comparison
// is strict.
//
// A mismatch lists every path that differs, in document order: the members
// of an object in the order the wanted document has them, then the members
// only the other side has, in its order; array elements by index, except
// that when the lengths differ the elements are aligned first, so that one
// element more or less is one difference, not a shift of all that follow
// (see walkArray). Values are shown as JSON, so a report reads the same in
// any language.
package compare

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/piconform/piconform/harness/printable"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// Redaction marks a volatile field. Path is a JSON Pointer in which a "*"
// segment matches every member or element.
type Redaction struct {
	Path string
	// As is the JSON type the value must have: number, string, boolean,
	// object, array, null, or any; or duration, a non-negative integer (a
	// wall-clock time, which changes from run to run).
	As string
}

var redactionTypes = []string{"number", "string", "boolean", "object", "array", "null", "any", "duration"}

// ParseRedaction reads a redaction entry {path, as} at ptr.
func ParseRedaction(v jsonv.Value, ptr string) (Redaction, error) {
	f := jsonv.ReadFields(v, ptr)
	r := Redaction{Path: f.String("path"), As: f.String("as")}
	if err := f.Err(); err != nil {
		return Redaction{}, err
	}
	if r.Path == "" || r.Path[0] != '/' {
		return Redaction{}, jsonv.Errorf(f.At("path"), "want a JSON Pointer starting with /, got %q", r.Path)
	}
	if !slices.Contains(redactionTypes, r.As) {
		return Redaction{}, jsonv.Errorf(f.At("as"), "want one of %s, got %q", strings.Join(redactionTypes, ", "), r.As)
	}
	return r, nil
}

func (r Redaction) segments() []string { return splitPointer(r.Path) }

// pointerUnescaper undoes a JSON Pointer segment's escapes.
var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

func splitPointer(p string) []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		parts[i] = pointerUnescaper.Replace(s)
	}
	return parts
}

// Diff is one difference: the values at Path (a JSON Pointer) on each side.
// A side that is not there is jsonv's Absent value. For a volatile field of
// the wrong type, Want is a string naming the type the case declares ("a
// number (volatile)"); for a runtime text that does not fit, Want is the
// text's pattern (see RuntimeText).
type Diff struct {
	Path      string
	Want, Got jsonv.Value
	// WantBytes and GotBytes are set for a side that Bounded cut: the
	// length of its whole JSON text. The side then holds the start of that
	// text, as a string.
	WantBytes, GotBytes int
}

// Mismatch explains why two outputs differ. It is the error a check
// returns.
type Mismatch struct {
	// Path is the JSON Pointer of the first difference.
	Path string
	// Want and Got are the values there, as compact JSON ("absent" when missing).
	Want, Got string
	// Diff is the human report (-want +got), one entry per path, every
	// difference.
	Diff string
	// Diffs is every difference, in document order.
	Diffs []Diff
}

func (m *Mismatch) Error() string {
	s := fmt.Sprintf("%s: want %s, got %s", displayPath(m.Path), m.Want, m.Got)
	if n := len(m.Diffs) - 1; n > 0 {
		s += fmt.Sprintf(" (and %d more %s)", n, plural(n, "difference", "differences"))
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// displayPath is a path for people, on one line: its keys are an
// implementation's, which may hold newlines and control characters.
func displayPath(p string) string {
	if p == "" {
		return "/"
	}
	return printable.Line(p)
}

// NewMismatch makes the mismatch of a list of differences; nil when the
// list is empty.
func NewMismatch(diffs []Diff) *Mismatch {
	if len(diffs) == 0 {
		return nil
	}
	for i := range diffs {
		diffs[i] = diffs[i].Bounded()
	}
	d := diffs[0]
	return &Mismatch{Path: d.Path, Want: d.ShowWant(), Got: d.ShowGot(), Diff: FormatDiffs(diffs, 0), Diffs: diffs}
}

// Render writes a value as compact JSON, or "absent"; past MaxValueBytes
// it shows the start and how long the whole is.
func Render(v jsonv.Value) string {
	if v.IsAbsent() {
		return "absent"
	}
	if b, n := boundValue(v); n > 0 {
		return show(b, n)
	}
	return v.String()
}

// FormatDiffs renders differences for people, -want +got per path:
//
//	/body/max_tokens
//	  - 64000
//	  + 1
//
// A side that is not there is left out. limit > 0 shows at most that many
// and counts the rest.
func FormatDiffs(diffs []Diff, limit int) string {
	var b strings.Builder
	shown := diffs
	if limit > 0 && len(diffs) > limit {
		shown = diffs[:limit]
	}
	for _, d := range shown {
		d = d.Bounded()
		b.WriteString(displayPath(d.Path) + "\n")
		if !d.Want.IsAbsent() {
			b.WriteString("  - " + d.ShowWant() + "\n")
		}
		if !d.Got.IsAbsent() {
			b.WriteString("  + " + d.ShowGot() + "\n")
		}
	}
	if rest := len(diffs) - len(shown); rest > 0 {
		fmt.Fprintf(&b, "… and %d more %s\n", rest, plural(rest, "difference", "differences"))
	}
	return b.String()
}

// JSONText marks strings that hold JSON text (a tool call's arguments, as
// the API or Pi writes them with JSON.stringify): two such strings are
// equal when both parse to equal JSON objects or arrays, whatever the
// order of their keys and their spacing; a string that does not parse as
// one (a fragment of a stream) is compared as text. Path is a JSON
// Pointer in which a "*" segment matches every member or element; Type,
// when set, limits it to objects whose "type" member is that string.
type JSONText struct {
	Path string
	Type string
}

// Rules say how two outputs are compared besides plain JSON equality.
type Rules struct {
	Redactions []Redaction
	// JSONTexts are the strings compared as the JSON they hold.
	JSONTexts []JSONText
	// RuntimeTexts are the golden's strings that come from the JavaScript
	// runtime; they are checked by pattern unless Strict.
	RuntimeTexts []RuntimeText
	// Strict compares runtime texts exactly (--strict-identity).
	Strict bool
}

// Compare returns nil when got equals want under the redactions.
func Compare(want, got jsonv.Value, redactions []Redaction) *Mismatch {
	return Check(want, got, Rules{Redactions: redactions})
}

// Check returns nil when got equals want under the rules, else every
// difference.
func Check(want, got jsonv.Value, r Rules) *Mismatch {
	return NewMismatch(Diffs(want, got, r))
}

// Diffs lists every difference between want and got under the rules, in
// document order.
func Diffs(want, got jsonv.Value, r Rules) []Diff {
	w := &walker{rules: r, texts: map[string]string{}}
	for _, red := range r.Redactions {
		w.redactions = append(w.redactions, red.segments())
	}
	for _, j := range r.JSONTexts {
		w.jsonTexts = append(w.jsonTexts, splitPointer(j.Path))
	}
	if !r.Strict {
		for _, t := range r.RuntimeTexts {
			w.texts[t.Path] = t.Pattern
		}
	}
	w.walk(want, got, "", nil)
	return w.diffs
}

type walker struct {
	rules Rules
	// redactions are the segments of each of rules.Redactions, jsonTexts
	// those of rules.JSONTexts.
	redactions, jsonTexts [][]string
	texts                 map[string]string
	diffs                 []Diff
	// first stops the walk at the first difference (an equality probe).
	first bool
}

func (w *walker) add(path string, want, got jsonv.Value) {
	w.diffs = append(w.diffs, Diff{Path: path, Want: want, Got: got})
}

// redaction is the type a volatile field at segs must have, if any.
func (w *walker) redaction(segs []string) (string, bool) {
	for i, r := range w.rules.Redactions {
		rs := w.redactions[i]
		if len(rs) != len(segs) {
			continue
		}
		ok := true
		for i, s := range rs {
			if s != "*" && s != segs[i] {
				ok = false
				break
			}
		}
		if ok {
			return r.As, true
		}
	}
	return "", false
}

func (w *walker) walk(want, got jsonv.Value, path string, segs []string) {
	if want.IsAbsent() && got.IsAbsent() || w.first && len(w.diffs) > 0 {
		return
	}
	if as, ok := w.redaction(segs); ok {
		switch {
		case want.IsAbsent():
			// The golden has no such member: its presence is the difference.
			w.add(path, want, got)
		case got.IsAbsent() || !hasType(want, as) || !hasType(got, as):
			w.add(path, jsonv.StringValue("a "+as+" (volatile)"), got)
		}
		return
	}
	if pattern, ok := w.texts[path]; ok {
		if got.Kind() != jsonv.String || !MatchesRuntimeText(pattern, got.Str()) {
			w.add(path, jsonv.StringValue(pattern), got)
		}
		return
	}
	if want.Kind() != got.Kind() {
		w.add(path, want, got)
		return
	}
	switch want.Kind() {
	case jsonv.Null:
	case jsonv.Bool:
		if want.Bool() != got.Bool() {
			w.add(path, want, got)
		}
	case jsonv.Number:
		if !jsonv.NumbersEqual(want.Literal(), got.Literal()) {
			w.add(path, want, got)
		}
	case jsonv.String:
		if wtf8.Canonical(want.Str()) != wtf8.Canonical(got.Str()) {
			w.add(path, want, got)
		}
	case jsonv.Array:
		w.walkArray(want.Elems(), got.Elems(), path, segs)
	case jsonv.Object:
		wk, wm := members(want)
		gk, gm := members(got)
		typ := ""
		if t, ok := wm["type"]; ok && t.Kind() == jsonv.String {
			typ = t.Str()
		}
		for _, k := range wk {
			ks := append(segs[:len(segs):len(segs)], k)
			if wv, gv := wm[k], gm[k]; wv.Kind() == jsonv.String && gv.Kind() == jsonv.String && w.jsonText(ks, typ) {
				if !sameJSONText(wv.Str(), gv.Str()) {
					w.add(jsonv.Child(path, k), wv, gv)
				}
				continue
			}
			w.walk(wm[k], gm[k], jsonv.Child(path, k), ks)
		}
		for _, k := range gk {
			if _, ok := wm[k]; !ok {
				w.walk(jsonv.Value{}, gm[k], jsonv.Child(path, k), append(segs[:len(segs):len(segs)], k))
			}
		}
	}
}

// maxAlignCells bounds the element pairs the aligner compares (want's
// middle × got's middle, once the equal ends are set aside); past it the
// middles are paired by index, as arrays of one length always are.
const maxAlignCells = 1 << 12

// walkArray compares two arrays. Arrays of one length are compared element
// by element. When the lengths differ, an element one side lacks would
// shift every later one, so the elements are aligned first: the equal
// ends, then a longest common subsequence of what is between them. An
// element only want has is reported at its index in want, one only got has
// at its index in got, whole; the elements between two aligned ones are
// paired by index, and the surplus of the longer side is reported whole.
// Paired and aligned elements are compared at want's index, where the
// rules (redactions, runtime texts) name them.
func (w *walker) walkArray(we, ge []jsonv.Value, path string, segs []string) {
	at := func(i int) (string, []string) {
		return jsonv.Index(path, i), append(segs[:len(segs):len(segs)], strconv.Itoa(i))
	}
	pair := func(i, j int) {
		p, s := at(i)
		w.walk(we[i], ge[j], p, s)
	}
	if len(we) == len(ge) {
		for i := range we {
			pair(i, i)
		}
		return
	}
	same := func(i, j int) bool {
		p, s := at(i)
		probe := &walker{rules: w.rules, redactions: w.redactions, jsonTexts: w.jsonTexts, texts: w.texts, first: true}
		probe.walk(we[i], ge[j], p, s)
		return len(probe.diffs) == 0
	}
	pre := 0
	for pre < min(len(we), len(ge)) && same(pre, pre) {
		pre++
	}
	suf := 0
	for suf < min(len(we), len(ge))-pre && same(len(we)-1-suf, len(ge)-1-suf) {
		suf++
	}
	// Aligned pairs (want index, got index) after the equal start, in
	// order, ending with a sentinel past both ends.
	aligned := commonSubsequence(pre, len(we)-suf, pre, len(ge)-suf, same)
	for k := suf; k > 0; k-- {
		aligned = append(aligned, [2]int{len(we) - k, len(ge) - k})
	}
	aligned = append(aligned, [2]int{len(we), len(ge)})
	i, j := pre, pre
	for _, a := range aligned {
		for ; i < a[0] && j < a[1]; i, j = i+1, j+1 {
			pair(i, j)
		}
		for ; i < a[0]; i++ {
			w.add(jsonv.Index(path, i), we[i], jsonv.Value{})
		}
		for ; j < a[1]; j++ {
			w.add(jsonv.Index(path, j), jsonv.Value{}, ge[j])
		}
		i, j = a[0]+1, a[1]+1 // aligned elements are the same
	}
}

// commonSubsequence aligns want[i0:i1] with got[j0:j1]: the longest list of
// index pairs, increasing on both sides, whose elements are the same. It
// returns none when the middles are too large to compare pairwise.
func commonSubsequence(i0, i1, j0, j1 int, same func(i, j int) bool) [][2]int {
	n, m := i1-i0, j1-j0
	if n == 0 || m == 0 || n*m > maxAlignCells {
		return nil
	}
	// lcs[a][b] is the length of the longest common subsequence of
	// want[i0+a:i1] and got[j0+b:j1].
	lcs := make([][]int, n+1)
	for a := range lcs {
		lcs[a] = make([]int, m+1)
	}
	eq := make([][]bool, n)
	for a := n - 1; a >= 0; a-- {
		eq[a] = make([]bool, m)
		for b := m - 1; b >= 0; b-- {
			eq[a][b] = same(i0+a, j0+b)
			switch {
			case eq[a][b]:
				lcs[a][b] = lcs[a+1][b+1] + 1
			case lcs[a+1][b] >= lcs[a][b+1]:
				lcs[a][b] = lcs[a+1][b]
			default:
				lcs[a][b] = lcs[a][b+1]
			}
		}
	}
	var out [][2]int
	for a, b := 0, 0; a < n && b < m; {
		switch {
		case eq[a][b]:
			out = append(out, [2]int{i0 + a, j0 + b})
			a, b = a+1, b+1
		case lcs[a+1][b] >= lcs[a][b+1]:
			a++
		default:
			b++
		}
	}
	return out
}

// members returns an object's keys (canonical WTF-8) in document order,
// each once, and the last value of each, as JSON.parse keeps it.
func members(v jsonv.Value) ([]string, map[string]jsonv.Value) {
	var keys []string
	m := make(map[string]jsonv.Value, len(v.Members()))
	for _, mem := range v.Members() {
		if mem.Value.IsAbsent() {
			continue
		}
		k := wtf8.Canonical(mem.Key)
		if _, seen := m[k]; !seen {
			keys = append(keys, k)
		}
		m[k] = mem.Value
	}
	return keys, m
}

// jsonText tells whether the member at segs, in an object whose "type" is
// typ, holds JSON text.
func (w *walker) jsonText(segs []string, typ string) bool {
	for i, j := range w.rules.JSONTexts {
		if j.Type != "" && j.Type != typ {
			continue
		}
		if js := w.jsonTexts[i]; len(js) == len(segs) && segmentsMatch(js, segs) {
			return true
		}
	}
	return false
}

func segmentsMatch(pattern, segs []string) bool {
	for i, s := range pattern {
		if s != "*" && s != segs[i] {
			return false
		}
	}
	return true
}

// sameJSONText tells whether two strings are equal as text, or both hold
// a JSON object (or array) and those are equal as JSON.
func sameJSONText(a, b string) bool {
	if wtf8.Canonical(a) == wtf8.Canonical(b) {
		return true
	}
	av, err := jsonv.Parse([]byte(a))
	if err != nil || av.Kind() != jsonv.Object && av.Kind() != jsonv.Array {
		return false
	}
	bv, err := jsonv.Parse([]byte(b))
	if err != nil || bv.Kind() != av.Kind() {
		return false
	}
	probe := &walker{texts: map[string]string{}, first: true}
	probe.walk(av, bv, "", nil)
	return len(probe.diffs) == 0
}

func hasType(v jsonv.Value, as string) bool {
	switch as {
	case "any":
		return !v.IsAbsent()
	case "number":
		return v.Kind() == jsonv.Number
	case "duration":
		f, ok := v.Float64()
		return v.Kind() == jsonv.Number && ok && f >= 0 && f == math.Trunc(f)
	case "string":
		return v.Kind() == jsonv.String
	case "boolean":
		return v.Kind() == jsonv.Bool
	case "object":
		return v.Kind() == jsonv.Object
	case "array":
		return v.Kind() == jsonv.Array
	case "null":
		return v.Kind() == jsonv.Null
	}
	return false
}
