package anthropic

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// Options are the members of Pi's AnthropicOptions that shape a request,
// on top of the StreamOptions it extends, as a harness case writes them in
// JSON. A member left out is nil or Absent, which is what Pi's `undefined`
// means; Pi's defaults are applied by BuildRequest, not here. Of the shared
// members this API reads maxTokens (max_tokens; Absent means the model's),
// temperature (unless thinking is on), cacheRetention (any other non-empty
// value than "none" and "long" is "short"), sessionId (x-session-affinity
// where the model asks for it), timeoutMs (x-stainless-timeout), metadata
// (only a string user_id is sent) and env (only PI_CACHE_RETENTION).
type Options struct {
	provider.StreamOptions
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
}

// DecodeOptions reads Options from a JSON object. A member of the wrong
// type is an error naming its JSON Pointer.
func DecodeOptions(v jsonv.Value, ptr string) (Options, error) {
	return provider.Decode(v, ptr, func(o *Options, f *jsonv.Fields) {
		// Pi tests it for truthiness, and for === false (input.lenient).
		switch v := f.Any("thinkingEnabled"); {
		case v.Truthy():
			o.ThinkingEnabled = new(bool)
			*o.ThinkingEnabled = true
		case v.Kind() == jsonv.Bool:
			o.ThinkingEnabled = new(bool)
		}
		o.ThinkingBudgetTokens = f.OptNumber("thinkingBudgetTokens")
		o.ThinkingDisplay = f.OptString("thinkingDisplay")
		o.Effort = f.OptString("effort")
		o.InterleavedThinking = f.OptBool("interleavedThinking")
		o.ToolChoice = provider.StringOrObject(f, "toolChoice")
	})
}

// JSON encodes the options back in the shape DecodeOptions reads.
func (o Options) JSON() jsonv.Value {
	b := o.Builder()
	b.SetOptBool("thinkingEnabled", o.ThinkingEnabled).Set("thinkingBudgetTokens", o.ThinkingBudgetTokens)
	b.SetOptString("thinkingDisplay", o.ThinkingDisplay).SetOptString("effort", o.Effort)
	b.SetOptBool("interleavedThinking", o.InterleavedThinking).Set("toolChoice", o.ToolChoice)
	return b.Extend(o.Extra).Value()
}
