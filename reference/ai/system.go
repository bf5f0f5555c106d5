package ai

import (
	"slices"

	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// RoleSystem is the role of a SystemMessage, a Message role from Pi 1.6 on.
// In 0.80 a message with this role is of no role Pi knows: normalization
// passes it on untouched (a *ForeignMessage) and convertToLlm drops it.
const RoleSystem = "system"

// IsMessageRoleIn reports whether role belongs to the Message layer of
// dialect d.
func IsMessageRoleIn(d dialect.Dialect, role string) bool {
	return slices.Contains(messageRoles.At(d), role)
}

// SystemMessage is the system role of Pi 1.6: instructions and tool
// changes that take effect at their place in the transcript. The first one
// of a transcript holds the prompt (content), its named sections and the
// tools; a later one adds text, replaces or (with null) removes sections by
// name, and adds or removes tools.
//
// No step of the Message layer reads its members but the content (to fill
// it when it is null, and, in the APIs, to read its text), so every member
// is kept as written and decoding one never fails: content that is neither
// a string nor an array is Verbatim, and an element of its array other than
// a well-formed text block is a *ForeignBlock.
type SystemMessage struct {
	// Content is the instruction text: a string or text blocks.
	Content Content
	// Sections maps a section's name to its text, or to null to remove it
	// (an object of strings and nulls); ToolsAdded lists tool definitions
	// (Tool objects) and ToolsRemoved tool references ({name}). Each is
	// kept as written, Absent when left out.
	Sections, ToolsAdded, ToolsRemoved jsonv.Value
	Timestamp                          jsonv.Value
	Extra                              []jsonv.Member
}

func (*SystemMessage) Role() string { return RoleSystem }
func (*SystemMessage) isMessage()   {}

func (m *SystemMessage) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("role", RoleSystem).Set("content", m.Content.JSON())
	o.Set("sections", m.Sections).Set("toolsAdded", m.ToolsAdded).Set("toolsRemoved", m.ToolsRemoved)
	return o.Set("timestamp", m.Timestamp).Extend(m.Extra).Value()
}

// decodeSystem reads a system message whose role was read from f.
func decodeSystem(f *jsonv.Fields) *SystemMessage {
	m := &SystemMessage{
		Sections: f.Any("sections"), ToolsAdded: f.Any("toolsAdded"), ToolsRemoved: f.Any("toolsRemoved"),
		Timestamp: f.Any("timestamp"),
	}
	content := f.Any("content")
	m.Extra = f.Rest()
	// Lenient: no error is possible.
	m.Content, _ = DecodeContent(content, "", AllowText|AllowForeign)
	return m
}

// DecodeSystemMessage reads a system message at ptr; it fails only when v
// is not an object whose role is "system".
func DecodeSystemMessage(v jsonv.Value, ptr string) (*SystemMessage, error) {
	f := jsonv.ReadFields(v, ptr)
	role := f.String("role")
	if err := f.Err(); err != nil {
		return nil, err
	}
	if role != RoleSystem {
		return nil, jsonv.Errorf(f.At("role"), "want role %q, got %q", RoleSystem, role)
	}
	return decodeSystem(f), nil
}

// Transcript is pi-ai's TranscriptContext, what the provider APIs of Pi 1.6
// take: the messages alone, the prompt and the tools having become system
// messages.
type Transcript struct {
	// Head is the system message NormalizeContext made of the context's
	// systemPrompt and tools, nil when they made none.
	Head *SystemMessage
	// Messages is the context's messages as written. With a Head it is an
	// array: Pi spreads it after the head, which takes a string's code
	// points one by one.
	Messages jsonv.Value
}

// JSON is the transcript as Pi writes it: {messages}, with the head first.
func (t Transcript) JSON() jsonv.Value {
	msgs := t.Messages
	if t.Head != nil {
		msgs = jsonv.ArrayValue(append([]jsonv.Value{t.Head.JSON()}, msgs.Elems()...)...)
	}
	return new(jsonv.ObjectBuilder).Set("messages", msgs).Value()
}

// NormalizeContext is pi-ai's normalizeContext (Pi 1.6) on a Context as
// written at ptr: a systemPrompt with a length above zero, or tools with
// one, become a leading system message {role, content: the prompt (or ""),
// toolsAdded: the tools (when they have a length), timestamp: 0}, each
// value put in as it is; every other member of the context is dropped. A
// context without either keeps its messages whatever they are, so a
// Transcript ({messages}) comes back as it went in.
//
// JavaScript's length decides: a string's is its length, an array's its
// element count, an object's its own "length" member compared with 0, and
// a number or a boolean has none. Pi throws, and NormalizeContext refuses
// (a *jsonv.PathError), where it reads the length of a null systemPrompt
// or tools, and where it spreads messages that are not iterable (not an
// array or a string) after a head.
func NormalizeContext(v jsonv.Value, ptr string) (Transcript, error) {
	if v.Kind() != jsonv.Object {
		return Transcript{}, jsonv.Errorf(ptr, "want a context object, got %s (Pi reads its systemPrompt)", v.Kind())
	}
	prompt, _ := v.Get("systemPrompt")
	tools, _ := v.Get("tools")
	msgs, _ := v.Get("messages")
	hasPrompt, err := hasLength(prompt, jsonv.Child(ptr, "systemPrompt"))
	if err != nil {
		return Transcript{}, err
	}
	hasTools, err := hasLength(tools, jsonv.Child(ptr, "tools"))
	if err != nil {
		return Transcript{}, err
	}
	if !hasPrompt && !hasTools {
		return Transcript{Messages: msgs}, nil
	}
	head := &SystemMessage{Content: StringContent(""), Timestamp: jsonv.NumberValue("0")}
	if !prompt.IsNullish() {
		head.Content, _ = DecodeContent(prompt, "", AllowText|AllowForeign)
	}
	if hasTools {
		head.ToolsAdded = tools
	}
	switch msgs.Kind() {
	case jsonv.Array:
	case jsonv.String:
		elems, _ := jsonv.Iterate(msgs)
		msgs = jsonv.ArrayValue(elems...)
	default:
		return Transcript{}, jsonv.Errorf(jsonv.Child(ptr, "messages"), "want an array to spread after the system message, got %s (context.messages is not iterable)", msgs.Kind())
	}
	return Transcript{Head: head, Messages: msgs}, nil
}

// hasLength is JavaScript's `v !== undefined && v.length > 0` on a value
// JSON.parse made.
func hasLength(v jsonv.Value, ptr string) (bool, error) {
	switch v.Kind() {
	case jsonv.Absent:
		return false, nil
	case jsonv.Null:
		return false, jsonv.Errorf(ptr, "want a value with a length, got null (Pi reads its length)")
	}
	long, err := jsonv.LengthAboveZero(v)
	if err != nil {
		return false, jsonv.Errorf(jsonv.Child(ptr, "length"), "%v", err)
	}
	return long, nil
}
