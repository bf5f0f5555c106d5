// Package wtf8 lets Go strings carry JavaScript text exactly.
//
// A JavaScript string is a sequence of UTF-16 code units and may hold a lone
// surrogate, which UTF-8 cannot encode. Go strings are bytes, so this package
// stores such text as WTF-8: UTF-8 plus the three-byte form of a surrogate
// code point (ED A0..BF 80..BF) for a surrogate that has no partner. A string
// built from valid UTF-8 is already valid WTF-8, so ordinary Go strings need
// no conversion.
//
// Canonical WTF-8 never holds a high surrogate directly followed by a low one:
// that pair is the four-byte UTF-8 encoding of one character. Concatenating
// two WTF-8 strings can break this, which is why [Concat] exists.
package wtf8

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// surrogate decodes the three-byte WTF-8 form of a surrogate code point at the
// start of s. It reports false when s does not start with one.
func surrogate(s string) (rune, bool) {
	if len(s) < 3 || s[0] != 0xED || s[1] < 0xA0 || s[1] > 0xBF || s[2] < 0x80 || s[2] > 0xBF {
		return 0, false
	}
	return rune(s[0]&0x0F)<<12 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), true
}

func isHigh(r rune) bool { return r >= 0xD800 && r <= 0xDBFF }
func isLow(r rune) bool  { return r >= 0xDC00 && r <= 0xDFFF }

// AppendRune appends the WTF-8 encoding of r, which may be a surrogate code point.
func AppendRune(dst []byte, r rune) []byte {
	if r >= 0xD800 && r <= 0xDFFF {
		return append(dst, 0xED, byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
	}
	return utf8.AppendRune(dst, r)
}

// Next decodes the first code point of s. A surrogate code point is returned as
// itself; bytes that are neither UTF-8 nor WTF-8 come back as utf8.RuneError
// with size 1.
func Next(s string) (r rune, size int) {
	if r, ok := surrogate(s); ok {
		return r, 3
	}
	return utf8.DecodeRuneInString(s)
}

// Valid reports whether s is well-formed WTF-8 (canonical or not).
func Valid(s string) bool {
	for len(s) > 0 {
		r, n := Next(s)
		if r == utf8.RuneError && n == 1 {
			return false
		}
		s = s[n:]
	}
	return true
}

// HasSurrogate reports whether s holds any surrogate code point.
func HasSurrogate(s string) bool {
	for {
		i := strings.IndexByte(s, 0xED) // the first byte of every surrogate
		if i < 0 {
			return false
		}
		if _, ok := surrogate(s[i:]); ok {
			return true
		}
		s = s[i+1:]
	}
}

// Canonical joins every high surrogate directly followed by a low surrogate
// into the character they encode.
func Canonical(s string) string {
	if !HasSurrogate(s) {
		return s
	}
	var b []byte
	for len(s) > 0 {
		r, n := Next(s)
		if isHigh(r) && n == 3 {
			if lo, ok := surrogate(s[3:]); ok && isLow(lo) {
				b = utf8.AppendRune(b, utf16.DecodeRune(r, lo))
				s = s[6:]
				continue
			}
		}
		b = append(b, s[:n]...)
		s = s[n:]
	}
	return string(b)
}

// Concat joins WTF-8 strings the way JavaScript's + joins strings.
func Concat(parts ...string) string {
	return Canonical(strings.Join(parts, ""))
}

// ToUTF16 returns the UTF-16 code units of s, as JavaScript sees them.
func ToUTF16(s string) []uint16 {
	units := make([]uint16, 0, len(s))
	for len(s) > 0 {
		r, n := Next(s)
		s = s[n:]
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			units = append(units, uint16(hi), uint16(lo))
			continue
		}
		units = append(units, uint16(r))
	}
	return units
}

// FromUTF16 turns UTF-16 code units into canonical WTF-8, keeping lone surrogates.
func FromUTF16(units []uint16) string {
	b := make([]byte, 0, len(units))
	for i := 0; i < len(units); i++ {
		r := rune(units[i])
		if isHigh(r) && i+1 < len(units) && isLow(rune(units[i+1])) {
			b = utf8.AppendRune(b, utf16.DecodeRune(r, rune(units[i+1])))
			i++
			continue
		}
		b = AppendRune(b, r)
	}
	return string(b)
}

// Len returns the length of s in UTF-16 code units (JavaScript's length).
func Len(s string) int { return len(ToUTF16(s)) }

// Slice returns JavaScript's s.slice(0, n): the first n UTF-16 code units.
// Cutting inside a pair leaves a lone high surrogate, as in JavaScript, and a
// negative n counts from the end.
func Slice(s string, n int) string {
	units := ToUTF16(s)
	if n < 0 {
		n = max(len(units)+n, 0)
	}
	if n >= len(units) {
		return s
	}
	return FromUTF16(units[:n])
}

// Prefix returns the first n code points of s, as JavaScript's
// Array.from(s).slice(0, n).join("") does: a lone surrogate counts as one.
func Prefix(s string, n int) string {
	for i, k := 0, 0; i < len(s); k++ {
		if k == n {
			return s[:i]
		}
		_, size := Next(s[i:])
		i += size
	}
	return s
}

// RemoveLoneSurrogates drops every surrogate code point that is not half of a
// pair. Characters are removed, never replaced.
func RemoveLoneSurrogates(s string) string {
	s = Canonical(s)
	if !HasSurrogate(s) {
		return s
	}
	var b []byte
	for len(s) > 0 {
		_, n := Next(s)
		if _, ok := surrogate(s); !ok {
			b = append(b, s[:n]...)
		}
		s = s[n:]
	}
	return string(b)
}
