package session

import (
	"errors"
	"math"
	"strings"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// ParseEntries reads a session file's text as Pi's parseSessionEntries does:
// the text is trimmed of JavaScript white space (a byte-order mark is white
// space), split at "\n", and each line that is not blank is parsed as JSON
// (a "\r" before the "\n" is JSON white space). A line that is not JSON is
// skipped. Any JSON value is an entry, the header included.
func ParseEntries(text string) ([]*Entry, error) {
	trimmed := trimJS(text)
	lead := len(text) - len(strings.TrimLeftFunc(text, isJSSpace))
	start := strings.Count(text[:lead], "\n") + 1
	if trimmed == "" {
		// "".split("\n") is [""], one blank line.
		return nil, nil
	}
	var entries []*Entry
	for i, line := range strings.Split(trimmed, "\n") {
		if trimJS(line) == "" {
			continue
		}
		v, err := parseJSON(line)
		if errors.Is(err, ErrOutsideModel) {
			return nil, err
		}
		if err != nil {
			continue // malformed: skipped
		}
		entries = append(entries, newEntry(v, start+i, len(entries)))
	}
	return entries, nil
}

// parseJSON is JSON.parse on one line: JSON's grammar, over a string that
// may hold lone surrogates, giving doubles and the last of duplicate members.
func parseJSON(line string) (jsonv.Value, error) {
	v, err := jsonv.Parse([]byte(escapeSurrogates(line)))
	if err != nil {
		var se *jsonv.SyntaxError
		if errors.As(err, &se) && strings.HasPrefix(se.Msg, "nesting deeper") {
			return jsonv.Value{}, ErrOutsideModel
		}
		return jsonv.Value{}, err
	}
	return asParsed(v)
}

// escapeSurrogates writes each lone surrogate as a \u escape. Inside a
// string the escape means the same code unit, which JSON.parse keeps; outside
// one, both forms are a syntax error.
func escapeSurrogates(s string) string {
	if !wtf8.HasSurrogate(s) {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, n := wtf8.Next(s)
		if r >= 0xD800 && r <= 0xDFFF && n == 3 {
			b.WriteString(sprintf(`\u%04x`, r))
		} else {
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	return b.String()
}

// asParsed gives v the shape JSON.parse gives it: each number the double it
// reads (written as JSON.stringify writes it back), each object's members
// once, at the place of the first, with the value of the last.
func asParsed(v jsonv.Value) (jsonv.Value, error) {
	switch v.Kind() {
	case jsonv.Number:
		f, _ := v.Float64()
		if math.IsInf(f, 0) {
			return jsonv.Value{}, errors.Join(ErrOutsideModel, errors.New("a number beyond a double's range: "+v.Literal()))
		}
		return jsonv.FloatValue(f), nil
	case jsonv.Array:
		elems := make([]jsonv.Value, len(v.Elems()))
		for i, e := range v.Elems() {
			var err error
			if elems[i], err = asParsed(e); err != nil {
				return jsonv.Value{}, err
			}
		}
		return jsonv.ArrayValue(elems...), nil
	case jsonv.Object:
		members := make([]jsonv.Member, 0, len(v.Members()))
		at := map[string]int{}
		for _, m := range v.Members() {
			mv, err := asParsed(m.Value)
			if err != nil {
				return jsonv.Value{}, err
			}
			if i, ok := at[m.Key]; ok {
				members[i].Value = mv
				continue
			}
			at[m.Key] = len(members)
			members = append(members, jsonv.Member{Key: m.Key, Value: mv})
		}
		return jsonv.ObjectValue(members...), nil
	}
	return v, nil
}

// trimJS is String.prototype.trim: it removes JavaScript's white space and
// line terminators from both ends.
func trimJS(s string) string {
	return strings.TrimFunc(s, isJSSpace)
}

func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}
