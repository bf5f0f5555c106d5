package bedrock

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// Options are Pi's BedrockOptions as a harness case writes them
// (provider.Options). Of the shared members this API ignores apiKey
// (Bedrock signs with AWS credentials) and reads maxTokens
// (inferenceConfig.maxTokens; Absent means the model's maxTokens for Claude
// models and nothing for the others), temperature
// (inferenceConfig.temperature, whenever set), cacheRetention (default
// "short"), headers (x-amz-*, authorization and host are skipped, as are
// null values) and env (AWS_REGION, AWS_DEFAULT_REGION, AWS_PROFILE,
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN,
// AWS_BEARER_TOKEN_BEDROCK, AWS_BEDROCK_SKIP_AUTH, AWS_BEDROCK_FORCE_CACHE,
// AWS_BEDROCK_FORCE_HTTP1 and PI_CACHE_RETENTION).
type Options struct {
	provider.StreamOptions
	// Region is the signing region, before AWS_REGION, when truthy; one of
	// another type is its String() (wire.bedrock.lenient).
	Region jsonv.Value `pi:"region"`
	// Profile names an AWS profile, of any type: the SDK would read it
	// only to find a region or credentials the case always gives.
	Profile jsonv.Value `pi:"profile"`
	// BearerToken switches from SigV4 to a Bedrock API key when truthy,
	// whatever its type.
	BearerToken jsonv.Value `pi:"bearerToken"`
	// Reasoning is a thinking level (minimal … xhigh); a falsy value is
	// off. Another truthy value is a level no name matches, looked up in
	// the budgets and the model's thinkingLevelMap by its String().
	Reasoning jsonv.Value `pi:"reasoning"`
	// ThinkingBudgets overrides the budget of a level: {"low": 3000}. A
	// value that is not an object has no budgets.
	ThinkingBudgets jsonv.Value `pi:"thinkingBudgets"`
	// ThinkingDisplay is sent as it is; null or Absent means "summarized".
	// Pi declares "summarized" or "omitted".
	ThinkingDisplay jsonv.Value `pi:"thinkingDisplay"`
	// InterleavedThinking asks for the interleaved-thinking beta when
	// truthy; null or Absent means true.
	InterleavedThinking jsonv.Value `pi:"interleavedThinking"`
	// ToolChoice is "auto", "any", "none" or {"type":"tool","name":…};
	// any other value chooses nothing.
	ToolChoice jsonv.Value `pi:"toolChoice"`
	// RequestMetadata is sent verbatim.
	RequestMetadata jsonv.Value `pi:"requestMetadata"`
}

// DecodeOptions reads Options from a JSON object. A member of the wrong
// type is an error naming its JSON Pointer.
var DecodeOptions = provider.DecodeTagged[Options]
