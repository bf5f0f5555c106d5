package openairesponses

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// Options are Pi's OpenAIResponsesOptions as a harness case writes them
// (provider.Options); Pi's defaults are applied by BuildRequest. Of the
// shared members this API reads maxTokens (max_output_tokens, when truthy),
// temperature (whenever given), cacheRetention (any other non-empty value
// behaves like "short"), sessionId (prompt_cache_key and the session
// headers), timeoutMs (the SDK's timeout and x-stainless-timeout) and env
// (only PI_CACHE_RETENTION). Members it does not read stay in Extra: Pi
// ignores them here.
type Options struct {
	provider.StreamOptions
	Reasoning
	// ServiceTier is sent as service_tier, whatever it holds (null
	// included), when given; only the strings "flex" and "priority" (and
	// in 1.6 "fast") scale the cost.
	ServiceTier jsonv.Value `pi:"serviceTier"`
	// ToolChoice is sent as tool_choice, whatever it holds, when given:
	// from Pi 1.6 on (0.80 ignores it).
	ToolChoice jsonv.Value `pi:"toolChoice"`
}

// DecodeOptions reads Options from a JSON object. A member of the wrong
// type is an error naming its JSON Pointer.
var DecodeOptions = provider.DecodeTagged[Options]

// Reasoning are the members that each Responses API (this one, Azure's
// and Codex's) adds to StreamOptions for reasoning models. Each API reads
// them its own way, and none checks their type: they hold any value, Absent
// when left out (input.lenient).
type Reasoning struct {
	ReasoningEffort  jsonv.Value `pi:"reasoningEffort"`
	ReasoningSummary jsonv.Value `pi:"reasoningSummary"`
}

// EffortReasoning is the Reasoning streamSimple hands over: the effort
// when there is one, no summary.
func EffortReasoning(effort *string) Reasoning {
	if effort == nil {
		return Reasoning{}
	}
	return Reasoning{ReasoningEffort: jsonv.StringValue(*effort)}
}

// StringOf is v when it is a string, else nil: a service tier of another
// type prices nothing, exactly as none does.
func StringOf(v jsonv.Value) *string {
	if v.Kind() != jsonv.String {
		return nil
	}
	s := v.Str()
	return &s
}
