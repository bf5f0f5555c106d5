package provider_test

import (
	"encoding/json"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// TestClampToContext: Pi 1.6's estimate of the input and the output cap
// it fits in the context window (SHR16-09). Expected values printed by
// pi-ai 1.6.0's estimateContextTokens and clampMaxTokensToContext (after
// normalizeContext) under Node 22.
func TestClampToContext(t *testing.T) {
	const (
		u  = `{"role":"user","content":"Hello there, how are you doing today?","timestamp":1}`
		a  = `{"role":"assistant","content":[{"type":"text","text":"Fine"},{"type":"thinking","thinking":"hmm"},{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a.txt"}}],"usage":{"input":100,"output":20,"cacheRead":0,"cacheWrite":0,"totalTokens":120,"cost":{}},"stopReason":"toolUse","timestamp":5}`
		r  = `{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"file body"},{"type":"image","data":"x","mimeType":"image/png"}],"isError":false,"timestamp":6}`
		tl = `{"name":"read","description":"Read a file","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}`
		m  = `{"contextWindow":200000,"maxTokens":64000}`
	)
	for _, tc := range []struct {
		name, model, maxTokens, context string
		est, cap                        string
	}{
		{"prompt and tools", m, `64000`, `{"systemPrompt":"You are helpful.","tools":[` + tl + `],"messages":[` + u + `]}`, `50`, `64000`},
		{"the last answer's usage and what follows", m, `64000`, `{"messages":[` + u + `,` + a + `,` + r + `]}`, `1494`, `64000`},
		{"a small window", `{"contextWindow":40000}`, `64000`, `{"messages":[` + u + `]}`, `11`, `35893`},
		{"a smaller window", `{"contextWindow":20000}`, `64000`, `{"messages":[` + u + `]}`, `11`, `15893`},
		{"no window: at least 1", `{"contextWindow":0}`, `-5`, `{"messages":[` + u + `]}`, `11`, `1`},
		{"no window member: NaN", `{}`, `100`, `{"messages":[` + u + `]}`, `11`, `null`},
		{"numbers as text", `{"contextWindow":"9000"}`, `"8000"`, `{"messages":[` + u + `]}`, `11`, `4893`},
		{"a message without a timestamp hides later usage", m, `64000`, `{"messages":[{"role":"user","content":"x"},` + a + `,` + r + `]}`, `1383`, `64000`},
		{"a text total joins", m, `1000`, `{"messages":[` + u + `,{"role":"assistant","content":[],"usage":{"totalTokens":"150"},"stopReason":"stop","timestamp":9},` + u + `]}`, `"15011"`, `1000`},
		{"a full window: the fixed margin", `{"contextWindow":190000}`, `64000`, `{"messages":[` + u + `,{"role":"assistant","content":[],"usage":{"totalTokens":170000},"stopReason":"stop","timestamp":9}]}`, `170000`, `15904`},
		{"a failed answer's usage does not count", m, `100`, `{"messages":[` + u + `,{"role":"assistant","content":[],"usage":{"totalTokens":500},"stopReason":"error","timestamp":9}]}`, `11`, `100`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, model, maxTokens := parseText(t, tc.context), parseText(t, tc.model), parseText(t, tc.maxTokens)
			msgs, err := provider.TranscriptMessages(ctx, "")
			if err != nil {
				t.Fatal(err)
			}
			if got := provider.EstimateContextTokens(msgs).Stringified().String(); got != tc.est {
				t.Errorf("estimate = %s, want %s", got, tc.est)
			}
			cw, _ := model.Get("contextWindow")
			s := provider.SimpleOptions{Transcript: msgs}
			if got := s.ClampToContext(&ai.Model{ContextWindow: cw}, maxTokens).Stringified().String(); got != tc.cap {
				t.Errorf("cap = %s, want %s", got, tc.cap)
			}
		})
	}
}

// TestThinkingLevelsMax: the "max" level of 1.6 (SHR16-10), expected
// values printed by pi-ai 1.6.0's getSupportedThinkingLevels and
// clampThinkingLevel; 0.80 has no such level.
func TestThinkingLevelsMax(t *testing.T) {
	asked := []string{"off", "minimal", "high", "xhigh", "max", "bogus"}
	for _, tc := range []struct {
		model             string
		supported, clamps string
		supported80       string
	}{
		{`{"reasoning":false}`, `["off"]`, `["off","off","off","off","off","off"]`, `["off"]`},
		{`{"reasoning":true}`, `["off","minimal","low","medium","high"]`, `["off","minimal","high","high","high","off"]`, `["off","minimal","low","medium","high"]`},
		{`{"reasoning":true,"thinkingLevelMap":{"max":"max"}}`, `["off","minimal","low","medium","high","max"]`, `["off","minimal","high","max","max","off"]`, `["off","minimal","low","medium","high"]`},
		{`{"reasoning":true,"thinkingLevelMap":{"xhigh":"xhigh","off":null}}`, `["minimal","low","medium","high","xhigh"]`, `["minimal","minimal","high","xhigh","xhigh","minimal"]`, `["minimal","low","medium","high","xhigh"]`},
		{`{"reasoning":true,"thinkingLevelMap":{"high":null}}`, `["off","minimal","low","medium"]`, `["off","minimal","medium","medium","medium","off"]`, `["off","minimal","low","medium"]`},
	} {
		v := parseText(t, tc.model)
		r, _ := v.Get("reasoning")
		lm, _ := v.Get("thinkingLevelMap")
		model := &ai.Model{Reasoning: r.Truthy(), ThinkingLevelMap: lm}
		var clamps []string
		for _, l := range asked {
			clamps = append(clamps, provider.ClampThinkingLevelIn(dialect.V1_6, model, l))
		}
		if got := strs(provider.SupportedThinkingLevelsIn(dialect.V1_6, model)); got != tc.supported {
			t.Errorf("%s: supported %s, want %s", tc.model, got, tc.supported)
		}
		if got := strs(clamps); got != tc.clamps {
			t.Errorf("%s: clamps %s, want %s", tc.model, got, tc.clamps)
		}
		if got := strs(provider.SupportedThinkingLevels(model)); got != tc.supported80 {
			t.Errorf("%s: 0.80 supported %s, want %s", tc.model, got, tc.supported80)
		}
	}
	for _, tc := range []struct {
		d          dialect.Dialect
		level, out string
	}{{dialect.V0_80, "max", "max"}, {dialect.V1_6, "max", "high"}, {dialect.V0_80, "xhigh", "high"}, {dialect.V1_6, "medium", "medium"}} {
		if got := provider.ClampReasoningIn(tc.d, tc.level); got != tc.out {
			t.Errorf("%s ClampReasoning(%s) = %s, want %s", tc.d, tc.level, got, tc.out)
		}
	}
}

func strs(ss []string) string {
	vs := make([]jsonv.Value, len(ss))
	for i, s := range ss {
		vs[i] = jsonv.StringValue(s)
	}
	return jsonv.ArrayValue(vs...).String()
}

func parseText(t *testing.T, s string) jsonv.Value { return parse(t, json.RawMessage(s)) }
