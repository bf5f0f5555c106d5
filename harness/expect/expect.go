// Package expect reads and writes expected-failure files.
//
// Such a file lists the cases an implementation is known to fail, one entry
// a line: a case id glob (path.Match syntax, e.g. "normalize/images-*"),
// optionally the paths where the case is expected to differ, then "#" and the
// reason, which is required. Blank lines and lines starting with "#" are
// comments.
//
//	# Pi 0.73.1 has no cost for one-hour cache writes.
//	cost/reference-example-with-1h  /usage/cost/cacheWrite,/usage/cost/total  # cacheWrite1h is priced like cacheWrite
//	wire/google-vertex-*  /message/durationMs,/events/*/message/durationMs  # durationMs is new
//	normalize/images-*  # the whole case: any difference, or an error, crash or timeout
//
// An entry without paths covers the whole case, whatever its outcome. An
// entry with paths (a comma-separated list of path globs, see PathMatch)
// covers only a failure whose every differing path one of them matches: a
// difference anywhere else, an outcome other than fail, or a failure that
// names no path makes the run fail. When several entries match a case, their
// paths add up, so a file can hold one line per cause.
package expect

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/piconform/piconform/harness/printable"
	"github.com/piconform/piconform/harness/suite"
)

// Entry is one expected failure.
type Entry struct {
	Pattern string
	// Paths are the path globs the case is expected to differ at; empty
	// means the whole case.
	Paths  []string
	Reason string
	Line   int
}

// WholeCase tells whether the entry covers the case whatever differs.
func (e Entry) WholeCase() bool { return len(e.Paths) == 0 }

// Covers tells whether one of the entry's path globs matches the JSON
// Pointer p. A whole-case entry covers every path.
func (e Entry) Covers(p string) bool {
	if e.WholeCase() {
		return true
	}
	return slices.ContainsFunc(e.Paths, func(g string) bool { return PathMatch(g, p) })
}

// File is a parsed expectations file.
type File struct {
	Path    string
	Entries []Entry
	// lines are the file's lines, for Render to keep its comments.
	lines []string
}

// Read parses the file at p.
func Read(p string) (*File, error) {
	data, err := suite.ReadFile(os.DirFS(filepath.Dir(p)), filepath.Base(p))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return Parse(p, data)
}

// Parse parses data read from the file named p. Errors carry file:line.
func Parse(p string, data []byte) (*File, error) {
	f := &File{Path: p}
	// Lines of any length: --write-expect writes one line per case, and a
	// case that differs at many paths makes a long one.
	if len(data) == 0 {
		return f, nil
	}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		n := i + 1
		f.lines = append(f.lines, strings.TrimRight(line, " \t\r"))
		text := strings.TrimSpace(line)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		head, reason, ok := strings.Cut(text, "#")
		reason = strings.TrimSpace(reason)
		fields := strings.Fields(head)
		if !ok || reason == "" {
			head = strings.TrimSpace(head)
			return nil, fmt.Errorf("%s:%d: %q has no reason; write `%s  # why it fails`", p, n, head, head)
		}
		if len(fields) == 0 || len(fields) > 2 {
			return nil, fmt.Errorf("%s:%d: %q is not a case id glob and an optional list of paths; write `case-glob  /path,/path  # why`", p, n, strings.TrimSpace(head))
		}
		e := Entry{Pattern: fields[0], Reason: reason, Line: n}
		if _, err := path.Match(e.Pattern, ""); err != nil {
			return nil, fmt.Errorf("%s:%d: bad case glob %q: %v", p, n, e.Pattern, err)
		}
		if len(fields) == 2 {
			for _, g := range strings.Split(fields[1], ",") {
				if err := checkPathGlob(g); err != nil {
					return nil, fmt.Errorf("%s:%d: bad path glob %q: %v", p, n, g, err)
				}
				e.Paths = append(e.Paths, g)
			}
		}
		f.Entries = append(f.Entries, e)
	}
	return f, nil
}

// Match returns the first entry whose glob matches id.
func (f *File) Match(id string) (Entry, bool) {
	if m := f.MatchAll(id); len(m) > 0 {
		return m[0], true
	}
	return Entry{}, false
}

