package transform

// JavaScript regular expressions (no flags but g) over UTF-16 code units,
// run by Go's regexp package. See RegexNormalizer for the approach.

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/piconform/piconform/reference/wtf8"
)

// surrogateBase moves surrogate code units out of the way: Go strings cannot
// hold surrogate code points, so they live in plane 16 instead.
const surrogateBase = 0x100000

func unitRune(u uint16) rune {
	if u >= 0xD800 && u <= 0xDFFF {
		return surrogateBase + rune(u)
	}
	return rune(u)
}

func runeUnit(r rune) uint16 {
	if r >= surrogateBase+0xD800 && r <= surrogateBase+0xDFFF {
		return uint16(r - surrogateBase)
	}
	return uint16(r)
}

// unitString encodes code units as the rune string the regexps run on.
func unitString(units []uint16) string {
	b := make([]byte, 0, len(units))
	for _, u := range units {
		b = utf8.AppendRune(b, unitRune(u))
	}
	return string(b)
}

// appendUnits decodes a rune string back into code units.
func appendUnits(dst []uint16, s string) []uint16 {
	for _, r := range s {
		dst = append(dst, runeUnit(r))
	}
	return dst
}

// jsRegexp is a JavaScript regular expression (flags "g" only) compiled for
// rune strings made by unitString.
type jsRegexp struct {
	// re is the translated pattern; it finds the first match of a whole string.
	re *regexp.Regexp
	// from finds the first match at or after rune 1 of a string whose rune 0
	// is only there as context for ^ and \b: \A(?s:.)(?s:.)*?(pattern).
	from *regexp.Regexp
	// groups counts the capture groups of the pattern.
	groups int
	// names maps group names to group numbers; nil when the pattern has none,
	// which changes what $< means in a replacement.
	names map[string]int
}

func compileJS(pattern string) (*jsRegexp, error) {
	t := &translator{units: wtf8.ToUTF16(pattern)}
	goPattern, err := t.translate()
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression /%s/: %w", pattern, err)
	}
	re, err := regexp.Compile(goPattern)
	if err != nil {
		return nil, fmt.Errorf("regular expression /%s/ is not supported: %w", pattern, err)
	}
	if tree, err := syntax.Parse(goPattern, syntax.Perl); err == nil && emptyLoop(tree) {
		return nil, fmt.Errorf("regular expression /%s/ is not supported: a repeated group that can match empty before it can match text", pattern)
	}
	from, err := regexp.Compile(`\A(?s:.)(?s:.)*?(` + goPattern + `)`)
	if err != nil {
		return nil, fmt.Errorf("regular expression /%s/ is not supported: %w", pattern, err)
	}
	return &jsRegexp{re: re, from: from, groups: t.groups, names: t.names}, nil
}

// find returns the first match starting at byte pos of s or later, as
// FindStringSubmatchIndex does, judging ^ and \b with the text before pos in
// view (the way JavaScript's exec does from lastIndex).
func (r *jsRegexp) find(s string, pos int) []int {
	if pos == 0 {
		return r.re.FindStringSubmatchIndex(s)
	}
	_, w := utf8.DecodeLastRuneInString(s[:pos])
	base := pos - w
	loc := r.from.FindStringSubmatchIndex(s[base:])
	if loc == nil {
		return nil
	}
	loc = loc[2:]
	for i := range loc {
		if loc[i] >= 0 {
			loc[i] += base
		}
	}
	return loc
}

// replaceAll is String.prototype.replace with a global regular expression and
// a replacement string.
func (r *jsRegexp) replaceAll(units, template []uint16) []uint16 {
	s := unitString(units)
	var matches [][]int
	for pos := 0; pos <= len(s); {
		loc := r.find(s, pos)
		if loc == nil {
			break
		}
		matches = append(matches, loc)
		pos = loc[1]
		if loc[0] == loc[1] {
			// An empty match moves lastIndex on by one code unit, which is one rune here.
			if pos == len(s) {
				break
			}
			_, w := utf8.DecodeRuneInString(s[pos:])
			pos += w
		}
	}
	if matches == nil {
		return units
	}
	out := make([]uint16, 0, len(units))
	next := 0
	for _, loc := range matches {
		if loc[0] < next {
			continue
		}
		out = appendUnits(out, s[next:loc[0]])
		out = r.substitute(out, s, loc, template)
		next = loc[1]
	}
	return appendUnits(out, s[next:])
}

