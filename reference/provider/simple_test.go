package provider_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// simpleCapture is testdata/simple.json, made by testdata/simple-capture.mjs
// from pi-ai's own helpers.
type simpleCapture struct {
	Clamp []struct {
		Model     json.RawMessage `json:"model"`
		Level     string          `json:"level"`
		Supported []string        `json:"supported"`
		Clamped   string          `json:"clamped"`
	} `json:"clamp"`
	Adjust []struct {
		MaxTokens       json.RawMessage `json:"maxTokens"`
		ModelMaxTokens  json.RawMessage `json:"modelMaxTokens"`
		Level           string          `json:"level"`
		ThinkingBudgets json.RawMessage `json:"thinkingBudgets"`
		Out             struct {
			MaxTokens      json.RawMessage `json:"maxTokens"`
			ThinkingBudget json.RawMessage `json:"thinkingBudget"`
		} `json:"out"`
	} `json:"adjust"`
}

func loadSimpleCapture(t *testing.T) simpleCapture {
	t.Helper()
	data, err := os.ReadFile("testdata/simple.json")
	if err != nil {
		t.Fatal(err)
	}
	var c simpleCapture
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Clamp) == 0 || len(c.Adjust) == 0 {
		t.Fatal("testdata/simple.json holds no cases")
	}
	return c
}

