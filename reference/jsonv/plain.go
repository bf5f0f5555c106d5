package jsonv

import "math/bits"

// plainLen is the length of the run at the start of s of text a JSON
// string holds as itself, both in Parse and in AppendString: ASCII other
// than a control character, '"' or '\\', and well-formed UTF-8 characters
// of more bytes (never a surrogate's three-byte form, which is not UTF-8,
// nor a character cut short). Strings are most of a transcript's bytes and
// most of their characters are plain, so the run is read eight bytes at a
// time, and a multi-byte character is checked and passed where it stands
// instead of ending the run: the caller then stops only at an escape, a
// quote, or a byte it has to look at.
func plainLen(s string) int {
	n := len(s)
	for {
		for len(s) >= 8 {
			// The compiler turns these eight loads into one.
			x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
				uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
			// The classic word tests without their "and not x": a byte
			// of x - 0x20*ones has its high bit set if the byte of x is
			// below 0x20, one of (x ^ c*ones) - ones if it is c, so long
			// as no lower byte borrows; and x has the high bit of every
			// non-ASCII byte. No byte below the first one to stop at
			// borrows or has its high bit set, so the lowest bit set in m
			// is that byte's.
			if m := (x | (x - 0x20*ones) | ((x ^ '"'*ones) - ones) | ((x ^ '\\'*ones) - ones)) & highs; m != 0 {
				s = s[bits.TrailingZeros64(m)>>3:]
				goto stop
			}
			s = s[8:]
		}
		for len(s) > 0 && s[0] < 0x80 && !needsEscape[s[0]] {
			s = s[1:]
		}
		if len(s) == 0 {
			return n
		}
	stop:
		if s[0] < 0x80 {
			return n - len(s)
		}
		k := utf8Len(s)
		if k == 0 {
			return n - len(s)
		}
		s = s[k:]
	}
}

const ones, highs = 0x0101010101010101, 0x8080808080808080

// utf8Len is the length of the well-formed UTF-8 character of two to four
// bytes at the start of s, 0 if there is none (ASCII, a stray byte, a
// surrogate, an overlong form, a character cut short).
func utf8Len(s string) int {
	if len(s) < 2 {
		return 0
	}
	// The length the first byte says, and the range of the second byte.
	n, lo, hi := 0, byte(0x80), byte(0xBF)
	switch c := s[0]; {
	case c < 0xC2:
		return 0
	case c < 0xE0:
		n = 2
	case c < 0xF0:
		n = 3
	case c < 0xF5:
		n = 4
	default:
		return 0
	}
	switch s[0] {
	case 0xE0:
		lo = 0xA0 // E0 80..9F is overlong
	case 0xED:
		hi = 0x9F // ED A0..BF is a surrogate
	case 0xF0:
		lo = 0x90 // F0 80..8F is overlong
	case 0xF4:
		hi = 0x8F // F4 90..BF is above U+10FFFF
	}
	if len(s) < n || s[1] < lo || s[1] > hi {
		return 0
	}
	for i := 2; i < n; i++ {
		if s[i]&0xC0 != 0x80 {
			return 0
		}
	}
	return n
}

// digitsLen is the length of the run of ASCII digits at the start of s,
// read eight bytes at a time: a number of megabytes of digits (an answer
// made to test the harness's limits) is otherwise scanned a byte at a
// time, twice, by the parser and validNumber.
func digitsLen(s string) int {
	n := len(s)
	for len(s) >= 8 {
		x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		// A byte is a digit when its high half is 3 and stays 3 once 6 is
		// added to it (a low half over 9 carries into it). A digit carries
		// nothing into the byte above, so every byte below the first one
		// that is not a digit is clear in m, and that byte is set.
		const highHalves, threes = 0xf0 * ones, 0x30 * ones
		if m := (x&highHalves ^ threes) | ((x+6*ones)&highHalves ^ threes); m != 0 {
			return n - len(s) + bits.TrailingZeros64(m)>>3
		}
		s = s[8:]
	}
	for len(s) > 0 && s[0]-'0' <= 9 {
		s = s[1:]
	}
	return n - len(s)
}
