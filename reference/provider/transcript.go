package provider

import (
	"fmt"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
	"github.com/piconform/piconform/reference/wtf8"
)

// midConvoSystemKey is the compat member by which a model takes later
// system messages where they stand instead of folded into the first.
const midConvoSystemKey = "supportsMidConvoSystemMessages"

// KeepsSystemMessages tells whether d keeps the later system messages of a
// 1.6 transcript where they stand for model: never for an API that folds
// them all (FoldsSystemMessages), else when the model's
// compat.supportsMidConvoSystemMessages is truthy.
func (d Driver) KeepsSystemMessages(model *ai.Model) bool {
	if d.FoldsSystemMessages {
		return false
	}
	v, _ := model.Compat.Get(midConvoSystemKey)
	return v.Truthy()
}

// WireContext reads the context of a call to d, as written at ptr, into
// the Context the driver reads, as Pi of dialect dl hands it to the API.
//
// In 0.80 that is the context itself (ai.DecodeWireContext). In 1.6 the
// caller (the pi-ts adapter, as Pi's own entry points) first makes it a
// transcript (ai.NormalizeContext), and the API then resolves that: unless
// it keeps later system messages (KeepsSystemMessages) it folds every
// system message into one leading message (FoldSystemMessages). The
// driver gets that leading message's text (SystemMessageText) as the
// system prompt, the tools the system messages leave declared
// (ai.CurrentTools) as the tools, and the other messages; a kept later
// system message stays among them as an *ai.SystemMessage, for the API to
// render. Where Pi throws reading the transcript, before any request,
// WireContext fails with a *TranscriptThrow. The messages the driver gets
// have had their null or absent content made [] (transform.FillContent),
// as the first step of every API's conversion does it in 1.6.
func (d Driver) WireContext(dl dialect.Dialect, model *ai.Model, v jsonv.Value, ptr string) (*ai.Context, error) {
	if !transcriptContext.At(dl) {
		return ai.DecodeWireContext(v, ptr, d.LenientContext)
	}
	resolved, err := d.resolveTranscript(model, v, ptr)
	if err != nil {
		return nil, &TranscriptThrow{Err: err}
	}
	// Every API's conversion starts with transformMessages, which first
	// gives a message whose content is null or absent an empty one: no
	// later reading of the messages sees such content.
	msgsPtr := jsonv.Child(ptr, "messages")
	msgs, _ := resolved.Get("messages")
	filled, err := transform.FillContent(dl, msgs, msgsPtr)
	if err != nil {
		return nil, err // a null message: Pi reads its content
	}
	c, err := ai.DecodeWireContextIn(dl, resolved.With("messages", filled), ptr, d.LenientContext)
	if c != nil {
		c.Given = msgs.Elems()
	}
	return c, err
}

// CopilotTally is the tally of Copilot's headers (X-Initiator,
// Copilot-Vision-Request) for a call of dialect dl with ctx, before it
// sees ctx's messages. Pi 1.6 reads them off the transcript the API
// resolved, whose leading system message (when the prompt and tools make
// one, WireContext) comes first: with no other message after it, that
// system message is the last one, and the call is the agent's. 0.80 reads
// the caller's messages alone.
func CopilotTally(dl dialect.Dialect, ctx *ai.Context) *httpheader.CopilotTally {
	t := new(httpheader.CopilotTally)
	if transcriptContext.At(dl) && ctx.SystemPrompt != nil {
		t.SeeSystem()
	}
	return t
}

// TranscriptThrow is Pi 1.6 throwing as it makes a transcript of a context
// or resolves one (normalizeContext, the fold of system messages, the
// tools they declare): the call fails before it sends anything. Err, a
// *jsonv.PathError, says where.
type TranscriptThrow struct{ Err error }

func (e *TranscriptThrow) Error() string { return e.Err.Error() }
func (e *TranscriptThrow) Unwrap() error { return e.Err }

