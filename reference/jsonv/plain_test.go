package jsonv

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/piconform/piconform/reference/wtf8"
)

// plainLenSlow is plainLen a character at a time.
func plainLenSlow(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(s)
}

// TestPlainLen: the word-at-a-time scan stops where a character-by-
// character one does, for every byte, and every multi-byte character,
// well-formed or not, at every offset of a run longer than a word.
func TestPlainLen(t *testing.T) {
	base := "abcdefghijklmnopqrstuvwx !#[]~\x7f"
	var inserts []string
	for c := 0; c < 256; c++ {
		inserts = append(inserts, string([]byte{byte(c)}))
	}
	inserts = append(inserts, "é", "→", "😀", "\u07ff", "\u0800", "\uffff", "\U00010000", "\U0010ffff",
		"\xed\x9f\xbf", "\xed\xa0\x80", "\xed\xbf\xbf", "\xee\x80\x80", "\xe0\x9f\xbf", "\xe0\xa0\x80",
		"\xf0\x8f\xbf\xbf", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80",
		"\xc1\xbf", "\xc2\x80", "\xc2\xc0", "\xe2\x86", "\xf0\x9f\x98", "é→😀é")
	for _, in := range inserts {
		for at := 0; at <= len(base); at++ {
			for _, cut := range []int{0, 1, 2} {
				s := base[:at] + in + base[at:]
				s = s[:len(s)-min(cut, len(s))]
				if got, want := plainLen(s), plainLenSlow(s); got != want {
					t.Fatalf("plainLen(%q) = %d, want %d", s, got, want)
				}
			}
		}
	}
}

// FuzzPlainLen: plainLen agrees with a character-by-character scan.
func FuzzPlainLen(f *testing.F) {
	for _, s := range []string{"", "plain ascii text here", "é→😀 and more", "a\"b", "\xed\xa0\x80 lone", "x\xf0\x9f\x98"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := plainLen(s), plainLenSlow(s); got != want {
			t.Fatalf("plainLen(%q) = %d, want %d", s, got, want)
		}
	})
}

// appendStringSlow is AppendString a character at a time, as JSON.stringify
// writes a string: the reference the word-at-a-time writer is held to.
func appendStringSlow(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for len(s) > 0 {
		if c := s[0]; c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, `\n`...)
			case c == '\r':
				dst = append(dst, `\r`...)
			case c == '\t':
				dst = append(dst, `\t`...)
			case c == '\b':
				dst = append(dst, `\b`...)
			case c == '\f':
				dst = append(dst, `\f`...)
			case c < 0x20:
				dst = fmt.Appendf(dst, `\u%04x`, c)
			default:
				dst = append(dst, c)
			}
			s = s[1:]
			continue
		}
		r, n := wtf8.Next(s)
		switch {
		case r >= 0xD800 && r <= 0xDBFF && n == 3 && len(s) >= 6:
			if lo, m := wtf8.Next(s[3:]); m == 3 && lo >= 0xDC00 && lo <= 0xDFFF {
				dst, n = utf8.AppendRune(dst, utf16.DecodeRune(r, lo)), 6
				break
			}
			dst = fmt.Appendf(dst, `\u%04x`, r)
		case r >= 0xD800 && r <= 0xDFFF:
			dst = fmt.Appendf(dst, `\u%04x`, r)
		case r == utf8.RuneError && n == 1:
			dst = append(dst, `\ufffd`...)
		default:
			dst = append(dst, s[:n]...)
		}
		s = s[n:]
	}
	return append(dst, '"')
}

// TestAppendStringWords: the word-at-a-time writer writes what a
// character-at-a-time one does, for every byte and character of
// TestPlainLen at every offset of strings of every length up to 24 (three
// words), after text already in the buffer (with and without room to
// spare).
func TestAppendStringWords(t *testing.T) {
	base := "abcdefghijklmnopqrstuvwx"
	var inserts []string
	for c := 0; c < 256; c++ {
		inserts = append(inserts, string([]byte{byte(c)}))
	}
	inserts = append(inserts, "é", "→", "😀", "\xed\xa0\xbd", "\xed\xb8\x80", "\xed\xa0\xbd\xed\xb8\x80",
		"\xed\xa0\xbd\xed\xa0\xbd", "\xe2\x86", "\xf0\x9f\x98", "a\"b\\c\n", "\x00\x1f\x7f")
	for _, in := range inserts {
		for size := 0; size <= len(base); size++ {
			for at := 0; at <= size; at++ {
				s := base[:at] + in + base[at:size]
				for _, prefix := range [][]byte{nil, []byte(`{"k":`), append(make([]byte, 0, 64), `[1,`...)} {
					want := appendStringSlow(append([]byte(nil), prefix...), s)
					if got := AppendString(prefix, s); !bytes.Equal(got, want) {
						t.Fatalf("AppendString(%q, %q) = %q, want %q", prefix, s, got, want)
					}
				}
			}
		}
	}
}

// FuzzAppendStringWords: AppendString agrees with appendStringSlow.
func FuzzAppendStringWords(f *testing.F) {
	for _, s := range []string{"", "plain text of more than eight bytes", "a\"b\\c\n\x01\x7f", "é😀 and\tmore text",
		"\xed\xa0\xbd\xed\xb8\x80 pair", "\xed\xa0\xbdx lone", "\xff stray", "twelve bytes"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := AppendString(nil, s), appendStringSlow(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q) = %q, want %q", s, got, want)
		}
	})
}