// substitute appends the replacement for one match, expanding the $
// patterns of template as ECMAScript's GetSubstitution does.
func (r *jsRegexp) substitute(dst []uint16, s string, loc []int, template []uint16) []uint16 {
	group := func(dst []uint16, n int) []uint16 {
		if loc[2*n] < 0 {
			return dst // a group that did not take part is undefined: ""
		}
		return appendUnits(dst, s[loc[2*n]:loc[2*n+1]])
	}
	isDigit := func(i int) bool { return i < len(template) && template[i] >= '0' && template[i] <= '9' }
	for i := 0; i < len(template); {
		c := template[i]
		if c != '$' || i+1 >= len(template) {
			dst = append(dst, c)
			i++
			continue
		}
		switch d := template[i+1]; {
		case d == '$':
			dst = append(dst, '$')
			i += 2
		case d == '&':
			dst = group(dst, 0)
			i += 2
		case d == '`':
			dst = appendUnits(dst, s[:loc[0]])
			i += 2
		case d == '\'':
			dst = appendUnits(dst, s[loc[1]:])
			i += 2
		case isDigit(i + 1):
			digits := 1
			index := int(d - '0')
			if isDigit(i + 2) {
				two := index*10 + int(template[i+2]-'0')
				if two <= r.groups {
					digits, index = 2, two
				}
			}
			if index >= 1 && index <= r.groups {
				dst = group(dst, index)
			} else {
				dst = append(dst, template[i:i+1+digits]...)
			}
			i += 1 + digits
		case d == '<' && r.names != nil:
			end := -1
			for j := i + 2; j < len(template); j++ {
				if template[j] == '>' {
					end = j
					break
				}
			}
			if end < 0 {
				dst = append(dst, '$', '<')
				i += 2
				continue
			}
			if n, ok := r.names[wtf8.FromUTF16(template[i+2:end])]; ok {
				dst = group(dst, n)
			}
			i = end + 1
		default:
			dst = append(dst, '$')
			i++
		}
	}
	return dst
}

// translator turns a JavaScript pattern (no flags but g, so Annex B syntax
// and no u) into a Go pattern over the runes of unitString. Every literal is
// written as \x{…} of its rune, so no character means anything unintended to
// Go.
type translator struct {
	units  []uint16
	i      int
	out    strings.Builder
	groups int
	names  map[string]int
	// total is the number of capture groups in the whole pattern, which
	// decides whether \N is a backreference.
	total    int
	hasNames bool
}

var errUnsupported = errors.New("not supported")

// jsSpaceRanges is the set \s matches in JavaScript: WhiteSpace and
// LineTerminator, as inclusive ranges.
var jsSpaceRanges = [][2]rune{
	{0x09, 0x0D}, {0x20, 0x20}, {0xA0, 0xA0}, {0x1680, 0x1680}, {0x2000, 0x200A},
	{0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}, {0xFEFF, 0xFEFF},
}

func rangeText(lo, hi rune) string {
	if lo == hi {
		return fmt.Sprintf(`\x{%X}`, lo)
	}
	return fmt.Sprintf(`\x{%X}-\x{%X}`, lo, hi)
}

// spaceItems is \s as the inside of a Go class; notSpaceItems is \S.
var spaceItems, notSpaceItems = func() (string, string) {
	var in, out strings.Builder
	next := rune(0)
	for _, r := range jsSpaceRanges {
		in.WriteString(rangeText(r[0], r[1]))
		if r[0] > next {
			out.WriteString(rangeText(next, r[0]-1))
		}
		next = r[1] + 1
	}
	out.WriteString(rangeText(next, utf8.MaxRune))
	return in.String(), out.String()
}()

func (t *translator) peek(k int) (uint16, bool) {
	if t.i+k < len(t.units) {
		return t.units[t.i+k], true
	}
	return 0, false
}

func (t *translator) is(k int, c byte) bool {
	u, ok := t.peek(k)
	return ok && u == uint16(c)
}

func isOctal(u uint16, ok bool) bool { return ok && u >= '0' && u <= '7' }

func isHex(u uint16) bool {
	return u >= '0' && u <= '9' || u >= 'a' && u <= 'f' || u >= 'A' && u <= 'F'
}

func hexValue(u uint16) uint16 {
	switch {
	case u >= 'a':
		return u - 'a' + 10
	case u >= 'A':
		return u - 'A' + 10
	}
	return u - '0'
}

func isASCIILetter(u uint16) bool { return u >= 'a' && u <= 'z' || u >= 'A' && u <= 'Z' }

func (t *translator) literal(u uint16) {
	fmt.Fprintf(&t.out, `\x{%X}`, unitRune(u))
}

