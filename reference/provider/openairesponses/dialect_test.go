package openairesponses

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/provider/stream"
)

// The expected values of this file are what Pi 1.6.0 (and 0.80.2 where a
// case says so) sent and made of the same input under Node 22: the reader's
// from testdata/slots16.json, the requests' and errors' from the same
// options sent by Pi's stream to a loopback server. The wire cases marked
// since 1.6 check more of it against the real Pi.

const model16 = `{"id":"gpt-5","api":"openai-responses","provider":"openai","baseUrl":"http://h","reasoning":true,"input":["text","image"],
	"cost":{"input":1.25,"output":10,"cacheRead":0.125,"cacheWrite":1.5}}`

// TestSlotReader checks Pi 1.6's reading of Responses events against what
// the real Pi 1.6.0 made of the same event data (testdata/slots16.json,
// captured from its processResponsesStream and the checks of its stream
// function under Node 22): the whole final message and the event types.
func TestSlotReader(t *testing.T) {
	data, err := os.ReadFile("testdata/slots16.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name    string
		Events  []json.RawMessage
		Types   string
		Message any
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	m, err := ai.DecodeWireModel(jsonvtest.Parse(t, model16), "/model")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			var body strings.Builder
			for _, e := range tc.Events {
				var line bytes.Buffer
				if err := json.Compact(&line, e); err != nil {
					t.Fatal(err)
				}
				body.WriteString("data: " + line.String() + "\n\n")
			}
			f := Flavor{PendingText: PendingText, FastTier: true, Decorate: usageLimitHint}
			msg, events, err := ParseStreamIn(dialect.V1_6, strings.NewReader(body.String()), m, f, capturetest.Clock)
			if err != nil {
				t.Fatal(err)
			}
			var got any
			if err := json.Unmarshal(msg.JSON().AppendJSON(nil), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.Message, got); diff != "" {
				t.Errorf("message (-Pi +reference):\n%s", diff)
			}
			var types []string
			for _, e := range events {
				types = append(types, e.Type)
			}
			if got := strings.Join(types, " "); got != tc.Types {
				t.Errorf("events %s, want %s", got, tc.Types)
			}
		})
	}
}

