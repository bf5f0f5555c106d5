package azureopenairesponses

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/openairesponses"
)

// Options are Pi's AzureOpenAIResponsesOptions as a harness case writes
// them (provider.Options). Of the shared members this API reads maxTokens
// (max_output_tokens, when truthy), temperature (whenever given), sessionId
// (prompt_cache_key, whatever the cache retention), timeoutMs (the SDK's
// timeout and x-stainless-timeout) and env (AZURE_OPENAI_API_VERSION,
// AZURE_OPENAI_BASE_URL, AZURE_OPENAI_RESOURCE_NAME and
// AZURE_OPENAI_DEPLOYMENT_NAME_MAP). Members it does not read (serviceTier
// and the like) stay in Extra.
type Options struct {
	provider.StreamOptions
	// Reasoning shapes the reasoning member for reasoning models.
	openairesponses.Reasoning
	// The Azure members are read without a type check (input.lenient).
	// AzureAPIVersion, when truthy, is the api-version query parameter as
	// the SDK's query encoder writes any value (default "v1").
	AzureAPIVersion jsonv.Value `pi:"azureApiVersion"`
	// AzureResourceName, when truthy, names the resource (String(v)) whose
	// default endpoint is used when no base URL is given.
	AzureResourceName jsonv.Value `pi:"azureResourceName"`
	// AzureBaseURL replaces every other source of the base URL when it is
	// a string that is not blank; null is no URL, any other value throws
	// (Pi trims it).
	AzureBaseURL jsonv.Value `pi:"azureBaseUrl"`
	// AzureDeploymentName, when truthy, is sent as the body's model as it
	// is.
	AzureDeploymentName jsonv.Value `pi:"azureDeploymentName"`
	// ToolChoice is sent as tool_choice, whatever it holds, when given:
	// from Pi 1.6 on (0.80 ignores it).
	ToolChoice jsonv.Value `pi:"toolChoice"`
}

// DecodeOptions reads Options from a JSON object. A member of the wrong
// type is an error naming its JSON Pointer.
var DecodeOptions = provider.DecodeTagged[Options]
