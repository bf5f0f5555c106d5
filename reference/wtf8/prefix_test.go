package wtf8

import "testing"

func TestPrefix(t *testing.T) {
	lone := string(AppendRune(nil, 0xD83D))
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 0, ""},
		{"abc", 2, "ab"},
		{"abc", 5, "abc"},
		{"a😀b", 2, "a😀"},                  // a pair is one code point
		{"a" + lone + "b", 2, "a" + lone}, // and so is a lone surrogate
	} {
		if got := Prefix(tc.s, tc.n); got != tc.want {
			t.Errorf("Prefix(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
