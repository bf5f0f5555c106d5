package ai

import (
	"slices"

	"github.com/piconform/piconform/reference/dialect"
	"strings"

	"github.com/piconform/piconform/reference/jsonv"
)

// Model describes one model of one provider: which API speaks to it, what it
// accepts and what it costs.
type Model struct {
	ID            string
	Name          string
	API           string
	Provider      string
	BaseURL       string
	Reasoning     bool
	Input         []string // "text", "image"
	Cost          ModelCost
	ContextWindow jsonv.Value
	MaxTokens     jsonv.Value
	// Headers, Compat and ThinkingLevelMap are provider-specific objects, kept as JSON.
	Headers          jsonv.Value
	Compat           jsonv.Value
	ThinkingLevelMap jsonv.Value
	Extra            []jsonv.Member
	// Loose holds id, api or provider of another type than string, as only
	// DecodeTargetModel reads them.
	Loose Loose
}

// ModelCost holds prices in dollars per million tokens.
type ModelCost struct {
	Input, Output, CacheRead, CacheWrite jsonv.Value
	Extra                                []jsonv.Member
	// Missing is set for a cost left out or written null (Null then set
	// too): there are no prices, and Pi's calculateCost throws reading the
	// first one (CalculateCost).
	Missing, Null bool
}

// AcceptsImages reports whether the model lists "image" among its inputs.
func (m *Model) AcceptsImages() bool { return slices.Contains(m.Input, "image") }

// DecodeModel reads a Model.
func DecodeModel(v jsonv.Value, ptr string) (*Model, error) {
	f := jsonv.ReadFields(v, ptr)
	m := &Model{
		ID: f.String("id"), Name: f.String("name"), API: f.String("api"), Provider: f.String("provider"),
		BaseURL: f.String("baseUrl"), Reasoning: f.Bool("reasoning"),
		ContextWindow: f.Number("contextWindow"), MaxTokens: f.Number("maxTokens"),
		Headers: f.OptObject("headers"), Compat: f.OptObject("compat"), ThinkingLevelMap: f.OptObject("thinkingLevelMap"),
	}
	input := f.Array("input")
	cost := f.Object("cost")
	m.Extra = f.Rest()
	if err := f.Err(); err != nil {
		return nil, err
	}
	for i, e := range input {
		if e.Kind() != jsonv.String {
			return nil, jsonv.Errorf(jsonv.Index(f.At("input"), i), "want a string, got %s", e.Kind())
		}
		m.Input = append(m.Input, e.Str())
	}
	c := jsonv.ReadFields(cost, f.At("cost"))
	m.Cost = ModelCost{Input: c.Number("input"), Output: c.Number("output"), CacheRead: c.Number("cacheRead"), CacheWrite: c.Number("cacheWrite")}
	m.Cost.Extra = c.Rest()
	return m, c.Err()
}

// DecodeTargetModel reads what transformMessages reads of its target model
// (input.lenient): id, api and provider, which tell the model's own messages
// (of any type: one that is not a string is kept in Loose), and input, of which only whether it includes "image"
// matters: an array holding that string among values of any type, or a
// string containing it (JavaScript's includes works on both). Every other
// member is left unread.
func DecodeTargetModel(v jsonv.Value, ptr string) (*Model, error) {
	f := jsonv.ReadFields(v, ptr)
	var loose Loose
	m := &Model{ID: loose.string(f, "id", AllowForeign), API: loose.string(f, "api", AllowForeign), Provider: loose.string(f, "provider", AllowForeign)}
	m.Loose = loose
	input := f.Any("input")
	if err := f.Err(); err != nil {
		return nil, err
	}
	switch input.Kind() {
	case jsonv.Array:
		for _, e := range input.Elems() {
			if e.Kind() == jsonv.String {
				m.Input = append(m.Input, e.Str())
			}
		}
	case jsonv.String:
		if strings.Contains(input.Str(), "image") {
			m.Input = []string{"image"}
		}
	default:
		return nil, jsonv.Errorf(f.At("input"), "want an array or a string, got %s", input.Kind())
	}
	return m, nil
}