// resolveTranscript is what Pi 1.6 makes of the context at ptr for d: the
// context {systemPrompt, messages, tools} the driver reads.
func (d Driver) resolveTranscript(model *ai.Model, v jsonv.Value, ptr string) (jsonv.Value, error) {
	msgs, err := TranscriptMessages(v, ptr)
	if err != nil {
		return jsonv.Value{}, err
	}
	msgsPtr := jsonv.Child(ptr, "messages")
	var head jsonv.Value
	if d.KeepsSystemMessages(model) {
		if len(msgs) > 0 && isSystem(msgs[0]) {
			head, msgs = msgs[0], msgs[1:]
		}
	} else if head, msgs, err = FoldSystemMessages(msgs, msgsPtr); err != nil {
		return jsonv.Value{}, err
	}
	tools, err := declaredTools(append([]jsonv.Value{head}, msgs...), msgsPtr)
	if err != nil {
		return jsonv.Value{}, err
	}
	o := new(jsonv.ObjectBuilder)
	if !head.IsAbsent() {
		text, err := SystemMessageText(head, msgsPtr)
		if err != nil {
			return jsonv.Value{}, err
		}
		o.SetString("systemPrompt", text)
	}
	o.Set("messages", jsonv.ArrayValue(msgs...))
	if len(tools) > 0 {
		o.Set("tools", jsonv.ArrayValue(tools...))
	}
	return o.Value(), nil
}

// TranscriptMessages are the messages of the transcript Pi 1.6's
// normalizeContext makes of a context as written at ptr (ai.NormalizeContext):
// a leading system message of the prompt and the tools, when they make
// one, then the context's messages. Where Pi throws, it fails with a
// *jsonv.PathError.
func TranscriptMessages(v jsonv.Value, ptr string) ([]jsonv.Value, error) {
	t, err := ai.NormalizeContext(v, ptr)
	if err != nil {
		return nil, err
	}
	if t.Messages.Kind() != jsonv.Array {
		return nil, jsonv.Errorf(jsonv.Child(ptr, "messages"), "want an array of messages, got %s (Pi iterates them)", t.Messages.Kind())
	}
	msgs := t.Messages.Elems()
	if t.Head != nil {
		msgs = append([]jsonv.Value{t.Head.JSON()}, msgs...)
	}
	return msgs, nil
}

// isSystem is `message.role === "system"`.
func isSystem(m jsonv.Value) bool {
	r, _ := m.Get("role")
	return m.Kind() == jsonv.Object && r.Kind() == jsonv.String && r.Str() == ai.RoleSystem
}

// roleOf reads message.role as Pi's filters do: a null message throws.
func roleOf(m jsonv.Value, ptr string) error {
	if m.IsNullish() {
		return jsonv.Errorf(ptr, "%s", jsonv.ReadPropertyText(m, "role"))
	}
	return nil
}