// parseStringSlow decodes the JSON string literal lit (quotes included) a
// character at a time into canonical WTF-8, as Parse does, or reports the
// offset of the first error in it.
func parseStringSlow(lit string) (string, int, bool) {
	var b []byte
	i := 1
	for {
		if i >= len(lit) {
			return "", i, false
		}
		c := lit[i]
		switch {
		case c == '"':
			if i != len(lit)-1 {
				i++
				for strings.IndexByte(" \t\r\n", lit[i]) >= 0 {
					i++
				}
				return "", i, false // not one string
			}
			return wtf8.Canonical(string(b)), 0, true
		case c == '\\':
			if i+1 >= len(lit) {
				return "", i + 1, false
			}
			if e := unescape[lit[i+1]]; e != 0 {
				b, i = append(b, e), i+2
				continue
			}
			if lit[i+1] != 'u' {
				return "", i + 1, false
			}
			if i+6 > len(lit) {
				return "", i + 2, false
			}
			r, err := strconv.ParseUint(lit[i+2:i+6], 16, 32)
			if err != nil {
				return "", i + 2, false
			}
			i += 6
			if r >= 0xD800 && r <= 0xDBFF && i+6 <= len(lit) && lit[i] == '\\' && lit[i+1] == 'u' {
				if lo, err := strconv.ParseUint(lit[i+2:i+6], 16, 32); err == nil && lo >= 0xDC00 && lo <= 0xDFFF {
					b, i = utf8.AppendRune(b, utf16.DecodeRune(rune(r), rune(lo))), i+6
					continue
				}
			}
			b = wtf8.AppendRune(b, rune(r))
		case c < 0x20:
			return "", i, false
		case c < utf8.RuneSelf:
			b, i = append(b, c), i+1
		default:
			r, n := utf8.DecodeRuneInString(lit[i:])
			if r == utf8.RuneError && n == 1 {
				return "", i, false
			}
			b, i = append(b, lit[i:i+n]...), i+n
		}
	}
}

// TestParseStringWords: the parser decodes every string of plain text,
// escapes, characters of one to four bytes (whole or cut) and bytes that
// are not UTF-8, each at every offset of strings up to 40 bytes long, with
// an escape before it or none, as a character-at-a-time decoder does; and
// fails where it fails.
func TestParseStringWords(t *testing.T) {
	base := `abcdefghijklmnopqrstuvwxyz0123456789 !#~`
	inserts := []string{`\n`, `\"`, `\\`, `\/`, `\u00e9`, `\ud83d\ude00`, `\ud83d`, `\ude00x`, `\ud83d\ud83d\ude00`,
		"é", "→", "😀", "é→😀", "\xed\xa0\x80", "\xe2\x86", "\xf0\x9f\x98", "\xff", "\x01", "\x7f", `\x`, `\u12`, `\u12g4`, `"`}
	for _, in := range inserts {
		for size := 0; size <= len(base); size++ {
			for at := 0; at <= size; at++ {
				for _, head := range []string{"", `\t`, "é"} {
					checkParseString(t, `"`+head+base[:at]+in+base[at:size]+`"`)
				}
			}
		}
	}
}

// FuzzParseStringWords: Parse agrees with parseStringSlow on a string
// literal, value and error offset.
func FuzzParseStringWords(f *testing.F) {
	for _, s := range []string{"", `plain text of more than eight bytes`, `a\"b\\c\n`, "é😀 and\tmore", `\ud83d🙈 x`,
		`\ud83d\ude00 pair`, `\ud83d lone`, "\xff stray", `twelve\u0041bytes`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkParseString(t, `"`+s+`"`) })
}

// checkParseString holds Parse to parseStringSlow on the literal lit: the
// same string, or an error at the same offset.
func checkParseString(t *testing.T, lit string) {
	t.Helper()
	want, off, ok := parseStringSlow(lit)
	v, err := Parse([]byte(lit))
	if ok != (err == nil) || ok && v.Str() != want {
		t.Fatalf("Parse(%s) = %q, %v; want %q (ok %v)", lit, v.Str(), err, want, ok)
	}
	if se := (*SyntaxError)(nil); errors.As(err, &se) && se.Offset != off {
		t.Fatalf("Parse(%s): error at %d, want %d: %v", lit, se.Offset, off, err)
	}
}

// digitsLenSlow is digitsLen a byte at a time.
func digitsLenSlow(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// TestDigitsLen: digitsLen agrees with a byte-by-byte scan for every byte
// value at every offset of runs of digits up to three words long, and
// what follows it (a byte that carries when 6 is added, another digit).
func TestDigitsLen(t *testing.T) {
	const digits = "012345678901234567890123456789"
	for c := 0; c < 256; c++ {
		for at := 0; at <= len(digits); at++ {
			for _, tail := range []string{"", "7", "\xff9", "x"} {
				s := digits[:at] + string([]byte{byte(c)}) + digits[at:] + tail
				for cut := 0; cut <= len(s); cut += 3 {
					if got, want := digitsLen(s[cut:]), digitsLenSlow(s[cut:]); got != want {
						t.Fatalf("digitsLen(%q) = %d, want %d", s[cut:], got, want)
					}
				}
			}
		}
	}
}

// FuzzDigitsLen: digitsLen agrees with a byte-by-byte scan.
func FuzzDigitsLen(f *testing.F) {
	for _, s := range []string{"", "0123456789", "12345678901234567e5", "99999999\xfa", "1:2", "123/456"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := digitsLen(s), digitsLenSlow(s); got != want {
			t.Fatalf("digitsLen(%q) = %d, want %d", s, got, want)
		}
	})
}
