package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
	"gopkg.in/dnaeon/go-vcr.v3/recorder"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/jsonv"
)

// caseFile is a wire case for an imaginary API "echo-api": the subject
// posts the input's "say" member as JSON to <baseUrl>/v1/say and returns
// the body it got back.
const caseFile = `{
  "id": "wire/echo",
  "kind": "wire",
  "description": "d",
  "rules": ["wire.request"],
  "input": {"model": {"api": "echo-api"}, "say": "hello"},
  "response": {"headers": {"x-trace": "t1"}, "events": [
    {"event": "greeting", "data": {"text": "hi", "n": 1.50}},
    {"data": "two\nlines"}
  ]}
}`

func loadCase(t *testing.T, file string, extra fstest.MapFS) *suite.Case {
	t.Helper()
	fsys := fstest.MapFS{"fixtures/wire/echo.json": {Data: []byte(file)}}
	for k, v := range extra {
		fsys[k] = v
	}
	s, err := suite.Load("test", fsys, "")
	if err != nil {
		t.Fatal(err)
	}
	return s.Cases[0]
}

// echoSubject is a tiny implementation of "echo-api"; tweak changes its
// request before it is sent.
func echoSubject(tweak func(*http.Request)) Subject {
	return func(ctx context.Context, input jsonv.Value, client *http.Client) (jsonv.Value, error) {
		base, _ := input.Get("baseUrl")
		key, _ := input.Get("apiKey")
		say, _ := input.Get("say")
		body := jsonv.ObjectValue(jsonv.Member{Key: "say", Value: say}, jsonv.Member{Key: "n", Value: jsonv.NumberValue("1.0")})
		req, err := http.NewRequestWithContext(ctx, "POST", base.Str()+"/v1/say", bytes.NewReader(body.AppendJSON(nil)))
		if err != nil {
			return jsonv.Value{}, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Api-Key", key.Str())
		req.Header.Set("X-Echo-Version", "1")
		req.Header.Set("X-Telemetry-Os", "plan9")
		if tweak != nil {
			tweak(req)
		}
		resp, err := client.Do(req)
		if err != nil {
			return jsonv.Value{}, err
		}
		defer resp.Body.Close()
		got, err := io.ReadAll(resp.Body)
		if err != nil {
			return jsonv.Value{}, err
		}
		return jsonv.ObjectValue(jsonv.Member{Key: "body", Value: jsonv.StringValue(string(got))}), nil
	}
}

var echoIgnore = []string{"x-telemetry-*"}

func record(t *testing.T, c *suite.Case) []byte {
	t.Helper()
	data, err := Record(context.Background(), c, echoSubject(nil), echoIgnore)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// replay runs subj against the case's cassette and returns the output and
// the fixture's verdict.
func replay(t *testing.T, c *suite.Case, cas []byte, subj Subject) (jsonv.Value, error) {
	t.Helper()
	fx := &Fixture{Cassettes: map[string][]byte{c.ID: cas}, Ignore: func(api string) []string {
		if api != "echo-api" {
			t.Errorf("Ignore asked for API %q", api)
		}
		return echoIgnore
	}}
	input, check, err := fx.Setup(context.Background(), c, func(error) {})
	if err != nil {
		t.Fatal(err)
	}
	out, err := subj(context.Background(), input, http.DefaultClient)
	if err != nil {
		t.Fatal(err)
	}
	return out, check()
}

func TestRecordScrubsAndKeepsWhatMatters(t *testing.T) {
	cas := string(record(t, loadCase(t, caseFile, nil)))
	for _, want := range []string{
		"url: /v1/say",
		"X-Api-Key:\n          - '[redacted]'",
		"X-Echo-Version:",
		// The body is indented JSON in a block, as sent but for layout.
		"      body: |\n        {\n          \"say\": \"hello\",\n          \"n\": 1.0\n        }\n",
	} {
		if !strings.Contains(cas, want) {
			t.Errorf("cassette lacks %q:\n%s", want, cas)
		}
	}
	for _, bad := range []string{
		FakeAPIKey, "127.0.0.1", "X-Telemetry-Os",
		// The response is the case file's; connection details are not kept.
		"response:", "X-Trace", "greeting", "content_length", "proto", "duration",
	} {
		if strings.Contains(cas, bad) {
			t.Errorf("cassette holds %q:\n%s", bad, cas)
		}
	}
	if f := FindSecrets([]byte(cas)); len(f) > 0 {
		t.Errorf("FindSecrets: %v", f)
	}
}

// A request the case has no response for is not recorded.
func TestRecordRefusesARequestWithoutAResponse(t *testing.T) {
	c := loadCase(t, caseFile, nil)
	twice := func(ctx context.Context, in jsonv.Value, cl *http.Client) (jsonv.Value, error) {
		echoSubject(nil)(ctx, in, cl)
		return echoSubject(nil)(ctx, in, cl)
	}
	if _, err := Record(context.Background(), c, twice, echoIgnore); err == nil || !strings.Contains(err.Error(), "sent 2 request(s), but the case has only 1 response(s)") {
		t.Errorf("Record = %v", err)
	}
}

func TestReplayMatchingRequest(t *testing.T) {
	c := loadCase(t, caseFile, nil)
	cas := record(t, c)
	out, err := replay(t, c, cas, echoSubject(func(r *http.Request) {
		// Header case, key order, number spelling and client headers do not matter.
		r.Header.Set("User-Agent", "another-client/2")
		r.Header.Set("X-Telemetry-Arch", "mips")
		r.Body = io.NopCloser(strings.NewReader(`{"n":1,"say":"hello"}`))
		r.ContentLength = -1
	}))
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	body, _ := out.Get("body")
	if want := "event: greeting\ndata: {\"text\":\"hi\",\"n\":1.50}\n\ndata: two\ndata: lines\n\n"; body.Str() != want {
		t.Errorf("replayed body %q, want %q", body.Str(), want)
	}
}

func TestReplayMismatchNamesThePath(t *testing.T) {
	c := loadCase(t, caseFile, nil)
	cas := record(t, c)
	recorded := "event: greeting\ndata: {\"text\":\"hi\",\"n\":1.50}\n\ndata: two\ndata: lines\n\n"
	for _, tc := range []struct {
		name  string
		tweak func(*http.Request)
		paths []string // every difference, in order
	}{
		{"body", func(r *http.Request) {
			r.Body = io.NopCloser(strings.NewReader(`{"say":"hullo","n":2}`))
			r.ContentLength = -1
		}, []string{"/requests/0/body/say", "/requests/0/body/n"}},
		{"missing header", func(r *http.Request) { r.Header.Del("X-Echo-Version") }, []string{"/requests/0/headers/x-echo-version"}},
		{"changed header", func(r *http.Request) { r.Header.Set("x-echo-version", "2") }, []string{"/requests/0/headers/x-echo-version"}},
		{"extra header", func(r *http.Request) { r.Header.Set("X-Extra", "1") }, []string{"/requests/0/headers/x-extra"}},
		{"missing credential", func(r *http.Request) { r.Header.Del("X-Api-Key") }, []string{"/requests/0/headers/x-api-key"}},
		{"credential elsewhere", func(r *http.Request) {
			r.Header.Set("Authorization", "Bearer "+r.Header.Get("X-Api-Key"))
			r.Header.Del("X-Api-Key")
		}, []string{"/requests/0/headers/x-api-key", "/requests/0/headers/authorization"}},
		{"path", func(r *http.Request) { r.URL.Path = "/v2/say" }, []string{"/requests/0/path"}},
		{"method", func(r *http.Request) { r.Method = "PUT" }, []string{"/requests/0/method"}},
		{"everything, in request order", func(r *http.Request) {
			r.Method = "PUT"
			r.URL.Path = "/v2/say"
			r.Header.Set("x-echo-version", "2")
			r.Body = io.NopCloser(strings.NewReader(`{"say":"hullo","n":1}`))
			r.ContentLength = -1
		}, []string{"/requests/0/method", "/requests/0/path", "/requests/0/headers/x-echo-version", "/requests/0/body/say"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := replay(t, c, cas, echoSubject(tc.tweak))
			var re *RequestError
			if !errors.As(err, &re) || !re.Failed() {
				t.Fatalf("check = %v, want a failing *RequestError", err)
			}
			var paths []string
			for _, d := range re.Diffs {
				paths = append(paths, d.Path)
			}
			if strings.Join(paths, " ") != strings.Join(tc.paths, " ") {
				t.Errorf("diffs at %v, want %v", paths, tc.paths)
			}
			var m *compare.Mismatch
			if !errors.As(err, &m) || m.Path != tc.paths[0] || len(m.Diffs) != len(tc.paths) {
				t.Fatalf("mismatch %v, want %d diffs from %s", m, len(tc.paths), tc.paths[0])
			}
			if !strings.Contains(err.Error(), tc.paths[0]) || strings.Contains(err.Error(), FakeAPIKey) {
				t.Errorf("message %q", err)
			}
			// The request differs, and still gets the recorded answer, so
			// the output is compared too.
			if body, _ := out.Get("body"); body.Str() != recorded {
				t.Errorf("answer %q, want the recorded one", body.Str())
			}
		})
	}
}

// TestIdentityHeaders: an identity header that differs is a note by
// default and a difference with StrictIdentity; a value Pi or the caller
// chose (not the library's own) is compared whatever the mode.
func TestIdentityHeaders(t *testing.T) {
	identity := []IdentityHeader{{Name: "user-agent", Value: "EchoSDK/JS *"}, {Name: "accept", Value: "application/json"}, {Name: "x-echo-sdk-*", Value: "*"}}
	want := cassette.Request{Method: "POST", URL: "/v1/say", Body: `{}`, Headers: http.Header{
		"User-Agent": {"EchoSDK/JS 1.2.3"}, "Accept": {"application/json"}, "X-Echo-Sdk-Lang": {"js"},
	}}
	chosen := cassette.Request{Method: "POST", URL: "/v1/say", Body: `{}`, Headers: http.Header{
		"User-Agent": {"my-agent/1.0"}, "Accept": {"text/event-stream"},
	}}
	for _, tc := range []struct {
		name    string
		want    cassette.Request
		headers http.Header
		strict  bool
		diffs   []string
		notes   []string
	}{
		{name: "same", want: want, headers: http.Header{"User-Agent": {"EchoSDK/JS 1.2.3"}, "Accept": {"application/json"}, "X-Echo-Sdk-Lang": {"js"}}},
		{
			name: "a port's own client", want: want, headers: http.Header{"User-Agent": {"Go-http-client/1.1"}},
			notes: []string{"/headers/accept", "/headers/user-agent", "/headers/x-echo-sdk-lang"},
		},
		{
			name: "strict", want: want, headers: http.Header{"User-Agent": {"Go-http-client/1.1"}}, strict: true,
			diffs: []string{"/headers/accept", "/headers/user-agent", "/headers/x-echo-sdk-lang"},
		},
		{
			name: "an identity header the cassette lacks", want: chosen,
			headers: http.Header{"User-Agent": {"my-agent/1.0"}, "Accept": {"text/event-stream"}, "X-Echo-Sdk-Os": {"plan9"}},
			notes:   []string{"/headers/x-echo-sdk-os"},
		},
		{
			name: "values Pi or the caller chose are compared", want: chosen,
			headers: http.Header{"User-Agent": {"Go-http-client/1.1"}},
			diffs:   []string{"/headers/accept", "/headers/user-agent"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := Matcher{Key: FakeAPIKey, Identity: identity, StrictIdentity: tc.strict}
			req, _ := http.NewRequest("POST", "http://127.0.0.1/v1/say", strings.NewReader(`{}`))
			req.Header = tc.headers
			diffs, notes := m.Diff(req, []byte(`{}`), tc.want)
			if got := paths(diffs); strings.Join(got, " ") != strings.Join(tc.diffs, " ") {
				t.Errorf("diffs at %v, want %v", got, tc.diffs)
			}
			if got := paths(notes); strings.Join(got, " ") != strings.Join(tc.notes, " ") {
				t.Errorf("notes at %v, want %v", got, tc.notes)
			}
			if (m.Compare(req, []byte(`{}`), tc.want) == nil) != (len(tc.diffs) == 0) {
				t.Errorf("Compare disagrees with Diff")
			}
		})
	}
}

// TestRuntimeUserAgent: a user-agent that is only the client runtime's
// default counts as not sent, unless the cassette holds that very value;
// an empty one is sent (wire.request.runtime-user-agent).
func TestRuntimeUserAgent(t *testing.T) {
	recorded := func(ua ...string) cassette.Request {
		h := http.Header{}
		if ua != nil {
			h["User-Agent"] = ua
		}
		return cassette.Request{Method: "POST", URL: "/v1/say", Body: `{}`, Headers: h}
	}
	none := `[{"Path":"/headers/user-agent","Want":"my-agent/1.0"}]`
	for _, tc := range []struct {
		name string
		want cassette.Request
		sent []string // nil: no user-agent
		diff string   // the differences as JSON
	}{
		{"none sent", recorded("my-agent/1.0"), nil, none},
		{"Node's", recorded("my-agent/1.0"), []string{"node"}, none},
		{"Go's", recorded("my-agent/1.0"), []string{"Go-http-client/1.1"}, none},
		{"empty", recorded("my-agent/1.0"), []string{""}, `[{"Path":"/headers/user-agent","Want":"my-agent/1.0","Got":""}]`},
		{"another", recorded("my-agent/1.0"), []string{"node/22"}, `[{"Path":"/headers/user-agent","Want":"my-agent/1.0","Got":"node/22"}]`},
		{"recorded as the caller set it", recorded("node"), []string{"node"}, `[]`},
		{"none recorded", recorded(), []string{"node"}, `[]`},
		{"none recorded, empty sent", recorded(), []string{""}, `[]`},
		{"Go's, as net/http sends it", recorded("my-agent/1.0"), goDefaultUserAgent(t), none},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", "http://127.0.0.1/v1/say", strings.NewReader(`{}`))
			if tc.sent != nil {
				req.Header["User-Agent"] = tc.sent
			}
			diffs, _ := Matcher{Key: FakeAPIKey, StrictIdentity: true}.Diff(req, []byte(`{}`), tc.want)
			got := []map[string]any{}
			for _, d := range diffs {
				m := map[string]any{"Path": d.Path}
				if !d.Want.IsAbsent() {
					m["Want"] = d.Want.Str()
				}
				if !d.Got.IsAbsent() {
					m["Got"] = d.Got.Str()
				}
				got = append(got, m)
			}
			var want []map[string]any
			if err := json.Unmarshal([]byte(tc.diff), &want); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("diffs (-want +got):\n%s", d)
			}
		})
	}
}

