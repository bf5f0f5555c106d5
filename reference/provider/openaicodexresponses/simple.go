package openaicodexresponses

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/openairesponses"
)

// FromSimple is what Pi's streamSimple hands to stream: the level clamped
// to the model as reasoningEffort. For "off" (or no level) 0.80 hands none,
// and then no reasoning member is sent; 1.6 hands "none" for a reasoning
// model, and the toolChoice. Without a key Pi throws.
func FromSimple(model *ai.Model, s provider.SimpleOptions) (Options, error) {
	base, err := s.KeyedBase(model)
	r := openairesponses.EffortReasoning(s.Effort(model))
	if simpleOffIsNone.At(s.Dialect) && r.ReasoningEffort.IsAbsent() && model.Reasoning {
		r.ReasoningEffort = jsonv.StringValue("none")
	}
	return Options{StreamOptions: base, Reasoning: r, ToolChoice: s.ToolChoice()}, err
}
