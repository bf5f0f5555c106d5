package openaicompletions

import (
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

// TestNormalizeID16: Pi 1.6 keeps the item part of a call|item id, and
// hashes what is longer than 40 (expected values from pi-ai 1.6.0's
// convertMessages under Node 22).
func TestNormalizeID16(t *testing.T) {
	custom := &ai.Model{Provider: "custom"}
	for _, tc := range []struct{ in, v80, v16 string }{
		{"call_abc|fc_123", "call_abc", "call_abc_fc_123"},
		{"call_" + strings.Repeat("a", 30) + "|fc_" + strings.Repeat("b", 20), "call_" + strings.Repeat("a", 30), "call_" + strings.Repeat("a", 26) + "_5t7exw26"},
		{"a|", "a", "a"},
		{"tool.x|y+z", "tool_x", "tool_x_y_z"},
		{"emoji😀|x", "emoji__", "emoji___x"},
		{strings.Repeat("x", 45) + "|y", strings.Repeat("x", 40), strings.Repeat("x", 31) + "_2s3x1bch"},
		{"plain", "plain", "plain"},
	} {
		if got := normalizeID(dialect.V0_80, tc.in, custom); got != tc.v80 {
			t.Errorf("0.80 normalize(%q) = %q, want %q", tc.in, got, tc.v80)
		}
		if got := normalizeID(dialect.V1_6, tc.in, custom); got != tc.v16 {
			t.Errorf("1.6 normalize(%q) = %q, want %q", tc.in, got, tc.v16)
		}
	}
}

func model(t *testing.T, js string) *ai.Model {
	t.Helper()
	m, err := ai.DecodeModel(jsonvtest.Parse(t, `{"id":"m","name":"m","api":"openai-completions","reasoning":true,"input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":1000,"maxTokens":5000,`+js+`}`), "")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDetectCompat16: the detected settings that changed in 1.6.
func TestDetectCompat16(t *testing.T) {
	for _, tc := range []struct {
		model, setting string
		v80, v16       string
	}{
		{`"provider":"openai","baseUrl":"http://x"`, "supportsDeveloperRole", "true", "true"},
		{`"provider":"groq","baseUrl":"http://x"`, "supportsDeveloperRole", "true", "false"},
		{`"provider":"custom","baseUrl":"https://api.openai.com/v1"`, "supportsDeveloperRole", "true", "true"},
		{`"provider":"openrouter","baseUrl":"http://x","id":"openai/gpt"`, "supportsDeveloperRole", "true", "false"},
		{`"provider":"groq","baseUrl":"http://x"`, "supportsStrictMode", "true", "false"},
		{`"provider":"deepseek","baseUrl":"http://x"`, "maxTokensField", `"max_completion_tokens"`, `"max_tokens"`},
		{`"provider":"deepseek","baseUrl":"http://x"`, "supportsStore", "true", "false"},
		{`"provider":"custom","baseUrl":"https://API.DeepSeek.com"`, "thinkingFormat", `"openai"`, `"deepseek"`},
		{`"provider":"zai","baseUrl":"http://x"`, "maxTokensField", `"max_completion_tokens"`, `"max_tokens"`},
		{`"provider":"openrouter","baseUrl":"http://x"`, "sendSessionAffinityHeaders", "false", "true"},
		{`"provider":"openrouter","baseUrl":"http://x"`, "sessionAffinityFormat", "", `"openrouter"`},
		{`"provider":"custom","baseUrl":"http://x","compat":{"vllmPriority":3}`, "vllmPriority", "", "3"},
	} {
		m := model(t, tc.model)
		for _, d := range []struct {
			dl   dialect.Dialect
			want string
		}{{dialect.V0_80, tc.v80}, {dialect.V1_6, tc.v16}} {
			c, err := resolveCompat(m, d.dl)
			if err != nil {
				t.Fatal(err)
			}
			got := c.get(tc.setting)
			if s := string(got.AppendJSON(nil)); got.IsAbsent() && d.want != "" || !got.IsAbsent() && s != d.want {
				t.Errorf("%s %s: %s = %s, want %s", d.dl, tc.model, tc.setting, s, d.want)
			}
		}
	}
}

// TestSessionHeaders16: OpenRouter's x-session-id alone; any format but
// "openai" leaves session_id out.
func TestSessionHeaders16(t *testing.T) {
	for _, tc := range []struct {
		format string
		want   string
	}{
		{`"openrouter"`, "x-session-id"},
		{`"openai"`, "session_id x-client-request-id x-session-affinity"},
		{`"other"`, "x-client-request-id x-session-affinity"},
	} {
		m := model(t, `"provider":"custom","baseUrl":"http://x","compat":{"sendSessionAffinityHeaders":true,"sessionAffinityFormat":`+tc.format+`}`)
		c, _ := resolveCompat(m, dialect.V1_6)
		var names []string
		for _, h := range sessionHeaders(dialect.V1_6, Options{StreamOptions: provider.StreamOptions{SessionID: jsonv.StringValue("s")}}, c) {
			names = append(names, h.Name)
		}
		if got := strings.Join(names, " "); got != tc.want {
			t.Errorf("format %s: %s, want %s", tc.format, got, tc.want)
		}
	}
	var none []httpheader.Header
	if got := sessionHeaders(dialect.V1_6, Options{}, compat{}); len(got) != len(none) {
		t.Errorf("no session id: %v", got)
	}
}

// TestThinkingBudget16: the level's budget, cut so 1024 tokens stay for
// the answer under the body's max tokens (else the model's).
func TestThinkingBudget16(t *testing.T) {
	m := model(t, `"provider":"custom","baseUrl":"http://x"`)
	for _, tc := range []struct {
		effort, budgets string
		body            []jsonv.Member
		want            string
	}{
		{`"medium"`, ``, []jsonv.Member{{Key: "max_completion_tokens", Value: jsonv.NumberValue("4000")}}, "2976"},
		{`"medium"`, ``, nil, "3976"}, // model maxTokens 5000
		{`"low"`, ``, nil, "2048"},
		{`"xhigh"`, ``, []jsonv.Member{{Key: "max_tokens", Value: jsonv.NumberValue("100000")}}, "16384"},
		{`"low"`, `{"low":100}`, nil, "100"},
		{`"medium"`, ``, []jsonv.Member{{Key: "max_tokens", Value: jsonv.NumberValue("1000")}}, ""},
		{`"weird"`, ``, nil, ""},
	} {
		o := Options{ReasoningEffort: jsonvtest.Parse(t, tc.effort)}
		if tc.budgets != "" {
			o.ThinkingBudgets = jsonvtest.Parse(t, tc.budgets)
		}
		b := new(jsonv.ObjectBuilder)
		for _, mem := range tc.body {
			b.Set(mem.Key, mem.Value)
		}
		got := thinkingBudget(m, o, b)
		if s := string(got.AppendJSON(nil)); got.IsAbsent() && tc.want != "" || !got.IsAbsent() && s != tc.want {
			t.Errorf("effort %s budgets %s body %v: %s, want %q", tc.effort, tc.budgets, tc.body, s, tc.want)
		}
	}
}

// TestAppendDetail: consecutive text (or summary) details merge; an
// encrypted one stays on its own.
func TestAppendDetail(t *testing.T) {
	var ds []jsonv.Value
	for _, d := range []string{
		`{"type":"reasoning.text","id":null,"text":"a"}`,
		`{"type":"reasoning.text","id":"r1","text":"b","signature":"s","format":"f"}`,
		`{"type":"reasoning.encrypted","id":"e","data":"D"}`,
		`{"type":"reasoning.summary","summary":"x","index":0}`,
		`{"type":"reasoning.summary","summary":"y","index":1}`,
	} {
		ds = appendDetail(ds, jsonvtest.Parse(t, d))
	}
	want := `[{"type":"reasoning.text","id":"r1","text":"ab","signature":"s","format":"f"},{"type":"reasoning.encrypted","id":"e","data":"D"},{"type":"reasoning.summary","summary":"xy","index":0}]`
	if got := string(jsonv.ArrayValue(ds...).AppendJSON(nil)); got != want {
		t.Errorf("details %s\nwant    %s", got, want)
	}
}

// TestIsReasoningDetail: what Pi 1.6 takes for an OpenAI reasoning detail.
func TestIsReasoningDetail(t *testing.T) {
	for js, want := range map[string]bool{
		`{"type":"reasoning.text","text":"t"}`:                    true,
		`{"type":"reasoning.text","text":"t","signature":null}`:   true,
		`{"type":"reasoning.text","text":"t","signature":1}`:      false,
		`{"type":"reasoning.encrypted","data":"d","id":null}`:     true,
		`{"type":"reasoning.encrypted","data":"d","index":"0"}`:   false,
		`{"type":"reasoning.summary","summary":"s","format":"f"}`: true,
		`{"type":"reasoning.summary"}`:                            false,
		`{"type":"other","text":"t"}`:                             false,
		`["x"]`:                                                   false,
	} {
		if got := isReasoningDetail(jsonvtest.Parse(t, js)); got != want {
			t.Errorf("isReasoningDetail(%s) = %v, want %v", js, got, want)
		}
	}
}

// TestParseStream16: what Pi 1.6 reads differently (expected values from
// pi-ai 1.6.0 under Node 22): reasoning before the content of one delta,
// reasoning_details kept as the thinking signature, usage.reasoning,
// rawStopReason, an unfinished last event, SDK 7's texts.
func TestParseStream16(t *testing.T) {
	m := model(t, `"provider":"custom","baseUrl":"http://x"`)
	c, _ := resolveCompat(m, dialect.V1_6)
	for _, tc := range []struct {
		name, body, want string
	}{
		{"reasoning first",
			`data: {"id":"r","choices":[{"delta":{"content":"A","reasoning_content":"T"}}]}` + "\n\n" +
				`data: {"id":"r","choices":[{"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"completion_tokens_details":{"reasoning_tokens":1}}}` + "\n\n",
			`"content":[{"type":"thinking","thinking":"T","thinkingSignature":"reasoning_content"},{"type":"text","text":"A"}]`},
		{"usage reasoning", `data: {"choices":[{"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"reasoning_tokens":1,"cached_tokens":1}}` + "\n\n",
			`"usage":{"input":2,"output":2,"cacheRead":1,"cacheWrite":0,"reasoning":1,"totalTokens":5`},
		{"details", `data: {"choices":[{"delta":{"reasoning_details":[{"type":"reasoning.text","text":"a"},{"type":"reasoning.text","text":"b"},{"type":"bogus"}]},"finish_reason":"stop"}]}` + "\n\n",
			`{"type":"thinking","thinking":"","thinkingSignature":"[{\"type\":\"reasoning.text\",\"text\":\"ab\"}]"}`},
		{"raw stop", `data: {"choices":[{"delta":{"content":"x"},"finish_reason":"length"}]}` + "\n\n",
			`"stopReason":"length"`},
		{"unfinished last event", `data: {"choices":[{"delta":{"content":"x"},"finish_reason":"stop"}]}`,
			`"stopReason":"stop"`},
		{"bad json", "data: {oops\n\n", `"errorMessage":"Error reading response: malformed server-sent event JSON."`},
		{"event error", "event: error\ndata: {\"message\":\"m\"}\n\n", `"errorMessage":"m"`},
		{"no finish", `data: {"choices":[{"delta":{"content":"x"}}]}` + "\n\n", `"errorMessage":"Stream ended without finish_reason"`},
		{"args error", `data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{\"a"}}]},"finish_reason":"tool_calls"}]}` + "\n\n",
			`"arguments":{},"argumentsError":"Unterminated string in JSON at position 3 (line 1 column 4)\n\nReceived arguments:\n{\"a"`},
	} {
		msg, _, err := parseStream(dialect.V1_6, c, strings.NewReader(tc.body), m, nil)
		capturetest.CheckHolds(t, tc.name, msg, err, tc.want)
	}
}

// TestHTTPError16: the error member's JSON stands for the SDK's message;
// metadata.raw is appended only when the message lacks it (expected
// values from pi-ai 1.6.0 under Node 22).
func TestHTTPError16(t *testing.T) {
	m := model(t, `"provider":"custom","baseUrl":"http://x"`)
	for _, tc := range []struct {
		status     int
		body, want string
	}{
		{500, `{"error":{"message":"boom","type":"server_error"}}`, `500: {"message":"boom","type":"server_error"}`},
		{429, `{"error":{"message":"m","metadata":{"raw":"up"}}}`, `429: {"message":"m","metadata":{"raw":"up"}}`},
		{502, `{"error":"gateway"}`, `502 "gateway"`},
		{503, `oops`, `503 oops`},
		{404, `{"detail":"Not found"}`, `404 {"detail":"Not found"}`}, // the message holds the body
		{502, `{"error":[1]}`, `502 [1]`},
		{502, ``, `502 status code (no body)`},
	} {
		msg, _, err := parseHTTPError(dialect.V1_6, m, tc.status, []byte(tc.body), nil)
		if err != nil || msg.ErrorMessage == nil || *msg.ErrorMessage != tc.want {
			t.Errorf("%d %s: %v %q, want %q", tc.status, tc.body, err, *msg.ErrorMessage, tc.want)
		}
	}
}
