package openairesponses

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider"
)

// FromSimple is what Pi's streamSimple hands to stream: the level clamped
// to the model as reasoningEffort (none for "off"); no summary and no
// service tier. Without a key or an authenticating header Pi throws.
func FromSimple(model *ai.Model, s provider.SimpleOptions) (Options, error) {
	base, err := s.KeyedBase(model, AuthHeaders...)
	return Options{StreamOptions: base, Reasoning: EffortReasoning(s.Effort(model))}, err
}
