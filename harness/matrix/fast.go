package matrix

import (
	"bytes"
	"strconv"
	"strings"
)

// fastLine reads the line of a case as piconform writes it, for a merge (as
// lightLine does), without encoding/json's reflection: a flat object whose
// members' values are numbers, literals, strings of printable ASCII
// without escapes and, for "rules", an array of such strings. It reports
// false, with l in any state, on anything else, and on anything Unmarshal
// could read otherwise: a member named in other letter case than the field
// or twice, a value of another type than the field's. The caller then reads
// the line with Unmarshal, alike or with an error.
func fastLine(text []byte, l *line) bool {
	s := scanner{b: text}
	s.space()
	if !s.byte('{') {
		return false
	}
	s.space()
	if s.byte('}') {
		return s.end()
	}
	var seen uint32
	for {
		s.space()
		key, ok := s.str()
		if !ok {
			return false
		}
		s.space()
		if !s.byte(':') {
			return false
		}
		s.space()
		f := lineField(key)
		switch {
		case f == -1: // a member this package does not read
			if !s.skipValue() {
				return false
			}
		case f < 0 || seen&(1<<f) != 0:
			return false
		default:
			seen |= 1 << f
			if !s.field(lineFields[f], l) {
				return false
			}
		}
		s.space()
		if s.byte('}') {
			return s.end()
		}
		if !s.byte(',') {
			return false
		}
	}
}

// lineField is the number of the field tagged key in lineFields; -1 for a
// key that is no tag, -2 for one Unmarshal matches with a tag in other
// letter case.
func lineField(key string) int {
	for i, f := range lineFields {
		if key == f {
			return i
		}
	}
	for _, f := range lineFields {
		if strings.EqualFold(key, f) {
			return -2
		}
	}
	return -1
}

// lineFields are the tags of line's fields.
var lineFields = []string{"type", "schema", "piconform", "implementation", "dialect", "profile", "started", "cases",
	"id", "kind", "rules", "outcome", "expected_failure", "message", "path", "diffs", "diffs_omitted"}

// scanner reads the restricted JSON of fastLine.
type scanner struct {
	b   []byte
	pos int
}

func (s *scanner) space() {
	for s.pos < len(s.b) && (s.b[s.pos] == ' ' || s.b[s.pos] == '\t' || s.b[s.pos] == '\n' || s.b[s.pos] == '\r') {
		s.pos++
	}
}

func (s *scanner) byte(c byte) bool {
	if s.pos < len(s.b) && s.b[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

// end reports whether only space follows.
func (s *scanner) end() bool {
	s.space()
	return s.pos == len(s.b)
}

// lit reads the literal word.
func (s *scanner) lit(word string) bool {
	if bytes.HasPrefix(s.b[s.pos:], []byte(word)) {
		s.pos += len(word)
		return true
	}
	return false
}

// str reads a string of printable ASCII without escapes.
func (s *scanner) str() (string, bool) {
	if !s.byte('"') {
		return "", false
	}
	start := s.pos
	for s.pos < len(s.b) {
		c := s.b[s.pos]
		if c == '"' {
			s.pos++
			return string(s.b[start : s.pos-1]), true
		}
		if c < 0x20 || c >= 0x80 || c == '\\' {
			return "", false
		}
		s.pos++
	}
	return "", false
}

// number reads a JSON number (RFC 8259) and returns its text.
func (s *scanner) number() ([]byte, bool) {
	start := s.pos
	s.byte('-')
	digits := func() bool {
		n := s.pos
		for s.pos < len(s.b) && s.b[s.pos] >= '0' && s.b[s.pos] <= '9' {
			s.pos++
		}
		return s.pos > n
	}
	if s.byte('0') {
		// no more digits may follow a leading zero
	} else if s.pos >= len(s.b) || s.b[s.pos] < '1' || s.b[s.pos] > '9' || !digits() {
		return nil, false
	}
	if s.byte('.') && !digits() {
		return nil, false
	}
	if s.byte('e') || s.byte('E') {
		if !s.byte('+') {
			s.byte('-')
		}
		if !digits() {
			return nil, false
		}
	}
	return s.b[start:s.pos], true
}

// skipValue reads a value of a member that is not read: a number, a
// literal or a string.
func (s *scanner) skipValue() bool {
	if s.pos >= len(s.b) {
		return false
	}
	switch s.b[s.pos] {
	case '"':
		_, ok := s.str()
		return ok
	case 't':
		return s.lit("true")
	case 'f':
		return s.lit("false")
	case 'n':
		return s.lit("null")
	}
	_, ok := s.number()
	return ok
}

// field reads the value of the member tagged tag into l.
func (s *scanner) field(tag string, l *line) bool {
	if s.lit("null") {
		return true // Unmarshal leaves the field as it is: zero
	}
	var ok bool
	switch tag {
	case "type":
		l.Type, ok = s.str()
	case "dialect":
		l.Dialect, ok = s.str()
	case "profile":
		l.Profile, ok = s.str()
	case "started":
		l.Started, ok = s.str()
	case "id":
		l.ID, ok = s.str()
	case "kind":
		l.Kind, ok = s.str()
	case "outcome":
		l.Outcome, ok = s.str()
	case "message", "path":
		_, ok = s.str() // not kept
	case "piconform":
		var v string
		v, ok = s.str()
		l.Piconform = &v
	case "schema", "cases":
		var n int
		n, ok = s.int()
		if tag == "schema" {
			l.Schema = &n
		} else {
			l.Cases = &n
		}
	case "diffs_omitted":
		l.DiffsOmitted, ok = s.int()
	case "expected_failure":
		if ok = s.lit("true"); ok {
			l.ExpectedFailure = true
		} else {
			ok = s.lit("false")
		}
	case "rules":
		if !s.byte('[') {
			return false
		}
		l.Rules = []string{}
		s.space()
		if s.byte(']') {
			return true
		}
		for {
			s.space()
			r, isStr := s.str()
			if !isStr {
				return false
			}
			l.Rules = append(l.Rules, r)
			s.space()
			if s.byte(']') {
				return true
			}
			if !s.byte(',') {
				return false
			}
		}
	}
	return ok // implementation and diffs: left to Unmarshal
}

// int reads a number that Unmarshal reads into an int.
func (s *scanner) int() (int, bool) {
	t, ok := s.number()
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(string(t), 10, strconv.IntSize)
	return int(n), err == nil
}
