// Package printable makes text from cases and implementations safe to show
// to a terminal or a renderer: a control character (ESC and the escape
// sequences it starts, OSC, CR, BEL, the other C0 and C1 controls, DEL)
// must not reach a reader raw, where it could rewrite the screen or hide
// text; nor may an invisible format character (a bidirectional override
// such as U+202E, which shows text in another order than it is, a
// zero-width character) or a line or paragraph separator (U+2028, U+2029),
// which a renderer may break a line at. Every report format and `list` use
// it.
//
// Text an implementation wrote must not be able to pass for the report's
// own: a line of its own that reads "conforms", or a GitHub workflow
// command. Line keeps such text on one line; Block lets it span lines, each
// after the first marked by a prefix.
//
// Nor may a credential reach a reader: an implementation may have picked
// one up from its environment and sent it (in a header, a query string, a
// body). Every function here masks what package secret recognizes first.
package printable

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/piconform/piconform/harness/secret"
)

// String shows the control and format characters of s other than newline
// and tab as \xNN (\u00NN, \uNNNN or \UNNNNNNNN past ASCII) and bytes that
// are not UTF-8 as \xNN.
func String(s string) string { return escape(s, false) }

// Line is String for text that must stay on one line (a field of `list`):
// newline and tab are escaped too, as \n and \t.
func Line(s string) string { return escape(s, true) }

// Block is String for text that may span lines, shown after a line's start
// (an outcome and a case id): each line after its first begins with
// prefix, so none of its lines can read as one of the report's own,
// whatever it says. prefix should hold more than spaces: GitHub reads a
// workflow command ("::error::…") after leading spaces too.
func Block(s, prefix string) string {
	s = strings.TrimRight(String(s), "\n")
	if !strings.Contains(s, "\n") {
		return s
	}
	return strings.ReplaceAll(s, "\n", "\n"+prefix)
}

func escape(s string, oneLine bool) string {
	s = secret.Mask(s)
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
		case isControl(r, oneLine) && r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
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
	if r < 0x80 {
		return r < 0x20 || r == 0x7f
	}
	return r < 0xa0 || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// JSON masks credentials in JSON text, which stays JSON, and escapes the
// characters a terminal or a renderer would act on that JSON leaves raw:
// the format characters (bidirectional overrides, zero-width characters)
// and U+2028, U+2029 become \uXXXX escapes, which say the same. So a JSON
// report shown as it is (cat) shows no text reordered. Other text is
// returned as it is.
func JSON(b []byte) []byte {
	if m := secret.Mask(string(b)); m != string(b) {
		b = []byte(m)
	}
	if !bytes.ContainsFunc(b, func(r rune) bool { return r >= 0x80 && isControl(r, false) }) {
		return b
	}
	out := make([]byte, 0, len(b)+64)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r >= 0x80 && !(r == utf8.RuneError && n == 1) && isControl(r, false) {
			for _, u := range utf16.Encode([]rune{r}) {
				out = fmt.Appendf(out, `\u%04x`, u)
			}
		} else {
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}
