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
	capturetest.CheckRequests(t, Driver, claude, []capturetest.RequestCase{
		{Name: "0.80 apiKey ignored: SigV4", D: dialect.V0_80, Ctx: q, Opts: `{"apiKey":"key",` + keys + `}`, Header: "authorization", Value: "AWS4-HMAC-SHA256*"},
		{Name: "1.6 apiKey is a bearer token", D: dialect.V1_6, Ctx: q, Opts: `{"apiKey":"key",` + keys + `}`, Header: "authorization", Value: "Bearer key"},
		{Name: "1.6 bearerToken before apiKey", D: dialect.V1_6, Ctx: q, Opts: `{"apiKey":"key","bearerToken":"tok"}`, Header: "authorization", Value: "Bearer tok"},
		{Name: "0.80 user agent", D: dialect.V0_80, Ctx: q, Opts: `{"bearerToken":"t"}`, Header: "x-amz-user-agent", Value: "aws-sdk-js/3.1048.0"},
		{Name: "1.6 user agent", D: dialect.V1_6, Ctx: q, Opts: `{"bearerToken":"t"}`, Header: "x-amz-user-agent", Value: "aws-sdk-js/3.1126.0 pi/1.6.0"},
		{Name: "1.6 short identity", D: dialect.V1_6, Ctx: q, Opts: `{"bearerToken":"t","identity":{"userAgent":"short"}}`, Header: "x-amz-user-agent", Value: "aws-sdk-js/3.1126.0 pi"},
		{Name: "0.80 GPT gets no reasoning", D: dialect.V0_80, Model: model("openai.gpt-5-v1:0", "GPT-5"), Ctx: q, Opts: `{"bearerToken":"t","reasoning":"minimal"}`,
			Pick: []string{"additionalModelRequestFields"}},
		{Name: "1.6 GPT effort", D: dialect.V1_6, Model: model("openai.gpt-5-v1:0", "GPT-5"), Ctx: q, Opts: `{"bearerToken":"t","reasoning":"minimal"}`,
			Pick: []string{"additionalModelRequestFields"}, Want: `{"reasoning":{"effort":"low"}}`},
		{Name: "1.6 gpt-oss effort", D: dialect.V1_6, Model: model("openai.gpt-oss-20b", "gpt-oss"), Ctx: q, Opts: `{"bearerToken":"t","reasoning":"xhigh"}`,
			Pick: []string{"additionalModelRequestFields"}, Want: `{"reasoning_effort":"high"}`},
		{Name: "1.6 other models none", D: dialect.V1_6, Model: model("amazon.nova-pro-v1:0", "Nova"), Ctx: q, Opts: `{"bearerToken":"t","reasoning":"high"}`,
			Pick: []string{"additionalModelRequestFields"}},
		{Name: "0.80 sonnet-5 is a budget model", D: dialect.V0_80, Model: model("anthropic.claude-sonnet-5", "Claude Sonnet 5"), Ctx: q, Opts: `{"bearerToken":"t","reasoning":"low"}`,
			Pick: []string{"additionalModelRequestFields", "thinking", "type"}, Want: `"enabled"`},
		{Name: "1.6 sonnet-5 adaptive with block binding", D: dialect.V1_6, Model: model("anthropic.claude-sonnet-5", "Claude Sonnet 5"), Ctx: q, Opts: `{"bearerToken":"t","reasoning":"xhigh"}`,
			Pick: []string{"additionalModelRequestFields"},
			Want: `{"thinking":{"type":"adaptive","display":"summarized","block_binding":{"prefix_mismatch_behavior":"drop_block"}},"output_config":{"effort":"xhigh"},"anthropic_beta":["` + ThinkingBindingBeta + `"]}`},
		{Name: "1.6 opus-4-6 adaptive without binding", D: dialect.V1_6, Model: model("anthropic.claude-opus-4-6", "Claude Opus 4.6"), Ctx: q, Opts: `{"bearerToken":"t","reasoning":"xhigh"}`,
			Pick: []string{"additionalModelRequestFields"}, Want: `{"thinking":{"type":"adaptive","display":"summarized"},"output_config":{"effort":"high"}}`},
		{Name: "0.80 max has no budget", D: dialect.V0_80, Ctx: q, Opts: `{"bearerToken":"t","reasoning":"max"}`,
			Pick: []string{"additionalModelRequestFields", "thinking", "budget_tokens"}},
		{Name: "1.6 max has the high budget", D: dialect.V1_6, Ctx: q, Opts: `{"bearerToken":"t","reasoning":"max","thinkingBudgets":{"high":7}}`,
			Pick: []string{"additionalModelRequestFields", "thinking", "budget_tokens"}, Want: `7`},
		{Name: "1.6 Claude 5 caches", D: dialect.V1_6, Model: model("anthropic.claude-haiku-5", "Claude Haiku 5"), Ctx: q, Opts: `{"bearerToken":"t"}`,
			Pick: []string{"messages", "0", "content", "1"}, Want: `{"cachePoint":{"type":"default"}}`},
		{Name: "0.80 error images in the result", D: dialect.V0_80, Ctx: errImages, Opts: `{"bearerToken":"t","cacheRetention":"none"}`,
			Pick: []string{"messages", "0", "content", "0", "toolResult", "content", "0", "image", "format"}, Want: `"png"`},
		{Name: "1.6 error images after the results", D: dialect.V1_6, Ctx: errImages, Opts: `{"bearerToken":"t","cacheRetention":"none"}`,
			Pick: []string{"messages", "0", "content"},
			Want: `[{"toolResult":{"toolUseId":"c","content":[{"text":"(image attached after the tool results)"}],"status":"error"}},` +
				`{"text":"Images from the error result of tool call c (shot):"},{"image":{"format":"png","source":{"bytes":"AAAA"}}}]`},
		{Name: "1.6 other models keep error images", D: dialect.V1_6, Model: model("amazon.nova-pro-v1:0", "Nova"), Ctx: errImages, Opts: `{"bearerToken":"t","cacheRetention":"none"}`,
			Pick: []string{"messages", "0", "content", "1"}},
		{Name: "0.80 empty keys replayed", D: dialect.V0_80,
			Ctx:  `{"messages":[{"role":"assistant","content":[{"type":"toolCall","id":"a","name":"n","arguments":{"":1,"b":{"":2}}}],` + sameModel + `}]}`,
			Opts: `{"bearerToken":"t"}`, Pick: []string{"messages", "0", "content", "0", "toolUse", "input"}, Want: `{"":1,"b":{"":2}}`},
		{Name: "1.6 empty keys dropped", D: dialect.V1_6,
			Ctx:  `{"messages":[{"role":"assistant","content":[{"type":"toolCall","id":"a","name":"n","arguments":{"":1,"b":{"":2}}}],` + sameModel + `}]}`,
			Opts: `{"bearerToken":"t"}`, Pick: []string{"messages", "0", "content", "0", "toolUse", "input"}, Want: `{"b":{}}`},
		{Name: "1.6 redacted thinking as bytes", D: dialect.V1_6,
			Ctx:  `{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"[Reasoning redacted]","thinkingSignature":"AQI","redacted":true},{"type":"thinking","thinking":"x","thinkingSignature":"%%","redacted":true}],` + sameModel + `}]}`,
			Opts: `{"bearerToken":"t"}`, Pick: []string{"messages", "0", "content"}, Want: `[{"reasoningContent":{"redactedContent":"AQI="}}]`},
		{Name: "0.80 redacted thinking as text", D: dialect.V0_80,
			Ctx:  `{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"[Reasoning redacted]","thinkingSignature":"AQI","redacted":true}],` + sameModel + `}]}`,
			Opts: `{"bearerToken":"t"}`, Pick: []string{"messages", "0", "content", "0", "reasoningContent", "reasoningText", "signature"}, Want: `"AQI"`},
	})
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
		{name: "1.6 one-hour cache writes summed as text", d: dialect.V1_6, frames: [][]byte{start, endTurn,
			event("metadata", `{"usage":{"inputTokens":1,"outputTokens":1,"cacheDetails":[{"ttl":"1h","inputTokens":"10"},{"ttl":"5m","inputTokens":15},{"ttl":"1h","inputTokens":5}]}}`)},
			check: func(out *ai.AssistantMessage) string {
				if out.Usage.CacheWrite1h.String() != `"01005"` || out.Usage.TotalTokens.String() != "2" {
					return "cacheWrite1h " + out.Usage.CacheWrite1h.String() + ", totalTokens " + out.Usage.TotalTokens.String()
				}
				return ""
			}},
		{name: "1.6 cache details not an array", d: dialect.V1_6, frames: [][]byte{start, endTurn,
			event("metadata", `{"usage":{"inputTokens":1,"outputTokens":1,"cacheDetails":{"reduce":1}}}`)},
			failed: "event.usage.cacheDetails?.reduce is not a function",
			check: func(out *ai.AssistantMessage) string {
				if out.Usage.TotalTokens.String() != "0" || out.Usage.Input.String() != "1" {
					return "totalTokens " + out.Usage.TotalTokens.String() + ", input " + out.Usage.Input.String()
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
