package azureopenairesponses

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/openairesponses"
)

// Options are the members of Pi's AzureOpenAIResponsesOptions that shape a
// request, on top of the StreamOptions it extends, as a harness case
// writes them in JSON. A member left out is nil or Absent, Pi's
// `undefined`. Of the shared members this API reads maxTokens
// (max_output_tokens, when truthy), temperature (whenever given),
// sessionId (prompt_cache_key, whatever the cache retention), timeoutMs
// (the SDK's timeout and x-stainless-timeout) and env
// (AZURE_OPENAI_API_VERSION, AZURE_OPENAI_BASE_URL,
// AZURE_OPENAI_RESOURCE_NAME and AZURE_OPENAI_DEPLOYMENT_NAME_MAP). Members
// it does not read (serviceTier, toolChoice and the like) stay in Extra.
type Options struct {
	provider.StreamOptions
	// Reasoning shapes the reasoning member for reasoning models.
	openairesponses.Reasoning
	// AzureAPIVersion is the api-version query parameter (default "v1").
	AzureAPIVersion *string
	// AzureResourceName names the resource whose default endpoint is used
	// when no base URL is given.
	AzureResourceName *string
	// AzureBaseURL replaces every other source of the base URL.
	AzureBaseURL *string
	// AzureDeploymentName is sent as the body's model.
	AzureDeploymentName *string
}

// DecodeOptions reads Options from a JSON object. A member of the wrong
// type is an error naming its JSON Pointer.
func DecodeOptions(v jsonv.Value, ptr string) (Options, error) {
	return provider.Decode(v, ptr, func(o *Options, f *jsonv.Fields) {
		o.Reasoning.Read(f)
		o.AzureAPIVersion, o.AzureResourceName = f.OptString("azureApiVersion"), f.OptString("azureResourceName")
		o.AzureBaseURL, o.AzureDeploymentName = f.OptString("azureBaseUrl"), f.OptString("azureDeploymentName")
	})
}

// JSON encodes the options back in the shape DecodeOptions reads.
func (o Options) JSON() jsonv.Value {
	b := o.Reasoning.Add(o.Builder())
	b.SetOptString("azureApiVersion", o.AzureAPIVersion).SetOptString("azureResourceName", o.AzureResourceName)
	b.SetOptString("azureBaseUrl", o.AzureBaseURL).SetOptString("azureDeploymentName", o.AzureDeploymentName)
	return b.Extend(o.Extra).Value()
}
