package anthropic

import (
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/provider/stream"
)

const hello = `{"messages":[{"role":"user","content":"hi","timestamp":1}]}`

// TestRequestByDialect pins what Pi 1.6 sends differently from 0.80 for the
// same call: the path, the beta list and its header rules, session
// affinity, the schema keywords kept, signed blank thinking, the images of
// an error result, fallbacks and threads.
func TestRequestByDialect(t *testing.T) {
	withModel := func(members string) string {
		return strings.TrimSuffix(lenientModel, "}") + "," + members + "}"
	}
	tools := `{"messages":[{"role":"user","content":"hi","timestamp":1}],"tools":[{"name":"t","description":"d","parameters":{"type":"object","properties":{},"additionalProperties":false,"$defs":{"a":{}},"$schema":"s"}}]}`
	signedBlank := `{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"  ","thinkingSignature":"sig"}],` + same + `}]}`
	errImages := `{"messages":[{"role":"toolResult","toolCallId":"c","toolName":"shot","content":[{"type":"image","data":"d","mimeType":"image/png"},{"type":"text","text":"x"}],"isError":true,"timestamp":1}]}`
	for _, tc := range []struct {
		name          string
		d             dialect.Dialect
		model, ctx    string
		opts          string
		header, value string // a header and its value ("" for none); header "" checks nothing
		pick          []string
		want          string // JSON of the body member at pick; "" for none
		url           string // a suffix of the URL
	}{
		{name: "0.80 path", d: dialect.V0_80, ctx: hello, url: "/v1/messages"},
		{name: "1.6 path", d: dialect.V1_6, ctx: hello, url: "/v1/messages?beta=true"},
		{name: "0.80 interleaved beta without thinking", d: dialect.V0_80, ctx: hello, header: "anthropic-beta", value: BetaInterleavedThinking},
		{name: "1.6 no beta without thinking", d: dialect.V1_6, ctx: hello, header: "anthropic-beta", value: ""},
		{name: "1.6 interleaved beta with thinking", d: dialect.V1_6, ctx: hello, opts: `{"thinkingEnabled":true}`, header: "anthropic-beta", value: BetaInterleavedThinking},
		{name: "1.6 no interleaved beta when forced adaptive", d: dialect.V1_6, model: withModel(`"compat":{"forceAdaptiveThinking":true}`), ctx: hello, opts: `{"thinkingEnabled":true}`, header: "anthropic-beta", value: ""},
		{name: "1.6 caller's list replaces Pi's", d: dialect.V1_6, ctx: hello, opts: `{"thinkingEnabled":true,"headers":{"ANTHROPIC-BETA":" x, y ,x,,"}}`, header: "anthropic-beta", value: "x,y"},
		{name: "1.6 caller's null removes every beta", d: dialect.V1_6, model: withModel(`"headers":{"anthropic-beta":"m"}`), ctx: hello, opts: `{"thinkingEnabled":true,"headers":{"Anthropic-Beta":null}}`, header: "anthropic-beta", value: ""},
		{name: "1.6 OAuth betas alone", d: dialect.V1_6, ctx: hello, opts: `{"apiKey":"sk-ant-oat-1"}`, header: "anthropic-beta", value: BetaClaudeCode + "," + BetaOAuth},
		{name: "1.6 OAuth user agent", d: dialect.V1_6, ctx: hello, opts: `{"apiKey":"sk-ant-oat-1"}`, header: "user-agent", value: "claude-cli/2.1.322"},
		{name: "1.6 Pi's user agent", d: dialect.V1_6, ctx: hello, header: "user-agent", value: "pi/1.6.0 (linux; node/v22.23.3; x64)"},
		{name: "0.80 SDK's user agent", d: dialect.V0_80, ctx: hello, header: "user-agent", value: "Anthropic/JS " + SDKVersion},
		{name: "1.6 OpenRouter session header", d: dialect.V1_6, model: withModel(`"provider":"openrouter"`), ctx: hello, opts: `{"sessionId":"s"}`, header: "x-session-id", value: "s"},
		{name: "0.80 OpenRouter sends none by default", d: dialect.V0_80, model: withModel(`"provider":"openrouter"`), ctx: hello, opts: `{"sessionId":"s"}`, header: "x-session-id", value: ""},
		{name: "1.6 fallback models", d: dialect.V1_6, model: withModel(`"compat":{"allowedFallbackModels":[{"provider":"anthropic","model":"h"}]}`), ctx: hello,
			header: "anthropic-beta", value: BetaServerSideFallback, pick: []string{"fallbacks"}, want: `[{"model":"h"}]`},
		{name: "0.80 no fallbacks", d: dialect.V0_80, model: withModel(`"compat":{"allowedFallbackModels":[{"provider":"anthropic","model":"h"}]}`), ctx: hello, pick: []string{"fallbacks"}},
		{name: "1.6 thread on api.anthropic.com with a session", d: dialect.V1_6, ctx: hello, opts: `{"sessionId":"s"}`,
			header: "anthropic-beta", value: BetaMessageThreads, pick: []string{"thread"}, want: `{"type":"create"}`},
		{name: "1.6 no thread without continuation", d: dialect.V1_6, ctx: hello, opts: `{"sessionId":"s","disableContinuation":true}`,
			header: "anthropic-beta", value: BetaMessageThreads, pick: []string{"thread"}},
		{name: "1.6 no thread with retention none", d: dialect.V1_6, ctx: hello, opts: `{"sessionId":"s","cacheRetention":"none"}`, header: "anthropic-beta", value: "", pick: []string{"thread"}},
		{name: "0.80 schema keywords dropped", d: dialect.V0_80, ctx: tools, pick: []string{"tools", "0", "input_schema"}, want: `{"type":"object","properties":{},"required":[]}`},
		{name: "1.6 schema keywords kept", d: dialect.V1_6, ctx: tools, pick: []string{"tools", "0", "input_schema"}, want: `{"type":"object","properties":{},"required":[],"additionalProperties":false,"$defs":{"a":{}}}`},
		{name: "0.80 blank signed thinking dropped", d: dialect.V0_80, ctx: signedBlank, pick: []string{"messages"}, want: `[]`},
		{name: "1.6 blank signed thinking sent", d: dialect.V1_6, ctx: signedBlank, pick: []string{"messages", "0", "content", "0"}, want: `{"type":"thinking","thinking":"  ","signature":"sig"}`},
		{name: "0.80 error images kept in the result", d: dialect.V0_80, ctx: errImages, pick: []string{"messages", "0", "content", "1"}},
		{name: "1.6 error images after the results", d: dialect.V1_6, ctx: errImages, pick: []string{"messages", "0", "content"},
			want: `[{"type":"tool_result","tool_use_id":"c","content":"(image attached after the tool results)\nx","is_error":true},` +
				`{"type":"text","text":"Images from the error result of tool call c (shot):"},` +
				`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"d"},"cache_control":{"type":"ephemeral"}}]`},
		{name: "1.6 managed effort: no temperature, markers", d: dialect.V1_6, model: withModel(`"compat":{"supportsMidConvoEffort":true}`), ctx: hello,
			opts: `{"temperature":0.5,"effort":"max"}`, pick: []string{"messages", "1"}, want: `{"role":"system","content":[],"output_config":{"effort":"max"}}`},
		{name: "0.80 no managed effort", d: dialect.V0_80, model: withModel(`"compat":{"supportsMidConvoEffort":true}`), ctx: hello,
			opts: `{"temperature":0.5}`, pick: []string{"temperature"}, want: `0.5`},
		{name: "1.6 system message kept where it stands", d: dialect.V1_6, model: withModel(`"compat":{"supportsMidConvoSystemMessages":true}`),
			ctx:  `{"messages":[{"role":"user","content":"hi","timestamp":1},{"role":"system","content":"","sections":{"a":"x","b":null},"timestamp":2}]}`,
			pick: []string{"messages", "1", "content", "0", "text"}, want: `"Updated system prompt section \"a\":\n\nx\n\nRemoved system prompt section \"b\"."`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := tc.model
			if model == "" {
				model = lenientModel
			}
			call, err := capturetest.BuildCallIn(t, Driver, tc.d, model, tc.ctx, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if tc.url != "" && !strings.HasSuffix(call.URL, tc.url) {
				t.Errorf("URL %s, want it to end in %s", call.URL, tc.url)
			}
			if tc.header != "" {
				if got := call.Header.Get(tc.header); got != tc.value {
					t.Errorf("%s = %q, want %q", tc.header, got, tc.value)
				}
			}
			if tc.pick != nil {
				capturetest.CheckMember(t, call.Body, tc.pick, tc.want)
			}
		})
	}
}

