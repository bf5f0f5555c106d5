package provider_test

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// own is an API's options: the shared members and one of its own.
type own struct {
	provider.StreamOptions
	Effort *string
}

func (o own) JSON() jsonv.Value {
	return o.Builder().SetOptString("effort", o.Effort).Extend(o.Extra).Value()
}

func decodeOwn(v jsonv.Value, ptr string) (own, error) {
	return provider.Decode(v, ptr, func(o *own, f *jsonv.Fields) { o.Effort = f.OptString("effort") })
}

func TestDecodeSharedAndOwnMembers(t *testing.T) {
	in := `{"apiKey":"k","maxTokens":5,"transport":"sse","headers":{"a":"1","b":null},"env":{"E":"v"},"effort":"high","signal":{}}`
	v := jsonvtest.Parse(t, in)
	o, err := decodeOwn(v, "/options")
	if err != nil {
		t.Fatal(err)
	}
	if *o.APIKey != "k" || *o.Effort != "high" || o.EnvValue("E") != "v" || len(o.Extra) != 1 {
		t.Errorf("decoded %+v", o)
	}
	if !jsonv.Equal(o.JSON(), v) {
		t.Errorf("round trip: %s, want %s", o.JSON(), v)
	}
	for in, want := range map[string]string{
		`{"effort":1}`:         "/options/effort: want string, got number",
		`{"timeoutMs":"1"}`:    "", // each API reads it its own way
		`{"env":{"E":true}}`:   "/options/env/E: want a string, got boolean",
		`{"toolChoice":[]}`:    "",
		`{"metadata":"x"}`:     "",
		`{"headers":{"h":[]}}`: "",
		`{"maxRetries":"x"}`:   "",
	} {
		v, _ := jsonv.Parse([]byte(in))
		_, err := decodeOwn(v, "/options")
		if got := fmt.Sprint(err); (want == "" && err != nil) || (want != "" && got != want) {
			t.Errorf("%s: err = %v, want %q", in, err, want)
		}
	}
}

func TestStreamerRefusesForeignOptions(t *testing.T) {
	build := provider.Streamer(func(*ai.Model, *ai.Context, provider.Transcript, own, transform.Clock, provider.BodySink) (*provider.Call, error) {
		return &provider.Call{}, nil
	})
	if _, err := build(nil, nil, nil, &provider.StreamOptions{}, nil, nil); err == nil {
		t.Error("foreign options accepted")
	}
	if _, err := build(nil, nil, nil, &own{}, nil, nil); err != nil {
		t.Error(err)
	}
}

func TestRefusal(t *testing.T) {
	if msg, ok := provider.Refusal(fmt.Errorf("wrapped: %w", &stream.RequestError{Message: "No API key"})); !ok || msg != "No API key" {
		t.Errorf("Refusal = %q, %v", msg, ok)
	}
	if _, ok := provider.Refusal(errors.New("x")); ok {
		t.Error("a plain error is a refusal")
	}
}

// TestRetentionOfOtherTypes: Pi keeps a truthy cacheRetention whatever its
// type, and falls back to the environment for a falsy one.
func TestRetentionOfOtherTypes(t *testing.T) {
	for in, want := range map[string]string{
		`{"cacheRetention":"long"}`: "long",
		`{"cacheRetention":7}`:      provider.OtherRetention,
		`{"cacheRetention":[]}`:     provider.OtherRetention,
		`{"cacheRetention":0}`:      "short",
		`{"cacheRetention":null}`:   "short",
		`{"cacheRetention":""}`:     "short",
		`{"cacheRetention":false,"env":{"PI_CACHE_RETENTION":"long"}}`: "long",
	} {
		v, _ := jsonv.Parse([]byte(in))
		o, err := provider.DecodeOptions(v, "/options", nil)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := o.Retention(); got != want {
			t.Errorf("%s: Retention() = %q, want %q", in, got, want)
		}
	}
}

// TestSessionOfOtherTypes: a sessionId of any type is written into headers
// as String() writes it when truthy, and clamped into a prompt_cache_key
// as Array.from counts it.
func TestSessionOfOtherTypes(t *testing.T) {
	long := "[" + strings.Repeat(`"ab",`, 70) + `null]`
	for _, tc := range []struct{ in, session, key, err string }{
		{`"s"`, "s", `"s"`, ""},
		{`7`, "7", `7`, ""},
		{`0`, "", `0`, ""},
		{`{}`, "[object Object]", `{}`, ""},
		{`[1,null]`, "1,", `[1,null]`, ""},
		{long, strings.Repeat("ab,", 70) + "", `"` + strings.Repeat("ab", 64) + `"`, ""},
		{`null`, "", ``, "Array.from(null)"},
	} {
		v, _ := jsonv.Parse([]byte(`{"sessionId":` + tc.in + `}`))
		o, err := provider.DecodeOptions(v, "/options", nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		key, err := o.PromptCacheKey()
		gotKey := ""
		if !key.IsAbsent() {
			gotKey = string(key.AppendJSON(nil))
		}
		if s, _ := o.Session(); s != tc.session || gotKey != tc.key || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("sessionId %s: Session() %q, PromptCacheKey() %s, %v; want %q, %s, %q", tc.in, tc.session, gotKey, err, tc.session, tc.key, tc.err)
		}
	}
}

