package bedrock

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/httpheader"
)

// Options are the members of Pi's BedrockOptions (and the StreamOptions it
// extends) that shape a request, as a harness case writes them in JSON. A
// member left out is nil or Absent, Pi's `undefined`.
type Options struct {
	// APIKey is accepted and ignored: Bedrock signs with AWS credentials.
	APIKey *string
	// MaxTokens is inferenceConfig.maxTokens; Absent means the model's
	// maxTokens for Claude models and nothing for the others.
	MaxTokens jsonv.Value
	// Temperature is inferenceConfig.temperature, sent whenever it is set.
	Temperature jsonv.Value
	// CacheRetention is "none", "short" or "long" (default "short").
	CacheRetention *string
	// Headers are extra request headers; x-amz-*, authorization and host
	// are skipped, as are null values.
	Headers []Header
	// Env holds provider environment values: AWS_REGION,
	// AWS_DEFAULT_REGION, AWS_PROFILE, AWS_ACCESS_KEY_ID,
	// AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_BEARER_TOKEN_BEDROCK,
	// AWS_BEDROCK_SKIP_AUTH, AWS_BEDROCK_FORCE_CACHE,
	// AWS_BEDROCK_FORCE_HTTP1 and PI_CACHE_RETENTION. Pi also falls back to
	// the process environment, which the reference never reads.
	Env []jsonv.Member
	// Region is the signing region, before AWS_REGION.
	Region *string
	// Profile names an AWS profile (it only affects the region choice here).
	Profile *string
	// BearerToken switches from SigV4 to a Bedrock API key.
	BearerToken *string
	// Reasoning is a thinking level (minimal … xhigh); nil is off.
	Reasoning *string
	// ThinkingBudgets overrides the budget of a level: {"low": 3000}.
	ThinkingBudgets jsonv.Value
	// ThinkingDisplay is "summarized" (the default) or "omitted".
	ThinkingDisplay *string
	// InterleavedThinking asks for the interleaved-thinking beta (default true).
	InterleavedThinking *bool
	// ToolChoice is "auto", "any", "none" or {"type":"tool","name":…}.
	ToolChoice jsonv.Value
	// RequestMetadata is sent verbatim.
	RequestMetadata jsonv.Value
	// Extra keeps members this API does not read.
	Extra []jsonv.Member
}

// Header is one request header given by the caller; a nil Value is JSON null.
type Header = httpheader.Header

// DecodeOptions reads Options from a JSON object. A member of the wrong
// type is an error naming its JSON Pointer.
func DecodeOptions(v jsonv.Value, ptr string) (Options, error) {
	f := jsonv.ReadFields(v, ptr)
	o := Options{
		APIKey:              f.OptString("apiKey"),
		MaxTokens:           f.OptNumber("maxTokens"),
		Temperature:         f.OptNumber("temperature"),
		CacheRetention:      f.OptString("cacheRetention"),
		Region:              f.OptString("region"),
		Profile:             f.OptString("profile"),
		BearerToken:         f.OptString("bearerToken"),
		Reasoning:           f.OptString("reasoning"),
		ThinkingBudgets:     f.OptObject("thinkingBudgets"),
		ThinkingDisplay:     f.OptString("thinkingDisplay"),
		InterleavedThinking: f.OptBool("interleavedThinking"),
		RequestMetadata:     f.OptObject("requestMetadata"),
	}
	headers := f.OptObject("headers")
	env := f.OptObject("env")
	toolChoice := f.Any("toolChoice")
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
	switch toolChoice.Kind() {
	case jsonv.Absent, jsonv.String, jsonv.Object:
		o.ToolChoice = toolChoice
	default:
		return Options{}, jsonv.Errorf(f.At("toolChoice"), "want a string or an object, got %s", toolChoice.Kind())
	}
	return o, nil
}

// JSON encodes the options back in the shape DecodeOptions reads.
func (o Options) JSON() jsonv.Value {
	b := new(jsonv.ObjectBuilder).SetOptString("apiKey", o.APIKey).Set("maxTokens", o.MaxTokens)
	b.Set("temperature", o.Temperature).SetOptString("cacheRetention", o.CacheRetention)
	if o.Headers != nil {
		b.Set("headers", httpheader.JSON(o.Headers))
	}
	if o.Env != nil {
		b.Set("env", jsonv.ObjectValue(o.Env...))
	}
	b.SetOptString("region", o.Region).SetOptString("profile", o.Profile).SetOptString("bearerToken", o.BearerToken)
	b.SetOptString("reasoning", o.Reasoning).Set("thinkingBudgets", o.ThinkingBudgets)
	b.SetOptString("thinkingDisplay", o.ThinkingDisplay).SetOptBool("interleavedThinking", o.InterleavedThinking)
	b.Set("toolChoice", o.ToolChoice).Set("requestMetadata", o.RequestMetadata)
	return b.Extend(o.Extra).Value()
}

// env is getProviderEnvValue without the process environment: the value
// of name in Env, or "" when it is missing or empty.
func (o Options) env(name string) string { return jsonv.LastString(o.Env, name) }

// str is `value || undefined` for an optional string.
func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
