package jsonv

import "unicode/utf8"

// plainLen is the length of the run at the start of s of bytes a JSON
// string holds as themselves, both in Parse and in AppendString: ASCII
// other than a control character, '"' or '\\'. Strings are most of a
// transcript's bytes, so the run is found eight bytes at a time first.
func plainLen(s string) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; len(s)-i >= 8; i += 8 {
		// The compiler turns these eight loads into one.
		w := s[i : i+8]
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		// The classic word tests: (v - n*ones) & ^v & highs is non-zero
		// when some byte of v is below n (n <= 0x80), so with n = 1 when
		// some byte is zero. x itself has a high bit set for a non-ASCII
		// byte. A hit may be a false alarm past the first stop byte, never
		// a miss: the bytes are then looked at one by one.
		quote, backslash := x^('"'*ones), x^('\\'*ones)
		if (x|(x-0x20*ones)&^x|(quote-ones)&^quote|(backslash-ones)&^backslash)&highs != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || needsEscape[c] {
			return i
		}
	}
	return i
}