// goDefaultUserAgent is the user-agent net/http sends for a request that
// has none.
func goDefaultUserAgent(t *testing.T) []string {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = r.Header.Values("User-Agent") }))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return got
}

func paths(diffs []compare.Diff) []string {
	var out []string
	for _, d := range diffs {
		out = append(out, d.Path)
	}
	return out
}

// TestIdentityTable: every API the reference speaks lists identity headers,
// with lower-case names.
func TestIdentityTable(t *testing.T) {
	for _, api := range conformance.APIs() {
		list := conformance.IdentityHeaders(api)
		if len(list) == 0 {
			t.Errorf("no identity headers for %s", api)
		}
		for _, h := range list {
			if h.Name != strings.ToLower(h.Name) {
				t.Errorf("%s: %q is not lower case", api, h.Name)
			}
		}
	}
}

// TestIdentityOfUserAgents: the SDK's own user-agent is identity; one Pi
// chooses (OAuth's claude-cli) or the caller sets is compared.
func TestIdentityOfUserAgents(t *testing.T) {
	for _, tc := range []struct {
		api, value string
		identity   bool
	}{
		{"anthropic-messages", "Anthropic/JS 0.91.1", true},
		{"anthropic-messages", "claude-cli/2.1.75", false},
		{"anthropic-messages", "my-agent/1.0", false},
		{"openai-completions", "OpenAI/JS 6.26.0", true},
		{"azure-openai-responses", "AzureOpenAI/JS 6.26.0", true},
		{"mistral-conversations", "mistral-client-typescript/2.2.6", true},
		{"openai-codex-responses", "pi (linux)", false},
	} {
		if got := isIdentity(conformance.IdentityHeaders(tc.api), "user-agent", tc.value, true); got != tc.identity {
			t.Errorf("%s user-agent %q: identity %v, want %v", tc.api, tc.value, got, tc.identity)
		}
	}
}

