package bedrock

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// FromSimple is what Pi's streamSimple hands to stream: the level and the
// caller's budgets as they are, except for a Claude model without adaptive
// thinking, whose level budget is fitted to maxTokens
// (provider.AdjustMaxTokensForThinking, and in 1.6
// provider.FitThinkingBudget) and written into the budgets under the level
// (xhigh, and in 1.6 max, as high). Of Bedrock's own members Pi 0.80 keeps
// none, Pi 1.6 the toolChoice.
func FromSimple(model *ai.Model, s provider.SimpleOptions) (Options, error) {
	o := Options{StreamOptions: s.Base()}
	if simpleKeepsToolChoice.At(s.Dialect) {
		o.ToolChoice = s.ExtraMember("toolChoice")
	}
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
	maxTokens, budget := provider.AdjustMaxTokensForThinking(o.MaxTokens, model, level, s.ThinkingBudgets)
	o.MaxTokens = maxTokens
	if simpleFitsBudget.At(s.Dialect) {
		budget = provider.FitThinkingBudget(budget, maxTokens)
	} else if budget.IsAbsent() {
		return o, nil // the level has no budget; Pi writes undefined, which reads as none
	}
	// {...(thinkingBudgets || {}), [level]: budget}
	o.ThinkingBudgets = jsonv.Spread(o.ThinkingBudgets).With(budgetKey(s.Dialect, level), budget)
	return o, nil
}

// budgetKey is the key streamSimple writes a fitted budget under (Pi's
// clampReasoning): xhigh as high, and in 1.6 max too.
func budgetKey(d dialect.Dialect, level string) string {
	if !d.AtLeast(dialect.V1_6) {
		return provider.ClampReasoning(level)
	}
	if level == "xhigh" || level == "max" {
		return "high"
	}
	return level
}
