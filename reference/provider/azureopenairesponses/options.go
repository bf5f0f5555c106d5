package azureopenairesponses

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/httpheader"
)

// Options are the members of Pi's AzureOpenAIResponsesOptions (and the
// StreamOptions it extends) that shape a request, as a harness case writes
// them in JSON. A member left out is nil or Absent, Pi's `undefined`.
type Options struct {
	APIKey *string
	// MaxTokens is max_output_tokens, sent only when truthy.
	MaxTokens jsonv.Value
	// Temperature is sent whenever it is given.
	Temperature jsonv.Value
	// SessionID becomes prompt_cache_key, whatever the cache retention.
	SessionID *string
	// Headers are extra request headers, in the order given; a nil Value
	// removes a header Pi or the SDK would send.
	Headers []Header
	// TimeoutMs is the SDK's request timeout; it also sets
	// x-stainless-timeout (whole seconds).
	TimeoutMs jsonv.Value
	// MaxRetries is how often the SDK retries (default 0).
	MaxRetries jsonv.Value
	// Env holds provider environment values. Read here:
	// AZURE_OPENAI_API_VERSION, AZURE_OPENAI_BASE_URL,
	// AZURE_OPENAI_RESOURCE_NAME and AZURE_OPENAI_DEPLOYMENT_NAME_MAP.
	Env []jsonv.Member
	// ReasoningEffort and ReasoningSummary shape the reasoning member for
	// reasoning models.
	ReasoningEffort  *string
	ReasoningSummary *string
	// AzureAPIVersion is the api-version query parameter (default "v1").
	AzureAPIVersion *string
	// AzureResourceName names the resource whose default endpoint is used
	// when no base URL is given.
	AzureResourceName *string
	// AzureBaseURL replaces every other source of the base URL.
	AzureBaseURL *string
	// AzureDeploymentName is sent as the body's model.
	AzureDeploymentName *string
	// Extra keeps members this API does not read (cacheRetention,
	// serviceTier, toolChoice and the like): Pi ignores them here.
	Extra []jsonv.Member
}

// Header is one request header given by the caller; a nil Value is
// JSON null.
type Header = httpheader.Header

// DecodeOptions reads Options from a JSON object. A member of the wrong
// type is an error naming its JSON Pointer.
func DecodeOptions(v jsonv.Value, ptr string) (Options, error) {
	f := jsonv.ReadFields(v, ptr)
	o := Options{
		APIKey:              f.OptString("apiKey"),
		MaxTokens:           f.OptNumber("maxTokens"),
		Temperature:         f.OptNumber("temperature"),
		SessionID:           f.OptString("sessionId"),
		TimeoutMs:           f.OptNumber("timeoutMs"),
		MaxRetries:          f.OptNumber("maxRetries"),
		ReasoningEffort:     f.OptString("reasoningEffort"),
		ReasoningSummary:    f.OptString("reasoningSummary"),
		AzureAPIVersion:     f.OptString("azureApiVersion"),
		AzureResourceName:   f.OptString("azureResourceName"),
		AzureBaseURL:        f.OptString("azureBaseUrl"),
		AzureDeploymentName: f.OptString("azureDeploymentName"),
	}
	headers := f.OptObject("headers")
	env := f.OptObject("env")
	o.Extra = f.Rest()
	if err := f.Err(); err != nil {
		return Options{}, err
	}
	var err error
	if o.Headers, err = httpheader.Decode(headers, f.At("headers")); err != nil {
		return Options{}, err
	}
	if o.Env, err = jsonv.StringMembers(env, f.At("env")); err != nil {
		return Options{}, err
	}
	return o, nil
}

// JSON encodes the options back in the shape DecodeOptions reads.
func (o Options) JSON() jsonv.Value {
	b := new(jsonv.ObjectBuilder).SetOptString("apiKey", o.APIKey).Set("maxTokens", o.MaxTokens)
	b.Set("temperature", o.Temperature).SetOptString("sessionId", o.SessionID)
	if o.Headers != nil {
		b.Set("headers", httpheader.JSON(o.Headers))
	}
	b.Set("timeoutMs", o.TimeoutMs).Set("maxRetries", o.MaxRetries)
	if o.Env != nil {
		b.Set("env", jsonv.ObjectValue(o.Env...))
	}
	b.SetOptString("reasoningEffort", o.ReasoningEffort).SetOptString("reasoningSummary", o.ReasoningSummary)
	b.SetOptString("azureApiVersion", o.AzureAPIVersion).SetOptString("azureResourceName", o.AzureResourceName)
	b.SetOptString("azureBaseUrl", o.AzureBaseURL).SetOptString("azureDeploymentName", o.AzureDeploymentName)
	return b.Extend(o.Extra).Value()
}

// envValue is Pi's provider-env lookup without the process environment:
// an empty value counts as unset.
func (o Options) envValue(name string) string { return jsonv.LastString(o.Env, name) }

// optValue is `options.<member> || ...`: "" for a missing or empty member.
func optValue(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
