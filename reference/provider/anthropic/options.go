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
	// ThinkingBudgetTokens is budget_tokens, sent as it is when truthy,
	// else 1024.
	ThinkingBudgetTokens jsonv.Value
	// ThinkingDisplay is thinking.display, sent as it is; null or Absent
	// means "summarized". Pi declares "summarized" or "omitted".
	ThinkingDisplay jsonv.Value
	// Effort is output_config.effort for adaptive-thinking models, sent as
	// it is when truthy.
	Effort jsonv.Value
	// InterleavedThinking asks for the interleaved-thinking beta when
	// truthy; null or Absent means true.
	InterleavedThinking jsonv.Value
	// ToolChoice is sent when truthy: a string as {"type": it}, any other
	// value as it is. Pi declares "auto", "any", "none" or an object such
	// as {"type":"tool","name":"read"}.
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
		// Pi reads these for truthiness or with ?? and copies them as they
		// are, whatever their type (input.lenient).
		o.ThinkingBudgetTokens = f.Any("thinkingBudgetTokens")
		o.ThinkingDisplay = f.Any("thinkingDisplay")
		o.Effort = f.Any("effort")
		o.InterleavedThinking = f.Any("interleavedThinking")
		o.ToolChoice = f.Any("toolChoice")
	})
}

// JSON encodes the options back in the shape DecodeOptions reads.
func (o Options) JSON() jsonv.Value {
	b := o.Builder()
	b.SetOptBool("thinkingEnabled", o.ThinkingEnabled).Set("thinkingBudgetTokens", o.ThinkingBudgetTokens)
	b.Set("thinkingDisplay", o.ThinkingDisplay).Set("effort", o.Effort)
	b.Set("interleavedThinking", o.InterleavedThinking).Set("toolChoice", o.ToolChoice)
	return b.Extend(o.Extra).Value()
}
