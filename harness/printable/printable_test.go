package printable

import "testing"

func TestEscapes(t *testing.T) {
	tests := []struct{ in, str, line string }{
		{"plain text, ünïcode", "plain text, ünïcode", "plain text, ünïcode"},
		{"two\nlines\tand a tab", "two\nlines\tand a tab", `two\nlines\tand a tab`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`, `\x1b[31mred\x1b[0m`},
		{"\x1b]8;;http://x\x07link\x1b]8;;\x07", `\x1b]8;;http://x\x07link\x1b]8;;\x07`, `\x1b]8;;http://x\x07link\x1b]8;;\x07`},
		{"hidden\rshown", `hidden\x0dshown`, `hidden\x0dshown`},
		{"bell\a del\x7f", `bell\x07 del\x7f`, `bell\x07 del\x7f`},
		{"c1 csi \u009b31m", `c1 csi \u009b31m`, `c1 csi \u009b31m`},
		{"bad \xff utf-8", `bad \xff utf-8`, `bad \xff utf-8`},
		{"U+FFFD \uFFFD stays", "U+FFFD \uFFFD stays", "U+FFFD \uFFFD stays"},
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
