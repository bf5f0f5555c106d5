package google

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// Options are Pi's GoogleOptions as a harness case writes them
// (provider.Options). Of the shared members this API reads temperature
// (generationConfig.temperature when set), maxTokens
// (generationConfig.maxOutputTokens when set; the model's maxTokens is
// never used in its place) and headers (a nil Value drops a header of
// model.headers; it cannot remove one the SDK sets).
type Options struct {
	provider.StreamOptions
	// ToolChoice is "auto", "none" or "any"; any other truthy value means
	// "auto" and a falsy one none at all (input.lenient). It is sent only
	// together with tools.
	ToolChoice jsonv.Value `pi:"toolChoice"`
	// Thinking is the thinking object; nil when absent.
	Thinking *Thinking
}

// Thinking is GoogleOptions.thinking.
type Thinking struct {
	// Enabled is nil when the member is missing, which Pi treats as false.
	Enabled *bool
	// BudgetTokens is thinkingConfig.thinkingBudget when no level is given.
	BudgetTokens jsonv.Value
	// Level is thinkingConfig.thinkingLevel ("MINIMAL", "LOW", "MEDIUM",
	// "HIGH"), sent as it is whatever its type; Absent when not given.
	Level jsonv.Value
	Extra []jsonv.Member
}

// DecodeOptions reads Options from a JSON object. A shared member of the
// wrong type is an error naming its JSON Pointer; toolChoice and thinking
// take any value, as Pi reads them without checking (input.lenient).
func DecodeOptions(v jsonv.Value, ptr string) (Options, error) {
	var o Options
	var thinking jsonv.Value
	var err error
	o.StreamOptions, err = provider.DecodeOptions(v, ptr, func(f *jsonv.Fields) {
		provider.ReadTagged(&o, f)
		thinking = f.Any("thinking")
	})
	// Pi tests thinking and its enabled for truthiness, and sends a
	// budget and a level as they are (input.lenient): a thinking that is
	// truthy but no object has no enabled member, so it turns thinking off.
	if err != nil || !thinking.Truthy() {
		return o, err
	}
	if thinking.Kind() != jsonv.Object {
		o.Thinking = &Thinking{Enabled: new(bool)}
		return o, nil
	}
	t := jsonv.ReadFields(thinking, jsonv.Child(ptr, "thinking"))
	enabled := t.Any("enabled").Truthy()
	o.Thinking = &Thinking{Enabled: &enabled, BudgetTokens: t.Any("budgetTokens"), Level: t.Any("level")}
	o.Thinking.Extra = t.Rest()
	return o, t.Err()
}

// EncodeOwn adds thinking, the member no tag describes, to the options'
// JSON.
func (o Options) EncodeOwn(b *jsonv.ObjectBuilder) {
	if o.Thinking != nil {
		t := new(jsonv.ObjectBuilder).SetOptBool("enabled", o.Thinking.Enabled).Set("budgetTokens", o.Thinking.BudgetTokens)
		t.Set("level", o.Thinking.Level)
		b.Set("thinking", t.Extend(o.Thinking.Extra).Value())
	}
}
