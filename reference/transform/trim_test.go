package transform

import (
	"testing"

	"github.com/piconform/piconform/reference/wtf8"
)

// jsTrimmed lists every code point for which String.fromCodePoint(c).trim()
// is "" in Node 22, found by trying all of them.
var jsTrimmed = []rune{
	0x9, 0xa, 0xb, 0xc, 0xd, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
	0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
}

func TestJSSpaceIsExactlyJavaScriptTrim(t *testing.T) {
	want := map[rune]bool{}
	for _, r := range jsTrimmed {
		want[r] = true
	}
	for r := rune(0); r <= 0x10FFFF; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		if jsSpace(r) != want[r] {
			t.Errorf("jsSpace(%U) = %v, want %v", r, jsSpace(r), want[r])
		}
	}
}

func TestJSTrimEmpty(t *testing.T) {
	cases := []struct {
		in   string
		want bool
	}{
		{"", true},
		{" \t\n\r\v\f", true},
		{"\u00a0\u3000\ufeff\u2028\u2029\u202f\u205f\u1680\u2000\u200a", true},
		{"\u0085", false}, // NEL is not JavaScript white space
		{"\u180e", false}, // no longer a space separator
		{"\u200b", false}, // zero width space is not white space
		{" x ", false},
		{wtf8.FromUTF16([]uint16{0xD800}), false},
		{" " + wtf8.FromUTF16([]uint16{0xDC00}) + " ", false},
		{"\xff", false},
	}
	for _, c := range cases {
		if got := jsTrimEmpty(c.in); got != c.want {
			t.Errorf("jsTrimEmpty(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}
