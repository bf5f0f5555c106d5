package anthropic

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// FromSimple is what Pi's streamSimple hands to stream: no level turns
// thinking off; a model with compat.forceAdaptiveThinking gets adaptive
// thinking with the level's effort; any other model a thinking budget
// that fits maxTokens (provider.AdjustMaxTokensForThinkingIn; in 1.6 that
// cap is fitted in the context window again and the budget cut to leave
// room for the answer, provider.FitThinkingBudget). Pi 1.6 keeps the
// caller's toolChoice. Without a key or an authenticating header Pi
// throws.
func FromSimple(model *ai.Model, s provider.SimpleOptions) (Options, error) {
	base, err := s.KeyedBase(model, authHeaders...)
	if err != nil {
		return Options{}, err
	}
	o := Options{StreamOptions: base, ToolChoice: s.ToolChoice()}
	on := s.Thinking()
	o.ThinkingEnabled = &on
	switch {
	case !on:
	case provider.CompatOf(model).IsTrue("forceAdaptiveThinking"):
		o.Effort = jsonv.StringValue(provider.AdaptiveEffort(model, s.Reasoning))
	default:
		o.MaxTokens, o.ThinkingBudgetTokens = provider.AdjustMaxTokensForThinkingIn(s.Dialect, o.MaxTokens, model, s.Level(), s.ThinkingBudgets)
		if simpleFitsBudget.At(s.Dialect) {
			o.MaxTokens = s.ClampToContext(model, o.MaxTokens)
			o.ThinkingBudgetTokens = provider.FitThinkingBudget(o.ThinkingBudgetTokens, o.MaxTokens)
		}
	}
	return o, nil
}
