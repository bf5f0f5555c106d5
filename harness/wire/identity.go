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
// SDKs and fetch send them. Some are also incidental (reference/provider's
// IncidentalHeaders: never recorded, never compared); they are listed here
// too so the table is whole.
//
// This table belongs to each API's provider driver in reference/provider;
// it lives here until the drivers carry it.
var Identity = map[string][]IdentityHeader{
	"anthropic-messages":     stainless("Anthropic/JS *"),
	"openai-completions":     stainless("OpenAI/JS *"),
	"openai-responses":       stainless("OpenAI/JS *"),
	"azure-openai-responses": stainless("AzureOpenAI/JS *"),
	// Pi calls fetch itself: its user-agent names the machine and is never
	// recorded; its accept (text/event-stream) is Pi's choice.
	"openai-codex-responses": nil,
	"google-generative-ai":   googleGenAI,
	"google-vertex":          googleGenAI,
	"mistral-conversations": {
		{"user-agent", "mistral-client-typescript/*"},
		{"accept", "text/event-stream"},
		// The SDK always sets the cookies of its security scheme, none here.
		{"cookie", ""},
	},
	"bedrock-converse-stream": {
		{"user-agent", "*"}, {"x-amz-user-agent", "*"},
		{"amz-sdk-invocation-id", "*"}, {"amz-sdk-request", "*"},
	},
}

// fetchAccept is what fetch (undici) sends when nobody sets accept.
const fetchAccept = "*/*"

// stainless are the identity headers of the Stainless-generated SDKs
// (Anthropic, OpenAI): their user agent, their accept and x-stainless-*
// telemetry.
func stainless(userAgent string) []IdentityHeader {
	return []IdentityHeader{
		{"user-agent", userAgent},
		{"accept", "application/json"},
		{"accept", fetchAccept},
		{"x-stainless-*", "*"},
	}
}

var googleGenAI = []IdentityHeader{
	{"user-agent", "google-genai-sdk/*"},
	{"x-goog-api-client", "google-genai-sdk/*"},
	{"accept", fetchAccept},
}

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