func TestRequest16(t *testing.T) {
	const ctx = `{"messages":[{"role":"user","content":"hi","timestamp":1}],"tools":[{"name":"f","description":"d","parameters":{"type":"object"}}]}`
	for _, tc := range []struct {
		name, model, opts string
		d                 dialect.Dialect
		// want maps a body member to its JSON ("" for absent) and a
		// header (a name starting with "h:") to its value.
		want map[string]string
	}{
		{"0.80 keeps strict, ignores toolChoice, sends maxTokens as it is", model16, `{"toolChoice":"required","maxTokens":5,"sessionId":"s"}`, dialect.V0_80,
			map[string]string{"tool_choice": "", "max_output_tokens": `5`, "tools": `[{"type":"function","name":"f","description":"d","parameters":{"type":"object"},"strict":false}]`,
				"h:session_id": "s", "h:session-id": "", "h:x-client-request-id": "s"}},
		{"1.6 sends toolChoice, raises maxTokens, drops strict", model16, `{"toolChoice":"required","maxTokens":5,"sessionId":"s"}`, dialect.V1_6,
			map[string]string{"tool_choice": `"required"`, "max_output_tokens": `16`, "tools": `[{"type":"function","name":"f","description":"d","parameters":{"type":"object"}}]`,
				"h:session_id": "", "h:session-id": "s", "h:x-client-request-id": "s"}},
		{"openrouter's session header and strict by compat", strings.Replace(model16, `"provider":"openai"`, `"provider":"openrouter","compat":{"supportsStrictMode":true}`, 1), `{"sessionId":"s"}`, dialect.V1_6,
			map[string]string{"h:x-session-id": "s", "h:session-id": "", "h:x-client-request-id": "", "tools": `[{"type":"function","name":"f","description":"d","parameters":{"type":"object"},"strict":false}]`}},
		{"another affinity format sends only the request id", strings.Replace(model16, `"provider":"openai"`, `"provider":"openai","compat":{"sessionAffinityFormat":"x"}`, 1), `{"sessionId":"s"}`, dialect.V1_6,
			map[string]string{"h:x-session-id": "", "h:session-id": "", "h:x-client-request-id": "s"}},
		{"xai includes the encrypted reasoning", strings.Replace(model16, `"provider":"openai"`, `"provider":"xai"`, 1), ``, dialect.V1_6,
			map[string]string{"reasoning": `{"effort":"none"}`, "include": `["reasoning.encrypted_content"]`}},
		{"a falsy effort with a summary sends the off effort (1.6)", model16, `{"reasoningEffort":"","reasoningSummary":"detailed"}`, dialect.V1_6,
			map[string]string{"reasoning": `{"effort":"none"}`, "include": ""}},
		{"a falsy effort with a summary asks for medium (0.80)", model16, `{"reasoningEffort":"","reasoningSummary":"detailed"}`, dialect.V0_80,
			map[string]string{"reasoning": `{"effort":"medium","summary":"detailed"}`}},
		{"explicit cache mode, key disabled", strings.Replace(model16, `"provider":"openai"`, `"provider":"openai","compat":{"supportsExplicitPromptCacheMode":true,"promptCacheKeyMode":"disabled"}`, 1), `{"cacheRetention":"long","sessionId":"s"}`, dialect.V1_6,
			map[string]string{"prompt_cache_key": "", "prompt_cache_retention": "", "prompt_cache_options": `{"ttl":"30m"}`}},
		{"a ChatGPT sign-in leaves fields out", strings.Replace(model16, `"baseUrl":"http://h"`, `"baseUrl":"https://api.openai.com/v1"`, 1), `{"apiKey":"token","cacheRetention":"long","maxTokens":100,"temperature":0.5,"sessionId":"s"}`, dialect.V1_6,
			map[string]string{"prompt_cache_key": `"s"`, "prompt_cache_retention": "", "max_output_tokens": "", "temperature": ""}},
		{"an sk- key is no sign-in", strings.Replace(model16, `"baseUrl":"http://h"`, `"baseUrl":"https://api.openai.com/v1"`, 1), `{"apiKey":"sk-1","cacheRetention":"long","maxTokens":100}`, dialect.V1_6,
			map[string]string{"prompt_cache_retention": `"24h"`, "max_output_tokens": `100`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			call, err := capturetest.BuildCallIn(t, Driver, tc.d, tc.model, ctx, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			for key, want := range tc.want {
				if name, ok := strings.CutPrefix(key, "h:"); ok {
					if got := call.Header.Get(name); got != want {
						t.Errorf("header %s = %q, want %q", name, got, want)
					}
					continue
				}
				got, ok := call.Body.Get(key)
				switch {
				case want == "" && ok:
					t.Errorf("%s = %s, want none", key, got)
				case want != "" && got.String() != jsonvtest.Parse(t, want).String():
					t.Errorf("%s = %s, want %s", key, got, want)
				}
			}
		})
	}
}

// Replayed history of 1.6: a whitespace tool-result text counts as none
// and a result without text or images says so; a call's item id is sent
// only when it starts with fc_.
func TestConvert16(t *testing.T) {
	msgs := `[{"role":"assistant",` + same + `,"content":[{"type":"toolCall","id":"c1|fc_1","name":"f","arguments":{}},{"type":"toolCall","id":"c2|item_2","name":"f","arguments":{}}]},
		{"role":"toolResult","toolCallId":"c1|fc_1","toolName":"f","content":[{"type":"text","text":"  "}]},
		{"role":"toolResult","toolCallId":"c2|item_2","toolName":"f","content":[]}]`
	for _, tc := range []struct {
		d    dialect.Dialect
		want string
	}{
		{dialect.V0_80, `[{"type":"function_call","id":"fc_1","call_id":"c1","name":"f","arguments":"{}"},{"type":"function_call","id":"item_2","call_id":"c2","name":"f","arguments":"{}"},
			{"type":"function_call_output","call_id":"c1","output":"  "},{"type":"function_call_output","call_id":"c2","output":"(see attached image)"}]`},
		{dialect.V1_6, `[{"type":"function_call","id":"fc_1","call_id":"c1","name":"f","arguments":"{}"},{"type":"function_call","call_id":"c2","name":"f","arguments":"{}"},
			{"type":"function_call_output","call_id":"c1","output":"(no tool output)"},{"type":"function_call_output","call_id":"c2","output":"(no tool output)"}]`},
	} {
		call, err := capturetest.BuildCallIn(t, Driver, tc.d, visionModel, `{"messages":`+msgs+`}`, "")
		if err != nil {
			t.Fatal(err)
		}
		capturetest.WantMember(t, call.Body, nil, "input", tc.want)
	}
}

// The HTTP error of 1.6 quotes the body's error as JSON and names a
// provider other than openai.
func TestHTTPError16(t *testing.T) {
	for _, tc := range []struct {
		provider, body, want string
	}{
		{"openai", `{"error":{"message":"bad","type":"t"}}`, `OpenAI API error (400): {"message":"bad","type":"t"}`},
		{"github-copilot", `{"error":{"message":"bad"}}`, `github-copilot API error (400): {"message":"bad"}`},
		{"openai", `{"detail":"x"}`, `OpenAI API error (400): 400 {"detail":"x"}`},
		{"openai", `oops`, `OpenAI API error (400): 400 oops`},
		{"openai", `{"error":{"message":"m","code":"subscription_sharing_workplace_individual_usage_limit_exceeded"}}`,
			"OpenAI API error (400): {\"message\":\"m\",\"code\":\"subscription_sharing_workplace_individual_usage_limit_exceeded\"}" + WorkspaceUsageLimitHint},
	} {
		m := &ai.Model{ID: "gpt-5", API: API, Provider: tc.provider}
		msg, _, _ := ParseHTTPErrorIn(dialect.V1_6, m, 400, []byte(tc.body), capturetest.Clock)
		if got := *msg.ErrorMessage; got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.provider, tc.body, got, tc.want)
		}
	}
}

