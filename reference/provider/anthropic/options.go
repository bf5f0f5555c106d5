package anthropic

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/httpheader"
)

// Options are the members of Pi's AnthropicOptions (and the StreamOptions it
// extends) that shape a request, as a harness case writes them in JSON. A
// member left out is nil or Absent, which is what Pi's `undefined` means;
// Pi's defaults are applied by BuildRequest, not here.
type Options struct {
	APIKey *string
	// MaxTokens is max_tokens; Absent means the model's maxTokens.
	MaxTokens jsonv.Value
	// Temperature is sent unless thinking is on or the model refuses it.
	Temperature jsonv.Value
	// CacheRetention is "none", "short" or "long". Pi treats any other
	// non-empty value like "short".
	CacheRetention *string
	// SessionID is sent as x-session-affinity where the model asks for it.
	SessionID *string
	// Headers are extra request headers, in the order given; a nil Value
	// removes a header Pi or the SDK would send.
	Headers []Header
	// TimeoutMs sets x-stainless-timeout (whole seconds).
	TimeoutMs jsonv.Value
	// MaxRetries is how often the SDK retries a failed request (default 0).
	// It does not change the request, only how many of them are sent.
	MaxRetries jsonv.Value
	// Metadata is an object; only a string user_id is sent.
	Metadata jsonv.Value
	// Env holds provider environment values; only PI_CACHE_RETENTION is
	// read. Pi also falls back to the process environment, which the
	// reference never reads.
	Env []jsonv.Member
	// ThinkingEnabled: true sends thinking (budget or adaptive), false sends
	// {"type":"disabled"}, nil sends nothing. Only for reasoning models.
	ThinkingEnabled *bool
	// ThinkingBudgetTokens is budget_tokens; Absent or 0 means 1024.
	ThinkingBudgetTokens jsonv.Value
	// ThinkingDisplay is "summarized" (the default) or "omitted".
	ThinkingDisplay *string
	// Effort is output_config.effort for adaptive-thinking models.
	Effort *string
	// InterleavedThinking asks for the interleaved-thinking beta (default true).
	InterleavedThinking *bool
	// ToolChoice is "auto", "any", "none" or an object such as
	// {"type":"tool","name":"read"}.
	ToolChoice jsonv.Value
	// Extra keeps members this API does not read (signal, onPayload and the
	// like cannot appear in JSON anyway).
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
		APIKey:               f.OptString("apiKey"),
		MaxTokens:            f.OptNumber("maxTokens"),
		Temperature:          f.OptNumber("temperature"),
		CacheRetention:       f.OptString("cacheRetention"),
		SessionID:            f.OptString("sessionId"),
		TimeoutMs:            f.OptNumber("timeoutMs"),
		MaxRetries:           f.OptNumber("maxRetries"),
		Metadata:             f.OptObject("metadata"),
		ThinkingEnabled:      f.OptBool("thinkingEnabled"),
		ThinkingBudgetTokens: f.OptNumber("thinkingBudgetTokens"),
		ThinkingDisplay:      f.OptString("thinkingDisplay"),
		Effort:               f.OptString("effort"),
		InterleavedThinking:  f.OptBool("interleavedThinking"),
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
	b.SetOptString("sessionId", o.SessionID)
	if o.Headers != nil {
		b.Set("headers", httpheader.JSON(o.Headers))
	}
	b.Set("timeoutMs", o.TimeoutMs).Set("maxRetries", o.MaxRetries).Set("metadata", o.Metadata)
	if o.Env != nil {
		b.Set("env", jsonv.ObjectValue(o.Env...))
	}
	b.SetOptBool("thinkingEnabled", o.ThinkingEnabled).Set("thinkingBudgetTokens", o.ThinkingBudgetTokens)
	b.SetOptString("thinkingDisplay", o.ThinkingDisplay).SetOptString("effort", o.Effort)
	b.SetOptBool("interleavedThinking", o.InterleavedThinking).Set("toolChoice", o.ToolChoice)
	return b.Extend(o.Extra).Value()
}

// envValue is getProviderEnvValue without the process environment: the
// value of name in Env, or "" when it is missing or empty.
func (o Options) envValue(name string) string { return jsonv.LastString(o.Env, name) }
