package session

import (
	"errors"
	"math"
	"strings"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/stream"
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
	v, err := jsonv.ParseString(wtf8.EscapeSurrogates(line))
	if err != nil {
		var se *jsonv.SyntaxError
		if errors.As(err, &se) && strings.HasPrefix(se.Msg, "nesting deeper") {
			// JSON.parse reads far deeper than jsonv does.
			return jsonv.Value{}, outsideModel("JSON nested deeper than the reference reads, on a line of %d bytes", len(line))
		}
		return jsonv.Value{}, err
	}
	return asParsed(v)
}

// asParsed gives v the shape JSON.parse gives it (stream.JSValue). A number
// beyond a double's range would be Infinity, which JSON cannot carry.
func asParsed(v jsonv.Value) (jsonv.Value, error) {
	if lit, ok := infinite(v); ok {
		return jsonv.Value{}, outsideModel("a number beyond a double's range, %s", lit)
	}
	return stream.JSValue(v), nil
}

// infinite finds a number literal that a double reads as an infinity.
func infinite(v jsonv.Value) (string, bool) {
	switch v.Kind() {
	case jsonv.Number:
		f, _ := v.Float64()
		return v.Literal(), math.IsInf(f, 0)
	case jsonv.Array:
		for _, e := range v.Elems() {
			if lit, ok := infinite(e); ok {
				return lit, true
			}
		}
	case jsonv.Object:
		for _, m := range v.Members() {
			if lit, ok := infinite(m.Value); ok {
				return lit, true
			}
		}
	}
	return "", false
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
