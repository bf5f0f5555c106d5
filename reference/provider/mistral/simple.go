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
	if err != nil {
		return Options{}, err
	}
	o := Options{StreamOptions: base}
	level := s.Effort(model)
	if ownFetch.At(s.Dialect) {
		return fromSimple16(model, s, o, level), err
	}
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

// fromSimple16 is Pi 1.6's choice, by the model's thinkingLevelMap rather
// than its id: a reasoning model with a map gets reasoning_effort, the
// level's entry (else "high"), or for no level the map's off entry when it
// is not nullish; a reasoning model without one gets prompt_mode
// "reasoning" for a level. The caller's toolChoice is kept.
func fromSimple16(model *ai.Model, s provider.SimpleOptions, o Options, level *string) Options {
	o.ToolChoice = s.ExtraMember("toolChoice")
	levels := model.ThinkingLevelMap
	switch {
	case !model.Reasoning:
	case levels.Truthy() && level != nil:
		o.ReasoningEffort = jsonv.StringValue("high")
		if v, _ := levels.Get(*level); !v.IsNullish() {
			o.ReasoningEffort = v
		}
	case levels.Truthy():
		if v, _ := levels.Get("off"); !v.IsNullish() {
			o.ReasoningEffort = v
		}
	case level != nil:
		o.PromptMode = jsonv.StringValue("reasoning")
	}
	return o
}