// FoldSystemMessages is Pi 1.6's collapse of a transcript for an API
// without mid-conversation system messages: every system message is
// replayed into one leading message (Absent when there is nothing to
// lead) and dropped from the rest. The leading message has the system
// messages' texts joined by a blank line, their sections (a later one
// replaces an earlier of the same name, null removes it), the tools they
// leave declared (ai.CurrentTools), and the first timestamp that is not
// nullish (0 when none is). There is no leading message when no system
// message has a timestamp and no tool is declared.
func FoldSystemMessages(msgs []jsonv.Value, ptr string) (head jsonv.Value, rest []jsonv.Value, err error) {
	var texts []string
	var sections orderedMap
	var timestamp jsonv.Value
	for i, m := range msgs {
		at := jsonv.Index(ptr, i)
		if err := roleOf(m, at); err != nil {
			return head, nil, err
		}
		if !isSystem(m) {
			continue
		}
		if ts, _ := m.Get("timestamp"); timestamp.IsNullish() {
			timestamp = ts
		}
		content, _ := m.Get("content")
		text, err := contentText(content, jsonv.Child(at, "content"))
		if err != nil {
			return head, nil, err
		}
		if text != "" {
			texts = append(texts, text)
		}
		secs, _ := m.Get("sections")
		for _, e := range entries(secs) {
			if e.Value.Kind() == jsonv.Null {
				sections.delete(e.Key)
			} else {
				sections.set(e.Key, e.Value)
			}
		}
	}
	tools, err := declaredTools(msgs, ptr)
	if err != nil {
		return head, nil, err
	}
	for _, m := range msgs {
		if !isSystem(m) {
			rest = append(rest, m)
		}
	}
	if timestamp.IsNullish() && len(tools) == 0 {
		return head, rest, nil
	}
	if timestamp.IsNullish() {
		timestamp = jsonv.NumberValue("0")
	}
	o := new(jsonv.ObjectBuilder).SetString("role", ai.RoleSystem).SetString("content", strings.Join(texts, "\n\n"))
	if len(sections.keys) > 0 {
		members := make([]jsonv.Member, len(sections.keys))
		for i, k := range sections.keys {
			members[i] = jsonv.Member{Key: k, Value: sections.vals[i]}
		}
		// An object lists index-like keys first, whenever they were added.
		o.Set("sections", jsonv.ObjectValue(stream.JSOrder(members)...))
	}
	if len(tools) > 0 {
		o.Set("toolsAdded", jsonv.ArrayValue(tools...))
	}
	return o.Set("timestamp", timestamp).Value(), rest, nil
}

// declaredTools are the tools the system messages among msgs (at ptr)
// leave declared, in order (ai.CurrentTools).
func declaredTools(msgs []jsonv.Value, ptr string) ([]jsonv.Value, error) {
	var systems []*ai.SystemMessage
	var places []string
	for i, m := range msgs {
		if isSystem(m) {
			added, _ := m.Get("toolsAdded")
			removed, _ := m.Get("toolsRemoved")
			systems = append(systems, &ai.SystemMessage{ToolsAdded: added, ToolsRemoved: removed})
			places = append(places, jsonv.Index(ptr, i))
		}
	}
	return ai.CurrentTools(systems, func(i int) string { return places[i] })
}

// SystemMessageText is the whole prompt of a system message, as Pi 1.6's
// getSystemMessageText renders it: the text of its content, then the
// text of each of its sections that is not null, the empty ones left
// out, joined by a blank line.
func SystemMessageText(m jsonv.Value, ptr string) (string, error) {
	return renderSystemMessage(m, ptr, func(_ string, part jsonv.Value) (string, bool, error) {
		// Pi keeps the parts whose length is above zero, then joins them.
		var long bool
		var err error
		switch part.Kind() {
		case jsonv.String:
			long = part.Str() != ""
		case jsonv.Array:
			long = len(part.Elems()) > 0
		case jsonv.Object:
			n, _ := part.Get("length")
			long, err = jsonv.Greater(n, jsonv.NumberValue("0"))
		}
		if err == nil && long && part.ConversionThrows() {
			err = jsonv.ErrNoPrimitive
		}
		if err != nil || !long {
			return "", false, err
		}
		return part.JSString(), true, nil
	})
}

// renderSystemMessage is the text Pi 1.6 makes of the system message m at
// ptr: the text of its content when not empty, then, in order, the text
// section makes of each of its sections (Object.entries(sections ?? {}))
// that it keeps, joined by a blank line. Where section fails (Pi throws
// converting the section's value to a string), it fails with a
// *jsonv.PathError at that section.
func renderSystemMessage(m jsonv.Value, ptr string, section func(name string, v jsonv.Value) (text string, keep bool, err error)) (string, error) {
	content, _ := m.Get("content")
	text, err := contentText(content, jsonv.Child(ptr, "content"))
	if err != nil {
		return "", err
	}
	var parts []string
	if text != "" {
		parts = append(parts, text)
	}
	secs, _ := m.Get("sections")
	for _, e := range entries(secs) {
		text, keep, err := section(e.Key, e.Value)
		if err != nil {
			return "", jsonv.Errorf(jsonv.Child(jsonv.Child(ptr, "sections"), e.Key), "%s", jsonv.NoPrimitiveText)
		}
		if keep {
			parts = append(parts, text)
		}
	}
	return wtf8.Concat(strings.Join(parts, "\n\n")), nil
}