// TestCatchThrows16: Pi 1.6's catch words every failure under the prefix
// "<provider> API error", made whether used or not; a provider other than
// "openai" with no string form throws there (V8's TypeError, an unhandled
// rejection that ends Node: seen with pi-ai 1.6.0 on response.failed and on
// a 400), which the reference refuses as not modelled. 0.80 names no
// provider; a call that succeeds never reaches the catch.
func TestCatchThrows16(t *testing.T) {
	for _, tc := range []struct {
		name     string
		d        dialect.Dialect
		provider string
		throws   bool
	}{
		{"1.6 no string form", dialect.V1_6, `{"toString":"x"}`, true},
		{"0.80 no string form", dialect.V0_80, `{"toString":"x"}`, false},
		{"1.6 an object with a string form", dialect.V1_6, `{}`, false},
		{"1.6 a number", dialect.V1_6, `7`, false},
		{"1.6 openai", dialect.V1_6, `"openai"`, false},
		{"1.6 github-copilot", dialect.V1_6, `"github-copilot"`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := jsonv.ParseString(`{"id":"gpt-5","name":"GPT-5","api":"openai-responses","provider":` + tc.provider +
				`,"baseUrl":"http://h","reasoning":true,"input":["text"],"cost":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0},"contextWindow":1000,"maxTokens":100}`)
			if err != nil {
				t.Fatal(err)
			}
			m, err := ai.DecodeWireModel(v, "/model")
			if err != nil {
				t.Fatal(err)
			}
			failed := &ai.AssistantMessage{StopReason: ai.StopError}
			err = Driver.FailureThrows(tc.d, m, failed)
			if got := errors.Is(err, stream.ErrOutsideModel); got != tc.throws {
				t.Errorf("a failure refused: %v, want %v (%v)", got, tc.throws, err)
			}
			if err := Driver.FailureThrows(tc.d, m, &ai.AssistantMessage{StopReason: ai.StopStop}); err != nil {
				t.Errorf("a success refused: %v", err)
			}
			_, _, err = ParseHTTPErrorIn(tc.d, m, 400, []byte(`{"error":{"message":"bad"}}`), capturetest.Clock)
			if got := errors.Is(err, stream.ErrOutsideModel); got != tc.throws {
				t.Errorf("an HTTP error refused: %v, want %v (%v)", got, tc.throws, err)
			}
		})
	}
}

// TestSDKHeadersAbortCheck16: what the SDK refuses as it makes the request
// (a header value with no string form, one fetch will not carry, a timeout
// it will not take) comes after Pi 1.6's abort check, inside its retry
// loop, so an aborted signal's error replaces it; in 0.80 it does not.
// Seen with pi-ai 1.6.0 and 0.80.2 in the wire cases
// *-abort-before-request-header-*.
func TestSDKHeadersAbortCheck16(t *testing.T) {
	noString, err := jsonv.ParseString(`{"x-a":{"toString":"x"}}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		headers []httpheader.Header
		timeout jsonv.Value
	}{
		{"no string form", httpheader.Decode(noString), jsonv.Value{}},
		{"not a byte string", []httpheader.Header{httpheader.New("x-a", "\u0100")}, jsonv.Value{}},
		{"a timeout of another type", nil, jsonv.StringValue("")},
	} {
		for _, d := range []dialect.Dialect{dialect.V0_80, dialect.V1_6} {
			_, err := SDKHeadersAt(d, "OpenAI", tc.timeout, httpheader.New("Authorization", "Bearer k"), tc.headers)
			if _, ok := provider.Refusal(err); !ok {
				t.Fatalf("%s, %v: %v, want a refusal", tc.name, d, err)
			}
			if got, want := errors.Is(err, stream.ErrAfterAbortCheck), d == dialect.V1_6; got != want {
				t.Errorf("%s, %v: after the abort check %v, want %v", tc.name, d, got, want)
			}
		}
	}
}
