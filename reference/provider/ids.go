package provider

import (
	"crypto/rand"
	"fmt"
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

// NewUUID returns a random UUID (version 4), as a client draws one for a
// request id.
func NewUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