// MatchAll returns every entry whose glob matches id, in file order.
func (f *File) MatchAll(id string) []Entry {
	if f == nil {
		return nil
	}
	var out []Entry
	for _, e := range f.Entries {
		if ok, _ := path.Match(e.Pattern, id); ok {
			out = append(out, e)
		}
	}
	return out
}

// Verdict is what the entries of a file say about one case that did not pass.
type Verdict struct {
	// Entry is the first entry that matches the case (for its reason); it is
	// nil when none does.
	Entry *Entry
	// Expected is set when the entries cover the failure.
	Expected bool
	// Unpinned are the differing paths no matching entry names.
	Unpinned []string
	// Why says, when entries match but do not cover the failure, what they
	// leave out.
	Why string
}

// Judge decides whether the failure of case id, with the outcome (as the
// runner names it: "fail", "error", "crash", …) and the differing paths
// (JSON Pointers, possibly none), is one the file expects.
func (f *File) Judge(id, outcome string, paths []string) Verdict {
	entries := f.MatchAll(id)
	if len(entries) == 0 {
		return Verdict{}
	}
	v := Verdict{Entry: &entries[0]}
	if slices.ContainsFunc(entries, Entry.WholeCase) {
		v.Expected = true
		return v
	}
	where := fmt.Sprintf("%s:%d", f.Path, entries[0].Line)
	switch {
	case outcome != "fail":
		v.Why = fmt.Sprintf("the expected-failure entry at %s names paths, which cover only a failure (outcome fail), not %s; write the case without paths to expect any outcome", where, outcome)
		return v
	case len(paths) == 0:
		v.Why = fmt.Sprintf("the case failed without naming a differing path, which the expected-failure entry at %s (naming paths) does not cover", where)
		return v
	}
	for _, p := range paths {
		if !slices.ContainsFunc(entries, func(e Entry) bool { return e.Covers(p) }) && !slices.Contains(v.Unpinned, p) {
			v.Unpinned = append(v.Unpinned, p)
		}
	}
	if len(v.Unpinned) == 0 {
		v.Expected = true
		return v
	}
	shown := v.Unpinned
	more := ""
	if len(shown) > 10 {
		shown, more = shown[:10], fmt.Sprintf(" and %d more", len(v.Unpinned)-10)
	}
	v.Why = fmt.Sprintf("new difference at %s%s, which the expected-failure entry at %s does not name", strings.Join(shown, ", "), more, where)
	return v
}

// StalePaths finds the path globs that pin nothing: failed holds, for each
// case the run judged as an expected failure, the paths where it differed,
// and a glob of an entry that matched some of those cases but covered none
// of their paths is stale (a difference that went away). Each comes back
// as an Entry with that glob alone, its reason saying so.
func (f *File) StalePaths(failed map[string][]string) []Entry {
	if f == nil {
		return nil
	}
	var out []Entry
	for _, e := range f.Entries {
		matched := false
		used := map[string]bool{}
		for id, paths := range failed {
			if ok, _ := path.Match(e.Pattern, id); !ok {
				continue
			}
			matched = true
			for _, g := range e.Paths {
				if slices.ContainsFunc(paths, func(p string) bool { return PathMatch(g, p) }) {
					used[g] = true
				}
			}
		}
		for _, g := range e.Paths {
			if matched && !used[g] {
				out = append(out, Entry{Pattern: e.Pattern, Paths: []string{g}, Line: e.Line,
					Reason: "the path " + g + " no longer differs (" + e.Reason + ")"})
			}
		}
	}
	return out
}

// Unmatched returns the entries that match none of ids.
func (f *File) Unmatched(ids []string) []Entry {
	if f == nil {
		return nil
	}
	var out []Entry
	for _, e := range f.Entries {
		if !slices.ContainsFunc(ids, func(id string) bool { ok, _ := path.Match(e.Pattern, id); return ok }) {
			out = append(out, e)
		}
	}
	return out
}

// PathMatch tells whether the JSON Pointer p matches the path glob g. Both
// are compared segment by segment, in pointer form (a "/" inside a key is
// "~1"): each segment of g is a path.Match pattern for one segment of p ("*"
// is any one segment, "?" any one character), except "**", which matches any
// number of segments, none included. So "/message/usage/*" matches
// "/message/usage/input" but not "/message/usage/cost/total", and
// "/requests/0/body/**" matches "/requests/0/body" and everything under it.
// "/**" matches every path, the root ("") too.
func PathMatch(g, p string) bool {
	if g == "" || g[0] != '/' {
		return false
	}
	var ps []string
	if p != "" {
		if p[0] != '/' {
			return false
		}
		ps = strings.Split(p[1:], "/")
	}
	return matchSegments(strings.Split(g[1:], "/"), ps)
}

