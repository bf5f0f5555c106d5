package jsonv

import (
	"strings"
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
	return v.appendJSON(dst, "", 0)
}

// AppendIndent appends v as JSON indented by two spaces a level, the layout
// of JSON.stringify(v, null, 2).
func (v Value) AppendIndent(dst []byte) []byte {
	return v.appendJSON(dst, "  ", 0)
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

func (v Value) appendJSON(dst []byte, indent string, depth int) []byte {
	switch v.kind {
	case Null:
		return append(dst, "null"...)
	case Bool:
		if v.b {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case Number:
		return append(dst, v.s...)
	case String:
		return AppendString(dst, v.s)
	case Array:
		if len(v.arr) == 0 {
			return append(dst, "[]"...)
		}
		dst = append(dst, '[')
		for i, e := range v.arr {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = newline(dst, indent, depth+1)
			if e.kind == Absent {
				e = NullValue()
			}
			dst = e.appendJSON(dst, indent, depth+1)
		}
		dst = newline(dst, indent, depth)
		return append(dst, ']')
	case Object:
		dst = append(dst, '{')
		n := 0
		for _, m := range v.obj {
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
			dst = m.Value.appendJSON(dst, indent, depth+1)
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
	s = wtf8.Canonical(s)
	dst = append(dst, '"')
	for len(s) > 0 {
		c := s[0]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c == '\b':
				dst = append(dst, '\\', 'b')
			case c == '\f':
				dst = append(dst, '\\', 'f')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			default:
				dst = append(dst, c)
			}
			s = s[1:]
			continue
		}
		r, n := wtf8.Next(s)
		switch {
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

// Pointer builds an RFC 6901 JSON Pointer from path segments.
func Pointer(segments ...string) string {
	var sb strings.Builder
	for _, s := range segments {
		sb.WriteByte('/')
		sb.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(s))
	}
	return sb.String()
}

func canonicalString(s string) string { return wtf8.Canonical(s) }
