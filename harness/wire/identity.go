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
// reason for each). accept is an identity header of every API whatever its
// value; user-agent only with the value the API's SDK sends on its own: a
// user-agent that Pi chooses (claude-cli/… with an Anthropic OAuth token) or
// that the caller's options set is Pi's behaviour, compared like any other
// header.
// Some entries are also incidental (reference/provider's
// IncidentalHeaders: never recorded, never compared); they are listed here
// too so the table is whole.
//
// This table belongs to each API's provider driver in reference/provider;
// it lives here until the drivers carry it.
var Identity = map[string][]IdentityHeader{
	"anthropic-messages":     withClient("Anthropic/JS *", stainless),
	"openai-completions":     withClient("OpenAI/JS *", stainless),
	"openai-responses":       withClient("OpenAI/JS *", stainless),
	"azure-openai-responses": withClient("AzureOpenAI/JS *", stainless),
	"openai-codex-responses": withClient("", nil),
	"google-generative-ai":   withClient("google-genai-sdk/*", googleGenAI),
	"google-vertex":          withClient("google-genai-sdk/*", googleGenAI),
	// The SDK always sets the cookie header of its security scheme, empty
	// here; a cookie with a value would be the caller's.
	"mistral-conversations":   withClient("mistral-client-typescript/*", []IdentityHeader{{"cookie", ""}}),
	"bedrock-converse-stream": withClient("aws-sdk-js/*", []IdentityHeader{{"x-amz-user-agent", "*"}, {"amz-sdk-invocation-id", "*"}, {"amz-sdk-request", "*"}}),
}

// withClient adds the headers the API's client sets on its own: what it
// accepts, and its name (userAgent, the SDK's own user-agent value; ""
// when the SDK sends none, so a recorded one is Pi's).
func withClient(userAgent string, more []IdentityHeader) []IdentityHeader {
	out := []IdentityHeader{{"accept", "*"}}
	if userAgent != "" {
		out = append(out, IdentityHeader{"user-agent", userAgent})
	}
	return append(out, more...)
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