// TestReplayCountsRequests: a request never sent and a request too many
// fail the case, each as a difference at /requests/<i>, so that an
// expected-failure entry must name it like any other difference.
func TestReplayCountsRequests(t *testing.T) {
	c := loadCase(t, caseFile, nil)
	cas := record(t, c)
	silent := func(context.Context, jsonv.Value, *http.Client) (jsonv.Value, error) { return jsonv.ObjectValue(), nil }
	twice := func(ctx context.Context, in jsonv.Value, cl *http.Client) (jsonv.Value, error) {
		echoSubject(nil)(ctx, in, cl)
		return echoSubject(nil)(ctx, in, cl)
	}
	for _, tc := range []struct {
		name    string
		subject Subject
		message string
		diff    compare.Diff
	}{
		{"none sent", silent, "never sent: POST /v1/say", compare.Diff{Path: "/requests/0", Want: jsonv.StringValue("POST /v1/say")}},
		{"one too many", twice, "request 2", compare.Diff{Path: "/requests/1", Got: jsonv.StringValue("POST /v1/say")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := replay(t, c, cas, tc.subject)
			if err == nil || !strings.Contains(err.Error(), tc.message) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.message)
			}
			var m *compare.Mismatch
			if !errors.As(err, &m) {
				t.Fatalf("err = %v, want a *compare.Mismatch inside", err)
			}
			if diff := cmp.Diff([]compare.Diff{tc.diff}, m.Diffs, cmp.Comparer(jsonv.StrictEqual)); diff != "" {
				t.Errorf("diffs (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReplayInPieces: over a socket the client reads a split replay in
// many pieces (pauses make that likely, not certain); in process, through
// the pipe, it reads exactly one piece per read.
func TestReplayInPieces(t *testing.T) {
	split := strings.Replace(caseFile, `"response"`, `"replay": {"chunkBytes": 5}, "response"`, 1)
	c := loadCase(t, split, nil)
	cas := record(t, c)
	for _, tc := range []struct {
		name      string
		transport http.RoundTripper
		exact     bool
	}{
		{"socket", http.DefaultTransport, false},
		{"in process", InProcess.Transport, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reads := 0
			subj := func(ctx context.Context, in jsonv.Value, cl *http.Client) (jsonv.Value, error) {
				cl = &http.Client{Transport: countingTransport{&reads, tc.transport}}
				return echoSubject(nil)(ctx, in, cl)
			}
			out, err := replay(t, c, cas, subj)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := out.Get("body")
			pieces := (len(body.Str()) + 4) / 5
			if reads < pieces/2 || (tc.exact && reads != pieces) {
				t.Errorf("%d reads for %d bytes in %d 5-byte pieces", reads, len(body.Str()), pieces)
			}
		})
	}
}

type countingTransport struct {
	n    *int
	base http.RoundTripper
}

func (c countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.base.RoundTrip(r)
	if err == nil {
		resp.Body = countingBody{resp.Body, c.n}
	}
	return resp, err
}

type countingBody struct {
	io.ReadCloser
	n *int
}

func (b countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		*b.n++
	}
	return n, err
}

func TestPieces(t *testing.T) {
	body := []byte("a: 1\n\nb: 2\n\nrest")
	got := Pieces(body, 0)
	if len(got) != 3 || string(got[0]) != "a: 1\n\n" || string(got[2]) != "rest" {
		t.Errorf("by event: %q", got)
	}
	got = Pieces(body, 4)
	if len(got) != 4 || string(bytes.Join(got, nil)) != string(body) {
		t.Errorf("by 4 bytes: %q", got)
	}
}

func TestNoKeyAndChosenKey(t *testing.T) {
	for _, tc := range []struct{ apiKey, want string }{
		{`null`, ""},
		{`"sk-ant-oat01-fake"`, "sk-ant-oat01-fake"},
	} {
		c := loadCase(t, strings.Replace(caseFile, `"say": "hello"`, `"say": "hello", "apiKey": `+tc.apiKey, 1), nil)
		s, err := ParseCase(c)
		if err != nil {
			t.Fatal(err)
		}
		in := PrepareInput(c.Input, "http://127.0.0.1:1", s)
		k, ok := in.Get("apiKey")
		if ok != (tc.want != "") || k.Str() != tc.want {
			t.Errorf("apiKey %s: input %s", tc.apiKey, in)
		}
	}
}

func TestParseCaseErrors(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{`"headers": {"x-trace": "t1"}`, `"headers": {"x-trace": 1}`, "/response/headers/x-trace"},
		{`"headers"`, `"body": "x", "headers"`, "not both"},
		{`"response": {`, `"replay": {"chunkBytes": 0}, "response": {`, "/replay/chunkBytes"},
		{`"response": {`, `"response": {"status": 99, `, "/response/status"},
		{`{"data": "two\nlines"}`, `{"id": "7"}`, "/response/events/1/id"},
		{`"say": "hello"`, `"say": "hello", "abort": {"afterEvents": -1}`, "/input/abort/afterEvents"},
		{`"say": "hello"`, `"say": "hello", "abort": {"afterEvents": 1.5}`, "/input/abort/afterEvents"},
		{`"say": "hello"`, `"say": "hello", "abort": {"afterEvents": 1, "when": 2}`, "/input/abort/when"},
		{`"say": "hello"`, `"say": "hello", "abort": {}`, "/input/abort/afterEvents"},
		{`"say": "hello"`, `"say": "hello", "baseUrl": 5`, "/input/baseUrl"},
		{`"response": {`, `"response": {"disconnect": false, `, "/response/disconnect: want true"},
		{`"response": {`, `"response": {"disconnect": true, `, "/response: a response that disconnects has no other member"},
	} {
		c := loadCase(t, strings.Replace(caseFile, tc.from, tc.to, 1), nil)
		if _, err := ParseCase(c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.to, err, tc.want)
		}
	}
}

