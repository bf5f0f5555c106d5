package bedrock

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// FromSimple is what Pi's streamSimple hands to stream: the level and the
// caller's budgets as they are, except for a Claude model without adaptive
// thinking, whose level budget is fitted to maxTokens
// (provider.AdjustMaxTokensForThinking) and written into the budgets under
// the level (xhigh as high). None of Bedrock's own members is kept.
func FromSimple(model *ai.Model, s provider.SimpleOptions) (Options, error) {
	o := Options{StreamOptions: s.Base()}
	if !s.Thinking() {
		return o, nil
	}
	o.Reasoning, o.ThinkingBudgets = s.Reasoning, s.ThinkingBudgets
	claude, err := isClaude(model)
	if err != nil || !claude || supportsAdaptive(model) {
		return o, err
	}
	// Pi hands the level on as written; lookups use its String() key.
	level := s.Level()
	maxTokens, budget := provider.AdjustMaxTokensForThinking(o.MaxTokens, model, level, s.ThinkingBudgets)
	o.MaxTokens = maxTokens
	if budget.IsAbsent() {
		return o, nil // the level has no budget; Pi writes undefined, which reads as none
	}
	// {...(thinkingBudgets || {}), [level]: budget}
	o.ThinkingBudgets = jsonv.Spread(o.ThinkingBudgets).With(provider.ClampReasoning(level), budget)
	return o, nil
}
