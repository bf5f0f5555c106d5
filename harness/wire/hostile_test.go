package wire

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"

	"github.com/piconform/piconform/harness/compare"
)

// zeros reads n zero bytes without holding them.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n <= 0 {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), z.n)]
	clear(p)
	z.n -= int64(len(p))
	return len(p), nil
}

// TestRequestBodyCap: the loopback server reads at most MaxRequestBytes of
// a request body. A bigger one, announced or streamed, is answered 413 at
// once, and the case fails on it.
func TestRequestBodyCap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		size   int64
		length int64 // Content-Length sent; -1 streams the body chunked
		status int
	}{
		{"announced over the limit", 1<<20 + 1, 1<<20 + 1, http.StatusRequestEntityTooLarge},
		{"announced far over the limit", 1 << 40, 1 << 40, http.StatusRequestEntityTooLarge},
		{"streamed over the limit", 1<<20 + 1, -1, http.StatusRequestEntityTooLarge},
		{"small", 10, 10, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cas := &cassette.Cassette{Interactions: []*cassette.Interaction{{
				Request:  cassette.Request{Method: "POST", URL: "/v1/say"},
				Response: cassette.Response{Code: http.StatusOK, Body: "ok"},
			}}}
			var stopped error
			// Small, so the test sends little.
			r, err := Serve(context.Background(), cas, Matcher{}, ReplayOptions{MaxRequestBytes: 1 << 20, Stop: func(err error) { stopped = err }})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Finish()
			req, _ := http.NewRequest("POST", r.URL()+"/v1/say", &zeros{tt.size})
			req.ContentLength = tt.length
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				// The server may close the connection before the client has
				// sent everything: that refuses the body too.
				if tt.status == http.StatusOK {
					t.Fatal(err)
				}
			} else {
				resp.Body.Close()
				if resp.StatusCode != tt.status {
					t.Errorf("status %d, want %d", resp.StatusCode, tt.status)
				}
			}
			err = r.Finish()
			if tt.status != http.StatusOK && (err == nil || !strings.Contains(err.Error(), "over the limit of 1 MiB")) {
				t.Errorf("Finish = %v, want the limit named", err)
			}
			// A refused body is a difference of that request's body, not
			// also a request never sent.
			var m *compare.Mismatch
			if tt.status != http.StatusOK && (!errors.As(err, &m) || len(m.Diffs) != 1 || m.Diffs[0].Path != "/requests/0/body" || strings.Contains(err.Error(), "never sent")) {
				t.Errorf("Finish = %v, want one difference, at /requests/0/body", err)
			}
			// Finish has waited for the handler, so stopped is set by now.
			if tt.status != http.StatusOK && (stopped == nil || !strings.Contains(stopped.Error(), "over the limit of 1 MiB")) {
				t.Errorf("the case was stopped with %v, want the limit named", stopped)
			}
			if tt.status == http.StatusOK && stopped != nil {
				t.Errorf("a small body stopped the case: %v", stopped)
			}
		})
	}
}

// TestFindSecretsHostile: the secret scan finds keys of more services,
// keys spelled with YAML or JSON escapes, and keys after a line longer
// than any scanner buffer; and it leaves look-alikes alone.
func TestFindSecretsHostile(t *testing.T) {
	long := strings.Repeat("a ", 33<<20) // a 66 MiB line
	bad := []struct{ name, text, why string }{
		{"AWS secret access key", "body: '{\"secret\":\"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\"}'", "AWS secret"},
		{"AWS secret in an ini line", "aws_secret_access_key=je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY", "AWS secret"},
		{"Stripe live key", "note: sk_live_4eC39HqLyjWDarjtT1zdp7dc", "Stripe"},
		{"GitHub classic token", "x: ghp_16C7e42F292c6912E7710c838347Ae178B4a", "GitHub"},
		{"GitHub fine-grained token", "x: github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "GitHub"},
		{"YAML \\x escape", "body: \"\\x73k-ant-api03-abcdefgh\"", "Anthropic"},
		{"YAML \\u escape", "body: \"\\u0073k-ant-api03-abcdefgh\"", "Anthropic"},
		{"JSON escape in a body block", "body: |\n  {\"note\": \"\\u0073k-ant-api03-abcdefgh\"}\n", "Anthropic"},
		{"after a 66 MiB line", "a: '" + long + "'\nb: sk-ant-api03-abcdefgh\n", "Anthropic"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			found := FindSecrets([]byte(tt.text))
			if !slices.ContainsFunc(found, func(f Finding) bool { return strings.Contains(f.Why, tt.why) }) {
				t.Errorf("not found as %s: %v", tt.why, found)
			}
		})
	}
	good := []string{
		"sha1: da39a3ee5e6b4b0d3255bfef95601890afd80709",
		"path: /v1/models/gemini-2.5-flash:streamGenerateContent",
		"signature: 'EqQBCkgIBhABGAIiQL3xJ3lD9p4tN0aV2Zr1cUmHnb7kQ2yWfX8sPoEoR5tLkJ3vQ2wZx9'",
		"text: thequickbrownfoxjumpsoverthelazydogagain",
		"body: \"\\u0068ello\"",
	}
	for _, text := range good {
		if f := FindSecrets([]byte(text)); len(f) > 0 {
			t.Errorf("%q: false finding %v", text, f)
		}
	}
}
