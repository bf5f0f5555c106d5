package jsonv

import (
	"io"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/piconform/piconform/reference/wtf8"
)

const hexDigits = "0123456789abcdef"

// AppendJSON appends v as compact JSON, escaping strings the way
// JSON.stringify does: lone surrogates become \udxxx escapes, everything else
// outside the control range is written as itself. An Absent value writes
// nothing; Absent members and elements are skipped the way JSON.stringify
// skips undefined (elements become null).
func (v Value) AppendJSON(dst []byte) []byte {
	return v.appendJSON(slices.Grow(dst, v.sizeHint()), "", 0, nil)
}

// AppendIndent appends v as JSON indented by two spaces a level, the layout
// of JSON.stringify(v, null, 2).
func (v Value) AppendIndent(dst []byte) []byte {
	return v.appendJSON(slices.Grow(dst, v.sizeHint()), "  ", 0, nil)
}

// WriteJSON writes the bytes AppendJSON would append to w, through a buffer
// of bounded size: a request body can go out without ever being held whole.
func (v Value) WriteJSON(w io.Writer) error {
	out := &spill{w: w}
	out.write(v.appendJSON(make([]byte, 0, spillAt+spillAt/4), "", 0, out))
	return out.err
}

// spillAt is how full WriteJSON lets its buffer get before writing it out.
const spillAt = 32 << 10

// spill is where WriteJSON's buffer goes; its first error is kept and the
// rest of the output dropped.
type spill struct {
	w   io.Writer
	err error
}

// write writes buf out and returns it emptied for reuse.
func (s *spill) write(buf []byte) []byte {
	if s.err == nil && len(buf) > 0 {
		_, s.err = s.w.Write(buf)
	}
	return buf[:0]
}

// full writes dst out when it holds enough to be worth a write; appendJSON
// asks after each element and member, so only one member's scalar text can
// take the buffer past spillAt.
func (s *spill) full(dst []byte) []byte {
	if s != nil && len(dst) >= spillAt {
		return s.write(dst)
	}
	return dst
}

// sizeHint is about the length of v's compact JSON, a little more for the
// escapes its strings may need: appending into that much room copies the
// output once instead of at every growth.
func (v Value) sizeHint() int {
	switch v.kind {
	case Null:
		return len("null")
	case Bool:
		return len("false")
	case Number:
		return len(v.Str())
	case String:
		return len(v.Str()) + len(v.Str())/16 + 2
	case Array:
		n := 2
		for _, e := range v.Elems() {
			n += e.sizeHint() + 1
		}
		return n
	case Object:
		n := 2
		for _, m := range v.Members() {
			n += len(m.Key) + 4 + m.Value.sizeHint()
		}
		return n
	}
	return 0
}

// MarshalJSON lets a Value sit inside types handled by encoding/json.
func (v Value) MarshalJSON() ([]byte, error) {
	if v.kind == Absent {
		return []byte("null"), nil
	}
	return v.AppendJSON(nil), nil
}

func newline(dst []byte, indent string, depth int) []byte {
	if indent == "" {
		return dst
	}
	dst = append(dst, '\n')
	for i := 0; i < depth; i++ {
		dst = append(dst, indent...)
	}
	return dst
}

func (v Value) appendJSON(dst []byte, indent string, depth int, out *spill) []byte {
	switch v.kind {
	case Null:
		return append(dst, "null"...)
	case Bool:
		if v.b {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case Number:
		if nonFinite(v.Str()) {
			return append(dst, "null"...)
		}
		return append(dst, v.Str()...)
	case String:
		return AppendString(dst, v.Str())
	case Array:
		if len(v.Elems()) == 0 {
			return append(dst, "[]"...)
		}
		dst = append(dst, '[')
		for i, e := range v.Elems() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = newline(dst, indent, depth+1)
			if e.kind == Absent {
				e = NullValue()
			}
			dst = out.full(e.appendJSON(dst, indent, depth+1, out))
		}
		dst = newline(dst, indent, depth)
		return append(dst, ']')
	case Object:
		dst = append(dst, '{')
		n := 0
		for _, m := range v.Members() {
			if m.Value.kind == Absent {
				continue
			}
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			dst = newline(dst, indent, depth+1)
			dst = AppendString(dst, m.Key)
			dst = append(dst, ':')
			if indent != "" {
				dst = append(dst, ' ')
			}
			dst = out.full(m.Value.appendJSON(dst, indent, depth+1, out))
		}
		if n > 0 {
			dst = newline(dst, indent, depth)
		}
		return append(dst, '}')
	}
	return dst
}

// AppendString appends s, a WTF-8 string, as a JSON string literal.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for len(s) > 0 {
		n := plainLen(s)
		dst = append(dst, s[:n]...)
		if s = s[n:]; s == "" {
			break
		}
		if c := s[0]; c < utf8.RuneSelf {
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			s = s[1:]
			continue
		}
		r, n := wtf8.Next(s)
		switch {
		case r >= 0xD800 && r <= 0xDBFF && n == 3 && isLowSurrogate(s[3:]):
			// A pair written as two surrogates is its character, as
			// wtf8.Canonical makes it.
			lo, _ := wtf8.Next(s[3:])
			dst = utf8.AppendRune(dst, utf16.DecodeRune(r, lo))
			n = 6
		case r >= 0xD800 && r <= 0xDFFF:
			dst = append(dst, '\\', 'u', hexDigits[r>>12&0xF], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
		case r == utf8.RuneError && n == 1:
			dst = append(dst, `\ufffd`...) // not WTF-8; never produced by Parse
		default:
			dst = append(dst, s[:n]...)
		}
		s = s[n:]
	}
	return append(dst, '"')
}

// isLowSurrogate reports whether s starts with a low surrogate.
func isLowSurrogate(s string) bool {
	r, _ := wtf8.Next(s)
	return r >= 0xDC00 && r <= 0xDFFF
}

// needsEscape marks the ASCII bytes JSON.stringify escapes.
var needsEscape = func() (t [utf8.RuneSelf]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// pointerEscaper escapes a JSON Pointer segment (RFC 6901).
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// Pointer builds an RFC 6901 JSON Pointer from path segments.
func Pointer(segments ...string) string {
	if len(segments) == 1 && !strings.ContainsAny(segments[0], "~/") {
		return "/" + segments[0]
	}
	var sb strings.Builder
	for _, s := range segments {
		sb.WriteByte('/')
		sb.WriteString(pointerEscaper.Replace(s))
	}
	return sb.String()
}

func canonicalString(s string) string { return wtf8.Canonical(s) }
