package ai

import (
	"strings"

	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// Roles of the Message layer. In 0.80 there is no system role: the system
// prompt lives in Context.SystemPrompt; Pi 1.6 adds RoleSystem.
const (
	RoleUser       = "user"
	RoleAssistant  = "assistant"
	RoleToolResult = "toolResult"
)

// StopReason values.
const (
	StopStop    = "stop"
	StopLength  = "length"
	StopToolUse = "toolUse"
	StopError   = "error"
	StopAborted = "aborted"
	// StopPending is the stop reason of a message still being streamed,
	// from Pi 1.6 on: a stream that ends with it has no stop reason and
	// fails (0.80 starts a message at "stop" instead).
	StopPending = "pending"
)

// Message is one of *UserMessage, *AssistantMessage or *ToolResultMessage,
// from Pi 1.6 on also *SystemMessage (and, where a decoder allows it,
// *ForeignMessage). The interface is sealed.
type Message interface {
	Role() string
	JSON() jsonv.Value
	isMessage()
}

// UserMessage is what the user said: text, or text and images.
type UserMessage struct {
	Content Content
	// Timestamp is Unix milliseconds; Absent when the input left it out. No
	// step reads it, so any value is kept as written (input.lenient): old
	// sessions hold null where a time could not be parsed.
	Timestamp jsonv.Value
	Extra     []jsonv.Member
}

// AssistantMessage is a model's answer and the record of who produced it.
type AssistantMessage struct {
	Content       []Block
	API           string
	Provider      string
	Model         string
	ResponseModel *string
	ResponseID    *string
	Usage         Usage
	StopReason    string
	ErrorMessage  *string
	// Diagnostics is an array of diagnostic objects, kept as JSON.
	Diagnostics jsonv.Value
	Timestamp   jsonv.Value
	// RawStopReason is the provider's own stop value as it arrived, Absent
	// when none did (Pi 1.6 on). DurationMs is the whole milliseconds from
	// the start of the stream to its last event, which Pi 1.6's event
	// stream stamps on the final message (Absent before). A stream sets
	// both; a message read from input keeps them in Extra, where they were.
	RawStopReason, DurationMs jsonv.Value
	Extra                     []jsonv.Member
	Loose                     Loose
	// Dialect is the Pi release line whose provider stream built the
	// message. It orders the members JSON writes (streamOrder); a message
	// read from input has the zero value.
	Dialect dialect.Dialect
}

// ToolResultMessage is the outcome of one tool call.
type ToolResultMessage struct {
	ToolCallID string
	ToolName   string
	Content    []Block
	// Details is structured data for a UI; no provider sends it.
	Details jsonv.Value
	// IsError is read for its truthiness, or sent as it is (anthropic), so
	// any value is kept as written (input.lenient).
	IsError   jsonv.Value
	Timestamp jsonv.Value
	Extra     []jsonv.Member
	Loose     Loose
}

// APIValue, ProviderValue and ModelValue are the assistant's api,
// provider and model as written, whatever their type: Pi only compares
// them with ===.
func (m *AssistantMessage) APIValue() jsonv.Value      { return m.Loose.Value("api", m.API) }
func (m *AssistantMessage) ProviderValue() jsonv.Value { return m.Loose.Value("provider", m.Provider) }
func (m *AssistantMessage) ModelValue() jsonv.Value    { return m.Loose.Value("model", m.Model) }

// Loose holds, for a message decoded with AllowForeign, the members of
// declared string fields that hold another value or are missing (Absent);
// the typed field is then "". Pi only compares such a member with ===, which
// matches no string, and passes it on as it was (input.lenient). A tool
// result's content that is not an array is kept here too, its Content then
// empty.
type Loose []jsonv.Member

// Without returns l without the member key.
func (l Loose) Without(key string) Loose {
	var out Loose
	for _, m := range l {
		if m.Key != key {
			out = append(out, m)
		}
	}
	return out
}

// Has reports whether the member key is loose.
func (l Loose) Has(key string) bool {
	for _, m := range l {
		if m.Key == key {
			return true
		}
	}
	return false
}

// Value is the member key as written: its loose value, or else typed.
func (l Loose) Value(key, typed string) jsonv.Value {
	for _, m := range l {
		if m.Key == key {
			return m.Value
		}
	}
	return jsonv.StringValue(typed)
}

// string reads the string member key; with foreign set, a value of another
// type, or none, is kept in l instead of refused.
func (l *Loose) string(f *jsonv.Fields, key string, foreign BlockSet) string {
	if foreign == 0 {
		return f.String(key)
	}
	v := f.Any(key)
	if v.Kind() != jsonv.String {
		*l = append(*l, jsonv.Member{Key: key, Value: v})
		return ""
	}
	return v.Str()
}

// optString reads the optional string member key as string does.
func (l *Loose) optString(f *jsonv.Fields, key string, foreign BlockSet) *string {
	if foreign == 0 {
		return f.OptString(key)
	}
	v := f.Any(key)
	if v.IsAbsent() {
		return nil
	}
	if v.Kind() != jsonv.String {
		*l = append(*l, jsonv.Member{Key: key, Value: v})
		return nil
	}
	s := v.Str()
	return &s
}

// over writes the loose members over the object v.
func (l Loose) over(v jsonv.Value) jsonv.Value {
	for _, m := range l {
		v = v.With(m.Key, m.Value)
	}
	return v
}

func (*UserMessage) Role() string       { return RoleUser }
func (*AssistantMessage) Role() string  { return RoleAssistant }
func (*ToolResultMessage) Role() string { return RoleToolResult }

// ForeignMessage is a message the Message layer's types cannot hold that
// reached it anyway, kept as written: a role outside the three (an
// application's convertToLlm may pass one on), or a message of one of the
// three whose members have other types than Pi declares (convertToLlm passes
// such a message on as it is; see input.lenient). Pi carries a foreign role
// through normalization untouched and no provider sends it; the reference
// does the same. DecodeMessagesAllowForeign makes the first kind, the agent
// layer's decoder the second.
type ForeignMessage struct {
	RoleName string
	Raw      jsonv.Value
}

func (m *ForeignMessage) Role() string      { return m.RoleName }
func (m *ForeignMessage) JSON() jsonv.Value { return m.Raw }
func (*ForeignMessage) isMessage()          {}

func (*UserMessage) isMessage()       {}
func (*AssistantMessage) isMessage()  {}
func (*ToolResultMessage) isMessage() {}

func (m *UserMessage) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("role", RoleUser).Set("content", m.Content.JSON())
	return o.Set("timestamp", m.Timestamp).Extend(m.Extra).Value()
}