// DecodeModelCost reads only the prices of a model, as Pi's calculateCost
// reads them: the model must be an object; a cost left out or null is
// Missing (Pi throws reading its first member: CalculateCostIn), and a cost
// that is not an object has no prices (each reads as undefined, so every
// price is NaN).
func DecodeModelCost(v jsonv.Value, ptr string) (ModelCost, error) {
	f := jsonv.ReadFields(v, ptr)
	cost := f.Any("cost")
	if err := f.Err(); err != nil {
		return ModelCost{}, err
	}
	switch cost.Kind() {
	case jsonv.Absent, jsonv.Null:
		return ModelCost{Missing: true, Null: cost.Kind() == jsonv.Null}, nil
	case jsonv.Object:
		c := jsonv.ReadFields(cost, f.At("cost"))
		out := ModelCost{Input: c.Any("input"), Output: c.Any("output"), CacheRead: c.Any("cacheRead"), CacheWrite: c.Any("cacheWrite")}
		out.Extra = c.Rest() // the tiers of Pi 1.6 among them
		return out, nil
	}
	return ModelCost{}, nil
}

func (m *Model) JSON() jsonv.Value {
	input := make([]jsonv.Value, len(m.Input))
	for i, s := range m.Input {
		input[i] = jsonv.StringValue(s)
	}
	o := new(jsonv.ObjectBuilder).SetString("id", m.ID).SetString("name", m.Name).SetString("api", m.API)
	o.SetString("provider", m.Provider).SetString("baseUrl", m.BaseURL).SetBool("reasoning", m.Reasoning)
	o.Set("input", jsonv.ArrayValue(input...)).Set("cost", m.Cost.JSON())
	o.Set("contextWindow", m.ContextWindow).Set("maxTokens", m.MaxTokens)
	o.Set("headers", m.Headers).Set("compat", m.Compat).Set("thinkingLevelMap", m.ThinkingLevelMap)
	return o.Extend(m.Extra).Value()
}

// JSON is the cost as written: absent or null when Missing.
func (c ModelCost) JSON() jsonv.Value {
	switch {
	case c.Null:
		return jsonv.NullValue()
	case c.Missing:
		return jsonv.Value{}
	}
	o := new(jsonv.ObjectBuilder).Set("input", c.Input).Set("output", c.Output)
	return o.Set("cacheRead", c.CacheRead).Set("cacheWrite", c.CacheWrite).Extend(c.Extra).Value()
}

// Tool is a function the model may call. Parameters is a JSON Schema object.
type Tool struct {
	Name        string
	Description string
	Parameters  jsonv.Value
	Extra       []jsonv.Member
	// Loose holds name or description of another type, or missing, for a
	// context read leniently (DecodeWireContext); Parameters then holds
	// any value, Absent included.
	Loose Loose
}

// NameValue is the tool's name as written, whatever its type.
func (t Tool) NameValue() jsonv.Value { return t.Loose.Value("name", t.Name) }

// DescriptionValue is the tool's description as written, whatever its type.
func (t Tool) DescriptionValue() jsonv.Value { return t.Loose.Value("description", t.Description) }

// Context is everything one model request needs.
type Context struct {
	SystemPrompt *string
	Messages     []Message
	Tools        []Tool
	// HasTools tells an empty tool list from a missing one.
	HasTools bool
	Extra    []jsonv.Member
	// Loose holds a systemPrompt that is truthy and not a string, for a
	// context read leniently (DecodeWireContext); SystemPrompt is then nil.
	Loose Loose
	// Given are the messages of a 1.6 wire call as the API's stream gets
	// them, before its conversion gives null or absent content an empty
	// one: what Pi reads of the caller's own messages beside the
	// conversion sees them so. Nil where none were kept.
	Given []jsonv.Value
	// unmappable is why Pi's tools.map throws on tools read leniently (a
	// non-empty string, a null element); the API refuses it only where
	// it maps them (MappedTools).
	unmappable error
}

// MappedTools are the tools where an API maps them, as Pi's
// tools.map does: an error for tools that are a non-empty string (their
// length holds, and a string has no map) or that hold null (whose
// members Pi reads). Where Pi never maps them (Bedrock's toolChoice
// "none") they are never refused.
func (c *Context) MappedTools() ([]Tool, error) {
	if c.unmappable != nil {
		return nil, c.unmappable
	}
	return c.Tools, nil
}