// countGroups finds how many capture groups the pattern has and whether any
// is named, before translating: a backreference may come before its group.
func (t *translator) countGroups() {
	inClass := false
	for i := 0; i < len(t.units); i++ {
		switch u := t.units[i]; {
		case u == '\\':
			i++
		case inClass:
			inClass = u != ']'
		case u == '[':
			inClass = true
		case u == '(':
			rest := t.units[i+1:]
			if len(rest) == 0 || rest[0] != '?' {
				t.total++
			} else if len(rest) >= 3 && rest[1] == '<' && rest[2] != '=' && rest[2] != '!' {
				t.total++
				t.hasNames = true
			}
		}
	}
}

func (t *translator) translate() (string, error) {
	t.countGroups()
	for t.i < len(t.units) {
		u := t.units[t.i]
		switch u {
		case '\\':
			if err := t.escape(); err != nil {
				return "", err
			}
			continue
		case '.':
			t.out.WriteString(`[^\x{A}\x{D}\x{2028}\x{2029}]`)
		case '(':
			if err := t.group(); err != nil {
				return "", err
			}
			continue
		case ')', '|', '^', '$', '*', '+', '?':
			t.out.WriteByte(byte(u))
		case '{':
			if q, ok := t.quantifier(); ok {
				t.out.WriteString(q)
				continue
			}
			t.literal(u)
		case '[':
			if err := t.class(); err != nil {
				return "", err
			}
			continue
		default:
			t.literal(u)
		}
		t.i++
	}
	return t.out.String(), nil
}

// quantifier reads {n}, {n,} or {n,m} at t.i. Anything else leaves a
// literal brace, as Annex B allows.
func (t *translator) quantifier() (string, bool) {
	j := t.i + 1
	digits := func() bool {
		start := j
		for j < len(t.units) && t.units[j] >= '0' && t.units[j] <= '9' {
			j++
		}
		return j > start
	}
	if !digits() {
		return "", false
	}
	if j < len(t.units) && t.units[j] == ',' {
		j++
		digits()
	}
	if j >= len(t.units) || t.units[j] != '}' {
		return "", false
	}
	j++
	q := string(utf16Bytes(t.units[t.i:j]))
	t.i = j
	return q, true
}

func utf16Bytes(units []uint16) []byte {
	b := make([]byte, len(units))
	for i, u := range units {
		b[i] = byte(u) // only ASCII digits, commas and braces get here
	}
	return b
}

func (t *translator) group() error {
	if !t.is(1, '?') {
		t.groups++
		t.out.WriteByte('(')
		t.i++
		return nil
	}
	switch {
	case t.is(2, ':'):
		t.out.WriteString("(?:")
		t.i += 3
		return nil
	case t.is(2, '=') || t.is(2, '!'):
		return fmt.Errorf("lookahead is %w", errUnsupported)
	case t.is(2, '<') && (t.is(3, '=') || t.is(3, '!')):
		return fmt.Errorf("lookbehind is %w", errUnsupported)
	case t.is(2, '<'):
		start := t.i + 3
		end := start
		for end < len(t.units) && t.units[end] != '>' {
			end++
		}
		if end >= len(t.units) || end == start {
			return errors.New("invalid capture group name")
		}
		name := wtf8.FromUTF16(t.units[start:end])
		if !validGroupName(name) {
			return fmt.Errorf("invalid capture group name %q", name)
		}
		if t.names == nil {
			t.names = map[string]int{}
		}
		if _, dup := t.names[name]; dup {
			return fmt.Errorf("duplicate capture group name %q", name)
		}
		t.groups++
		t.names[name] = t.groups
		t.out.WriteByte('(')
		t.i = end + 1
		return nil
	}
	return errors.New("invalid group")
}

// validGroupName accepts JavaScript identifier names made of letters, digits
// (not first), _ and $; Unicode escapes in names are not handled.
func validGroupName(name string) bool {
	for i, r := range name {
		switch {
		case r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9' && i > 0:
		case r >= 0x80 && r != utf8.RuneError:
		default:
			return false
		}
	}
	return true
}

// characterEscape reads the escapes that stand for one code unit and are
// spelled the same inside and outside a class. It reports false when the
// escape at t.i is not one of them.
func (t *translator) characterEscape(c uint16) (uint16, bool) {
	switch c {
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'v':
		return '\v', true
	case 'f':
		return '\f', true
	case 'x':
		a, ok1 := t.peek(2)
		b, ok2 := t.peek(3)
		if ok1 && ok2 && isHex(a) && isHex(b) {
			t.i += 2
			return hexValue(a)<<4 | hexValue(b), true
		}
		return 'x', true
	case 'u':
		var v uint16
		for k := 2; k < 6; k++ {
			h, ok := t.peek(k)
			if !ok || !isHex(h) {
				return 'u', true
			}
			v = v<<4 | hexValue(h)
		}
		t.i += 4
		return v, true
	}
	return 0, false
}

