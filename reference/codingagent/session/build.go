package session

import (
	"fmt"

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

	if ctx.Messages, err = pathMessages(path, compaction); err != nil {
		return Context{}, err
	}
	return ctx, nil
}

// pathMessages collects the messages of the path's entries. With a
// compaction (its index on the path, or -1), the summary comes first, then
// the kept entries before it, then those after it.
func pathMessages(path []*Entry, compaction int) ([]jsonv.Value, error) {
	msgs := []jsonv.Value{}
	add := func(entries []*Entry) error {
		for _, e := range entries {
			m, ok, err := entryMessage(e)
			if err != nil {
				return err
			}
			if ok {
				msgs = append(msgs, m)
			}
		}
		return nil
	}
	if compaction < 0 {
		err := add(path)
		return msgs, err
	}
	c := path[compaction]
	summary, err := compactionMessage(c)
	if err != nil {
		return nil, err
	}
	msgs = append(msgs, summary)
	// The first compaction on the path with the same id stands for it.
	at := compaction
	for i, e := range path[:compaction] {
		if e.typ() == "compaction" && jsonv.StrictEqual(e.id, c.id) {
			at = i
			break
		}
	}
	first := at
	for i, e := range path[:at] {
		if jsonv.StrictEqual(e.id, c.firstKeptEntryID()) {
			first = i
			break
		}
	}
	if err := add(path[first:at]); err != nil {
		return nil, err
	}
	err = add(path[at+1:])
	return msgs, err
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
func entryMessage(e *Entry) (jsonv.Value, bool, error) {
	switch e.typ() {
	case "message":
		return e.member("message"), true, nil
	case "custom_message":
		ts, err := timeValue(e.member("timestamp"))
		if err != nil {
			return jsonv.Value{}, false, err
		}
		return objectOf("role", jsonv.StringValue("custom"), "customType", e.member("customType"),
			"content", e.member("content"), "display", e.member("display"), "details", e.member("details"),
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

func compactionMessage(c *Entry) (jsonv.Value, error) {
	ts, err := timeValue(c.member("timestamp"))
	if err != nil {
		return jsonv.Value{}, err
	}
	return objectOf("role", jsonv.StringValue("compactionSummary"), "summary", c.member("summary"),
		"tokensBefore", c.member("tokensBefore"), "timestamp", ts), nil
}
