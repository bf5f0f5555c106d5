package wtf8

import "fmt"

// EscapeSurrogates writes each lone surrogate of s as a JSON \u escape.
// Inside a JSON string literal the escape stands for the same code unit, so
// a JSON parser that takes only UTF-8 reads what JSON.parse reads from the
// JavaScript string; outside one, both forms are a syntax error.
func EscapeSurrogates(s string) string {
	if !HasSurrogate(s) {
		return s
	}
	var b []byte
	for len(s) > 0 {
		r, n := Next(s)
		if r >= 0xD800 && r <= 0xDFFF {
			b = fmt.Appendf(b, `\u%04x`, r)
		} else {
			b = append(b, s[:n]...)
		}
		s = s[n:]
	}
	return string(b)
}
