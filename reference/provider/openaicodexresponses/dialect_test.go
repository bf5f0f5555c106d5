package openaicodexresponses

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

// The expected values of this file are what Pi 1.6.0 sent and made of the
// same input under Node 22 (its stream function against a loopback server,
// the zstd body decoded).

const (
	codexModel = `{"id":"gpt-5.1-codex","api":"openai-codex-responses","provider":"openai-codex","baseUrl":"http://h","reasoning":true,"input":["text"],
		"cost":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0}}`
	codexKey = `"eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYWNjdC1waWNvbmZvcm0tZmFrZSJ9fQ.unsigned"`
)

func TestRequest16(t *testing.T) {
	for _, tc := range []struct {
		name, model, ctx, opts string
		body                   string
		// headers maps a header to its value, "" for absent.
		headers map[string]string
	}{
		{"the prompt as an item, caller's headers win, retention none", codexModel,
			`{"systemPrompt":"SYS","messages":[{"role":"user","content":"hi","timestamp":1}],"tools":[{"name":"f","description":"d","parameters":{"type":"object"}}]}`,
			`{"transport":"sse","toolChoice":"required","maxTokens":5,"sessionId":"s","cacheRetention":"none","headers":{"originator":"caller","User-Agent":"mine/1"}}`,
			`{"model":"gpt-5.1-codex","store":false,"stream":true,"input":[{"role":"developer","content":"SYS"},{"role":"user","content":[{"type":"input_text","text":"hi"}]}],
			"text":{"verbosity":"low"},"include":["reasoning.encrypted_content"],"tool_choice":"required","parallel_tool_calls":true,"max_output_tokens":16,
			"tools":[{"type":"function","name":"f","description":"d","parameters":{"type":"object"},"strict":null}],"reasoning":{"effort":"none"}}`,
			map[string]string{"originator": "caller", "user-agent": "mine/1", "content-encoding": "zstd", "session-id": "", "x-client-request-id": ""}},
		{"a null off entry sends no reasoning for none", strings.Replace(codexModel, `"reasoning":true`, `"reasoning":true,"thinkingLevelMap":{"off":null}`, 1),
			`{"messages":[{"role":"user","content":"hi","timestamp":1}]}`, `{"transport":"sse","reasoningEffort":"none","sessionId":"s"}`,
			`{"model":"gpt-5.1-codex","store":false,"stream":true,"input":[{"role":"user","content":[{"type":"input_text","text":"hi"}]}],
			"text":{"verbosity":"low"},"include":["reasoning.encrypted_content"],"prompt_cache_key":"s","tool_choice":"auto","parallel_tool_calls":true}`,
			map[string]string{"originator": "pi", "user-agent": "pi/1.6.0 (linux; node/v22.23.3; x64)", "session-id": "s", "x-client-request-id": "s"}},
		{"model headers read as entries; a system item for a model that does not reason", strings.Replace(codexModel, `"reasoning":true`, `"reasoning":false,"headers":[["X-Team","a"]]`, 1),
			`{"systemPrompt":"SYS","messages":[{"role":"user","content":"hi","timestamp":1}]}`, `{"transport":"sse"}`,
			`{"model":"gpt-5.1-codex","store":false,"stream":true,"input":[{"role":"system","content":"SYS"},{"role":"user","content":[{"type":"input_text","text":"hi"}]}],
			"text":{"verbosity":"low"},"include":["reasoning.encrypted_content"],"tool_choice":"auto","parallel_tool_calls":true}`,
			map[string]string{"0": "X-Team,a", "x-team": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			call, err := capturetest.BuildCallIn(t, Driver, dialect.V1_6, tc.model, tc.ctx, strings.Replace(tc.opts, "{", `{"apiKey":`+codexKey+",", 1))
			if err != nil {
				t.Fatal(err)
			}
			if got, want := call.Body.String(), jsonvtest.Parse(t, tc.body).String(); got != want {
				t.Errorf("body\n got %s\nwant %s", got, want)
			}
			for name, want := range tc.headers {
				if got := call.Header.Get(name); got != want {
					t.Errorf("header %s = %q, want %q", name, got, want)
				}
			}
			// The body goes out compressed, and decodes to the JSON.
			dec, err := zstd.NewReader(nil)
			if err != nil {
				t.Fatal(err)
			}
			plain, err := dec.DecodeAll(call.Payload(), nil)
			if err != nil || string(plain) != string(call.Body.AppendJSON(nil)) {
				t.Errorf("payload decodes to %q, %v", plain, err)
			}
		})
	}
}

// A server wait above maxRetryDelayMs ends the call in 1.6, rounded up to
// seconds on both sides; 0.80 waited, capped after a 429 only.
func TestRefuseDelay(t *testing.T) {
	resp := &http.Response{StatusCode: 503, Header: http.Header{"Retry-After": {"2.2"}}}
	o := &provider.StreamOptions{MaxRetryDelayMs: jsonv.NumberValue("1500")}
	if msg, ok := refuseDelay(resp, []byte("busy"), o); !ok || msg != "Server requested 3s retry delay (max: 2s)" {
		t.Errorf("refuseDelay = %q, %v", msg, ok)
	}
	o.MaxRetryDelayMs = jsonv.NumberValue("0")
	if _, ok := refuseDelay(resp, []byte("busy"), o); ok {
		t.Error("maxRetryDelayMs 0 allows any wait")
	}
	o.MaxRetryDelayMs = jsonv.Value{}
	if _, ok := refuseDelay(&http.Response{StatusCode: 400, Header: resp.Header}, []byte("bad"), o); ok {
		t.Error("an answer Pi does not retry is not refused")
	}
	if Retry.Refuse != nil || Retry16.Refuse == nil {
		t.Error("only 1.6 refuses")
	}
}

// Pi 1.6 reads a last piece that no blank line ends and records end_turn.
func TestParseStream16(t *testing.T) {
	body := "data: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"type\":\"message\",\"id\":\"m\"}}\n\n" +
		"data: {\"type\":\"response.output_text.delta\",\"output_index\":0,\"delta\":\"x\"}\n\n" +
		"data: {\"type\":\"response.done\",\"response\":{\"status\":\"completed\",\"end_turn\":false}}"
	m, err := ai.DecodeWireModel(jsonvtest.Parse(t, codexModel), "/model")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		d    dialect.Dialect
		want []string
	}{
		{dialect.V0_80, []string{`"stopReason":"error"`, `"errorMessage":"OpenAI Responses stream ended before a terminal response event"`}},
		{dialect.V1_6, []string{`"content":[{"type":"text","text":"x"}]`, `"stopReason":"stop"`, `"endTurn":false`}},
	} {
		msg, _, err := ParseStreamIn(tc.d, io.NopCloser(strings.NewReader(body)), m, nil, capturetest.Clock)
		if err != nil {
			t.Fatal(err)
		}
		got := msg.JSON().String()
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %s lacks %s", tc.d, got, w)
			}
		}
	}
}

// A WebSocket request without a session id gets a version-7 UUID in 1.6.
func TestRequestIDv7(t *testing.T) {
	v7 := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	if id := newRequestIDs.At(dialect.V1_6)(); !v7.MatchString(id) {
		t.Errorf("1.6 request id %q is no version-7 UUID", id)
	}
	if id := newRequestIDs.At(dialect.V0_80)(); v7.MatchString(id) {
		t.Errorf("0.80 request id %q is a version-7 UUID", id)
	}
}
