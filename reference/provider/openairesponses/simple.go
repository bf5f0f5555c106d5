package openairesponses

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// FromSimple is what Pi's streamSimple hands to stream: the level clamped
// to the model as reasoningEffort (none for "off"); no summary and no
// service tier; in 1.6 the toolChoice. Without a key or an authenticating header Pi throws.
func FromSimple(model *ai.Model, s provider.SimpleOptions) (Options, error) {
	base, err := s.KeyedBase(model, AuthHeaders...)
	return Options{StreamOptions: base, Reasoning: EffortReasoning(s.Effort(model)), ToolChoice: SimpleToolChoice(s)}, err
}

// SimpleToolChoice is the toolChoice a Responses API's streamSimple hands
// to stream: the caller's from 1.6 on; 0.80 dropped it.
func SimpleToolChoice(s provider.SimpleOptions) jsonv.Value {
	if !s.Dialect.AtLeast(dialect.V1_6) {
		return jsonv.Value{}
	}
	return s.ExtraMember("toolChoice")
}