func (m *AssistantMessage) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("role", RoleAssistant).Set("content", BlocksJSON(m.Content))
	o.SetString("api", m.API).SetString("provider", m.Provider).SetString("model", m.Model)
	if streamOrder.At(m.Dialect) {
		o.Set("usage", m.Usage.json(true)).SetString("stopReason", m.StopReason).Set("timestamp", m.Timestamp)
		o.SetOptString("responseId", m.ResponseID).SetOptString("responseModel", m.ResponseModel)
		o.Set("rawStopReason", m.RawStopReason).SetOptString("errorMessage", m.ErrorMessage)
		o.Set("diagnostics", m.Diagnostics).Extend(m.Extra).Set("durationMs", m.DurationMs)
		return m.Loose.over(o.Value())
	}
	o.SetOptString("responseModel", m.ResponseModel).SetOptString("responseId", m.ResponseID)
	o.Set("usage", m.Usage.JSON()).SetString("stopReason", m.StopReason)
	o.SetOptString("errorMessage", m.ErrorMessage).Set("diagnostics", m.Diagnostics)
	o.Set("timestamp", m.Timestamp).Set("rawStopReason", m.RawStopReason).Extend(m.Extra).Set("durationMs", m.DurationMs)
	return m.Loose.over(o.Value())
}

