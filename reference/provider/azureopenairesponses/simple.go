package azureopenairesponses

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/openairesponses"
)

// FromSimple is what Pi's streamSimple hands to stream: the level clamped
// to the model as reasoningEffort (none for "off"). None of the Azure
// members is kept, so the base URL and deployment come from the model.
// Without a key Pi throws.
func FromSimple(model *ai.Model, s provider.SimpleOptions) (Options, error) {
	base, err := s.KeyedBase(model)
	return Options{StreamOptions: base, Reasoning: openairesponses.EffortReasoning(s.Effort(model)), ToolChoice: s.ToolChoice()}, err
}
