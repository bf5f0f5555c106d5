package mistral

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/httpheader"
)

// Options are the members of Pi's MistralOptions (and the StreamOptions it
// extends) that shape a request, as a harness case writes them in JSON. A
// member left out is nil or Absent, Pi's `undefined`.
type Options struct {
	APIKey *string
	// Temperature is sent as temperature when set.
	Temperature jsonv.Value
	// MaxTokens is sent as max_tokens when set (0 included); the model's
	// maxTokens is never used in its place. The SDK accepts integers only.
	MaxTokens jsonv.Value
	// ToolChoice is "auto", "none", "any", "required" or an object
	// {"type":"function","function":{"name":…}}.
	ToolChoice jsonv.Value
	// PromptMode is prompt_mode (for example "reasoning") when non-empty.
	PromptMode *string
	// ReasoningEffort is reasoning_effort when non-empty.
	ReasoningEffort *string
	// SessionID is prompt_cache_key and x-affinity unless CacheRetention
	// is "none".
	SessionID      *string
	CacheRetention *string
	// Headers are extra request headers, in the order given. The SDK pours
	// them into a fetch Headers, so a null value is sent as "null".
	Headers []Header
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
		Temperature:     f.OptNumber("temperature"),
		MaxTokens:       f.OptNumber("maxTokens"),
		PromptMode:      f.OptString("promptMode"),
		ReasoningEffort: f.OptString("reasoningEffort"),
		SessionID:       f.OptString("sessionId"),
		CacheRetention:  f.OptString("cacheRetention"),
	}
	headers := f.OptObject("headers")
	toolChoice := f.Any("toolChoice")
	o.Extra = f.Rest()
	if err := f.Err(); err != nil {
		return Options{}, err
	}
	var err error
	if o.Headers, err = httpheader.Decode(headers, f.At("headers")); err != nil {
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
	b := new(jsonv.ObjectBuilder).SetOptString("apiKey", o.APIKey).Set("temperature", o.Temperature)
	b.Set("maxTokens", o.MaxTokens).Set("toolChoice", o.ToolChoice)
	b.SetOptString("promptMode", o.PromptMode).SetOptString("reasoningEffort", o.ReasoningEffort)
	b.SetOptString("sessionId", o.SessionID).SetOptString("cacheRetention", o.CacheRetention)
	if o.Headers != nil {
		b.Set("headers", httpheader.JSON(o.Headers))
	}
	return b.Extend(o.Extra).Value()
}
