package wire

import (
	"slices"
	"strings"
	"testing"
)

// TestFindSecretsMoreKinds: the cassette gate finds PEM private keys, HTTP
// Basic credentials (in a credential header and in a custom one), a user
// and password in a URL, Google OAuth access tokens, Slack tokens and
// Hugging Face tokens, in the places a cassette holds them: a header, the
// URL, a JSON body (whose strings escape the line breaks of a key).
func TestFindSecretsMoreKinds(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, text, why string }{
		{"PEM key in a JSON body", `body: '{"key":"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn\n-----END RSA PRIVATE KEY-----"}'`, "PEM private key"},
		{"PEM key in a block", "body: |\n  -----BEGIN PRIVATE KEY-----\n  MIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n  -----END PRIVATE KEY-----\n", "PEM private key"},
		{"Basic in a custom header", "        X-Upstream-Auth:\n            - Basic dXNlcjpodW50ZXIy", "HTTP Basic"},
		{"Basic in the authorization header", "        Authorization:\n            - Basic dXNlcjpodW50ZXIy", "HTTP Basic"},
		{"user:password in the URL", "    url: https://alice:s3cret@api.example.com/v1/messages", "user and password in a URL"},
		{"user:password in a body", `body: '{"proxy":"http://bob:hunter2@proxy.local:3128"}'`, "user and password in a URL"},
		{"Google OAuth token", "        X-Goog-Token:\n            - ya29.a0AfH6SMBx3kQ_exampleTokenValue", "Google OAuth"},
		{"Slack token", `body: '{"slack":"xoxb-123456789012-1234567890123-AbCdEfGhIjKl"}'`, "Slack"},
		{"Hugging Face token", "    url: /models?token=hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345", "Hugging Face"},
		{"Hugging Face token, JSON-escaped", `body: '{"t":"\u0068f_AbCdEfGhIjKlMnOpQrStUvWxYz012345"}'`, "Hugging Face"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			found := FindSecrets([]byte(tt.text))
			if !slices.ContainsFunc(found, func(f Finding) bool { return strings.Contains(f.Why, tt.why) }) {
				t.Errorf("not found as %s: %v", tt.why, found)
			}
		})
	}
	for _, text := range []string{
		"body: '{\"text\":\"basic authentication is not supported\"}'",
		"    url: https://api.example.com/v1/messages?beta=true",
		"body: '{\"text\":\"mail me at someone@example.com\"}'",
		"body: '{\"pub\":\"-----BEGIN PUBLIC KEY-----\\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\\n-----END PUBLIC KEY-----\"}'",
	} {
		if f := FindSecrets([]byte(text)); len(f) > 0 {
			t.Errorf("%q: false finding %v", text, f)
		}
	}
}