// sseBody writes events as a Messages API stream: each a name and its data.
func sseBody(events ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(events); i += 2 {
		b.WriteString("event: " + events[i] + "\ndata: " + events[i+1] + "\n\n")
	}
	return b.String()
}

const (
	startEv   = `{"type":"message_start","message":{"id":"m","model":"claude-sonnet-4-5","usage":{"input_tokens":1,"output_tokens":1}}}`
	stopEv    = `{"type":"message_stop"}`
	endTurnEv = `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}`
)

// TestStreamByDialect pins how Pi 1.6 reads the same stream differently
// from 0.80.
func TestStreamByDialect(t *testing.T) {
	model, err := ai.DecodeWireModel(jsonvtest.Parse(t, lenientModel), "/model")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		d      dialect.Dialect
		body   string
		check  func(out *ai.AssistantMessage) string // "" when fine
		failed string                                // the stream's errorMessage; "" for done
	}{
		{name: "0.80 initial text ignored", d: dialect.V0_80,
			body:  sseBody("message_start", startEv, "content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"a"}}`, "content_block_stop", `{"type":"content_block_stop","index":0}`, "message_delta", endTurnEv, "message_stop", stopEv),
			check: textIs(""), failed: ""},
		{name: "1.6 initial text kept", d: dialect.V1_6,
			body:  sseBody("message_start", startEv, "content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"a"}}`, "content_block_stop", `{"type":"content_block_stop","index":0}`, "message_delta", endTurnEv, "message_stop", stopEv),
			check: textIs("a")},
		{name: "1.6 no stop reason fails", d: dialect.V1_6,
			body: sseBody("message_start", startEv, "message_stop", stopEv), failed: EndedWithoutStopReasonText},
		{name: "0.80 no stop reason is stop", d: dialect.V0_80,
			body: sseBody("message_start", startEv, "message_stop", stopEv)},
		{name: "1.6 sensitive names itself", d: dialect.V1_6,
			body: sseBody("message_start", startEv, "message_delta", `{"type":"message_delta","delta":{"stop_reason":"sensitive"},"usage":{}}`, "message_stop", stopEv), failed: SensitiveText},
		{name: "0.80 sensitive is unknown", d: dialect.V0_80,
			body: sseBody("message_start", startEv, "message_delta", `{"type":"message_delta","delta":{"stop_reason":"sensitive"},"usage":{}}`, "message_stop", stopEv), failed: stream.UnknownErrorText},
		{name: "1.6 delta without usage", d: dialect.V1_6,
			body: sseBody("message_start", startEv, "message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"}}`, "message_stop", stopEv),
			check: func(out *ai.AssistantMessage) string {
				if out.RawStopReason.Str() != "end_turn" || out.Usage.Output.String() != "1" {
					return "rawStopReason " + out.RawStopReason.String() + ", output " + out.Usage.Output.String()
				}
				return ""
			}},
		{name: "0.80 delta without usage throws", d: dialect.V0_80,
			body: sseBody("message_start", startEv, "message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"}}`, "message_stop", stopEv), failed: "Cannot read properties of undefined (reading 'input_tokens')"},
		{name: "1.6 usage details", d: dialect.V1_6,
			body: sseBody("message_start", startEv, "message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"cache_creation":{"ephemeral_1h_input_tokens":4},"output_tokens_details":{"thinking_tokens":3}}}`, "message_stop", stopEv),
			check: func(out *ai.AssistantMessage) string {
				if out.Usage.Reasoning.String() != "3" || out.Usage.CacheWrite1h.String() != "4" {
					return "reasoning " + out.Usage.Reasoning.String() + ", cacheWrite1h " + out.Usage.CacheWrite1h.String()
				}
				return ""
			}},
		{name: "1.6 responseModel and fallback block", d: dialect.V1_6,
			body: sseBody("message_start", strings.Replace(startEv, `"model":"claude-sonnet-4-5"`, `"model":"other"`, 1),
				"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"fallback"}}`,
				"message_delta", endTurnEv, "message_stop", stopEv),
			check: func(out *ai.AssistantMessage) string {
				if out.ResponseModel == nil || *out.ResponseModel != "other" || len(out.Content) != 0 {
					return "responseModel or content wrong"
				}
				return ""
			}},
		{name: "1.6 fallback after content", d: dialect.V1_6,
			body: sseBody("message_start", startEv, "content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text"}}`,
				"content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"fallback"}}`, "message_delta", endTurnEv, "message_stop", stopEv),
			failed: MidOutputFallbackText},
		{name: "1.6 an index names the block started last under it", d: dialect.V1_6,
			body: sseBody("message_start", startEv,
				"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text"}}`,
				"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text"}}`,
				"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}`,
				"message_delta", endTurnEv, "message_stop", stopEv),
			check: func(out *ai.AssistantMessage) string {
				if out.Content[0].(*ai.TextBlock).Text != "" || out.Content[1].(*ai.TextBlock).Text != "x" {
					return "the delta went to the first block"
				}
				return ""
			}},
		{name: "0.80 an index names the first block", d: dialect.V0_80,
			body: sseBody("message_start", startEv,
				"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text"}}`,
				"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text"}}`,
				"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}`,
				"content_block_stop", `{"type":"content_block_stop","index":0}`, "content_block_stop", `{"type":"content_block_stop","index":0}`,
				"message_delta", endTurnEv, "message_stop", stopEv),
			check: textIs("x")},
		{name: "1.6 arguments parsed once, with argumentsError", d: dialect.V1_6,
			body: sseBody("message_start", startEv,
				"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"n","input":{}}}`,
				"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\":\"b"}}`,
				"content_block_stop", `{"type":"content_block_stop","index":0}`, "message_delta", endTurnEv, "message_stop", stopEv),
			check: func(out *ai.AssistantMessage) string {
				b := out.Content[0].(*ai.ToolCallBlock)
				if b.Arguments.String() != "{}" || len(b.Extra) != 1 || b.Extra[0].Key != stream.ArgumentsErrorKey {
					return "arguments " + b.Arguments.String()
				}
				return ""
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, events, err := parseStream(tc.d, strings.NewReader(tc.body), model, nil, func() jsonv.Value { return jsonv.NumberValue("1") })
			capturetest.CheckEnding(t, out, events, err, tc.failed, tc.check)
		})
	}
}

func textIs(want string) func(out *ai.AssistantMessage) string {
	return func(out *ai.AssistantMessage) string {
		if got := out.Content[0].(*ai.TextBlock).Text; got != want {
			return "text " + got + ", want " + want
		}
		return ""
	}
}
