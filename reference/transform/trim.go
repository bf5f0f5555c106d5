package transform

import "github.com/piconform/piconform/reference/wtf8"

// jsTrimEmpty reports whether s.trim() === "" in JavaScript, that is whether
// s holds nothing but ECMAScript white space and line terminators. A lone
// surrogate is not white space.
func jsTrimEmpty(s string) bool {
	for len(s) > 0 {
		r, n := wtf8.Next(s)
		if !jsSpace(r) {
			return false
		}
		s = s[n:]
	}
	return true
}

// jsSpace reports whether r is in ECMAScript's WhiteSpace or LineTerminator:
// tab, vertical tab, form feed, U+FEFF, the Unicode space separators (Zs),
// line feed, carriage return, and U+2028/U+2029.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00A0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}