// octal reads a legacy octal escape whose first digit is at t.i+1. Like
// characterEscape it leaves t.i so that moving on by two passes the escape.
func (t *translator) octal() uint16 {
	d0, _ := t.peek(1)
	v := d0 - '0'
	n := 1
	if d1, ok := t.peek(2); isOctal(d1, ok) {
		v = v*8 + d1 - '0'
		n = 2
		if d2, ok := t.peek(3); d0 <= '3' && isOctal(d2, ok) {
			v = v*8 + d2 - '0'
			n = 3
		}
	}
	t.i += n - 1
	return v
}

// escape translates the escape at t.i, outside a class, and moves past it.
func (t *translator) escape() error {
	c, ok := t.peek(1)
	if !ok {
		return errors.New(`\ at end of pattern`)
	}
	switch {
	case c == 'd' || c == 'D' || c == 'w' || c == 'W' || c == 'b' || c == 'B':
		t.out.WriteByte('\\')
		t.out.WriteByte(byte(c))
	case c == 's':
		t.out.WriteString("[" + spaceItems + "]")
	case c == 'S':
		t.out.WriteString("[^" + spaceItems + "]")
	case c == 'c':
		if l, ok := t.peek(2); ok && isASCIILetter(l) {
			t.literal(l % 32)
			t.i += 3
			return nil
		}
		// No control letter: the backslash is itself, and c is read next.
		t.literal('\\')
		t.i++
		return nil
	case c == 'k' && t.hasNames:
		return fmt.Errorf("backreferences are %w", errUnsupported)
	case c >= '1' && c <= '9':
		j := t.i + 1
		n := 0
		for j < len(t.units) && t.units[j] >= '0' && t.units[j] <= '9' && n <= t.total {
			n = n*10 + int(t.units[j]-'0')
			j++
		}
		if n <= t.total {
			return fmt.Errorf("backreferences are %w", errUnsupported)
		}
		if c >= '8' {
			t.literal(c)
			break
		}
		t.literal(t.octal())
	case c == '0':
		t.literal(t.octal())
	default:
		if v, ok := t.characterEscape(c); ok {
			t.literal(v)
			break
		}
		t.literal(c) // identity escape
	}
	t.i += 2
	return nil
}

// classAtom is one member of a class: a single code unit, or a set
// written as the inside of a Go class.
type classAtom struct {
	unit uint16
	set  string
}

