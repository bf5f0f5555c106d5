package jsonv

import "testing"

// TestPlainLen: the word-at-a-time scan stops where a byte-by-byte one
// does, for every stop byte at every offset of a run longer than a word.
func TestPlainLen(t *testing.T) {
	slow := func(s string) int {
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 || s[i] < 0x20 || s[i] == '"' || s[i] == '\\' {
				return i
			}
		}
		return len(s)
	}
	base := []byte("abcdefghijklmnopqrstuvwx !#[]~\x7f")
	for c := 0; c < 256; c++ {
		for at := 0; at <= len(base); at++ {
			s := []byte(string(base))
			if at < len(s) {
				s[at] = byte(c)
			}
			if got, want := plainLen(string(s)), slow(string(s)); got != want {
				t.Fatalf("plainLen(%q) = %d, want %d", s, got, want)
			}
		}
	}
}