func matchSegments(gs, ps []string) bool {
	for len(gs) > 0 {
		if gs[0] == "**" {
			for i := 0; i <= len(ps); i++ {
				if matchSegments(gs[1:], ps[i:]) {
					return true
				}
			}
			return false
		}
		if len(ps) == 0 {
			return false
		}
		if ok, _ := path.Match(gs[0], ps[0]); !ok {
			return false
		}
		gs, ps = gs[1:], ps[1:]
	}
	return len(ps) == 0
}

func checkPathGlob(g string) error {
	if !strings.HasPrefix(g, "/") {
		return fmt.Errorf("a path glob is a JSON Pointer and starts with /")
	}
	for _, s := range strings.Split(g[1:], "/") {
		if strings.Contains(s, "**") && s != "**" {
			return fmt.Errorf("** must be a whole segment")
		}
		if _, err := path.Match(s, ""); err != nil {
			return err
		}
	}
	return nil
}

// Failure is a case that did not pass, for Render.
type Failure struct {
	ID      string
	Message string
	// Outcome is the runner's name for how the case ended ("fail", "error",
	// …); empty is taken as "fail".
	Outcome string
	// Paths are the JSON Pointers where a failed case differs, in document
	// order. A failure without paths gets a whole-case entry.
	Paths []string
}

func (fl Failure) pinnable() bool {
	return (fl.Outcome == "" || fl.Outcome == "fail") && len(fl.Paths) > 0
}

// MaxPathsPerEntry bounds the path globs Render writes for one entry before
// it collapses paths under their shared prefixes.
const MaxPathsPerEntry = 6

// Render writes an expectations file listing exactly failures, with the
// paths each differs at.
//
// With an old file, it is rewritten in place: comments stay; an entry that
// no longer matches a failure is dropped; an entry that names paths keeps
// those that still match a difference; a whole-case entry becomes one that
// names the paths of the cases it matches (it stays whole-case when one of
// them ended otherwise than with differing paths). A difference no entry of
// its case names, or an outcome other than fail, goes to the case's own
// entry (its glob is the case id) or to the first whole-case entry matching
// it; failing that, it gets a new line at the end for that case alone, with
// the message as a reason to be edited. So an entry for many cases is never
// widened by one of them.
//
// notRun names the suite's cases the run left out (--case, --kind, an
// interruption). An entry matching one of them is not narrowed: it keeps
// every path it names, and stays when nothing that ran needs it, since the
// run cannot tell what the cases it skipped still need.
func Render(old *File, failures []Failure, notRun []string) []byte {
	var b bytes.Buffer
	if old == nil || len(old.lines) == 0 {
		b.WriteString("# Expected failures: case id glob, the paths where it differs (none: the whole case), then # and why.\n")
		old = synthesize(old)
	}
	failures = slices.Clone(failures)
	slices.SortStableFunc(failures, func(a, b Failure) int { return strings.Compare(a.ID, b.ID) })

	type plan struct {
		used   map[string]bool // the entry's own globs that still match a path
		added  []string        // paths it takes on
		whole  bool            // it stays (or becomes) whole-case
		needed bool
	}
	plans := make([]plan, len(old.Entries))
	partial := make([]bool, len(old.Entries))
	for i, e := range old.Entries {
		plans[i].used = map[string]bool{}
		partial[i] = slices.ContainsFunc(notRun, func(id string) bool {
			ok, _ := path.Match(e.Pattern, id)
			return ok
		})
	}
	var fresh []Failure
	for _, fl := range failures {
		var idx []int
		for i, e := range old.Entries {
			if ok, _ := path.Match(e.Pattern, fl.ID); ok {
				idx = append(idx, i)
			}
		}
		// home takes what no entry names: the case's own entry, else the
		// first whole-case entry of the case.
		home := -1
		for _, i := range idx {
			if old.Entries[i].Pattern == fl.ID {
				home = i
				break
			}
		}
		if home < 0 {
			for _, i := range idx {
				if old.Entries[i].WholeCase() {
					home = i
					break
				}
			}
		}
		if !fl.pinnable() {
			if home < 0 {
				fresh = append(fresh, Failure{ID: fl.ID, Message: fl.Message})
				continue
			}
			plans[home].whole, plans[home].needed = true, true
			continue
		}
		var rest []string
		for _, p := range fl.Paths {
			found := false
			for _, i := range idx {
				e := old.Entries[i]
				if e.WholeCase() {
					continue
				}
				for _, g := range e.Paths {
					if PathMatch(g, p) {
						plans[i].used[g], plans[i].needed, found = true, true, true
						break
					}
				}
				if found {
					break
				}
			}
			if !found {
				rest = append(rest, p)
			}
		}
		if len(rest) == 0 {
			continue
		}
		if home < 0 {
			fresh = append(fresh, Failure{ID: fl.ID, Message: fl.Message, Paths: rest})
			continue
		}
		plans[home].added = append(plans[home].added, rest...)
		plans[home].needed = true
	}

	byLine := map[int]int{}
	for i, e := range old.Entries {
		byLine[e.Line] = i
	}
	for n, text := range old.lines {
		i, isEntry := byLine[n+1]
		if !isEntry {
			b.WriteString(text + "\n")
			continue
		}
		e, pl := old.Entries[i], plans[i]
		if !pl.needed && !partial[i] {
			continue // stale: it matches no failure any more
		}
		var globs []string
		if !pl.whole && !(partial[i] && e.WholeCase()) {
			for _, g := range e.Paths {
				if pl.used[g] || partial[i] {
					globs = append(globs, g)
				}
			}
			for _, g := range CollapsePaths(pl.added) {
				if !slices.Contains(globs, g) {
					globs = append(globs, g)
				}
			}
			globs = simplify(globs)
		}
		writeEntry(&b, e.Pattern, globs, e.Reason)
	}
	for _, fl := range fresh {
		writeEntry(&b, fl.ID, CollapsePaths(fl.Paths), "TODO explain: "+shorten(fl.Message))
	}
	return b.Bytes()
}

