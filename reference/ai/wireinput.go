package ai

import (
	"slices"

	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// DecodeWireModel reads the model of a provider call as Pi's stream
// functions read it (input.lenient): id, provider and name of another type
// than string are kept in Loose (id and provider are copied into the
// answer as they are); reasoning is tested for its truthiness; the token
// limits and prices are kept as written, for Number() to read where they
// are computed with; a cost that is not an object has no prices, and one
// left out or null is Missing (pricing a usage throws); input is
// read as transformMessages reads it (DecodeTargetModel); a compat
// that is not an object has no members; a thinkingLevelMap is kept as
// written, whose truthiness some APIs test, and in which a value of
// another type has no level (jsonv.Value.Get finds none);
// headers are kept as written, for the APIs to spread (httpheader.FromModel). Only api must be
// a string: it selects the provider.
func DecodeWireModel(v jsonv.Value, ptr string) (*Model, error) {
	m, err := DecodeTargetModel(v, ptr)
	if err != nil {
		return nil, err
	}
	if m.Loose.Has("api") {
		api := m.Loose.Value("api", "")
		return nil, jsonv.Errorf(jsonv.Child(ptr, "api"), "want string, got %s", api.Kind())
	}
	f := jsonv.ReadFields(v, ptr)
	f.Any("id")
	f.Any("api")
	f.Any("provider")
	f.Any("input")
	m.Name = m.Loose.string(f, "name", AllowForeign)
	m.BaseURL, m.Reasoning = f.String("baseUrl"), f.Any("reasoning").Truthy()
	m.ContextWindow, m.MaxTokens = f.Any("contextWindow"), f.Any("maxTokens")
	m.Headers = f.Any("headers")
	m.Compat, m.ThinkingLevelMap = objectOrAbsent(f.Any("compat")), f.Any("thinkingLevelMap")
	cost := f.Any("cost")
	m.Extra = f.Rest()
	if err := f.Err(); err != nil {
		return nil, err
	}
	switch cost.Kind() {
	case jsonv.Object:
		c := jsonv.ReadFields(cost, f.At("cost"))
		m.Cost = ModelCost{Input: c.Any("input"), Output: c.Any("output"), CacheRead: c.Any("cacheRead"), CacheWrite: c.Any("cacheWrite")}
		m.Cost.Extra = c.Rest()
	case jsonv.Absent, jsonv.Null:
		m.Cost = ModelCost{Missing: true, Null: cost.Kind() == jsonv.Null}
	}
	return m, nil
}

// objectOrAbsent is v when it is an object, else Absent: Pi reads the
// members of such a value with ?. or [], which find none on another type.
func objectOrAbsent(v jsonv.Value) jsonv.Value {
	if v.Kind() != jsonv.Object {
		return jsonv.Value{}
	}
	return v
}

// IDValue is the model's id as written: Pi copies it into a request body as
// it is, whatever its type (Absent when it was left out).
func (m *Model) IDValue() jsonv.Value { return m.Loose.Value("id", m.ID) }

// ProviderValue and APIValue are the model's provider and api as written:
// Pi compares them with ===, which no value of another type passes
// against a string.
func (m *Model) ProviderValue() jsonv.Value { return m.Loose.Value("provider", m.Provider) }
func (m *Model) APIValue() jsonv.Value      { return m.Loose.Value("api", m.API) }

// DecodeWireContext reads the context of a provider call as Pi's stream
// functions read it (input.lenient): a systemPrompt that is not a string is
// no prompt when falsy, and refused when truthy (Pi sanitizes it as a
// string, unless lenient: see below); a message that is not null and has no role of the three
// (another string, none, or no object at all) becomes a *ForeignMessage,
// which no provider sends.
//
// With lenient false the rest is read as DecodeContext reads it. With
// lenient true, for a provider whose conversion reads members of other
// types as Pi does (provider.Driver.LenientContext), messages are read as
// normalization reads them (DecodeMessagesAllowForeign: Loose members,
// *ForeignBlock elements), a tool's name, description and parameters
// may hold any value (Tool.Loose), and a truthy systemPrompt of another
// type is kept in Context.Loose, for the API to send or refuse
// (Context.SystemText).
func DecodeWireContext(v jsonv.Value, ptr string, lenient bool) (*Context, error) {
	return DecodeWireContextIn(dialect.V0_80, v, ptr, lenient)
}

// DecodeWireContextIn is DecodeWireContext with the message roles of
// dialect d: in 1.6 a system message is a *SystemMessage. (A 1.6 provider
// call first makes its context a Transcript: see NormalizeContext.)
func DecodeWireContextIn(d dialect.Dialect, v jsonv.Value, ptr string, lenient bool) (*Context, error) {
	var loose Loose
	if sp, ok := v.Get("systemPrompt"); ok && sp.Kind() != jsonv.String {
		switch {
		case sp.Truthy() && !lenient:
			return nil, jsonv.Errorf(jsonv.Child(ptr, "systemPrompt"), "want a string, got %s (Pi sanitizes it as one)", sp.Kind())
		case sp.Truthy():
			loose = Loose{{Key: "systemPrompt", Value: sp}} // Context.SystemText
		}
		v = jsonv.ObjectValue(slices.DeleteFunc(slices.Clone(v.Members()), func(m jsonv.Member) bool { return m.Key == "systemPrompt" })...)
	}
	c, err := decodeWireContext(d, v, ptr, lenient)
	if err != nil {
		return nil, err
	}
	c.Loose = loose
	return c, nil
}

func decodeWireContext(d dialect.Dialect, v jsonv.Value, ptr string, lenient bool) (*Context, error) {
	msgs, ok := v.Get("messages")
	if !ok || msgs.Kind() != jsonv.Array {
		return decodeContext(d, v, ptr)
	}
	f := jsonv.ReadFields(v.With("messages", jsonv.ArrayValue()), ptr)
	c, err := decodeContextFields(f, lenient)
	if err != nil {
		return nil, err
	}
	if lenient {
		c.Messages, err = DecodeMessagesAllowForeignIn(d, msgs, jsonv.Child(ptr, "messages"))
		return c, err
	}
	for i, e := range msgs.Elems() {
		role, _ := e.Get("role")
		if e.Kind() != jsonv.Null && (role.Kind() != jsonv.String || !IsMessageRoleIn(d, role.Str())) {
			name := ""
			if role.Kind() == jsonv.String {
				name = role.Str()
			}
			c.Messages = append(c.Messages, &ForeignMessage{RoleName: name, Raw: e})
			continue
		}
		m, err := DecodeMessageIn(d, e, jsonv.Index(jsonv.Child(ptr, "messages"), i))
		if err != nil {
			return nil, err
		}
		c.Messages = append(c.Messages, m)
	}
	return c, nil
}
