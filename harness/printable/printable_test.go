package printable

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEscapes(t *testing.T) {
	tests := []struct{ in, str, line string }{
		{"plain text, ünïcode, 日本語 😀", "plain text, ünïcode, 日本語 😀", "plain text, ünïcode, 日本語 😀"},
		{"two\nlines\tand a tab", "two\nlines\tand a tab", `two\nlines\tand a tab`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`, `\x1b[31mred\x1b[0m`},
		{"\x1b]8;;http://x\x07link\x1b]8;;\x07", `\x1b]8;;http://x\x07link\x1b]8;;\x07`, `\x1b]8;;http://x\x07link\x1b]8;;\x07`},
		{"hidden\rshown", `hidden\x0dshown`, `hidden\x0dshown`},
		{"bell\a del\x7f", `bell\x07 del\x7f`, `bell\x07 del\x7f`},
		{"c1 csi \u009b31m, NEL \u0085", `c1 csi \u009b31m, NEL \u0085`, `c1 csi \u009b31m, NEL \u0085`},
		{"bad \xff utf-8", `bad \xff utf-8`, `bad \xff utf-8`},
		{"U+FFFD \uFFFD stays", "U+FFFD \uFFFD stays", "U+FFFD \uFFFD stays"},
		// Line and paragraph separators, which renderers may break at.
		{"a\u2028conforms\u2029b", `a\u2028conforms\u2029b`, `a\u2028conforms\u2029b`},
		// Bidirectional overrides and isolates, which reorder what is shown.
		{"fail \u202emrofnoc\u202c \u2066x\u2069 \u200f", `fail \u202emrofnoc\u202c \u2066x\u2069 \u200f`, `fail \u202emrofnoc\u202c \u2066x\u2069 \u200f`},
		// Other invisible format characters: zero width, BOM, a tag.
		{"a\u200bb\ufeffc\U000e0041", `a\u200bb\ufeffc\U000e0041`, `a\u200bb\ufeffc\U000e0041`},
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.str {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.str)
		}
		if got := Line(tt.in); got != tt.line {
			t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.line)
		}
	}
}

// TestBlock: no line of a block but its first starts without the prefix,
// so text cannot start a line of the report's own; control and format
// characters are escaped as String escapes them.
func TestBlock(t *testing.T) {
	tests := []struct{ in, want string }{
		{"one line", "one line"},
		{"trailing newlines\n\n", "trailing newlines"},
		{"TypeError: x\n    at f (a.js:1)", "TypeError: x\n    | " + "    at f (a.js:1)"},
		{"boom\n\nconforms\n::error::forged", "boom\n    | \n    | conforms\n    | ::error::forged"},
		{"x\r\nconforms", "x\\x0d\n    | conforms"},
		{"x\u2028conforms\x1b[2K", `x\u2028conforms\x1b[2K`},
	}
	for _, tt := range tests {
		got := Block(tt.in, "    | ")
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Block(%q) (-want +got):\n%s", tt.in, diff)
		}
		for i, l := range strings.Split(got, "\n") {
			if i > 0 && !strings.HasPrefix(l, "    | ") {
				t.Errorf("Block(%q): line %d %q lacks the prefix", tt.in, i+1, l)
			}
		}
	}
}

// TestJSON: format characters and line separators in JSON text become
// escapes that parse to the same strings; other text is kept.
func TestJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":"plain ü 😀"}`, `{"a":"plain ü 😀"}`},
		{"{\"a\":\"x\u202ey\u2028z\ufeff\U000e0041\"}", `{"a":"x\u202ey\u2028z\ufeff\udb40\udc41"}`},
		{"{\"\u200f\":1}", `{"\u200f":1}`},
	}
	for _, tt := range tests {
		got := string(JSON([]byte(tt.in)))
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("JSON(%s) (-want +got):\n%s", tt.in, diff)
		}
		var a, b any
		if err := json.Unmarshal([]byte(tt.in), &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(got), &b); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("JSON(%s) says something else (-before +after):\n%s", tt.in, diff)
		}
	}
}
