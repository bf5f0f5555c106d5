package jsonv

import (
	"io"
	"math/bits"
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
//
// Its plain text (see plainLen) is read and written a word at a time:
// each word of s is stored whole at the end of dst, which is kept with room
// to spare, and dst then grows by the bytes of it that need no escape. A
// text is copied as it is scanned, never by a call per run between escapes.
func AppendString(dst []byte, s string) []byte {
	if len(s) < 8 {
		return appendShortString(dst, s)
	}
	dst = roomFor(append(dst, '"'), len(s))
	i := 0
	for i < len(s) {
		// The next word, or the last eight bytes moved down over the
		// ones already written: k bytes of it are s's. A stop byte is
		// found in x itself, whose bytes above the k (zeros, flagged as
		// control characters) come after every byte of s in it.
		var x uint64
		k := 8
		if len(s)-i >= 8 {
			x = load64(s[i:])
		} else {
			k = len(s) - i
			x = load64(s[len(s)-8:]) >> (8 * (8 - k))
		}
		j := len(dst)
		store64(dst[j:j+8], x)
		z := bits.TrailingZeros64(stops(x)) >> 3 // 8 for none
		if z >= k {
			dst, i = dst[:j+k], i+k
			continue
		}
		dst, i = dst[:j+z], i+z
		// s[i] stops the plain text: an ASCII byte to escape, or the
		// first byte of a multi-byte character. A well-formed one that
		// the word holds whole is written already; the others are
		// written or escaped as they are (appendRune), and an escape may
		// not fit in the room kept.
		if c := s[i]; c < utf8.RuneSelf {
			dst, i = appendEscape(dst, c), i+1
		} else if n := utf8Len(s[i:]); n > 0 && z+n <= k {
			dst, i = dst[:j+z+n], i+n
			continue
		} else {
			dst, n = appendRune(dst, s[i:])
			i += n
		}
		dst = roomFor(dst, len(s)-i)
	}
	return append(dst, '"')
}

// appendShortString is AppendString for a string too short for a word.
func appendShortString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if needsEscape[c] {
				dst = appendEscape(dst, c)
			} else {
				dst = append(dst, c)
			}
			i++
			continue
		}
		var n int
		dst, n = appendRune(dst, s[i:])
		i += n
	}
	return append(dst, '"')
}

// roomFor makes sure dst has room for n more bytes of plain text, a word
// stored past them, and the closing quote.
func roomFor(dst []byte, n int) []byte {
	if cap(dst)-len(dst) < n+9 {
		dst = slices.Grow(dst, n+9)
	}
	return dst
}

// stops has the high bit set of each byte of x that ends a run of plain
// text (see plainLen), exactly up to and including the first; the lowest
// one set is the first such byte.
func stops(x uint64) uint64 {
	return (x | (x - 0x20*ones) | ((x ^ '"'*ones) - ones) | ((x ^ '\\'*ones) - ones)) & highs
}

// load64 reads the first eight bytes of s as a little-endian word; the
// compiler makes it one load.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// store64 writes x to the first eight bytes of b, little-endian; one
// store.
func store64(b []byte, x uint64) {
	_ = b[7]
	b[0], b[1], b[2], b[3] = byte(x), byte(x>>8), byte(x>>16), byte(x>>24)
	b[4], b[5], b[6], b[7] = byte(x>>32), byte(x>>40), byte(x>>48), byte(x>>56)
}

// appendEscape appends the ASCII byte c as JSON.stringify writes it in a
// string: itself, or its escape.
func appendEscape(dst []byte, c byte) []byte {
	switch e := shortEscape[c]; {
	case e != 0:
		return append(dst, '\\', e)
	case c < 0x20:
		return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
	}
	return append(dst, c)
}

// shortEscape is the letter of each ASCII byte's two-character escape
// (\n, \", …), 0 for the others.
var shortEscape = [utf8.RuneSelf]byte{'"': '"', '\\': '\\', '\n': 'n', '\r': 'r', '\t': 't', '\b': 'b', '\f': 'f'}

// appendRune appends the character at the start of s, which is not ASCII,
// as JSON.stringify writes it, and says how many bytes of s it took: a
// well-formed character as itself, a pair of surrogates written as two
// (not canonical WTF-8) as the character they make, a lone surrogate as
// its \u escape, and a byte that is not WTF-8 as \ufffd.
func appendRune(dst []byte, s string) ([]byte, int) {
	if n := utf8Len(s); n > 0 {
		return append(dst, s[:n]...), n
	}
	r, n := wtf8.Next(s)
	switch {
	case r >= 0xD800 && r <= 0xDBFF && n == 3 && isLowSurrogate(s[3:]):
		// A pair written as two surrogates is its character, as
		// wtf8.Canonical makes it.
		lo, _ := wtf8.Next(s[3:])
		return utf8.AppendRune(dst, utf16.DecodeRune(r, lo)), 6
	case r >= 0xD800 && r <= 0xDFFF:
		return append(dst, '\\', 'u', hexDigits[r>>12&0xF], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF]), n
	case r == utf8.RuneError && n == 1:
		return append(dst, `\ufffd`...), 1 // not WTF-8; never produced by Parse
	}
	return append(dst, s[:n]...), n
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
