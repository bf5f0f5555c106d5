package transform

import (
	"strconv"

	"github.com/piconform/piconform/reference/wtf8"
)

// ShortHash is pi-ai's shortHash: two 32-bit multiplicative hashes over the
// UTF-16 code units of s, mixed at the end, printed in base 36 (second hash
// first) without padding. Provider id normalizers use it to shorten ids.
func ShortHash(s string) string {
	h1, h2 := uint32(0xdeadbeef), uint32(0x41c6ce57)
	for _, u := range wtf8.ToUTF16(s) {
		h1 = (h1 ^ uint32(u)) * 2654435761
		h2 = (h2 ^ uint32(u)) * 1597334677
	}
	h1 = (h1^h1>>16)*2246822507 ^ (h2^h2>>13)*3266489909
	h2 = (h2^h2>>16)*2246822507 ^ (h1^h1>>13)*3266489909
	return strconv.FormatUint(uint64(h2), 36) + strconv.FormatUint(uint64(h1), 36)
}
