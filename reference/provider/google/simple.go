package google

import (
	"errors"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// FromSimple is what Pi's streamSimple hands to stream: the thinking
// object SimpleThinking makes for google-generative-ai. Without a key Pi
// throws.
func FromSimple(model *ai.Model, s provider.SimpleOptions) (Options, error) {
	base, err := s.KeyedBase(model)
	if err != nil {
		return Options{}, err
	}
	thinking, err := SimpleThinking(model, s, false)
	return Options{StreamOptions: base, ToolChoice: s.ToolChoice(), Thinking: thinking}, err
}

// SimpleThinking is the thinking object streamSimple sends in the
// options' dialect: disabled without a level. In 0.80 the level clamped
// to the model ("off" counts as high) becomes a thinking level for Gemini
// 3 Pro and Flash (and Gemma 4, on google-generative-ai only), a token
// budget for the others. Vertex differs in those two points and in having
// no budgets of its own for Gemini 2.5 Flash-Lite. From 1.6 on see
// simpleThinking.
// With a level, Pi lower-cases the model's id, and throws when it is not a
// string.
func SimpleThinking(model *ai.Model, s provider.SimpleOptions, vertex bool) (*Thinking, error) {
	off, on := false, true
	if !s.Thinking() {
		return &Thinking{Enabled: &off}, nil
	}
	if rules(s.Dialect).levelModels {
		return simpleThinking(model, s, vertex)
	}
	if model.Loose.Has("id") {
		return nil, errors.New("google: the model's id is not a string, and Pi lower-cases it")
	}
	effort := s.Clamped(model)
	if effort == "off" {
		effort = "high"
	}
	id := strings.ToLower(model.ID)
	gemma := !vertex && gemma4.MatchString(id)
	if gemini3Pro.MatchString(id) || isGemini3Flash(id) || gemma {
		return &Thinking{Enabled: &on, Level: thinkingLevel(effort, id, gemma)}, nil
	}
	return &Thinking{Enabled: &on, BudgetTokens: budget(model.ID, effort, s.ThinkingBudgets, vertex)}, nil
}

// isGemini3Flash names Gemini 3 Flash models and the Flash aliases, id in
// lower case.
func isGemini3Flash(id string) bool {
	return gemini3Flash.MatchString(id) || id == "gemini-flash-latest" || id == "gemini-flash-lite-latest"
}

// thinkingLevel maps a level to thinkingConfig.thinkingLevel: Gemini 3
// Pro and Gemma 4 have only two steps. A level without one (xhigh) is
// Absent.
func thinkingLevel(effort, id string, gemma bool) jsonv.Value {
	level := map[string]string{"minimal": "MINIMAL", "low": "LOW", "medium": "MEDIUM", "high": "HIGH"}[effort]
	switch {
	case level == "":
		return jsonv.Value{}
	case gemini3Pro.MatchString(id) && (level == "MINIMAL" || level == "LOW"):
		level = "LOW"
	case gemma && (level == "MINIMAL" || level == "LOW"):
		level = "MINIMAL"
	case gemini3Pro.MatchString(id) || gemma:
		level = "HIGH"
	}
	return jsonv.StringValue(level)
}

// budgetTables are the thinking budgets of Gemini 2.5 models by the part of
// the model id that selects them, in the order they are tried.
var budgetTables = []struct {
	idPart string
	budget map[string]string
}{
	{"2.5-pro", map[string]string{"minimal": "128", "low": "2048", "medium": "8192", "high": "32768"}},
	{"2.5-flash-lite", map[string]string{"minimal": "512", "low": "2048", "medium": "8192", "high": "24576"}},
	{"2.5-flash", map[string]string{"minimal": "128", "low": "2048", "medium": "8192", "high": "24576"}},
}

// budget is Pi's getGoogleBudget: the caller's budget for the level, else
// the table of the model (Absent for a level the table lacks), else -1
// (dynamic thinking). Vertex has no Flash-Lite table: those models take
// the Flash one.
func budget(id, effort string, custom jsonv.Value, vertex bool) jsonv.Value {
	if v, ok := custom.Get(effort); ok {
		return v
	}
	for _, t := range budgetTables {
		if vertex && t.idPart == "2.5-flash-lite" || !strings.Contains(id, t.idPart) {
			continue
		}
		if b, ok := t.budget[effort]; ok {
			return jsonv.NumberValue(b)
		}
		return jsonv.Value{}
	}
	return jsonv.NumberValue("-1")
}

// simpleThinking is SimpleThinking from 1.6 on, the same for both APIs
// but for Vertex's budgets: the level clamped to the model, when not off,
// is resolved through the model's thinkingLevelMap (ResolveThinkingLevel,
// which may throw), then sent as a thinking level to the models that take
// one (UsesThinkingLevel), else as the budget of the resolved level.
func simpleThinking(model *ai.Model, s provider.SimpleOptions, vertex bool) (*Thinking, error) {
	off, on := false, true
	effort := s.Clamped(model)
	if effort == "off" {
		return &Thinking{Enabled: &off}, nil
	}
	level, err := ResolveThinkingLevel(model, effort)
	if err != nil {
		return nil, err
	}
	if model.Loose.Has("id") {
		return nil, errors.New("google: the model's id is not a string, and Pi lower-cases it")
	}
	if UsesThinkingLevel(model) {
		return &Thinking{Enabled: &on, Level: jsonv.StringValue(level)}, nil
	}
	return &Thinking{Enabled: &on, BudgetTokens: budget(model.ID, strings.ToLower(level), s.ThinkingBudgets, vertex)}, nil
}
