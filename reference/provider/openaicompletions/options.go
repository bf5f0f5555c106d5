package openaicompletions

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/httpheader"
)

// Options are the members of Pi's OpenAICompletionsOptions (and the
// StreamOptions it extends) that shape a request, as a harness case writes
// them in JSON. A member left out is nil or Absent, Pi's `undefined`; Pi's
// defaults are applied by BuildRequest.
type Options struct {
	APIKey *string
	// MaxTokens is sent (as max_completion_tokens or max_tokens) when truthy.
	MaxTokens jsonv.Value
	// Temperature is sent whenever it is given, 0 included.
	Temperature jsonv.Value
	// CacheRetention is "none", "short" or "long"; any other non-empty
	// value is kept and behaves like "short".
	CacheRetention *string
	// SessionID becomes prompt_cache_key and, where the model asks for
	// them, the session-affinity headers.
	SessionID *string
	// Headers are extra request headers, in the order given; a nil Value
	// removes a header.
	Headers []Header
	// TimeoutMs sets x-stainless-timeout (whole seconds).
	TimeoutMs jsonv.Value
	// MaxRetries is how often the SDK retries (default 0); it changes how
	// many requests are sent, never one request.
	MaxRetries jsonv.Value
	// Env holds provider environment values; only PI_CACHE_RETENTION is
	// read. Pi also falls back to the process environment, which the
	// reference never reads.
	Env []jsonv.Member
	// ToolChoice is "auto", "none", "required" or an object such as
	// {"type":"function","function":{"name":"read"}}; copied as it is.
	ToolChoice jsonv.Value
	// ReasoningEffort is "minimal", "low", "medium", "high" or "xhigh";
	// how it reaches the body depends on compat.thinkingFormat.
	ReasoningEffort *string
	// Extra keeps members this API does not read.
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
		APIKey:          f.OptString("apiKey"),
		MaxTokens:       f.OptNumber("maxTokens"),
		Temperature:     f.OptNumber("temperature"),
		CacheRetention:  f.OptString("cacheRetention"),
		SessionID:       f.OptString("sessionId"),
		TimeoutMs:       f.OptNumber("timeoutMs"),
		MaxRetries:      f.OptNumber("maxRetries"),
		ReasoningEffort: f.OptString("reasoningEffort"),
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
	b.Set("timeoutMs", o.TimeoutMs).Set("maxRetries", o.MaxRetries)
	if o.Env != nil {
		b.Set("env", jsonv.ObjectValue(o.Env...))
	}
	b.Set("toolChoice", o.ToolChoice).SetOptString("reasoningEffort", o.ReasoningEffort)
	return b.Extend(o.Extra).Value()
}

// envValue is getProviderEnvValue without the process environment.
func (o Options) envValue(name string) string { return jsonv.LastString(o.Env, name) }
