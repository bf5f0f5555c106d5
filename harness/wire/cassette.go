package wire

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
	"gopkg.in/dnaeon/go-vcr.v3/recorder"
	"gopkg.in/yaml.v3"
)

// DecodeCassette reads a cassette file (go-vcr's YAML format, version 2).
// It reads from memory so that cassettes embedded in the binary work too.
func DecodeCassette(data []byte) (*cassette.Cassette, error) {
	c := cassette.New("")
	c.File = ""
	c.IsNew = false
	if err := yaml.Unmarshal(data, c); err != nil {
		return nil, err
	}
	if c.Version != cassette.CassetteFormatV2 {
		return nil, fmt.Errorf("cassette format version %d, want %d", c.Version, cassette.CassetteFormatV2)
	}
	return c, nil
}

// responseTransportHeaders are set by the server for the connection at hand
// and are neither recorded nor replayed.
var responseTransportHeaders = []string{"date", "content-length", "transfer-encoding", "connection", "keep-alive"}

// Scrubber is the before-save hook of a recording: it removes what must not
// be stored and what changes from run to run.
//
//   - Credentials (headers named like one, or holding key) become Redacted;
//     key is also redacted from the URL and the body.
//   - The request keeps its path and query only: the host and port were the
//     recording's loopback server.
//   - Connection headers and the API's incidental headers (ignore) go.
//   - The response loses its date, length and timing. An AWS event-stream
//     body (binary frames) is stored one readable line per frame (see
//     eventStreamMarker); the replay writes the frames back.
//
// It runs in recorder.BeforeSaveHook, never after capture, so what the
// recorder replays in the same run is untouched and only the file is clean.
func Scrubber(key string, ignore []string) recorder.HookFunc {
	return func(i *cassette.Interaction) error {
		req := &i.Request
		if u, err := url.Parse(req.URL); err == nil {
			req.URL = redactKey(u.RequestURI(), key)
		} else {
			return fmt.Errorf("recorded URL %q: %w", req.URL, err)
		}
		req.Host, req.RemoteAddr, req.RequestURI = "", "", ""
		req.Body = redactKey(req.Body, key)
		req.Form = nil
		h := http.Header{}
		for name, vs := range req.Headers {
			switch {
			case matchesAny(transportHeaders, name) || matchesAny(ignore, name):
			case isCredential(name, vs, key):
				h[name] = []string{Redacted}
			default:
				h[name] = vs
			}
		}
		req.Headers = h

		resp := &i.Response
		rh := http.Header{}
		for name, vs := range resp.Headers {
			if !matchesAny(responseTransportHeaders, name) {
				rh[name] = vs
			}
		}
		resp.Headers = rh
		if isEventStream(rh.Get("Content-Type")) {
			if text, ok := eventStreamText([]byte(resp.Body)); ok {
				resp.Body = text
			}
		}
		resp.Duration = 0
		resp.TransferEncoding = nil
		resp.ContentLength = int64(len(resp.Body))
		return nil
	}
}

// Finding is something in a file that looks like a credential.
type Finding struct {
	Line int
	Text string
	Why  string
}

var secretPatterns = []struct {
	re  *regexp.Regexp
	why string
}{
	{regexp.MustCompile(`sk-ant-[A-Za-z0-9_-]{4,}`), "an Anthropic key (sk-ant-…)"},
	{regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{8,}`), "a secret key (sk-…)"},
	{regexp.MustCompile(`(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{4,}`), "a bearer token (Bearer …)"},
	{regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{10,}`), "a Google API key (AIza…)"},
	// AWS: an access key id as AWS issues them, and a SigV4 authorization
	// value, which names the access key id it was signed with.
	{regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), "an AWS access key id (AKIA…, ASIA…)"},
	{regexp.MustCompile(`AWS4-HMAC-SHA256\s+Credential=`), "a SigV4 signature (AWS4-HMAC-SHA256 Credential=…)"},
	// A JWT (an OAuth access token such as ChatGPT's): its header is a JSON
	// object, so it starts "eyJ", then a dot and the payload.
	{regexp.MustCompile(`\beyJ[A-Za-z0-9_=-]{4,}\.[A-Za-z0-9_=-]{4,}`), "a JWT (eyJ….…)"},
}

// headerKey is a YAML mapping key naming a header, with the rest of the line.
var headerKey = regexp.MustCompile(`^(\s*)["']?([A-Za-z0-9-]+)["']?:\s*(.*)$`)

// listItem is a YAML sequence item, with its value.
var listItem = regexp.MustCompile(`^(\s*)-\s*(.*)$`)

// FindSecrets lists the lines of a cassette that look like they hold a
// credential: key-like strings anywhere (sk-ant-…, sk-…, Bearer …, AIza…,
// JWTs, AWS access key ids, SigV4 signatures),
// and a credential header (x-api-key, authorization, …) whose value is
// anything but Redacted.
func FindSecrets(data []byte) []Finding {
	var out []Finding
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	inAuth, authIndent := false, 0
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		for _, p := range secretPatterns {
			if m := p.re.FindString(line); m != "" {
				out = append(out, Finding{Line: n, Text: m, Why: p.why})
			}
		}
		if m := headerKey.FindStringSubmatch(line); m != nil && !strings.HasPrefix(strings.TrimSpace(line), "-") {
			inAuth = false
			if matchesAny(authHeaders, m[2]) {
				if v := unquote(m[3]); v != "" && v != Redacted && v != "[]" {
					out = append(out, Finding{Line: n, Text: m[2] + ": " + v, Why: "a credential header's value"})
				}
				inAuth, authIndent = m[3] == "", len(m[1])
			}
			continue
		}
		if inAuth {
			if m := listItem.FindStringSubmatch(line); m != nil && len(m[1]) >= authIndent {
				if v := unquote(m[2]); v != Redacted {
					out = append(out, Finding{Line: n, Text: v, Why: "a credential header's value"})
				}
				continue
			}
			inAuth = false
		}
	}
	return out
}

func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
