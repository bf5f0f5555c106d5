package wtf8_test

import (
	"testing"

	"github.com/piconform/piconform/reference/wtf8"
)

func TestEscapeSurrogates(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"a" + u(0xD83D) + "b", `a\ud83db`},
		{u(0xDC00), `\udc00`},
		{"😀", "😀"},
	} {
		if got := wtf8.EscapeSurrogates(tc.in); got != tc.want {
			t.Errorf("EscapeSurrogates(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
