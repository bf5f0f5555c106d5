package openaicodexresponses

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/httpheader"
)

// Options are the members of Pi's OpenAICodexResponsesOptions (and the
// StreamOptions it extends) that shape a request, as a harness case writes
// them in JSON. A member left out is nil or Absent, Pi's `undefined`.
type Options struct {
	// APIKey is the ChatGPT OAuth token (a JWT); the account id is read
	// from its payload.
	APIKey *string
	// Temperature is sent whenever it is given.
	Temperature jsonv.Value
	// SessionID becomes prompt_cache_key and, when non-empty, the
	// session-id and x-client-request-id headers.
	SessionID *string
	// Headers are extra request headers, in the order given; a nil Value
	// removes a header (Pi's own headers are set after them and win).
	Headers []Header
	// TimeoutMs is the idle timeout; it is never on the wire, but a
	// negative one fails before anything is sent.
	TimeoutMs jsonv.Value
	// MaxRetries is how often Pi retries a failed request (default 0).
	// Only 0 is modelled for a response that is not 2xx.
	MaxRetries jsonv.Value
	// ReasoningEffort, when given (even empty), sends a reasoning member.
	ReasoningEffort *string
	// ReasoningSummary is reasoning.summary ("auto" when not given).
	ReasoningSummary *string
	// ServiceTier is sent as service_tier and scales the cost.
	ServiceTier *string
	// TextVerbosity is text.verbosity ("low" when not given or empty).
	TextVerbosity *string
	// Transport must be "sse" for the reference: Pi's default ("auto")
	// first tries a WebSocket, which is not modelled.
	Transport *string
	// Extra keeps members this API does not read (maxTokens,
	// cacheRetention, toolChoice, env and the like): Pi ignores them here.
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
		APIKey:           f.OptString("apiKey"),
		Temperature:      f.OptNumber("temperature"),
		SessionID:        f.OptString("sessionId"),
		TimeoutMs:        f.OptNumber("timeoutMs"),
		MaxRetries:       f.OptNumber("maxRetries"),
		ReasoningEffort:  f.OptString("reasoningEffort"),
		ReasoningSummary: f.OptString("reasoningSummary"),
		ServiceTier:      f.OptString("serviceTier"),
		TextVerbosity:    f.OptString("textVerbosity"),
		Transport:        f.OptString("transport"),
	}
	headers := f.OptObject("headers")
	o.Extra = f.Rest()
	if err := f.Err(); err != nil {
		return Options{}, err
	}
	var err error
	if o.Headers, err = httpheader.Decode(headers, f.At("headers")); err != nil {
		return Options{}, err
	}
	return o, nil
}

// JSON encodes the options back in the shape DecodeOptions reads.
func (o Options) JSON() jsonv.Value {
	b := new(jsonv.ObjectBuilder).SetOptString("apiKey", o.APIKey).Set("temperature", o.Temperature)
	b.SetOptString("sessionId", o.SessionID)
	if o.Headers != nil {
		b.Set("headers", httpheader.JSON(o.Headers))
	}
	b.Set("timeoutMs", o.TimeoutMs).Set("maxRetries", o.MaxRetries)
	b.SetOptString("reasoningEffort", o.ReasoningEffort).SetOptString("reasoningSummary", o.ReasoningSummary)
	b.SetOptString("serviceTier", o.ServiceTier).SetOptString("textVerbosity", o.TextVerbosity)
	b.SetOptString("transport", o.Transport)
	return b.Extend(o.Extra).Value()
}