// TestClientAt: a Later entry replaces the client from its dialect on.
func TestClientAt(t *testing.T) {
	later := &provider.Client{AbortBeforeText: "new"}
	c := provider.Client{AbortBeforeText: "old", Later: dialect.Table[*provider.Client]{dialect.V1_6: later}}
	if got := c.At(dialect.V0_80).AbortBeforeText; got != "old" {
		t.Errorf("At(0.80) = %q, want old", got)
	}
	if got := c.At(dialect.V1_6).AbortBeforeText; got != "new" {
		t.Errorf("At(1.6) = %q, want new", got)
	}
	if got := (provider.Client{AbortBeforeText: "only"}).At(dialect.V1_6).AbortBeforeText; got != "only" {
		t.Errorf("At(1.6) without Later = %q, want only", got)
	}
}

// TestProviderErrorText: the body replaces the SDK's message unless the
// message holds it already or there is no status.
func TestProviderErrorText(t *testing.T) {
	long := strings.Repeat("x", 4001)
	for _, tc := range []struct {
		status             int
		message, body, pre string
		want               string
	}{
		{500, "500 boom", `{"message":"boom"}`, "", `500: {"message":"boom"}`},
		{500, "500 boom", `{"message":"boom"}`, "OpenAI Responses", `OpenAI Responses (500): {"message":"boom"}`},
		{500, "500 status code (no body)", "", "", "500 status code (no body)"},
		{500, "500 status code (no body)", "", "P", "P (500): 500 status code (no body)"},
		{0, "Connection error.", "", "P", "Connection error."},
		{0, "boom", `{"a":1}`, "", "boom"},
		{400, `400 {"a":1}`, `{"a":1}`, "", `400 {"a":1}`},
		{429, "m", "  ", "", "m"},
		{429, "m", long, "", "429: " + strings.Repeat("x", 4000) + "... [truncated 1 chars]"},
	} {
		if got := provider.ProviderErrorText(tc.status, tc.message, tc.body, tc.pre); got != tc.want {
			t.Errorf("ProviderErrorText(%d, %q, %q, %q) = %q, want %q", tc.status, tc.message, tc.body, tc.pre, got, tc.want)
		}
	}
}

// A request whose Content-Encoding is zstd sends its JSON compressed; any
// other sends the JSON itself.
func TestPayload(t *testing.T) {
	body := jsonv.ObjectValue(jsonv.Member{Key: "model", Value: jsonv.StringValue("m")})
	plain := provider.Request{Header: http.Header{}, Body: body}
	if got := string(plain.Payload()); got != `{"model":"m"}` {
		t.Errorf("plain payload %q", got)
	}
	packed := provider.Request{Header: http.Header{"Content-Encoding": {"zstd"}}, Body: body}
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := dec.DecodeAll(packed.Payload(), nil)
	if err != nil || string(got) != `{"model":"m"}` {
		t.Errorf("zstd payload decodes to %q, %v", got, err)
	}
}

// TestNoResponse: a client's error when no response arrives; Pi 1.6's
// OpenAI clients name a host the DNS does not know (seen with pi-ai 1.6.0
// in wire/azure-openai-responses-base-url-unresolved).
func TestNoResponse(t *testing.T) {
	c := provider.Client{NoResponseText: "lost", UnresolvedHostText: provider.UnresolvedHostText("Connection error.")}
	notFound := &url.Error{Op: "Post", URL: "https://h.invalid/x", Err: &net.OpError{Op: "dial", Err: &net.DNSError{Err: "no such host", Name: "h.invalid", IsNotFound: true}}}
	timeout := &net.DNSError{Err: "timeout", Name: "h.invalid", IsTimeout: true}
	for _, tc := range []struct {
		c    provider.Client
		err  error
		want string
	}{
		{c, notFound, "Connection error.: getaddrinfo ENOTFOUND h.invalid"},
		{c, timeout, "lost"},
		{c, io.EOF, "lost"},
		{c, nil, "lost"},
		{provider.Client{NoResponseText: "lost"}, notFound, "lost"},
	} {
		if got := tc.c.NoResponse(tc.err); got != tc.want {
			t.Errorf("NoResponse(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