func (m *ToolResultMessage) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("role", RoleToolResult).SetString("toolCallId", m.ToolCallID)
	o.SetString("toolName", m.ToolName).Set("content", BlocksJSON(m.Content)).Set("details", m.Details)
	return m.Loose.over(o.Set("isError", m.IsError).Set("timestamp", m.Timestamp).Extend(m.Extra).Value())
}

// DecodeMessage reads one Message of 0.80. The role must be one of the three.
func DecodeMessage(v jsonv.Value, ptr string) (Message, error) {
	return decodeMessage(dialect.V0_80, v, ptr, 0)
}

// DecodeMessageIn reads one Message of dialect d, whose role must be one of
// d's (IsMessageRoleIn).
func DecodeMessageIn(d dialect.Dialect, v jsonv.Value, ptr string) (Message, error) {
	return decodeMessage(d, v, ptr, 0)
}

// decodeMessage reads one Message; foreign is AllowForeign or 0, added to
// the blocks its content may hold.
func decodeMessage(d dialect.Dialect, v jsonv.Value, ptr string, foreign BlockSet) (Message, error) {
	f := jsonv.ReadFields(v, ptr)
	role := f.String("role")
	if err := f.Err(); err != nil {
		return nil, err
	}
	if !IsMessageRoleIn(d, role) {
		return nil, jsonv.Errorf(f.At("role"), "unknown role %q, want %s", role, rolesText(d))
	}
	return decodeMessageFields(f, role, foreign)
}

// rolesText names d's roles for an error: "user, assistant or toolResult".
func rolesText(d dialect.Dialect) string {
	roles := messageRoles.At(d)
	return strings.Join(roles[:len(roles)-1], ", ") + " or " + roles[len(roles)-1]
}

// IsMessageRole reports whether role belongs to the Message layer of 0.80.
func IsMessageRole(role string) bool {
	return role == RoleUser || role == RoleAssistant || role == RoleToolResult
}

// DecodeMessageFields finishes reading a message whose role was already read
// from f. It lets the agent layer share one decoder for every role. Any
// role of any dialect is read (RoleSystem too): the caller decides which
// roles its dialect has.
func DecodeMessageFields(f *jsonv.Fields, role string) (Message, error) {
	return decodeMessageFields(f, role, 0)
}

func decodeMessageFields(f *jsonv.Fields, role string, foreign BlockSet) (Message, error) {
	switch role {
	case RoleSystem:
		return decodeSystem(f), nil
	case RoleUser:
		m := &UserMessage{Timestamp: f.Any("timestamp")}
		content := f.Any("content")
		m.Extra = f.Rest()
		if err := f.Err(); err != nil {
			return nil, err
		}
		c, err := atContent(f, func(ptr string) (Content, error) { return DecodeContent(content, ptr, UserBlocks|foreign) })
		m.Content = c
		return m, err
	case RoleAssistant:
		var loose Loose
		m := &AssistantMessage{
			API: loose.string(f, "api", foreign), Provider: loose.string(f, "provider", foreign), Model: loose.string(f, "model", foreign),
			ResponseModel: loose.optString(f, "responseModel", foreign), ResponseID: loose.optString(f, "responseId", foreign),
			StopReason: loose.string(f, "stopReason", foreign), ErrorMessage: loose.optString(f, "errorMessage", foreign),
			Timestamp: f.Any("timestamp"),
		}
		if foreign != 0 {
			m.Diagnostics = f.Any("diagnostics")
		} else if d, ok := f.OptArray("diagnostics"); ok {
			m.Diagnostics = jsonv.ArrayValue(d...)
		}
		m.Loose = loose
		content := f.Array("content")
		m.Usage = DecodeUsage(f.Any("usage"), "") // which cannot fail: no pointer needed
		m.Extra = f.Rest()
		if err := f.Err(); err != nil {
			return nil, err
		}
		var err error
		if m.Content, err = atContent(f, func(ptr string) ([]Block, error) { return DecodeBlocks(content, ptr, AssistantBlocks|foreign) }); err != nil {
			return nil, err
		}
		return m, nil
	case RoleToolResult:
		var loose Loose
		m := &ToolResultMessage{
			ToolCallID: loose.string(f, "toolCallId", foreign), ToolName: loose.string(f, "toolName", foreign),
			Details: f.Any("details"), IsError: f.Any("isError"), Timestamp: f.Any("timestamp"),
		}
		var content []jsonv.Value
		if foreign == 0 {
			content = f.Array("content")
		} else if c := f.Any("content"); c.Kind() == jsonv.Array {
			content = c.Elems()
		} else {
			// A vision model passes it on unread; the image downgrade
			// iterates it (input.lenient).
			loose = append(loose, jsonv.Member{Key: "content", Value: c})
		}
		m.Loose = loose
		m.Extra = f.Rest()
		if err := f.Err(); err != nil {
			return nil, err
		}
		var err error
		m.Content, err = atContent(f, func(ptr string) ([]Block, error) { return DecodeBlocks(content, ptr, UserBlocks|foreign) })
		return m, err
	}
	return nil, jsonv.Errorf(f.At("role"), "unknown role %q", role)
}

