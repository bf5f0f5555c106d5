package google

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// Options are the members of Pi's GoogleOptions that shape a request, on
// top of the StreamOptions it extends, as a harness case writes them in
// JSON. A member left out is nil or Absent, Pi's `undefined`. Of the
// shared members this API reads temperature (generationConfig.temperature
// when set), maxTokens (generationConfig.maxOutputTokens when set; the
// model's maxTokens is never used in its place) and headers (a nil Value
// drops a header of model.headers; it cannot remove one the SDK sets).
type Options struct {
	provider.StreamOptions
	// ToolChoice is "auto", "none" or "any" (any other non-empty string
	// means "auto"); it is sent only together with tools.
	ToolChoice *string
	// Thinking is the thinking object; nil when absent.
	Thinking *Thinking
}

// Thinking is GoogleOptions.thinking.
type Thinking struct {
	// Enabled is nil when the member is missing, which Pi treats as false.
	Enabled *bool
	// BudgetTokens is thinkingConfig.thinkingBudget when no level is given.
	BudgetTokens jsonv.Value
	// Level is thinkingConfig.thinkingLevel ("MINIMAL", "LOW", "MEDIUM", "HIGH").
	Level *string
	Extra []jsonv.Member
}

// DecodeOptions reads Options from a JSON object. A member of the wrong
// type is an error naming its JSON Pointer.
func DecodeOptions(v jsonv.Value, ptr string) (Options, error) {
	var o Options
	var thinking jsonv.Value
	var err error
	o.StreamOptions, err = provider.DecodeOptions(v, ptr, func(f *jsonv.Fields) {
		o.ToolChoice = f.OptString("toolChoice")
		thinking = f.Any("thinking")
	})
	// Pi tests thinking and its enabled for truthiness, and sends a
	// budget as it is (input.lenient): a thinking that is truthy but no
	// object has no enabled member, so it turns thinking off.
	if err != nil || !thinking.Truthy() {
		return o, err
	}
	if thinking.Kind() != jsonv.Object {
		o.Thinking = &Thinking{Enabled: new(bool)}
		return o, nil
	}
	t := jsonv.ReadFields(thinking, jsonv.Child(ptr, "thinking"))
	enabled := t.Any("enabled").Truthy()
	o.Thinking = &Thinking{Enabled: &enabled, BudgetTokens: t.Any("budgetTokens"), Level: t.OptString("level")}
	o.Thinking.Extra = t.Rest()
	return o, t.Err()
}

// JSON encodes the options back in the shape DecodeOptions reads.
func (o Options) JSON() jsonv.Value {
	b := o.Builder().SetOptString("toolChoice", o.ToolChoice)
	if o.Thinking != nil {
		t := new(jsonv.ObjectBuilder).SetOptBool("enabled", o.Thinking.Enabled).Set("budgetTokens", o.Thinking.BudgetTokens)
		t.SetOptString("level", o.Thinking.Level)
		b.Set("thinking", t.Extend(o.Thinking.Extra).Value())
	}
	return b.Extend(o.Extra).Value()
}
