package wire

import (
	"regexp"
	"strings"

	"github.com/piconform/piconform/reference/provider"
)

// IdentityHeader is a request header a client library adds on its own to
// say what it is (spec/wire.md, wire.request.identity); each provider
// driver lists its API's (conformance.IdentityHeaders).
type IdentityHeader = provider.IdentityHeader

// isIdentity tells whether a header, recorded with want (absent when
// inCassette is false), is an identity header of the list.
func isIdentity(list []IdentityHeader, name, want string, inCassette bool) bool {
	for _, h := range list {
		if !matchesAny([]string{h.Name}, name) {
			continue
		}
		if !inCassette || globMatch(h.Value, want) {
			return true
		}
	}
	return false
}

// globMatch matches s against a pattern in which "*" stands for any text.
func globMatch(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	ok, _ := regexp.MatchString("^"+strings.Join(parts, ".*")+"$", s)
	return ok
}
