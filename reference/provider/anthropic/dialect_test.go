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
	capturetest.CheckRequests(t, Driver, lenientModel, []capturetest.RequestCase{
		{Name: "0.80 path", D: dialect.V0_80, Ctx: hello, URL: "/v1/messages"},
		{Name: "1.6 path", D: dialect.V1_6, Ctx: hello, URL: "/v1/messages?beta=true"},
		{Name: "0.80 interleaved beta without thinking", D: dialect.V0_80, Ctx: hello, Header: "anthropic-beta", Value: BetaInterleavedThinking},
		{Name: "1.6 no beta without thinking", D: dialect.V1_6, Ctx: hello, Header: "anthropic-beta", Value: ""},
		{Name: "1.6 interleaved beta with thinking", D: dialect.V1_6, Ctx: hello, Opts: `{"thinkingEnabled":true}`, Header: "anthropic-beta", Value: BetaInterleavedThinking},
		{Name: "1.6 no interleaved beta when forced adaptive", D: dialect.V1_6, Model: withModel(`"compat":{"forceAdaptiveThinking":true}`), Ctx: hello, Opts: `{"thinkingEnabled":true}`, Header: "anthropic-beta", Value: ""},
		{Name: "1.6 caller's list replaces Pi's", D: dialect.V1_6, Ctx: hello, Opts: `{"thinkingEnabled":true,"headers":{"ANTHROPIC-BETA":" x, y ,x,,"}}`, Header: "anthropic-beta", Value: "x,y"},
		{Name: "1.6 caller's null removes every beta", D: dialect.V1_6, Model: withModel(`"headers":{"anthropic-beta":"m"}`), Ctx: hello, Opts: `{"thinkingEnabled":true,"headers":{"Anthropic-Beta":null}}`, Header: "anthropic-beta", Value: ""},
		{Name: "1.6 OAuth betas alone", D: dialect.V1_6, Ctx: hello, Opts: `{"apiKey":"sk-ant-oat-1"}`, Header: "anthropic-beta", Value: BetaClaudeCode + "," + BetaOAuth},
		{Name: "1.6 OAuth user agent", D: dialect.V1_6, Ctx: hello, Opts: `{"apiKey":"sk-ant-oat-1"}`, Header: "user-agent", Value: "claude-cli/2.1.322"},
		{Name: "1.6 Pi's user agent", D: dialect.V1_6, Ctx: hello, Header: "user-agent", Value: "pi/1.6.0 (linux; node/v22.23.3; x64)"},
		{Name: "0.80 SDK's user agent", D: dialect.V0_80, Ctx: hello, Header: "user-agent", Value: "Anthropic/JS " + SDKVersion},
		{Name: "1.6 OpenRouter session header", D: dialect.V1_6, Model: withModel(`"provider":"openrouter"`), Ctx: hello, Opts: `{"sessionId":"s"}`, Header: "x-session-id", Value: "s"},
		{Name: "0.80 OpenRouter sends none by default", D: dialect.V0_80, Model: withModel(`"provider":"openrouter"`), Ctx: hello, Opts: `{"sessionId":"s"}`, Header: "x-session-id", Value: ""},
		{Name: "1.6 fallback models", D: dialect.V1_6, Model: withModel(`"compat":{"allowedFallbackModels":[{"provider":"anthropic","model":"h"}]}`), Ctx: hello,
			Header: "anthropic-beta", Value: BetaServerSideFallback, Pick: []string{"fallbacks"}, Want: `[{"model":"h"}]`},
		{Name: "0.80 no fallbacks", D: dialect.V0_80, Model: withModel(`"compat":{"allowedFallbackModels":[{"provider":"anthropic","model":"h"}]}`), Ctx: hello, Pick: []string{"fallbacks"}},
		{Name: "1.6 thread on api.anthropic.com with a session", D: dialect.V1_6, Ctx: hello, Opts: `{"sessionId":"s"}`,
			Header: "anthropic-beta", Value: BetaMessageThreads, Pick: []string{"thread"}, Want: `{"type":"create"}`},
		{Name: "1.6 no thread without continuation", D: dialect.V1_6, Ctx: hello, Opts: `{"sessionId":"s","disableContinuation":true}`,
			Header: "anthropic-beta", Value: BetaMessageThreads, Pick: []string{"thread"}},
		{Name: "1.6 no thread with retention none", D: dialect.V1_6, Ctx: hello, Opts: `{"sessionId":"s","cacheRetention":"none"}`, Header: "anthropic-beta", Value: "", Pick: []string{"thread"}},
		{Name: "0.80 schema keywords dropped", D: dialect.V0_80, Ctx: tools, Pick: []string{"tools", "0", "input_schema"}, Want: `{"type":"object","properties":{},"required":[]}`},
		{Name: "1.6 schema keywords kept", D: dialect.V1_6, Ctx: tools, Pick: []string{"tools", "0", "input_schema"}, Want: `{"type":"object","properties":{},"required":[],"additionalProperties":false,"$defs":{"a":{}}}`},
		{Name: "0.80 blank signed thinking dropped", D: dialect.V0_80, Ctx: signedBlank, Pick: []string{"messages"}, Want: `[]`},
		{Name: "1.6 blank signed thinking sent", D: dialect.V1_6, Ctx: signedBlank, Pick: []string{"messages", "0", "content", "0"}, Want: `{"type":"thinking","thinking":"  ","signature":"sig"}`},
		{Name: "0.80 error images kept in the result", D: dialect.V0_80, Ctx: errImages, Pick: []string{"messages", "0", "content", "1"}},
		{Name: "1.6 error images after the results", D: dialect.V1_6, Ctx: errImages, Pick: []string{"messages", "0", "content"},
			Want: `[{"type":"tool_result","tool_use_id":"c","content":"(image attached after the tool results)\nx","is_error":true},` +
				`{"type":"text","text":"Images from the error result of tool call c (shot):"},` +
				`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"d"},"cache_control":{"type":"ephemeral"}}]`},
		{Name: "1.6 managed effort: no temperature, markers", D: dialect.V1_6, Model: withModel(`"compat":{"supportsMidConvoEffort":true}`), Ctx: hello,
			Opts: `{"temperature":0.5,"effort":"max"}`, Pick: []string{"messages", "1"}, Want: `{"role":"system","content":[],"output_config":{"effort":"max"}}`},
		{Name: "0.80 no managed effort", D: dialect.V0_80, Model: withModel(`"compat":{"supportsMidConvoEffort":true}`), Ctx: hello,
			Opts: `{"temperature":0.5}`, Pick: []string{"temperature"}, Want: `0.5`},
		{Name: "1.6 system message kept where it stands", D: dialect.V1_6, Model: withModel(`"compat":{"supportsMidConvoSystemMessages":true}`),
			Ctx:  `{"messages":[{"role":"user","content":"hi","timestamp":1},{"role":"system","content":"","sections":{"a":"x","b":null},"timestamp":2}]}`,
			Pick: []string{"messages", "1", "content", "0", "text"}, Want: `"Updated system prompt section \"a\":\n\nx\n\nRemoved system prompt section \"b\"."`},
	})
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
