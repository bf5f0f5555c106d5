package wire

import (
	"regexp"
	"strings"
)

// IdentityHeader is a request header a client library adds on its own to
// say what it is (spec/wire.md, wire.request.identity). Name is a lower-case
// path.Match pattern; Value is the value the library sends, where "*"
// stands for any text (a version number, a Node build). A recorded header
// whose value is not the library's own was chosen by Pi or by the caller's
// options, and is compared like any other.
type IdentityHeader struct{ Name, Value string }

// Identity lists the identity headers of each provider API, as Pi 0.80.2's
// SDKs and fetch send them (spec/wire.md, wire.request.identity, gives the
// reason for each). user-agent and accept are identity headers of every
// API whatever their value, including the ones Pi or the caller's options
// set: --strict-identity, which CI runs against the real Pi, checks those.
// Some entries are also incidental (reference/provider's
// IncidentalHeaders: never recorded, never compared); they are listed here
// too so the table is whole.
//
// This table belongs to each API's provider driver in reference/provider;
// it lives here until the drivers carry it.
var Identity = map[string][]IdentityHeader{
	"anthropic-messages":     withClient(stainless),
	"openai-completions":     withClient(stainless),
	"openai-responses":       withClient(stainless),
	"azure-openai-responses": withClient(stainless),
	"openai-codex-responses": withClient(nil),
	"google-generative-ai":   withClient(googleGenAI),
	"google-vertex":          withClient(googleGenAI),
	// The SDK always sets the cookie header of its security scheme, empty
	// here; a cookie with a value would be the caller's.
	"mistral-conversations":   withClient([]IdentityHeader{{"cookie", ""}}),
	"bedrock-converse-stream": withClient([]IdentityHeader{{"x-amz-user-agent", "*"}, {"amz-sdk-invocation-id", "*"}, {"amz-sdk-request", "*"}}),
}

// withClient adds the headers every HTTP client sets on its own: its name
// and what it accepts.
func withClient(more []IdentityHeader) []IdentityHeader {
	return append([]IdentityHeader{{"user-agent", "*"}, {"accept", "*"}}, more...)
}

// stainless is the telemetry of the Stainless-generated SDKs (Anthropic,
// OpenAI): x-stainless-lang, -package-version, -os, -arch, -runtime,
// -runtime-version, -retry-count, -timeout.
var stainless = []IdentityHeader{{"x-stainless-*", "*"}}

// googleGenAI is the Google Gen AI SDK's second user agent.
var googleGenAI = []IdentityHeader{{"x-goog-api-client", "*"}}

// IdentityHeaders returns the identity headers of an API.
func IdentityHeaders(api string) []IdentityHeader { return Identity[api] }

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
