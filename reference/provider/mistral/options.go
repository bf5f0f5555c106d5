package mistral

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// Options are Pi's MistralOptions as a harness case writes them
// (provider.Options). Of the shared members this API reads temperature
// (sent when set), maxTokens (max_tokens when set, 0 included; the model's
// maxTokens is never used in its place, and the SDK accepts integers only),
// sessionId (prompt_cache_key and x-affinity unless cacheRetention is
// "none") and headers (the SDK pours them into a fetch Headers, so a null
// value is sent as "null").
type Options struct {
	provider.StreamOptions
	// ToolChoice is "auto", "none", "any", "required" or an object
	// {"type":"function","function":{"name":…}}; any value is kept, as Pi
	// reads it unchecked (mapToolChoice).
	ToolChoice jsonv.Value `pi:"toolChoice"`
	// PromptMode is prompt_mode (for example "reasoning") when truthy.
	PromptMode jsonv.Value `pi:"promptMode"`
	// ReasoningEffort is reasoning_effort when truthy.
	ReasoningEffort jsonv.Value `pi:"reasoningEffort"`
}

// DecodeOptions reads Options from a JSON object. A shared member of the
// wrong type is an error naming its JSON Pointer; this API's own members
// take any value (input.lenient), which BuildRequest reads as Pi does.
var DecodeOptions = provider.DecodeTagged[Options]