// parse reads raw JSON, Absent when raw is empty (undefined in the capture).
func parse(t *testing.T, raw json.RawMessage) jsonv.Value {
	t.Helper()
	if len(raw) == 0 {
		return jsonv.Value{}
	}
	v, err := jsonv.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// simpleModel is a full model with the captured model's members over it.
func simpleModel(t *testing.T, members jsonv.Value) *ai.Model {
	t.Helper()
	base := parse(t, json.RawMessage(`{"id":"m","name":"M","api":"anthropic-messages","provider":"anthropic",
		"baseUrl":"http://x","reasoning":false,"input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},
		"contextWindow":1000,"maxTokens":64000}`))
	for _, m := range members.Members() {
		base = base.With(m.Key, m.Value)
	}
	model, err := ai.DecodeModel(base, "")
	if err != nil {
		t.Fatal(err)
	}
	return model
}

func TestClampThinkingLevelAsPi(t *testing.T) {
	for _, c := range loadSimpleCapture(t).Clamp {
		model := simpleModel(t, parse(t, c.Model))
		if diff := cmp.Diff(c.Supported, provider.SupportedThinkingLevels(model), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("SupportedThinkingLevels(%s) (-pi +reference):\n%s", c.Model, diff)
		}
		if got := provider.ClampThinkingLevel(model, c.Level); got != c.Clamped {
			t.Errorf("ClampThinkingLevel(%s, %q) = %q, Pi %q", c.Model, c.Level, got, c.Clamped)
		}
	}
}

func TestAdjustMaxTokensForThinkingAsPi(t *testing.T) {
	for _, c := range loadSimpleCapture(t).Adjust {
		model := simpleModel(t, jsonv.ObjectValue(jsonv.Member{Key: "maxTokens", Value: parse(t, c.ModelMaxTokens)}))
		maxTokens, budget := provider.AdjustMaxTokensForThinking(parse(t, c.MaxTokens), model, c.Level, parse(t, c.ThinkingBudgets))
		// Compared as JSON.stringify writes them: NaN as null.
		written := func(v jsonv.Value) jsonv.Value {
			if v.IsAbsent() {
				return v
			}
			return parse(t, json.RawMessage(v.AppendJSON(nil)))
		}
		if !jsonv.Equal(written(maxTokens), parse(t, c.Out.MaxTokens)) || !jsonv.Equal(written(budget), parse(t, c.Out.ThinkingBudget)) {
			t.Errorf("AdjustMaxTokensForThinking(%s, %s, %q, %s) = %s, %s; Pi %s, %s", c.MaxTokens, c.ModelMaxTokens, c.Level,
				c.ThinkingBudgets, maxTokens, budget, c.Out.MaxTokens, c.Out.ThinkingBudget)
		}
	}
}

func TestAdjustMaxTokensWithoutABudget(t *testing.T) {
	model := simpleModel(t, jsonv.ObjectValue())
	maxTokens, budget := provider.AdjustMaxTokensForThinking(jsonv.Value{}, model, "off", jsonv.Value{})
	if maxTokens.Literal() != "64000" || !budget.IsAbsent() {
		t.Errorf("level off without maxTokens: %s, %s; want 64000, no budget", maxTokens, budget)
	}
	maxTokens, budget = provider.AdjustMaxTokensForThinking(jsonv.NumberValue("100"), model, "off", jsonv.Value{})
	if string(maxTokens.AppendJSON(nil)) != "null" || maxTokens.Kind() != jsonv.Number || !budget.IsAbsent() {
		t.Errorf("level off with maxTokens, without a custom budget: %s, %s; want NaN (written null), no budget", maxTokens, budget)
	}
	custom := parse(t, json.RawMessage(`{"off":3000}`))
	maxTokens, budget = provider.AdjustMaxTokensForThinking(jsonv.NumberValue("100"), model, "off", custom)
	if maxTokens.Literal() != "3100" || budget.Literal() != "3000" {
		t.Errorf("level off with a custom budget: %s, %s; want 3100, 3000", maxTokens, budget)
	}
}

func TestDecodeSimpleOptions(t *testing.T) {
	v := parse(t, json.RawMessage(`{"apiKey":"k","reasoning":"low","thinkingBudgets":{"low":5},"toolChoice":"any","toolChoice":"none"}`))
	o, err := provider.DecodeSimpleOptions(v, "/options")
	if err != nil {
		t.Fatal(err)
	}
	if o.Level() != "low" || o.ExtraMember("toolChoice").Str() != "none" || o.Base().Extra != nil || *o.Base().APIKey != "k" {
		t.Errorf("decoded %+v", o)
	}
	// Pi reads budgets of any type (Budget); none is refused.
	v = parse(t, json.RawMessage(`{"thinkingBudgets":{"low":"5"}}`))
	if o, err := provider.DecodeSimpleOptions(v, "/options"); err != nil || o.ThinkingBudgets.String() != `{"low":"5"}` {
		t.Errorf("a budget that is a string: %v, %s", err, o.ThinkingBudgets)
	}
}

// TestReasoningOfOtherTypes: Pi takes a truthy reasoning of any type; it
// equals no level's name, so clampThinkingLevel gives the model's first
// supported level, and map lookups use the key String() makes of it.
func TestReasoningOfOtherTypes(t *testing.T) {
	model := simpleModel(t, parse(t, json.RawMessage(`{"reasoning":true,"thinkingLevelMap":{"off":null,"7":"max","low":"lo"}}`)))
	for _, tc := range []struct {
		reasoning, level, effort, adaptive string
		thinking                           bool
	}{
		{`"low"`, "low", "low", "lo", true},
		{`7`, "7", "minimal", "max", true},
		{`["low"]`, "low", "minimal", "lo", true}, // the key finds the map's entry; no name matches
		{`["medium"]`, "medium", "minimal", "high", true},
		{`[]`, "", "minimal", "high", true},
		{`0`, "", "", "", false},
		{`null`, "", "", "", false},
	} {
		o, err := provider.DecodeSimpleOptions(parse(t, json.RawMessage(`{"reasoning":`+tc.reasoning+`}`)), "/options")
		if err != nil {
			t.Fatalf("%s: %v", tc.reasoning, err)
		}
		effort := ""
		if e := o.Effort(model); e != nil {
			effort = *e
		}
		got := []any{o.Thinking(), o.Level(), effort}
		want := []any{tc.thinking, tc.level, tc.effort}
		if tc.thinking {
			got, want = append(got, provider.AdaptiveEffort(model, o.Reasoning)), append(want, tc.adaptive)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("reasoning %s: [thinking level effort adaptive] (-want +got):\n%s", tc.reasoning, diff)
		}
	}
}

// TestAdjustMaxTokensOfOtherTypes: budgets and maxTokens of any type are
// computed with as JavaScript computes (+ joins text, min and <= read
// numbers, NaN is written null).
func TestAdjustMaxTokensOfOtherTypes(t *testing.T) {
	model := simpleModel(t, jsonv.ObjectValue())
	for _, tc := range []struct{ maxTokens, budgets, wantMax, wantBudget string }{
		{`"100"`, ``, `64000`, `16384`}, // "100" + 16384 is "10016384"
		{`1000`, `{"high":"x"}`, `null`, `"x"`},
		{`1000`, `{"high":null}`, `1000`, `null`},
		{`1000`, `"abcdefg"`, `17384`, `16384`},
		{``, `{"high":"20000"}`, `64000`, `"20000"`},
		{``, `{"high":70000}`, `64000`, `62976`},
		{`null`, `[1,2]`, `16384`, `15360`}, // null + 16384; the budget takes all of it
	} {
		maxTokens, budget := provider.AdjustMaxTokensForThinking(parse(t, json.RawMessage(tc.maxTokens)), model, "high", parse(t, json.RawMessage(tc.budgets)))
		got := []string{string(maxTokens.AppendJSON(nil)), string(budget.AppendJSON(nil))}
		if diff := cmp.Diff([]string{tc.wantMax, tc.wantBudget}, got); diff != "" {
			t.Errorf("maxTokens %s, budgets %s: [maxTokens budget] (-want +got):\n%s", tc.maxTokens, tc.budgets, diff)
		}
	}
	if b, ok := provider.Budget(parse(t, json.RawMessage(`"ab"`)), "1"); !ok || b.Str() != "b" {
		t.Errorf(`Budget("ab", "1") = %s, %v; want "b"`, b, ok)
	}
}