func TestFindSecrets(t *testing.T) {
	bad := map[string]string{
		"anthropic key": "body: 'sk-ant-api03-abcdefgh'",
		"secret key":    "x: sk-proj1234567890",
		"bearer":        "      - Bearer abc.def.ghi",
		"google key":    "url: /v1?key=AIzaSyA1234567890abcdef",
		"jwt":           "body: '{\"t\":\"eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.sig\"}'",
		"x-api-key":     "        X-Api-Key:\n            - realvalue",
		"inline":        "        authorization: token123",
		"quoted":        "        \"x-goog-api-key\":\n            - \"k\"",
	}
	for name, text := range bad {
		if len(FindSecrets([]byte(text))) == 0 {
			t.Errorf("%s: %q not found", name, text)
		}
	}
	good := []string{
		"        X-Api-Key:\n            - '[redacted]'\n        X-App:\n            - cli",
		"        Authorization:\n            - '[redacted]'",
		"body: '{\"text\":\"a task-list for the risk-free desk-lamp\"}'",
		"        Anthropic-Beta:\n            - interleaved-thinking-2025-05-14",
	}
	for _, text := range good {
		if f := FindSecrets([]byte(text)); len(f) > 0 {
			t.Errorf("%q: false finding %v", text, f)
		}
	}
}