// contentText is Pi's contentText: a string as it is, or the texts of the
// text blocks of an array joined by a newline; anything else throws.
func contentText(content jsonv.Value, ptr string) (string, error) {
	switch content.Kind() {
	case jsonv.String:
		return content.Str(), nil
	case jsonv.Array:
	case jsonv.Absent, jsonv.Null:
		return "", jsonv.Errorf(ptr, "%s", jsonv.ReadPropertyText(content, "filter"))
	default:
		return "", jsonv.Errorf(ptr, "content.filter is not a function")
	}
	var texts []string
	for i, b := range content.Elems() {
		if b.IsNullish() {
			return "", jsonv.Errorf(jsonv.Index(ptr, i), "%s", jsonv.ReadPropertyText(b, "type"))
		}
		if typ, _ := b.Get("type"); b.Kind() != jsonv.Object || typ.Kind() != jsonv.String || typ.Str() != "text" {
			continue
		}
		text, _ := b.Get("text")
		if text.ConversionThrows() {
			return "", jsonv.Errorf(jsonv.Index(ptr, i), "%s", jsonv.NoPrimitiveText)
		}
		texts = append(texts, text.JoinString())
	}
	return wtf8.Concat(strings.Join(texts, "\n")), nil
}

// entries is Object.entries(v ?? {}) of a value JSON.parse made: an
// object's members, an array's or a string's indexes and elements.
func entries(v jsonv.Value) []jsonv.Member {
	switch v.Kind() {
	case jsonv.Object:
		return stream.JSOrder(v.Members())
	case jsonv.Array:
		out := make([]jsonv.Member, len(v.Elems()))
		for i, e := range v.Elems() {
			out[i] = jsonv.Member{Key: fmt.Sprint(i), Value: e}
		}
		return out
	case jsonv.String:
		var out []jsonv.Member
		for i, u := range wtf8.ToUTF16(v.Str()) {
			out = append(out, jsonv.Member{Key: fmt.Sprint(i), Value: jsonv.StringValue(wtf8.FromUTF16([]uint16{u}))})
		}
		return out
	}
	return nil
}

// orderedMap holds members by name in insertion order: set on an
// existing name keeps its place.
type orderedMap struct {
	keys []string
	vals []jsonv.Value
}

func (m *orderedMap) set(k string, v jsonv.Value) {
	for i, have := range m.keys {
		if have == k {
			m.vals[i] = v
			return
		}
	}
	m.keys, m.vals = append(m.keys, k), append(m.vals, v)
}

func (m *orderedMap) delete(k string) {
	for i, have := range m.keys {
		if have == k {
			m.keys = append(m.keys[:i:i], m.keys[i+1:]...)
			m.vals = append(m.vals[:i:i], m.vals[i+1:]...)
			return
		}
	}
}

// SystemMessageUpdate is how Pi 1.6 words a system message kept
// mid-conversation, for a model that takes it where it stands
// (renderSystemMessageUpdate): the text of its content when not empty, then
// each of its sections, in order, as `Updated system prompt section
// "<name>":`, a blank line and the value (String() of it), or `Removed
// system prompt section "<name>".` for null, all joined by a blank line.
// Where Pi throws reading it, it fails with a *jsonv.PathError below ptr.
func SystemMessageUpdate(m *ai.SystemMessage, ptr string) (string, error) {
	return renderSystemMessage(m.JSON(), ptr, func(name string, v jsonv.Value) (string, bool, error) {
		if v.Kind() == jsonv.Null {
			return `Removed system prompt section "` + name + `".`, true, nil
		}
		if v.ConversionThrows() {
			return "", false, jsonv.ErrNoPrimitive
		}
		return `Updated system prompt section "` + name + `":` + "\n\n" + v.JSString(), true, nil
	})
}
