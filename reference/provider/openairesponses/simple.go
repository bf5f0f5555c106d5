package openairesponses

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider"
)

// FromSimple is what Pi's streamSimple hands to stream: the level clamped
// to the model as reasoningEffort (none for "off"); no summary and no
// service tier; in 1.6 the toolChoice and an output cap (KeyedBase).
// Without a key or an authenticating header Pi throws.
func FromSimple(model *ai.Model, s provider.SimpleOptions) (Options, error) {
	base, err := s.KeyedBase(model, AuthHeaders...)
	return Options{StreamOptions: base, Reasoning: EffortReasoning(s.Effort(model)), ToolChoice: s.ToolChoice()}, err
}
