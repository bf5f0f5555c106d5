package anthropic

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// Options are Pi's AnthropicOptions as a harness case writes them
// (provider.Options); Pi's defaults are applied by BuildRequest, not here.
// Of the shared members this API reads maxTokens (max_tokens; Absent means
// the model's), temperature (unless thinking is on), cacheRetention (any
// other non-empty value than "none" and "long" is "short"), sessionId
// (x-session-affinity where the model asks for it), timeoutMs
// (x-stainless-timeout), metadata (only a string user_id is sent) and env
// (only PI_CACHE_RETENTION).
type Options struct {
	provider.StreamOptions
	// ThinkingEnabled: true sends thinking (budget or adaptive), false sends
	// {"type":"disabled"}, nil sends nothing. Only for reasoning models.
	ThinkingEnabled *bool
	// ThinkingEnabledNotBool marks a ThinkingEnabled true read from a
	// truthy value other than the boolean true itself: it turns thinking on
	// as true does, but is not === true (thinkingIsTrue).
	ThinkingEnabledNotBool bool
	// ThinkingBudgetTokens is budget_tokens, sent as it is when truthy,
	// else 1024.
	ThinkingBudgetTokens jsonv.Value `pi:"thinkingBudgetTokens"`
	// ThinkingDisplay is thinking.display, sent as it is; null or Absent
	// means "summarized". Pi declares "summarized" or "omitted".
	ThinkingDisplay jsonv.Value `pi:"thinkingDisplay"`
	// Effort is output_config.effort for adaptive-thinking models, sent as
	// it is when truthy.
	Effort jsonv.Value `pi:"effort"`
	// InterleavedThinking asks for the interleaved-thinking beta when
	// truthy; null or Absent means true.
	InterleavedThinking jsonv.Value `pi:"interleavedThinking"`
	// ToolChoice is sent when truthy: a string as {"type": it}, any other
	// value as it is. Pi declares "auto", "any", "none" or an object such
	// as {"type":"tool","name":"read"}.
	ToolChoice jsonv.Value `pi:"toolChoice"`
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
			o.ThinkingEnabledNotBool = v.Kind() != jsonv.Bool
		case v.Kind() == jsonv.Bool:
			o.ThinkingEnabled = new(bool)
		}
		// The others Pi reads for truthiness or with ?? and copies as they
		// are, whatever their type (input.lenient).
		provider.ReadTagged(o, f)
	})
}

// EncodeOwn adds thinkingEnabled, the member no tag describes, to the
// options' JSON.
func (o Options) EncodeOwn(b *jsonv.ObjectBuilder) {
	b.SetOptBool("thinkingEnabled", o.ThinkingEnabled)
}

// thinkingIsTrue is `thinkingEnabled === true`: thinking asked for with
// the boolean itself, not another truthy value.
func (o Options) thinkingIsTrue() bool {
	return o.ThinkingEnabled != nil && *o.ThinkingEnabled && !o.ThinkingEnabledNotBool
}
