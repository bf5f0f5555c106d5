package agent

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
)

// DeclareToolChanges is what Pi 1.6's agent loop does before each request
// of a continued run: it compares the tools the transcript's system
// messages declare (ai.CurrentTools) with the declarations of tools, what
// the agent can run (null or absent: none), and when they differ returns
// the system message that declares the difference, {role: "system",
// content: "", timestamp: now(), toolsAdded?, toolsRemoved?} (an empty list
// left out), for the caller to append to the transcript. It returns nil when
// they agree.
//
// Where Pi throws it returns a *jsonv.PathError whose pointer is into
// {messages, tools}: a null message anywhere in the transcript (Pi reads
// every message's role), tools that are neither null, absent nor an array,
// a tool that is null or has no parameters (ai.ToolDeclaration), and a
// system message whose tool lists cannot be read.
func DeclareToolChanges(msgs []Message, tools jsonv.Value, now func() jsonv.Value) (*ai.SystemMessage, error) {
	var systems []*ai.SystemMessage
	var places []string
	for i, m := range msgs {
		if u, ok := m.(*Unknown); ok && u.Raw.Kind() == jsonv.Null {
			return nil, jsonv.Errorf(jsonv.Index("/messages", i), "want a message, got null (Pi reads the role of every message to find the tools it declares)")
		}
		if s, ok := m.(*ai.SystemMessage); ok {
			systems = append(systems, s)
			places = append(places, jsonv.Index("/messages", i))
		}
	}
	declared, err := ai.CurrentTools(systems, func(i int) string { return places[i] })
	if err != nil {
		return nil, err
	}
	var current []jsonv.Value
	switch tools.Kind() {
	case jsonv.Absent, jsonv.Null:
	case jsonv.Array:
		for i, t := range tools.Elems() {
			d, err := ai.ToolDeclaration(t)
			if err != nil {
				return nil, at(jsonv.Index("/tools", i), err)
			}
			current = append(current, d)
		}
	default:
		// V8's words for Pi's (context.tools ?? []).map on anything else.
		return nil, jsonv.Errorf("/tools", "(context.tools ?? []).map is not a function")
	}
	added, removed, err := ai.ToolChanges(declared, current)
	if err != nil {
		return nil, at("/messages", err)
	}
	if len(added) == 0 && len(removed) == 0 {
		return nil, nil
	}
	update := &ai.SystemMessage{Content: ai.StringContent(""), Timestamp: now()}
	if len(added) > 0 {
		update.ToolsAdded = jsonv.ArrayValue(added...)
	}
	if len(removed) > 0 {
		update.ToolsRemoved = jsonv.ArrayValue(removed...)
	}
	return update, nil
}

// at places a *jsonv.PathError, whose pointer is relative, under ptr.
func at(ptr string, err error) error {
	if pe, ok := err.(*jsonv.PathError); ok {
		return &jsonv.PathError{Pointer: ptr + pe.Pointer, Msg: pe.Msg}
	}
	return err
}
