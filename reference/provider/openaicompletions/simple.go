package openaicompletions

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// FromSimple is what Pi's streamSimple hands to stream: the level clamped
// to the model as reasoningEffort (none for "off"), and the caller's
// toolChoice, the one member besides the shared ones it keeps. Without a
// key or an authenticating header Pi throws.
func FromSimple(model *ai.Model, s provider.SimpleOptions) (Options, error) {
	base, err := s.KeyedBase(model, authHeaders...)
	if err != nil {
		return Options{}, err
	}
	o := Options{StreamOptions: base, ToolChoice: s.ExtraMember("toolChoice")}
	if effort := s.Effort(model); effort != nil {
		o.ReasoningEffort = jsonv.StringValue(*effort)
	}
	return o, nil
}