// SystemText is the system prompt where an API sanitizes it ("" for none).
// A truthy prompt of another type is an error: Pi's sanitizeSurrogates
// calls its replace, and throws.
func (c *Context) SystemText() (string, error) {
	if c.Loose.Has("systemPrompt") {
		return "", jsonv.Errorf("/context/systemPrompt", "want a string to sanitize, got %s", c.Loose.Value("systemPrompt", "").Kind())
	}
	if c.SystemPrompt == nil {
		return "", nil
	}
	return *c.SystemPrompt, nil
}

// SystemPromptValue is the system prompt as written, whatever its type
// (Absent when there is none).
func (c *Context) SystemPromptValue() jsonv.Value {
	if c.SystemPrompt != nil {
		return jsonv.StringValue(*c.SystemPrompt)
	}
	if c.Loose.Has("systemPrompt") {
		return c.Loose.Value("systemPrompt", "")
	}
	return jsonv.Value{}
}

// DecodeContext reads a Context of 0.80.
func DecodeContext(v jsonv.Value, ptr string) (*Context, error) {
	return decodeContext(dialect.V0_80, v, ptr)
}

// DecodeContextIn reads a Context whose messages have dialect d's roles.
func DecodeContextIn(d dialect.Dialect, v jsonv.Value, ptr string) (*Context, error) {
	return decodeContext(d, v, ptr)
}

func decodeContext(d dialect.Dialect, v jsonv.Value, ptr string) (*Context, error) {
	f := jsonv.ReadFields(v, ptr)
	msgs := f.Any("messages")
	c, err := decodeContextFields(f, false)
	if err != nil {
		return nil, err
	}
	if c.Messages, err = DecodeMessagesIn(d, msgs, f.At("messages")); err != nil {
		return nil, err
	}
	return c, nil
}

// decodeContextFields reads the members of a Context but its messages,
// which the caller has taken from f; lenient tools are read as
// DecodeWireContext says.
func decodeContextFields(f *jsonv.Fields, lenient bool) (*Context, error) {
	c := &Context{SystemPrompt: f.OptString("systemPrompt")}
	f.Any("messages")
	var tools []jsonv.Value
	var hasTools bool
	if lenient {
		raw := f.Any("tools")
		tools, hasTools = raw.Elems(), raw.Kind() == jsonv.Array
		if raw.Kind() == jsonv.String && raw.Str() != "" {
			// tools.length > 0 holds, and where Pi maps them it throws.
			c.unmappable = jsonv.Errorf(f.At("tools"), "want an array, got a string (Pi maps it)")
		}
		// Anything else but an array has no length: Pi sends no tools.
	} else {
		tools, hasTools = f.OptArray("tools")
	}
	c.Extra = f.Rest()
	if err := f.Err(); err != nil {
		return nil, err
	}
	c.HasTools = hasTools
	var foreign BlockSet
	if lenient {
		foreign = AllowForeign
	}
	for i, t := range tools {
		if lenient && t.Kind() == jsonv.Null && c.unmappable == nil {
			// Pi reads its members where it maps the tools, and throws.
			c.unmappable = jsonv.Errorf(jsonv.Index(f.At("tools"), i), "want an object, got null")
		}
		if lenient && t.Kind() != jsonv.Object {
			// Its members are undefined, as JavaScript reads them.
			c.Tools = append(c.Tools, Tool{Loose: Loose{{Key: "name"}, {Key: "description"}}})
			continue
		}
		tf := jsonv.ReadFields(t, jsonv.Index(f.At("tools"), i))
		var loose Loose
		tool := Tool{Name: loose.string(tf, "name", foreign), Description: loose.string(tf, "description", foreign)}
		if lenient {
			tool.Parameters = tf.Any("parameters")
		} else {
			tool.Parameters = tf.Object("parameters")
		}
		tool.Extra, tool.Loose = tf.Rest(), loose
		if err := tf.Err(); err != nil {
			return nil, err
		}
		c.Tools = append(c.Tools, tool)
	}
	return c, nil
}

func (t Tool) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("name", t.Name).SetString("description", t.Description)
	return t.Loose.over(o.Set("parameters", t.Parameters).Extend(t.Extra).Value())
}

func (c *Context) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).Set("systemPrompt", c.SystemPromptValue()).Set("messages", MessagesJSON(c.Messages))
	if c.HasTools {
		o.Set("tools", jsonv.ArrayOf(c.Tools))
	}
	return o.Extend(c.Extra).Value()
}