// An OAuth token (a JWT) as the key: scrubbed from the auth header and
// from anywhere else it appears; an id merely read from it stays.
func TestScrubberOnAToken(t *testing.T) {
	const token = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.c2ln"
	i := &cassette.Interaction{
		Request: cassette.Request{URL: "http://127.0.0.1:4321/codex/responses", Body: `{"echo":"` + token + `"}`,
			Headers: http.Header{"Authorization": {"Bearer " + token}, "Chatgpt-Account-Id": {"acct-fake"}, "X-Copy": {token}}},
	}
	if err := Scrubber(token, nil, "")(i); err != nil {
		t.Fatal(err)
	}
	h := i.Request.Headers
	if h.Get("Authorization") != Redacted || h.Get("X-Copy") != Redacted || h.Get("Chatgpt-Account-Id") != "acct-fake" {
		t.Errorf("headers %v", h)
	}
	if strings.Contains(i.Request.Body, token) {
		t.Errorf("body %q", i.Request.Body)
	}
	if f := FindSecrets([]byte("        Authorization:\n            - Bearer " + token)); len(f) == 0 {
		t.Error("an unscrubbed token is not found")
	}
}

// A version-4 UUID the case did not give was drawn by the client: the
// cassette holds DrawnUUID, which any version-4 UUID matches; one the case
// gave is kept and compared exactly. A drawn version-7 UUID becomes
// DrawnUUIDv7, which only a version-7 UUID matches.
func TestDrawnUUID(t *testing.T) {
	const drawn, given = "3f2b8c1e-9a4d-4e7f-8b6a-1c2d3e4f5a6b", "0d9e8f7a-6b5c-4d3e-9f1a-2b3c4d5e6f7a"
	const drawn7 = "01a24d27-35ab-713c-95ca-e1af1b238bce"
	i := &cassette.Interaction{Request: cassette.Request{URL: "/x", Method: "GET",
		Headers: http.Header{"Session-Id": {drawn}, "X-Given": {given}, "X-Other": {"not-a-uuid"}, "X-Request-Id": {drawn7}}}}
	if err := Scrubber(FakeAPIKey, nil, `{"options":{"x":"`+given+`"}}`)(i); err != nil {
		t.Fatal(err)
	}
	want := http.Header{"Session-Id": {DrawnUUID}, "X-Given": {given}, "X-Other": {"not-a-uuid"}, "X-Request-Id": {DrawnUUIDv7}}
	if diff := cmp.Diff(want, i.Request.Headers); diff != "" {
		t.Fatalf("scrubbed headers (-want +got):\n%s", diff)
	}
	for _, tt := range []struct {
		session, request string
		match            bool
	}{
		{"7c9e6679-7425-40de-944b-e07fc1f90ae7", drawn7, true},
		{"7C9E6679-7425-40DE-944B-E07FC1F90AE7", "01A24D27-2AB9-713C-95CA-E17B23020402", true},
		{"7c9e6679-7425-10de-944b-e07fc1f90ae7", drawn7, false}, // version 1
		{"01a24d27-2ab9-713c-95ca-e17b23020402", drawn7, false}, // version 7 for a version 4
		{"7c9e6679-7425-40de-944b-e07fc1f90ae7", drawn, false},  // version 4 for a version 7
		{"sess-1", drawn7, false},
	} {
		got := httptest.NewRequest("GET", "/x", nil)
		got.Header = http.Header{"Session-Id": {tt.session}, "X-Given": {given}, "X-Other": {"not-a-uuid"}, "X-Request-Id": {tt.request}}
		if m := (Matcher{Key: FakeAPIKey}).Compare(got, nil, i.Request); (m == nil) != tt.match {
			t.Errorf("session-id %q: mismatch %v, want match %v", tt.session, m, tt.match)
		}
	}
}

