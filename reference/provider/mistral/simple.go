package mistral

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// FromSimple is what Pi's streamSimple hands to stream. A reasoning model
// given a level (clamped to the model, "off" being none) either gets
// reasoning_effort, for the models that take it (the level's
// thinkingLevelMap entry, else "high"), or prompt_mode "reasoning" for the
// others. Without a key Pi throws.
func FromSimple(model *ai.Model, s provider.SimpleOptions) (Options, error) {
	base, err := s.KeyedBase(model)
	o := Options{StreamOptions: base}
	level := s.Effort(model)
	switch {
	case !model.Reasoning || level == nil:
	case usesReasoningEffort(model):
		// thinkingLevelMap[level] ?? "high", whatever its type.
		o.ReasoningEffort = jsonv.StringValue("high")
		if v, _ := model.ThinkingLevelMap.Get(*level); v.Kind() != jsonv.Null && !v.IsAbsent() {
			o.ReasoningEffort = v
		}
	default:
		o.PromptMode = jsonv.StringValue("reasoning")
	}
	return o, err
}

// usesReasoningEffort names the models that take reasoning_effort rather
// than prompt_mode.
func usesReasoningEffort(model *ai.Model) bool {
	switch model.ID {
	case "mistral-small-2603", "mistral-small-latest", "mistral-medium-3.5":
		return true
	}
	return false
}
