package session

import (
	"fmt"
	"slices"

	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// BuildContext rebuilds the conversation as Pi's buildSessionContext does
// (called without its index, so every entry is indexed, the header too):
//
//   - The leaf is the entry leaf.ID names (the last of that id), or the
//     last entry when it names none or is undefined; null gives no messages.
//   - The path runs from the root to the leaf, each entry's parent being
//     the entry its truthy parentId names.
//   - The last thinking_level_change on the path sets the thinking level
//     ("off" before any); the last model_change or assistant message sets
//     the model.
//   - Messages come from message, custom_message and branch_summary (with a
//     truthy summary) entries. With a compaction on the path (the last one
//     counts), its summary comes first, then the entries before it from the
//     one whose id is its firstKeptEntryId, then the entries after it.
//
// A message entry on the path whose message is null or undefined, and any
// null entry, throw in Pi: a *Thrown.
func BuildContext(entries []*Entry, leaf Leaf) (Context, error) {
	return buildContext(entries, leaf, rulesOf.At(dialect.V0_80))
}

// BuildContextIn is BuildContext as the coding agent of dialect d does it.
// Pi 1.6 (buildSessionProjection) differs in what rules lists.
func BuildContextIn(d dialect.Dialect, entries []*Entry, leaf Leaf) (Context, error) {
	return buildContext(entries, leaf, rulesOf.At(d))
}

func buildContext(entries []*Entry, leaf Leaf, r rules) (Context, error) {
	byID := map[string]*Entry{}
	for _, e := range entries {
		if e.Value.Kind() == jsonv.Null {
			return Context{}, typeError("%s is null: reading its id", e.describe())
		}
		byID[idKey(e)] = e
	}
	empty := Context{ThinkingLevel: jsonv.StringValue("off"), Model: jsonv.NullValue()}
	if leaf.Null {
		return empty, nil
	}
	var current *Entry
	key := leaf.Value
	if leaf.ID != "" {
		key = jsonv.StringValue(leaf.ID)
	}
	if key.Truthy() {
		if k, ok := mapKey(key); ok {
			current = byID[k]
		}
	}
	if current == nil && len(entries) > 0 {
		current = entries[len(entries)-1]
	}
	if current == nil || !current.Value.Truthy() {
		return empty, nil
	}
	path, err := walk(current, byID, len(entries))
	if err != nil {
		return Context{}, err
	}

	ctx := empty
	compaction := -1
	for i, e := range path {
		switch e.typ() {
		case "thinking_level_change":
			ctx.ThinkingLevel = e.member("thinkingLevel")
		case "model_change":
			ctx.Model = modelRef(e.member("provider"), e.member("modelId"))
		case "message":
			msg := e.member("message")
			if msg.IsNullish() {
				return Context{}, typeError("%s has message %s: reading its role", e.describe(), describeValue(msg))
			}
			if role, _ := msg.Get("role"); msg.Kind() == jsonv.Object && role.Kind() == jsonv.String && role.Str() == "assistant" {
				provider, _ := msg.Get("provider")
				model, _ := msg.Get("model")
				ctx.Model = modelRef(provider, model)
			}
		case "compaction":
			compaction = i
		}
	}

	if ctx.Messages, err = pathMessages(path, compaction, r); err != nil {
		return Context{}, err
	}
	return ctx, nil
}

// pathMessages collects the messages of the path's entries. With a
// compaction (its index on the path, or -1), the summary comes first, then
// the kept entries before it, then those after it.
func pathMessages(path []*Entry, compaction int, r rules) ([]jsonv.Value, error) {
	entries := path
	if compaction >= 0 {
		entries = contextEntries(path, compaction, r)
	}
	edits := map[string]*Entry{}
	if r.contextEdits {
		// The last edit of a target wins.
		for _, e := range entries {
			if e.typ() == "context_edit" {
				if k, ok := mapKey(e.member("targetId")); ok {
					edits[k] = e
				}
			}
		}
	}
	msgs := []jsonv.Value{}
	for i, e := range entries {
		var add []jsonv.Value
		var err error
		if i == 0 && compaction >= 0 {
			add, err = compactionMessages(e, r)
		} else if m, ok, merr := entryMessage(e, r); ok {
			add, err = []jsonv.Value{m}, merr
		} else {
			err = merr
		}
		if err != nil {
			return nil, err
		}
		if edit, ok := edits[idKey(e)]; ok {
			if add, err = applyEdit(add, edit); err != nil {
				return nil, err
			}
		}
		msgs = append(msgs, add...)
	}
	return msgs, nil
}

// contextEntries are the entries that count on a path with a compaction
// (its index): the compaction, the kept entries before it (from the one
// its firstKeptEntryId names), then the entries after it. Another
// compaction among them adds nothing.
func contextEntries(path []*Entry, compaction int, r rules) []*Entry {
	c := path[compaction]
	// The first entry on the path with the same id stands for it.
	at := compaction
	for i, e := range path[:compaction] {
		if (r.standInByID || e.typ() == "compaction") && jsonv.StrictEqual(e.id, c.id) {
			at = i
			break
		}
	}
	out := []*Entry{c}
	kept := false
	for _, e := range path[:at] {
		kept = kept || jsonv.StrictEqual(e.id, c.firstKeptEntryID())
		if kept && !(r.compactionSystem && isSystemEntry(e)) {
			out = append(out, e)
		}
	}
	return append(out, path[at+1:]...)
}

// isSystemEntry reports a message entry whose message has role system.
func isSystemEntry(e *Entry) bool {
	if e.typ() != "message" {
		return false
	}
	role, _ := e.member("message").Get("role")
	return role.Kind() == jsonv.String && role.Str() == "system"
}

// applyEdit is a context_edit entry's effect on its target's messages: a
// null replacement drops them all; otherwise each message of role user,
// assistant, toolResult or custom gets the replacement's content (a
// string becoming one text block for an assistant or a tool result, an
// absent one leaving no content), and the others stay as they are.
func applyEdit(msgs []jsonv.Value, edit *Entry) ([]jsonv.Value, error) {
	replacement := edit.member("replacement")
	if replacement.Kind() == jsonv.Null {
		return nil, nil
	}
	out := make([]jsonv.Value, len(msgs))
	for i, m := range msgs {
		out[i] = m
		role, _ := m.Get("role")
		if m.Kind() != jsonv.Object || role.Kind() != jsonv.String {
			continue
		}
		switch role.Str() {
		case "user", "assistant", "toolResult", "custom":
		default:
			continue
		}
		if replacement.IsAbsent() {
			return nil, typeError("%s has no replacement: reading its content", edit.describe())
		}
		var content jsonv.Value
		if replacement.Kind() == jsonv.Object {
			content, _ = replacement.Get("content")
		}
		if r := role.Str(); (r == "assistant" || r == "toolResult") && content.Kind() == jsonv.String {
			content = jsonv.ArrayValue(new(jsonv.ObjectBuilder).SetString("type", "text").Set("text", content).Value())
		}
		out[i] = withMember(m, "content", content)
	}
	return out, nil
}

// withMember is {...v, key: m}: an absent m leaves the member out, as
// JSON.stringify writes undefined.
func withMember(v jsonv.Value, key string, m jsonv.Value) jsonv.Value {
	if !m.IsAbsent() {
		return v.With(key, m)
	}
	members := slices.DeleteFunc(slices.Clone(v.Members()), func(mm jsonv.Member) bool { return mm.Key == key })
	return jsonv.ObjectValue(members...)
}

// idKey is the Map key of the entry's id; an object id is the entry's own.
func idKey(e *Entry) string {
	if k, ok := mapKey(e.id); ok {
		return k
	}
	return fmt.Sprintf("o%d", e.self)
}

// walk follows parentId from the leaf to the root and returns the path root
// first. A cycle would make Pi loop for ever; the reference stops.
func walk(leaf *Entry, byID map[string]*Entry, n int) ([]*Entry, error) {
	var path []*Entry
	for e := leaf; e != nil; {
		if len(path) > n {
			return nil, outsideModel("the parentId chain from the leaf has a cycle, on which Pi never returns")
		}
		path = append(path, e)
		var next *Entry
		if p := e.parentID; p.Truthy() {
			if k, ok := mapKey(p); ok {
				next = byID[k]
			}
		}
		e = next
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path, nil
}

func modelRef(provider, modelID jsonv.Value) jsonv.Value {
	return objectOf("provider", provider, "modelId", modelID)
}

// objectOf builds an object from key, value pairs, leaving out undefined
// values as JSON.stringify does.
func objectOf(kv ...any) jsonv.Value {
	var members []jsonv.Member
	for i := 0; i < len(kv); i += 2 {
		if v := kv[i+1].(jsonv.Value); !v.IsAbsent() {
			members = append(members, jsonv.Member{Key: kv[i].(string), Value: v})
		}
	}
	return jsonv.ObjectValue(members...)
}

// entryMessage is the AgentMessage an entry adds, if any.
func entryMessage(e *Entry, r rules) (jsonv.Value, bool, error) {
	switch e.typ() {
	case "message":
		msg := e.member("message")
		if r.fillContent {
			msg = filledContent(msg)
		}
		return msg, true, nil
	case "custom_message":
		ts, err := timeValue(e.member("timestamp"))
		if err != nil {
			return jsonv.Value{}, false, err
		}
		content := e.member("content")
		if r.customContent && content.IsNullish() {
			content = jsonv.ArrayValue()
		}
		return objectOf("role", jsonv.StringValue("custom"), "customType", e.member("customType"),
			"content", content, "display", e.member("display"), "details", e.member("details"),
			"timestamp", ts), true, nil
	case "branch_summary":
		summary := e.member("summary")
		if !summary.Truthy() {
			return jsonv.Value{}, false, nil
		}
		ts, err := timeValue(e.member("timestamp"))
		if err != nil {
			return jsonv.Value{}, false, err
		}
		return objectOf("role", jsonv.StringValue("branchSummary"), "summary", summary,
			"fromId", e.member("fromId"), "timestamp", ts), true, nil
	}
	return jsonv.Value{}, false, nil
}

// filledContent is a message entry's message with content [] when it has
// role user, assistant or toolResult and none (null or absent), and with
// content "" when it has role system and none.
func filledContent(msg jsonv.Value) jsonv.Value {
	role, _ := msg.Get("role")
	content, _ := msg.Get("content")
	if msg.Kind() != jsonv.Object || role.Kind() != jsonv.String || !content.IsNullish() {
		return msg
	}
	switch role.Str() {
	case "system":
		return msg.With("content", jsonv.StringValue(""))
	case "user", "assistant", "toolResult":
		return msg.With("content", jsonv.ArrayValue())
	}
	return msg
}

// compactionMessages are the messages of the compaction that counts: its
// summary, after its systemMessage where the dialect has one and it is
// truthy (inserted as it is, whatever it holds).
func compactionMessages(c *Entry, r rules) ([]jsonv.Value, error) {
	summary, err := compactionMessage(c)
	if err != nil {
		return nil, err
	}
	if sys := c.member("systemMessage"); r.compactionSystem && sys.Truthy() {
		return []jsonv.Value{sys, summary}, nil
	}
	return []jsonv.Value{summary}, nil
}

func compactionMessage(c *Entry) (jsonv.Value, error) {
	ts, err := timeValue(c.member("timestamp"))
	if err != nil {
		return jsonv.Value{}, err
	}
	return objectOf("role", jsonv.StringValue("compactionSummary"), "summary", c.member("summary"),
		"tokensBefore", c.member("tokensBefore"), "timestamp", ts), nil
}