// The headers are recorded as net/http writes them: an empty canonical
// User-Agent is not written, the same header under another spelling is
// (wire.request.runtime-user-agent).
func TestScrubberRecordsTheWire(t *testing.T) {
	for _, tt := range []struct {
		name      string
		headers   http.Header
		userAgent []string
	}{
		{"empty", http.Header{"User-Agent": {""}, "user-agent": {""}}, []string{""}},
		{"none", http.Header{"User-Agent": {""}}, nil},
		{"set", http.Header{"User-Agent": {"mine/1"}}, []string{"mine/1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			i := &cassette.Interaction{Request: cassette.Request{URL: "/x", Method: "GET", Headers: tt.headers}}
			if err := Scrubber(FakeAPIKey, nil, "")(i); err != nil {
				t.Fatal(err)
			}
			want := http.Header{}
			if tt.userAgent != nil {
				want["User-Agent"] = tt.userAgent
			}
			if diff := cmp.Diff(want, i.Request.Headers); diff != "" {
				t.Errorf("scrubbed headers (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScrubberOnAKeyInTheURL(t *testing.T) {
	i := &cassette.Interaction{
		Request: cassette.Request{URL: "http://127.0.0.1:4321/v1/x?key=" + FakeAPIKey, Host: "127.0.0.1:4321",
			Headers: http.Header{"X-Goog-Api-Key": {"whatever"}, "X-Custom": {"carries " + FakeAPIKey}, "Connection": {"close"}}},
		Response: cassette.Response{Body: "abc", Headers: http.Header{"Date": {"now"}, "X-Req": {"1"}}},
	}
	if err := Scrubber(FakeAPIKey, nil, "")(i); err != nil {
		t.Fatal(err)
	}
	if i.Request.URL != "/v1/x?key="+Redacted || i.Request.Host != "" {
		t.Errorf("URL %q host %q", i.Request.URL, i.Request.Host)
	}
	want := http.Header{"X-Goog-Api-Key": {Redacted}, "X-Custom": {Redacted}}
	if len(i.Request.Headers) != 2 || i.Request.Headers.Get("X-Goog-Api-Key") != Redacted || i.Request.Headers.Get("X-Custom") != Redacted {
		t.Errorf("headers %v, want %v", i.Request.Headers, want)
	}
	if i.Response.Body != "" || i.Response.Headers != nil {
		t.Errorf("response kept: %+v", i.Response)
	}
}

func TestGrammarError(t *testing.T) {
	parse := func(s string) jsonv.Value {
		v, err := jsonv.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	ok := parse(`[{"type":"start"},{"type":"text_start","contentIndex":0},{"type":"text_end","contentIndex":0,"content":""},
		{"type":"done","reason":"stop","message":{"stopReason":"stop"}}]`)
	if err := GrammarError(ok); err != nil {
		t.Errorf("valid stream: %v", err)
	}
	for _, bad := range []string{
		`[{"type":"text_start","contentIndex":0}]`,
		`[{"type":"start"},{"type":"text_delta","contentIndex":0,"delta":"x"},{"type":"done","reason":"stop","message":{"stopReason":"stop"}}]`,
		`[{"type":"start"},{"type":"done","reason":"stop","message":{"stopReason":"stop"}},{"type":"start"}]`,
		`[{"type":"start"},{"type":"done","reason":"error","message":{"stopReason":"error"}}]`,
	} {
		if GrammarError(parse(bad)) == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	fx := &Fixture{}
	want := parse(`{"events":` + string(ok.AppendJSON(nil)) + `}`)
	got := parse(`{"events":[{"type":"start"}]}`)
	if err := fx.CheckOutput(nil, want, got); err == nil {
		t.Error("CheckOutput accepted a stream without a terminal event")
	}
	quirk := parse(`{"events":[{"type":"start"},{"type":"text_start","contentIndex":0},{"type":"done","reason":"stop","message":{"stopReason":"stop"}}]}`)
	if err := fx.CheckOutput(nil, quirk, got); err != nil {
		t.Errorf("CheckOutput checked the grammar though the golden breaks it: %v", err)
	}
}

// TestMatcherWithGoVCRReplay uses the matcher the way a go-vcr user would:
// a recorder in replay-only mode over a recorded cassette.
func TestMatcherWithGoVCRReplay(t *testing.T) {
	c := loadCase(t, caseFile, nil)
	// The fixture's cassette is a whole go-vcr cassette: the file's
	// requests with the case's responses.
	_, cas, err := (&Fixture{Cassettes: map[string][]byte{c.ID: record(t, c)}}).Load(c)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cas.File = filepath.Join(dir, "echo.yaml")
	if err := cas.Save(); err != nil {
		t.Fatal(err)
	}
	rec, err := recorder.NewWithOptions(&recorder.Options{CassetteName: filepath.Join(dir, "echo"), Mode: recorder.ModeReplayOnly, SkipRequestLatency: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Stop()
	rec.SetMatcher(Matcher{Key: FakeAPIKey, Ignore: echoIgnore}.MatcherFunc())
	rec.SetReplayableInteractions(true) // so only a mismatch can refuse the second request
	input := PrepareInput(c.Input, "http://127.0.0.1:9", Settings{Key: FakeAPIKey})
	out, err := echoSubject(nil)(context.Background(), input, rec.GetDefaultClient())
	if err != nil {
		t.Fatalf("matching request: %v", err)
	}
	if body, _ := out.Get("body"); !strings.HasPrefix(body.Str(), "event: greeting") {
		t.Errorf("replayed %q", body.Str())
	}
	_, err = echoSubject(func(r *http.Request) { r.Header.Set("X-Echo-Version", "2") })(context.Background(), input, rec.GetDefaultClient())
	if !errors.Is(err, cassette.ErrInteractionNotFound) {
		t.Errorf("mismatching request: %v, want ErrInteractionNotFound", err)
	}
}
