package jsonv

import (
	"testing"
	"unicode/utf8"
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
