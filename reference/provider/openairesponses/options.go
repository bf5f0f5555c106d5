package openairesponses

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// Options are the members of Pi's OpenAIResponsesOptions that shape a
// request, on top of the StreamOptions it extends, as a harness case
// writes them in JSON. A member left out is nil or Absent, which is what
// Pi's `undefined` means; Pi's defaults are applied by BuildRequest. Of
// the shared members this API reads maxTokens (max_output_tokens, when
// truthy), temperature (whenever given), cacheRetention (any other
// non-empty value behaves like "short"), sessionId (prompt_cache_key and
// the session headers), timeoutMs (the SDK's timeout and
// x-stainless-timeout) and env (only PI_CACHE_RETENTION). Members it does
// not read (toolChoice and the like) stay in Extra: Pi ignores them here.
type Options struct {
	provider.StreamOptions
	// ReasoningEffort and ReasoningSummary shape the reasoning member for
	// reasoning models.
	ReasoningEffort  *string
	ReasoningSummary *string
	// ServiceTier is sent as service_tier and scales the cost.
	ServiceTier *string
}

// DecodeOptions reads Options from a JSON object. A member of the wrong
// type is an error naming its JSON Pointer.
func DecodeOptions(v jsonv.Value, ptr string) (Options, error) {
	return provider.Decode(v, ptr, func(o *Options, f *jsonv.Fields) {
		o.ReasoningEffort = f.OptString("reasoningEffort")
		o.ReasoningSummary = f.OptString("reasoningSummary")
		o.ServiceTier = f.OptString("serviceTier")
	})
}

// JSON encodes the options back in the shape DecodeOptions reads.
func (o Options) JSON() jsonv.Value {
	b := o.Builder().SetOptString("reasoningEffort", o.ReasoningEffort).SetOptString("reasoningSummary", o.ReasoningSummary)
	return b.SetOptString("serviceTier", o.ServiceTier).Extend(o.Extra).Value()
}
