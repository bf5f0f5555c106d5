package openaicompletions

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// Options are Pi's OpenAICompletionsOptions as a harness case writes them
// (provider.Options); Pi's defaults are applied by Build. Of the
// shared members this API reads maxTokens (max_completion_tokens or
// max_tokens, when truthy), temperature (whenever given, 0 included),
// cacheRetention (any other non-empty value behaves like "short"),
// sessionId (prompt_cache_key and, where the model asks for them, the
// session-affinity headers), timeoutMs (x-stainless-timeout) and env (only
// PI_CACHE_RETENTION).
type Options struct {
	provider.StreamOptions
	// ToolChoice is "auto", "none", "required" or an object such as
	// {"type":"function","function":{"name":"read"}}; when truthy it is
	// copied as it is, whatever its type.
	ToolChoice jsonv.Value `pi:"toolChoice"`
	// ReasoningEffort is "minimal", "low", "medium", "high" or "xhigh";
	// how it reaches the body depends on compat.thinkingFormat. Pi tests
	// it for truthiness, looks it up in model.thinkingLevelMap as a
	// property key (String(v)) and copies it as it is, so any value is
	// kept as written (input.lenient); Absent is Pi's undefined.
	ReasoningEffort jsonv.Value `pi:"reasoningEffort"`
	// ThinkingBudgets (Pi 1.6) are the token budgets per thinking level
	// for compat's thinking-budget member and the chat-template variable
	// thinking.budget; any value is kept.
	ThinkingBudgets jsonv.Value `pi:"thinkingBudgets"`
}

// DecodeOptions reads Options from a JSON object. A shared member of the
// wrong type is an error naming its JSON Pointer; this API's own members
// take any value.
var DecodeOptions = provider.DecodeTagged[Options]
