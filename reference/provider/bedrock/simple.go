package bedrock

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// FromSimple is what Pi's streamSimple hands to stream: the level and the
// caller's budgets as they are, except for a Claude model without adaptive
// thinking, whose level budget is fitted to maxTokens
// (provider.AdjustMaxTokensForThinking, and in 1.6
// provider.FitThinkingBudget, after fitting the cap in the context window)
// and written into the budgets under the level (xhigh, and in 1.6 max, as
// high). Of Bedrock's own members Pi 0.80 keeps none, Pi 1.6 the
// toolChoice; in 1.6 the output cap is always set (provider.SimpleOptions.BaseFor).
func FromSimple(model *ai.Model, s provider.SimpleOptions) (Options, error) {
	o := Options{StreamOptions: s.BaseFor(model), ToolChoice: s.ToolChoice()}
	if !s.Thinking() {
		return o, nil
	}
	o.Reasoning, o.ThinkingBudgets = s.Reasoning, s.ThinkingBudgets
	claude, err := isClaude(model)
	if err != nil || !claude || supportsAdaptive(s.Dialect, model) {
		return o, err
	}
	// Pi hands the level on as written; lookups use its String() key.
	level := s.Level()
	maxTokens, budget := provider.AdjustMaxTokensForThinkingIn(s.Dialect, o.MaxTokens, model, level, s.ThinkingBudgets)
	o.MaxTokens = maxTokens
	if simpleFitsBudget.At(s.Dialect) {
		o.MaxTokens = s.ClampToContext(model, maxTokens)
		budget = provider.FitThinkingBudget(budget, o.MaxTokens)
	} else if budget.IsAbsent() {
		return o, nil // the level has no budget; Pi writes undefined, which reads as none
	}
	// {...(thinkingBudgets || {}), [level]: budget}
	o.ThinkingBudgets = jsonv.Spread(o.ThinkingBudgets).With(provider.ClampReasoningIn(s.Dialect, level), budget)
	return o, nil
}
