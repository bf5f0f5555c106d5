package provider

import (
	"strings"

	"github.com/piconform/piconform/reference/wtf8"
)

// SanitizeID is the tool-call id cleaning several APIs share: every UTF-16
// code unit of id outside [a-zA-Z0-9_-] becomes "_" (so an emoji becomes
// "__"), and the result is cut to max units.
func SanitizeID(id string, max int) string {
	units := wtf8.ToUTF16(id)
	var b strings.Builder
	for i, u := range units {
		if i == max {
			break
		}
		if u < 0x80 && (u == '_' || u == '-' || ('a' <= u && u <= 'z') || ('A' <= u && u <= 'Z') || ('0' <= u && u <= '9')) {
			b.WriteByte(byte(u))
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}
