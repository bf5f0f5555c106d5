package bedrock

import (
	"bytes"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/provider/eventstream"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/provider/stream"
)

const q = `{"messages":[{"role":"user","content":"q","timestamp":1}]}`

// keys are fake AWS credentials, for the requests that sign.
const keys = `"env":{"AWS_ACCESS_KEY_ID":"AKIDEXAMPLE","AWS_SECRET_ACCESS_KEY":"secret"}`

// TestRequestByDialect pins what Pi 1.6 sends differently from 0.80 for the
// same call.
func TestRequestByDialect(t *testing.T) {
	model := func(id, name string) string {
		return strings.Replace(strings.Replace(claude, "anthropic.claude-sonnet-4-5-20250929-v1:0", id, 1), "Claude Sonnet 4.5", name, 1)
	}
	errImages := `{"messages":[{"role":"toolResult","toolCallId":"c","toolName":"shot","content":[{"type":"image","data":"AAAA","mimeType":"image/png"}],"isError":true,"timestamp":1}]}`
	for _, tc := range []struct {
		name          string
		d             dialect.Dialect
		model, ctx    string
		opts          string
		header, value string // a header and its start ("" for none); header "" checks nothing
		pick          []string
		want          string // JSON of the body member at pick; "" for none
	}{
		{name: "0.80 apiKey ignored: SigV4", d: dialect.V0_80, ctx: q, opts: `{"apiKey":"key",` + keys + `}`, header: "authorization", value: "AWS4-HMAC-SHA256"},
		{name: "1.6 apiKey is a bearer token", d: dialect.V1_6, ctx: q, opts: `{"apiKey":"key",` + keys + `}`, header: "authorization", value: "Bearer key"},
		{name: "1.6 bearerToken before apiKey", d: dialect.V1_6, ctx: q, opts: `{"apiKey":"key","bearerToken":"tok"}`, header: "authorization", value: "Bearer tok"},
		{name: "0.80 user agent", d: dialect.V0_80, ctx: q, opts: `{"bearerToken":"t"}`, header: "x-amz-user-agent", value: "aws-sdk-js/3.1048.0"},
		{name: "1.6 user agent", d: dialect.V1_6, ctx: q, opts: `{"bearerToken":"t"}`, header: "x-amz-user-agent", value: "aws-sdk-js/3.1126.0 pi/1.6.0"},
		{name: "1.6 short identity", d: dialect.V1_6, ctx: q, opts: `{"bearerToken":"t","identity":{"userAgent":"short"}}`, header: "x-amz-user-agent", value: "aws-sdk-js/3.1126.0 pi"},
		{name: "0.80 GPT gets no reasoning", d: dialect.V0_80, model: model("openai.gpt-5-v1:0", "GPT-5"), ctx: q, opts: `{"bearerToken":"t","reasoning":"minimal"}`,
			pick: []string{"additionalModelRequestFields"}},
		{name: "1.6 GPT effort", d: dialect.V1_6, model: model("openai.gpt-5-v1:0", "GPT-5"), ctx: q, opts: `{"bearerToken":"t","reasoning":"minimal"}`,
			pick: []string{"additionalModelRequestFields"}, want: `{"reasoning":{"effort":"low"}}`},
		{name: "1.6 gpt-oss effort", d: dialect.V1_6, model: model("openai.gpt-oss-20b", "gpt-oss"), ctx: q, opts: `{"bearerToken":"t","reasoning":"xhigh"}`,
			pick: []string{"additionalModelRequestFields"}, want: `{"reasoning_effort":"high"}`},
		{name: "1.6 other models none", d: dialect.V1_6, model: model("amazon.nova-pro-v1:0", "Nova"), ctx: q, opts: `{"bearerToken":"t","reasoning":"high"}`,
			pick: []string{"additionalModelRequestFields"}},
		{name: "0.80 sonnet-5 is a budget model", d: dialect.V0_80, model: model("anthropic.claude-sonnet-5", "Claude Sonnet 5"), ctx: q, opts: `{"bearerToken":"t","reasoning":"low"}`,
			pick: []string{"additionalModelRequestFields", "thinking", "type"}, want: `"enabled"`},
		{name: "1.6 sonnet-5 adaptive with block binding", d: dialect.V1_6, model: model("anthropic.claude-sonnet-5", "Claude Sonnet 5"), ctx: q, opts: `{"bearerToken":"t","reasoning":"xhigh"}`,
			pick: []string{"additionalModelRequestFields"},
			want: `{"thinking":{"type":"adaptive","display":"summarized","block_binding":{"prefix_mismatch_behavior":"drop_block"}},"output_config":{"effort":"xhigh"},"anthropic_beta":["` + ThinkingBindingBeta + `"]}`},
		{name: "1.6 opus-4-6 adaptive without binding", d: dialect.V1_6, model: model("anthropic.claude-opus-4-6", "Claude Opus 4.6"), ctx: q, opts: `{"bearerToken":"t","reasoning":"xhigh"}`,
			pick: []string{"additionalModelRequestFields"}, want: `{"thinking":{"type":"adaptive","display":"summarized"},"output_config":{"effort":"high"}}`},
		{name: "0.80 max has no budget", d: dialect.V0_80, ctx: q, opts: `{"bearerToken":"t","reasoning":"max"}`,
			pick: []string{"additionalModelRequestFields", "thinking", "budget_tokens"}},
		{name: "1.6 max has the high budget", d: dialect.V1_6, ctx: q, opts: `{"bearerToken":"t","reasoning":"max","thinkingBudgets":{"high":7}}`,
			pick: []string{"additionalModelRequestFields", "thinking", "budget_tokens"}, want: `7`},
		{name: "1.6 Claude 5 caches", d: dialect.V1_6, model: model("anthropic.claude-haiku-5", "Claude Haiku 5"), ctx: q, opts: `{"bearerToken":"t"}`,
			pick: []string{"messages", "0", "content", "1"}, want: `{"cachePoint":{"type":"default"}}`},
		{name: "0.80 error images in the result", d: dialect.V0_80, ctx: errImages, opts: `{"bearerToken":"t","cacheRetention":"none"}`,
			pick: []string{"messages", "0", "content", "0", "toolResult", "content", "0", "image", "format"}, want: `"png"`},
		{name: "1.6 error images after the results", d: dialect.V1_6, ctx: errImages, opts: `{"bearerToken":"t","cacheRetention":"none"}`,
			pick: []string{"messages", "0", "content"},
			want: `[{"toolResult":{"toolUseId":"c","content":[{"text":"(image attached after the tool results)"}],"status":"error"}},` +
				`{"text":"Images from the error result of tool call c (shot):"},{"image":{"format":"png","source":{"bytes":"AAAA"}}}]`},
		{name: "1.6 other models keep error images", d: dialect.V1_6, model: model("amazon.nova-pro-v1:0", "Nova"), ctx: errImages, opts: `{"bearerToken":"t","cacheRetention":"none"}`,
			pick: []string{"messages", "0", "content", "1"}},
		{name: "0.80 empty keys replayed", d: dialect.V0_80,
			ctx:  `{"messages":[{"role":"assistant","content":[{"type":"toolCall","id":"a","name":"n","arguments":{"":1,"b":{"":2}}}],` + sameModel + `}]}`,
			opts: `{"bearerToken":"t"}`, pick: []string{"messages", "0", "content", "0", "toolUse", "input"}, want: `{"":1,"b":{"":2}}`},
		{name: "1.6 empty keys dropped", d: dialect.V1_6,
			ctx:  `{"messages":[{"role":"assistant","content":[{"type":"toolCall","id":"a","name":"n","arguments":{"":1,"b":{"":2}}}],` + sameModel + `}]}`,
			opts: `{"bearerToken":"t"}`, pick: []string{"messages", "0", "content", "0", "toolUse", "input"}, want: `{"b":{}}`},
		{name: "1.6 redacted thinking as bytes", d: dialect.V1_6,
			ctx:  `{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"[Reasoning redacted]","thinkingSignature":"AQI","redacted":true},{"type":"thinking","thinking":"x","thinkingSignature":"%%","redacted":true}],` + sameModel + `}]}`,
			opts: `{"bearerToken":"t"}`, pick: []string{"messages", "0", "content"}, want: `[{"reasoningContent":{"redactedContent":"AQI="}}]`},
		{name: "0.80 redacted thinking as text", d: dialect.V0_80,
			ctx:  `{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"[Reasoning redacted]","thinkingSignature":"AQI","redacted":true}],` + sameModel + `}]}`,
			opts: `{"bearerToken":"t"}`, pick: []string{"messages", "0", "content", "0", "reasoningContent", "reasoningText", "signature"}, want: `"AQI"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.model
			if m == "" {
				m = claude
			}
			call, err := capturetest.BuildCallIn(t, Driver, tc.d, m, tc.ctx, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if tc.header != "" {
				if got := call.Header.Get(tc.header); !strings.HasPrefix(got, tc.value) || tc.value == "" && got != "" {
					t.Errorf("%s = %q, want %q", tc.header, got, tc.value)
				}
			}
			if tc.pick != nil {
				capturetest.CheckMember(t, call.Body, tc.pick, tc.want)
			}
		})
	}
}

// TestStreamByDialect pins how Pi 1.6 reads the same event stream
// differently from 0.80.
func TestStreamByDialect(t *testing.T) {
	model, err := ai.DecodeWireModel(jsonvtest.Parse(t, claude), "/model")
	if err != nil {
		t.Fatal(err)
	}
	start := event("messageStart", `{"role":"assistant"}`)
	endTurn := event("messageStop", `{"stopReason":"end_turn"}`)
	delta := func(index, d string) []byte {
		return event("contentBlockDelta", `{"contentBlockIndex":`+index+`,"delta":`+d+`}`)
	}
	for _, tc := range []struct {
		name      string
		d         dialect.Dialect
		frames    [][]byte
		requestID string
		failed    string // the stream's errorMessage; "" for done
		check     func(out *ai.AssistantMessage) string
	}{
		{name: "1.6 guardrail names itself", d: dialect.V1_6, frames: [][]byte{start, event("messageStop", `{"stopReason":"guardrail_intervened"}`)},
			failed: "Provider stopped with: guardrail_intervened"},
		{name: "0.80 guardrail is unknown", d: dialect.V0_80, frames: [][]byte{start, event("messageStop", `{"stopReason":"guardrail_intervened"}`)},
			failed: stream.UnknownErrorText},
		{name: "1.6 no stop reason fails", d: dialect.V1_6, frames: [][]byte{start}, failed: EndedWithoutStopReasonText},
		{name: "1.6 NaN indexes share a block", d: dialect.V1_6, frames: [][]byte{start, delta(`"NaN"`, `{"text":"a"}`), delta(`"NaN"`, `{"text":"b"}`), endTurn},
			check: func(out *ai.AssistantMessage) string {
				if len(out.Content) != 1 || out.Content[0].(*ai.TextBlock).Text != "ab" {
					return "two blocks"
				}
				return ""
			}},
		{name: "0.80 NaN indexes never match", d: dialect.V0_80, frames: [][]byte{start, delta(`"NaN"`, `{"text":"a"}`), delta(`"NaN"`, `{"text":"b"}`), endTurn},
			check: func(out *ai.AssistantMessage) string {
				if len(out.Content) != 2 {
					return "one block"
				}
				return ""
			}},
		{name: "1.6 redacted content", d: dialect.V1_6, frames: [][]byte{start,
			delta("0", `{"reasoningContent":{"text":"t"}}`), delta("0", `{"reasoningContent":{"redactedContent":"AQ=="}}`),
			delta("0", `{"reasoningContent":{"redactedContent":"Ag=="}}`), delta("0", `{"reasoningContent":{"signature":"s"}}`),
			event("contentBlockStop", `{"contentBlockIndex":0}`), endTurn},
			check: func(out *ai.AssistantMessage) string {
				b := out.Content[0].(*ai.ThinkingBlock)
				if b.Thinking != "t"+RedactedThinkingText || !b.IsRedacted() || *b.ThinkingSignature != "AQI=" {
					return "thinking " + b.Thinking + ", signature " + *b.ThinkingSignature
				}
				return ""
			}},
		{name: "1.6 one-hour cache writes", d: dialect.V1_6, frames: [][]byte{start, endTurn,
			event("metadata", `{"usage":{"inputTokens":1,"outputTokens":1,"cacheDetails":[{"ttl":"1h","inputTokens":3},{"ttl":"5m","inputTokens":4},{"ttl":"1h"}]}}`)},
			check: func(out *ai.AssistantMessage) string {
				if out.Usage.CacheWrite1h.String() != "3" || out.RawStopReason.Str() != "end_turn" {
					return "cacheWrite1h " + out.Usage.CacheWrite1h.String()
				}
				return ""
			}},
		{name: "0.80 cache details ignored", d: dialect.V0_80, frames: [][]byte{start, endTurn,
			event("metadata", `{"usage":{"inputTokens":1,"outputTokens":1,"cacheDetails":[{"ttl":"1h","inputTokens":3}]}}`)},
			check: func(out *ai.AssistantMessage) string {
				if !out.Usage.CacheWrite1h.IsAbsent() || !out.RawStopReason.IsAbsent() {
					return "cacheWrite1h or rawStopReason set"
				}
				return ""
			}},
		{name: "1.6 stream exception diagnostic", d: dialect.V1_6, requestID: "r1",
			frames: [][]byte{start, exceptionFrame("throttlingException", `{"message":"slow"}`)}, failed: "Throttling error: slow",
			check: func(out *ai.AssistantMessage) string {
				d := out.Diagnostics.Elems()
				if len(d) != 1 || stream.Member(d[0], "details").String() != `{"errorCode":"ThrottlingException","requestId":"r1"}` {
					return "diagnostics " + out.Diagnostics.String()
				}
				return ""
			}},
		{name: "0.80 no diagnostic", d: dialect.V0_80, requestID: "r1",
			frames: [][]byte{start, exceptionFrame("throttlingException", `{"message":"slow"}`)}, failed: "Throttling error: slow",
			check: func(out *ai.AssistantMessage) string {
				if !out.Diagnostics.IsAbsent() {
					return "diagnostics " + out.Diagnostics.String()
				}
				return ""
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, events, err := parseStream(tc.d, bytes.NewReader(bytes.Join(tc.frames, nil)), model, func() jsonv.Value { return jsonv.NumberValue("1") }, tc.requestID)
			capturetest.CheckEnding(t, out, events, err, tc.failed, tc.check)
		})
	}
}

// exceptionFrame is an event-stream exception frame of typ.
func exceptionFrame(typ, payload string) []byte {
	return eventstream.Encode(eventstream.Message{Headers: []eventstream.Header{
		eventstream.String(":exception-type", typ), eventstream.String(":content-type", "application/json"),
		eventstream.String(":message-type", "exception"),
	}, Payload: []byte(payload)})
}