func (t *translator) classAtom() (classAtom, error) {
	u := t.units[t.i]
	if u != '\\' {
		t.i++
		return classAtom{unit: u}, nil
	}
	c, ok := t.peek(1)
	if !ok {
		return classAtom{}, errors.New(`\ at end of pattern`)
	}
	var a classAtom
	switch {
	case c == 'd' || c == 'D' || c == 'w' || c == 'W':
		a.set = `\` + string(rune(c))
	case c == 's':
		a.set = spaceItems
	case c == 'S':
		a.set = notSpaceItems
	case c == 'b':
		a.unit = '\b'
	case c == 'c':
		if l, ok := t.peek(2); ok && (isASCIILetter(l) || l >= '0' && l <= '9' || l == '_') {
			t.i += 3
			return classAtom{unit: l % 32}, nil
		}
		t.i++
		return classAtom{unit: '\\'}, nil
	case c == 'k' && t.hasNames:
		return classAtom{}, fmt.Errorf("backreferences are %w", errUnsupported)
	case c >= '0' && c <= '7':
		a.unit = t.octal()
	default:
		if v, ok := t.characterEscape(c); ok {
			a.unit = v
		} else {
			a.unit = c
		}
	}
	t.i += 2
	return a, nil
}

// class translates a bracket expression starting at t.i.
func (t *translator) class() error {
	t.i++
	negate := t.is(0, '^')
	if negate {
		t.i++
	}
	var items strings.Builder
	empty := true
	add := func(a classAtom) {
		empty = false
		if a.set != "" {
			items.WriteString(a.set)
		} else {
			items.WriteString(rangeText(unitRune(a.unit), unitRune(a.unit)))
		}
	}
	for {
		if t.i >= len(t.units) {
			return errors.New("unterminated character class")
		}
		if t.units[t.i] == ']' {
			t.i++
			break
		}
		a, err := t.classAtom()
		if err != nil {
			return err
		}
		if !t.is(0, '-') || !(t.i+1 < len(t.units)) || t.is(1, ']') {
			add(a)
			continue
		}
		t.i++ // the dash
		b, err := t.classAtom()
		if err != nil {
			return err
		}
		if a.set != "" || b.set != "" {
			// Annex B: a range with a class escape at either end is three members.
			add(a)
			add(classAtom{unit: '-'})
			add(b)
			continue
		}
		if a.unit > b.unit {
			return errors.New("range out of order in character class")
		}
		empty = false
		items.WriteString(unitRange(a.unit, b.unit))
	}
	switch {
	case empty && negate:
		t.out.WriteString(`[\x{0}-\x{10FFFF}]`)
	case empty:
		t.out.WriteString(`[^\x{0}-\x{10FFFF}]`)
	case negate:
		t.out.WriteString("[^" + items.String() + "]")
	default:
		t.out.WriteString("[" + items.String() + "]")
	}
	return nil
}

// unitRange writes the code units lo..hi as Go class ranges, moving the part
// inside the surrogate block to its private-use runes.
func unitRange(lo, hi uint16) string {
	var b strings.Builder
	if lo < 0xD800 {
		b.WriteString(rangeText(rune(lo), rune(min(hi, 0xD7FF))))
	}
	if lo <= 0xDFFF && hi >= 0xD800 {
		b.WriteString(rangeText(unitRune(max(lo, 0xD800)), unitRune(min(hi, 0xDFFF))))
	}
	if hi > 0xDFFF {
		b.WriteString(rangeText(rune(max(lo, 0xE000)), rune(hi)))
	}
	return b.String()
}

// paths summarizes the ways a regexp can match, in the order a backtracking
// matcher tries them: whether some way is empty, more than one is, some way
// is not, and whether an empty way comes before a non-empty one
// (over-approximated).
type paths struct{ empty, emptyTwice, text, emptyFirst bool }

// emptyLoop reports whether a repetition in re can take an extra iteration
// whose preferred way is empty while a later way matches text, such as
// (?:|b)+ or (?:a*|b)*. JavaScript rejects an empty iteration beyond the
// minimum and goes on to the next way, so /(?:|b)+/ matches "b"; Go's regexp
// takes the empty way and leaves the loop, matching "". Such patterns are
// refused rather than run with the wrong result.
func emptyLoop(re *syntax.Regexp) bool {
	bad := false
	var walk func(re *syntax.Regexp) paths
	walk = func(re *syntax.Regexp) paths {
		subs := make([]paths, len(re.Sub))
		for i, s := range re.Sub {
			subs[i] = walk(s)
		}
		lazy := re.Flags&syntax.NonGreedy != 0
		switch re.Op {
		case syntax.OpNoMatch:
			return paths{}
		case syntax.OpLiteral, syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			if re.Op == syntax.OpCharClass && len(re.Rune) == 0 {
				return paths{}
			}
			return paths{text: true}
		case syntax.OpCapture:
			return subs[0]
		case syntax.OpConcat:
			p := paths{empty: true}
			for _, q := range subs {
				p = paths{
					empty:      p.empty && q.empty,
					emptyTwice: p.empty && q.empty && (p.emptyTwice || q.emptyTwice),
					text:       (p.text && (q.empty || q.text)) || (p.empty && q.text),
					emptyFirst: (p.emptyFirst && (q.empty || q.text)) || (p.empty && q.emptyFirst) || (p.emptyTwice && q.empty && q.text),
				}
			}
			return p
		case syntax.OpAlternate:
			var p paths
			for _, q := range subs {
				p.emptyFirst = p.emptyFirst || q.emptyFirst || (p.empty && q.text)
				p.emptyTwice = p.emptyTwice || q.emptyTwice || (p.empty && q.empty)
				p.empty = p.empty || q.empty
				p.text = p.text || q.text
			}
			return p
		case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
			min, max := 0, -1
			switch re.Op {
			case syntax.OpPlus:
				min = 1
			case syntax.OpQuest:
				max = 1
			case syntax.OpRepeat:
				min, max = re.Min, re.Max
			}
			q := subs[0]
			if (max < 0 || max > min) && q.emptyFirst {
				bad = true
			}
			p := paths{empty: min == 0 || q.empty, emptyTwice: min > 0 && q.emptyTwice, text: q.text && max != 0}
			// Extra iterations never match empty, so a greedy loop tries its
			// empty way last; a lazy one tries it first.
			p.emptyFirst = (min > 0 && q.emptyFirst) || (min > 0 && q.emptyTwice && q.text) || (lazy && p.empty && p.text)
			return p
		}
		return paths{empty: true} // empty match, anchors and word boundaries
	}
	walk(re)
	return bad
}
