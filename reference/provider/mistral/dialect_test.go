package mistral

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

func testModel(t *testing.T, js string) *ai.Model {
	t.Helper()
	m, err := ai.DecodeModel(jsonvtest.Parse(t, `{"id":"m","name":"m","api":"mistral-conversations","provider":"mistral","baseUrl":"http://x","input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":1000,"maxTokens":500,"reasoning":false`+js+`}`), "")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestHeader16: Pi 1.6's own Headers: any spelling replaced, null deletes,
// a caller's user-agent wins, no cookie, x-affinity unless named in any
// spelling (checked against pi-ai 1.6.0 under Node 22).
func TestHeader16(t *testing.T) {
	key := "k"
	for _, tc := range []struct {
		model, opts string
		want        map[string]string
	}{
		{`,"headers":{"X-Shared":"model"}`, `{"x-shared":"options","X-Null":null,"User-Agent":"mine"}`,
			map[string]string{"X-Shared": "options", "User-Agent": "mine", "Cookie": "", "X-Affinity": "s"}},
		{``, `{"X-AFFINITY":"mine","Accept":null}`, map[string]string{"X-Affinity": "mine", "Accept": ""}},
		{`,"headers":{"x-affinity":null}`, `{}`, map[string]string{"X-Affinity": ""}},
	} {
		o := Options{StreamOptions: provider.StreamOptions{Dialect: dialect.V1_6, APIKey: &key, SessionID: jsonv.StringValue("s"), Headers: httpheader.Decode(jsonvtest.Parse(t, tc.opts))}}
		h, err := buildHeader16(testModel(t, tc.model), o)
		if err != nil {
			t.Fatal(err)
		}
		for name, want := range tc.want {
			if got := h.Get(name); got != want {
				t.Errorf("%s %s: %s = %q, want %q", tc.model, tc.opts, name, got, want)
			}
		}
		if got := h.Get("Authorization"); got != "Bearer k" {
			t.Errorf("authorization %q", got)
		}
	}
}

// TestFromSimple16: the thinkingLevelMap decides, not the model's id.
func TestFromSimple16(t *testing.T) {
	for _, tc := range []struct {
		model, opts  string
		effort, mode string
	}{
		{`,"id":"mistral-small-latest","reasoning":true`, `{"reasoning":"high"}`, "", `"reasoning"`},
		{`,"reasoning":true,"thinkingLevelMap":{"low":"lo"}`, `{"reasoning":"low"}`, `"lo"`, ""},
		{`,"reasoning":true,"thinkingLevelMap":{"low":"lo"}`, `{"reasoning":"medium"}`, `"high"`, ""},
		{`,"reasoning":true,"thinkingLevelMap":{"off":"none"}`, `{}`, `"none"`, ""},
		{`,"reasoning":true,"thinkingLevelMap":{"off":null,"minimal":null}`, `{}`, "", ""},
		{`,"reasoning":false,"thinkingLevelMap":{"low":"lo"}`, `{"reasoning":"low"}`, "", ""},
	} {
		s, err := provider.DecodeSimpleOptions(jsonvtest.Parse(t, tc.opts), "")
		if err != nil {
			t.Fatal(err)
		}
		key := "k"
		s.APIKey, s.Dialect = &key, dialect.V1_6
		o, err := FromSimple(testModel(t, tc.model), s)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name string
			v    jsonv.Value
			want string
		}{{"reasoningEffort", o.ReasoningEffort, tc.effort}, {"promptMode", o.PromptMode, tc.mode}} {
			if got := string(c.v.AppendJSON(nil)); c.v.IsAbsent() && c.want != "" || !c.v.IsAbsent() && got != c.want {
				t.Errorf("%s %s: %s = %s, want %q", tc.model, tc.opts, c.name, got, c.want)
			}
		}
	}
}

// TestParseStream16: Pi 1.6's own reading of the events (checked against
// pi-ai 1.6.0 under Node 22).
func TestParseStream16(t *testing.T) {
	m := testModel(t, ``)
	for _, tc := range []struct{ name, body, want string }{
		{"tail without blank line", "data: {\"id\":\"r\",\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"b\"},\"finish_reason\":\"stop\"}]}",
			`"content":[{"type":"text","text":"ab"}]`},
		{"empty deltas skipped", `data: {"choices":[{"delta":{"content":""}}]}` + "\n\n" + `data: {"choices":[{"delta":{"content":[{"type":"text","text":""},"x"]},"finish_reason":"stop"}]}` + "\n\n",
			`"content":[{"type":"text","text":"x"}]`},
		{"no choices array", `data: {"id":"r"}` + "\n\n", `"errorMessage":"Invalid Mistral streaming event"`},
		{"bad json", "data: {oops\n\n", `"errorMessage":"Expected property name or '}' in JSON at position 1 (line 1 column 2)"`},
		{"unknown stop", `data: {"choices":[{"delta":{"content":"x"},"finish_reason":"weird"}]}` + "\n\n", `"errorMessage":"Provider stopped with: weird"`},
		{"error stop", `data: {"choices":[{"delta":{},"finish_reason":"error"}]}` + "\n\n", `"errorMessage":"Provider stopped with: error (server error)"`},
		{"no stop", `data: {"choices":[{"delta":{"content":"x"}}]}` + "\n\n", `"errorMessage":"Mistral stream ended without a finish reason"`},
		{"calls by index", `data: {"choices":[{"delta":{"tool_calls":[{"id":"a","index":0,"function":{"name":"f","arguments":"{\"p\":"}},{"id":"b","index":0,"function":{"name":"f","arguments":"1}"}}]},"finish_reason":"tool_calls"}]}` + "\n\n",
			`"content":[{"type":"toolCall","id":"a","name":"f","arguments":{"p":1}}]`},
		{"done ends", "data: [DONE]\n\ndata: {oops\n\n", `"errorMessage":"Mistral stream ended without a finish reason"`},
		{"total before sum", `data: {"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":{"toString":"x"},"total_tokens":12}}` + "\n\n",
			`"totalTokens":12,`},
		{"pricing throws", `data: {"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":{"toString":"x"},"total_tokens":12}}` + "\n\n",
			`"errorMessage":"Cannot convert object to primitive value"`},
		{"data lines trimmed", "data:\t {\"choices\":[{\"delta\":{\"content\":\"x\"},\"finish_reason\":\"stop\"}]}\r\n\r\n", `"stopReason":"stop"`},
	} {
		msg, _, err := parseStream(dialect.V1_6, strings.NewReader(tc.body), m, nil)
		capturetest.CheckHolds(t, tc.name, msg, err, tc.want)
	}
}

// TestHTTPError16: the trimmed body, else the status text.
func TestHTTPError16(t *testing.T) {
	m := testModel(t, ``)
	for _, tc := range []struct {
		status           int
		statusText, body string
		want             string
	}{
		{429, "Too Many Requests", "", "Mistral API error (429): Too Many Requests"},
		{422, "Unprocessable Entity", " oops\n", "Mistral API error (422): oops"},
		{599, "", "", "Mistral API error (599): Request failed with status 599"},
		{500, "x", strings.Repeat("é", 4001), "Mistral API error (500): " + strings.Repeat("é", 4000) + "... [truncated 1 chars]"},
	} {
		msg, _ := parseHTTPError16(m, tc.status, tc.statusText, []byte(tc.body), nil)
		if msg.ErrorMessage == nil || *msg.ErrorMessage != tc.want {
			t.Errorf("%d %q: %v, want %q", tc.status, tc.body, msg.ErrorMessage, tc.want)
		}
	}
}
