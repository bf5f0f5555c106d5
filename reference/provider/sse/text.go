// Package sse reads a streamed response body the way the provider SDKs do:
// bytes become text as TextDecoder makes it, and text becomes server-sent
// events or delimited pieces. Every reader here gives the same result
// however the body is cut into reads.
package sse

import "strings"

// DecodeUTF8 is the WHATWG UTF-8 decoder with replacement: each maximal
// invalid subsequence becomes one U+FFFD (Go's utf8 package would give one
// per byte).
func DecodeUTF8(b []byte) string {
	var sb strings.Builder
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			sb.WriteByte(c)
			i++
			continue
		}
		need, lo, hi, ok := leadByte(c)
		if !ok {
			sb.WriteString("\uFFFD")
			i++
			continue
		}
		j := i + 1
		for k := 0; k < need; k++ {
			if j >= len(b) || b[j] < lo || b[j] > hi {
				ok = false
				break
			}
			lo, hi = 0x80, 0xBF
			j++
		}
		if !ok {
			sb.WriteString("\uFFFD")
			i = j
			continue
		}
		sb.Write(b[i:j])
		i = j
	}
	return sb.String()
}

// leadByte is what a UTF-8 lead byte c asks for: the number of
// continuation bytes and the range the first of them must be in.
func leadByte(c byte) (need int, lo, hi byte, ok bool) {
	lo, hi = 0x80, 0xBF
	switch {
	case c < 0xC2 || c > 0xF4:
		return 0, lo, hi, false
	case c < 0xE0:
		need = 1
	case c < 0xF0:
		need = 2
	default:
		need = 3
	}
	// Four lead bytes narrow the first continuation byte: no overlong
	// forms (E0, F0), no surrogates (ED), nothing above U+10FFFF (F4).
	switch c {
	case 0xE0:
		lo = 0xA0
	case 0xED:
		hi = 0x9F
	case 0xF0:
		lo = 0x90
	case 0xF4:
		hi = 0x8F
	}
	return need, lo, hi, true
}

// TrimIncomplete returns b without a trailing UTF-8 sequence that is valid
// so far but unfinished: what a streaming TextDecoder holds back.
func TrimIncomplete(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
		c := b[i]
		if c < 0x80 {
			return b
		}
		if c < 0xC0 {
			continue
		}
		need, lo, hi, ok := leadByte(c)
		if !ok {
			return b
		}
		tail := b[i+1:]
		if len(tail) >= need {
			return b
		}
		for k, t := range tail {
			if t < lo || t > hi {
				return b
			}
			if k == 0 {
				lo, hi = 0x80, 0xBF
			}
		}
		return b[:i]
	}
	return b
}

// StripBOM drops a leading UTF-8 byte-order mark, as TextDecoder does.
func StripBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}

// Text is a whole body as TextDecoder.decode(body) gives it.
func Text(body []byte) string { return DecodeUTF8(StripBOM(body)) }

// mayBecomeBOM reports whether b could still grow into a BOM.
func mayBecomeBOM(b []byte) bool {
	bom := []byte{0xEF, 0xBB, 0xBF}
	for i := range b {
		if b[i] != bom[i] {
			return false
		}
	}
	return true
}