// synthesize gives a file built without text (or none) one line per entry.
func synthesize(f *File) *File {
	out := &File{}
	if f == nil {
		return out
	}
	for _, e := range f.Entries {
		var b bytes.Buffer
		writeEntry(&b, e.Pattern, e.Paths, e.Reason)
		out.lines = append(out.lines, strings.TrimSuffix(b.String(), "\n"))
		e.Line = len(out.lines)
		out.Entries = append(out.Entries, e)
	}
	return out
}

// CollapsePaths turns differing paths into path globs that match them all.
// Up to MaxPathsPerEntry paths are written as they are: an entry names the
// paths the run saw, so a later difference elsewhere is not hidden. More
// are folded so an expected-failure file stays readable: paths that differ
// only in array indices become one glob with "*" there
// (/events/3/message/x and /events/9/message/x give /events/*/message/x),
// and while more than MaxPathsPerEntry remain, the globs sharing the
// longest prefix become prefix/**. Order follows the first appearance of
// each path. Only a difference at the root itself gives "/**".
func CollapsePaths(paths []string) []string {
	var uniq []string
	for _, p := range paths {
		if !slices.Contains(uniq, p) {
			uniq = append(uniq, p)
		}
	}
	if len(uniq) <= MaxPathsPerEntry {
		out := make([]string, len(uniq))
		for i, p := range uniq {
			segs := pointerSegments(p)
			for j, sg := range segs {
				segs[j] = literalSegment(sg)
			}
			out[i] = "/" + strings.Join(segs, "/")
			if p == "" {
				out[i] = "/**" // the root: only ** matches no segment
			}
		}
		return out
	}
	// Indices.
	type group struct{ segs []string }
	var groups []*group
	byKey := map[string]*group{}
	for _, p := range uniq {
		segs := pointerSegments(p)
		for i, s := range segs {
			segs[i] = literalSegment(s)
		}
		key := make([]string, len(segs))
		for i, s := range segs {
			key[i] = s
			if isIndex(s) {
				key[i] = "*"
			}
		}
		k := strings.Join(key, "/")
		if g, ok := byKey[k]; ok {
			for i := range g.segs {
				if g.segs[i] != segs[i] {
					g.segs[i] = "*"
				}
			}
			continue
		}
		g := &group{segs: segs}
		byKey[k] = g
		groups = append(groups, g)
	}
	globs := make([][]string, len(groups))
	for i, g := range groups {
		globs[i] = g.segs
	}
	// Prefixes.
	for globs = dropSubsumed(globs); len(globs) > MaxPathsPerEntry; globs = dropSubsumed(globs) {
		bestDepth, bestKey := 0, ""
		count := map[string]int{}
		for _, g := range globs {
			n := len(g)
			if n > 0 && g[n-1] == "**" {
				n--
			}
			seen := map[string]bool{}
			for d := 1; d <= n; d++ {
				k := strings.Join(g[:d], "/")
				if seen[k] {
					continue
				}
				seen[k] = true
				count[k]++
				if count[k] >= 2 && d > bestDepth {
					bestDepth, bestKey = d, k
				}
			}
		}
		if bestDepth == 0 {
			break // every glob starts differently: nothing shared to fold
		}
		var out [][]string
		folded := false
		for _, g := range globs {
			if len(g) >= bestDepth && strings.Join(g[:bestDepth], "/") == bestKey {
				if !folded {
					folded = true
					out = append(out, append(slices.Clone(g[:bestDepth]), "**"))
				}
				continue
			}
			out = append(out, g)
		}
		globs = out
	}
	out := make([]string, len(globs))
	for i, g := range globs {
		out[i] = "/" + strings.Join(g, "/")
		if len(g) == 0 {
			out[i] = "/**" // the root: only ** matches no segment
		}
	}
	return out
}

