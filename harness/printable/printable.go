// Package printable makes text from cases and implementations safe to show
// to a terminal or a renderer: a control character (ESC and the escape
// sequences it starts, OSC, CR, BEL, the other C0 and C1 controls, DEL)
// must not reach a reader raw, where it could rewrite the screen or hide
// text. Every report format and `list` use it.
package printable

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// String shows the control characters of s other than newline and tab as
// \xNN (\u00NN for a C1 control) and bytes that are not UTF-8 as \xNN.
func String(s string) string { return escape(s, false) }

// Line is String for text that must stay on one line (a field of `list`):
// newline and tab are escaped too, as \n and \t.
func Line(s string) string { return escape(s, true) }

func escape(s string, oneLine bool) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return isControl(r, oneLine) || r == utf8.RuneError }) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case oneLine && r == '\n':
			b.WriteString(`\n`)
		case oneLine && r == '\t':
			b.WriteString(`\t`)
		case isControl(r, oneLine) && r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case isControl(r, oneLine):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func isControl(r rune, oneLine bool) bool {
	if r == '\n' || r == '\t' {
		return oneLine
	}
	return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0
}
