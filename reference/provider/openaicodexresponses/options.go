package openaicodexresponses

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/openairesponses"
)

// Options are Pi's OpenAICodexResponsesOptions as a harness case writes
// them (provider.Options). Of the shared members this API reads apiKey (the
// ChatGPT OAuth token, a JWT whose payload names the account), temperature
// (whenever given), sessionId (prompt_cache_key and, when non-empty, the
// session-id and x-client-request-id headers), headers (Pi's own are set
// after them and win), timeoutMs (the idle timeout: never on the wire, but
// a negative one fails before anything is sent), maxRetries (Pi's own
// retry loop) and transport: anything but "sse" (Pi's default, "auto",
// included) first tries a WebSocket handshake (BuildRequest). The others
// (maxTokens, cacheRetention, env) Pi ignores here.
type Options struct {
	provider.StreamOptions
	// Reasoning: a ReasoningEffort given (even empty, or of another type)
	// sends a reasoning member, unless it is null with no "null" entry in
	// the model's thinkingLevelMap; its summary is ReasoningSummary ("auto"
	// when not given or null).
	openairesponses.Reasoning
	// ServiceTier is sent as service_tier, whatever it holds, when given;
	// only the strings "flex" and "priority" scale the cost.
	ServiceTier jsonv.Value `pi:"serviceTier"`
	// TextVerbosity is text.verbosity when truthy, whatever it holds
	// ("low" otherwise).
	TextVerbosity jsonv.Value `pi:"textVerbosity"`
	// ToolChoice is tool_choice when not nullish, from Pi 1.6 on ("auto"
	// otherwise, and always in 0.80).
	ToolChoice jsonv.Value `pi:"toolChoice"`
}

// DecodeOptions reads Options from a JSON object. A member of the wrong
// type is an error naming its JSON Pointer.
var DecodeOptions = provider.DecodeTagged[Options]