// simplify leaves out each path glob that another one covers.
func simplify(globs []string) []string {
	segs := make([][]string, len(globs))
	for i, g := range globs {
		segs[i] = pointerSegments(g)
	}
	var out []string
	for _, g := range dropSubsumed(segs) {
		out = append(out, "/"+strings.Join(g, "/"))
	}
	return out
}

// dropSubsumed leaves out each glob that another one covers.
func dropSubsumed(globs [][]string) [][]string {
	var out [][]string
	for i, g := range globs {
		covered := false
		for j, h := range globs {
			if i != j && subsumes(h, g) && !(subsumes(g, h) && j > i) {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, g)
		}
	}
	return out
}

// subsumes tells whether every path glob b matches, a matches too. It
// knows the forms CollapsePaths makes and answers false when unsure.
func subsumes(a, b []string) bool {
	seg := func(p, s string) bool {
		if p == "*" || p == s {
			return true
		}
		ok, _ := path.Match(p, s)
		return ok && !strings.ContainsAny(s, "*?[")
	}
	if n := len(a); n > 0 && a[n-1] == "**" {
		prefix := a[:n-1]
		if slices.Contains(prefix, "**") || len(b) < len(prefix) {
			return false
		}
		for i, p := range prefix {
			if !seg(p, b[i]) {
				return false
			}
		}
		return true
	}
	if slices.Contains(a, "**") || slices.Contains(b, "**") || len(a) != len(b) {
		return false
	}
	for i := range a {
		if !seg(a[i], b[i]) {
			return false
		}
	}
	return true
}

// literalSegment is a glob segment that matches the JSON Pointer segment
// s: the glob's own metacharacters are escaped, and the characters the
// file's syntax uses (the comma between globs, white space, the # before a
// reason) become ?, which matches them too.
func literalSegment(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case strings.ContainsRune(`*?[\`, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == ',' || r == '#' || unicode.IsSpace(r):
			b.WriteByte('?')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func pointerSegments(p string) []string {
	if p == "" {
		return nil
	}
	return strings.Split(strings.TrimPrefix(p, "/"), "/")
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func writeEntry(b *bytes.Buffer, pattern string, globs []string, reason string) {
	b.WriteString(pattern)
	if len(globs) > 0 {
		b.WriteString("  " + strings.Join(globs, ","))
	}
	b.WriteString("  # " + reason + "\n")
}

func shorten(msg string) string {
	msg = printable.Line(strings.Join(strings.Fields(msg), " "))
	if len(msg) > 160 {
		cut := 160
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut-- // never split a UTF-8 character
		}
		msg = msg[:cut] + "…"
	}
	return msg
}