// atContent runs decode without the JSON Pointer of f's member "content",
// which only an error needs (building it cost an allocation a message),
// and once more with it when decode fails, for the error to name it.
func atContent[T any](f *jsonv.Fields, decode func(ptr string) (T, error)) (T, error) {
	v, err := decode("")
	if err != nil {
		_, err = decode(f.At("content"))
	}
	return v, err
}

// DecodeMessages reads an array of Messages of the three roles of 0.80.
func DecodeMessages(v jsonv.Value, ptr string) ([]Message, error) {
	return decodeMessages(dialect.V0_80, v, ptr, false)
}

// DecodeMessagesIn reads an array of Messages of dialect d's roles.
func DecodeMessagesIn(d dialect.Dialect, v jsonv.Value, ptr string) ([]Message, error) {
	return decodeMessages(d, v, ptr, false)
}

// DecodeMessagesAllowForeign reads an array of Messages in which a value
// other than null whose role is not one of the three (another string, no
// string at all, or no object) becomes a *ForeignMessage, and a content
// element the role's blocks do not cover becomes a *ForeignBlock
// (AllowForeign).
func DecodeMessagesAllowForeign(v jsonv.Value, ptr string) ([]Message, error) {
	return decodeMessages(dialect.V0_80, v, ptr, true)
}

// DecodeMessagesAllowForeignIn is DecodeMessagesAllowForeign with the roles
// of dialect d: in 1.6 a system message is a *SystemMessage, not foreign.
func DecodeMessagesAllowForeignIn(d dialect.Dialect, v jsonv.Value, ptr string) ([]Message, error) {
	return decodeMessages(d, v, ptr, true)
}

func decodeMessages(d dialect.Dialect, v jsonv.Value, ptr string, allowForeign bool) ([]Message, error) {
	if v.Kind() != jsonv.Array {
		return nil, jsonv.Errorf(ptr, "want an array of messages, got %s", v.Kind())
	}
	msgs := make([]Message, 0, len(v.Elems()))
	var foreign BlockSet
	if allowForeign {
		foreign = AllowForeign
	}
	for i, e := range v.Elems() {
		m, err := decodeMessage(d, e, jsonv.Index(ptr, i), foreign)
		if allowForeign && e.Kind() != jsonv.Null {
			// Anything but null whose role is not one of the dialect's: Pi
			// reads its role and finds no match (input.lenient).
			role, _ := e.Get("role")
			if role.Kind() != jsonv.String || !IsMessageRoleIn(d, role.Str()) {
				m, err = &ForeignMessage{RoleName: role.Str(), Raw: e}, nil
			}
		}
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// MessagesJSON encodes an array of Messages.
func MessagesJSON(msgs []Message) jsonv.Value {
	return jsonv.ArrayOf(msgs)
}
