package google

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/httpheader"
)

// Options are the members of Pi's GoogleOptions (and the StreamOptions it
// extends) that shape a request, as a harness case writes them in JSON. A
// member left out is nil or Absent, Pi's `undefined`.
type Options struct {
	APIKey *string
	// Temperature is generationConfig.temperature when set.
	Temperature jsonv.Value
	// MaxTokens is generationConfig.maxOutputTokens when set; the model's
	// maxTokens is never used in its place.
	MaxTokens jsonv.Value
	// Headers are extra request headers, in the order given; a nil Value
	// drops a header of model.headers (it cannot remove one the SDK sets).
	Headers []Header
	// ToolChoice is "auto", "none" or "any" (any other non-empty string
	// means "auto"); it is sent only together with tools.
	ToolChoice *string
	// Thinking is the thinking object; nil when absent.
	Thinking *Thinking
	// Extra keeps members this API does not read.
	Extra []jsonv.Member
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

// Header is one request header given by the caller; a nil Value is
// JSON null.
type Header = httpheader.Header

// DecodeOptions reads Options from a JSON object. A member of the wrong
// type is an error naming its JSON Pointer.
func DecodeOptions(v jsonv.Value, ptr string) (Options, error) {
	f := jsonv.ReadFields(v, ptr)
	o := Options{
		APIKey:      f.OptString("apiKey"),
		Temperature: f.OptNumber("temperature"),
		MaxTokens:   f.OptNumber("maxTokens"),
		ToolChoice:  f.OptString("toolChoice"),
	}
	headers := f.OptObject("headers")
	thinking := f.OptObject("thinking")
	o.Extra = f.Rest()
	if err := f.Err(); err != nil {
		return Options{}, err
	}
	var err error
	if o.Headers, err = httpheader.Decode(headers, f.At("headers")); err != nil {
		return Options{}, err
	}
	if !thinking.IsAbsent() {
		t := jsonv.ReadFields(thinking, f.At("thinking"))
		o.Thinking = &Thinking{Enabled: t.OptBool("enabled"), BudgetTokens: t.OptNumber("budgetTokens"), Level: t.OptString("level")}
		o.Thinking.Extra = t.Rest()
		if err := t.Err(); err != nil {
			return Options{}, err
		}
	}
	return o, nil
}

// JSON encodes the options back in the shape DecodeOptions reads.
func (o Options) JSON() jsonv.Value {
	b := new(jsonv.ObjectBuilder).SetOptString("apiKey", o.APIKey).Set("temperature", o.Temperature)
	b.Set("maxTokens", o.MaxTokens)
	if o.Headers != nil {
		b.Set("headers", httpheader.JSON(o.Headers))
	}
	b.SetOptString("toolChoice", o.ToolChoice)
	if o.Thinking != nil {
		t := new(jsonv.ObjectBuilder).SetOptBool("enabled", o.Thinking.Enabled).Set("budgetTokens", o.Thinking.BudgetTokens)
		t.SetOptString("level", o.Thinking.Level)
		b.Set("thinking", t.Extend(o.Thinking.Extra).Value())
	}
	return b.Extend(o.Extra).Value()
}
