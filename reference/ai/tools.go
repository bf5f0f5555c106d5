package ai

import (
	"strconv"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// The tool state of a Pi 1.6 transcript: its system messages add tools
// (toolsAdded) and take them away (toolsRemoved) by name, and Pi's agent
// loop declares the difference between that state and the tools it can run
// as a new system message. These functions read tools as JavaScript reads
// the values JSON.parse made; where Pi throws they return an error (a
// *jsonv.PathError without a pointer, for the caller to place).

// ToolDeclaration is pi-ai's toToolDeclaration: {name, description,
// parameters, constrainedSampling} of the tool t, each as written (absent
// ones left out; constrainedSampling only when present), the parameters
// copied through JSON. Pi throws on a null t (reading its name) and on a t
// without parameters, which JSON.parse cannot read back (a value that is
// not an object has none).
func ToolDeclaration(t jsonv.Value) (jsonv.Value, error) {
	if t.Kind() == jsonv.Null {
		return jsonv.Value{}, jsonv.Errorf("", "%s", jsonv.ReadPropertyText(t, "name"))
	}
	var name, description, params, sampling jsonv.Value
	if t.Kind() == jsonv.Object {
		name, _ = t.Get("name")
		description, _ = t.Get("description")
		params, _ = t.Get("parameters")
		sampling, _ = t.Get("constrainedSampling")
	}
	if params.IsAbsent() {
		// Pi copies them through JSON: JSON.parse(JSON.stringify(undefined)).
		return jsonv.Value{}, jsonv.Errorf("", "%s", `"undefined" is not valid JSON`)
	}
	o := new(jsonv.ObjectBuilder).Set("name", name).Set("description", description)
	return o.Set("parameters", params.Stringified()).Set("constrainedSampling", sampling).Value(), nil
}

// toolName is a tool's name as JavaScript reads it (undefined on anything
// but an object), and the key a Map holds it under; ok is false for a name
// that is an object or an array, which no other value finds.
func toolName(t jsonv.Value) (name jsonv.Value, key string, ok bool) {
	if t.Kind() == jsonv.Object {
		name, _ = t.Get("name")
	}
	switch name.Kind() {
	case jsonv.Object, jsonv.Array:
		return name, "", false
	case jsonv.Number:
		f, _ := name.Float64()
		return name, "d" + jsonv.FormatFloat(f), true
	case jsonv.String:
		return name, "s" + wtf8.Canonical(name.Str()), true
	}
	// undefined, null or a boolean
	return name, "p" + name.JSString(), true
}

// toolMap is a JavaScript Map from tool names to tools: in insertion order,
// setting an existing name keeps its place.
type toolMap struct {
	keys  []string
	tools map[string]jsonv.Value
	n     int // for names no other value finds
}

func newToolMap() *toolMap { return &toolMap{tools: map[string]jsonv.Value{}} }

func (m *toolMap) key(t jsonv.Value) string {
	_, k, ok := toolName(t)
	if !ok {
		m.n++
		k = "o" + strconv.Itoa(m.n)
	}
	return k
}

// set adds t under its name, or replaces the tool of that name in place.
func (m *toolMap) set(t jsonv.Value) {
	k := m.key(t)
	if _, ok := m.tools[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.tools[k] = t
}

// delete removes the tool of t's name, if there is one.
func (m *toolMap) delete(t jsonv.Value) {
	k := m.key(t)
	if _, ok := m.tools[k]; ok {
		delete(m.tools, k)
		for i, have := range m.keys {
			if have == k {
				m.keys = append(m.keys[:i:i], m.keys[i+1:]...)
				break
			}
		}
	}
}

func (m *toolMap) values() []jsonv.Value {
	out := make([]jsonv.Value, 0, len(m.keys))
	for _, k := range m.keys {
		out = append(out, m.tools[k])
	}
	return out
}

// CurrentTools is pi-ai's getCurrentTools: the tools a transcript's system
// messages leave in place, replayed in order (each message removes its
// toolsRemoved by name, then adds its toolsAdded, a later tool of a name
// replacing the earlier one where it stood; a name that is an object or an
// array finds no other). The tools are as written. A list is read as `?? []`
// (null and absent are none) and iterated (a string gives its code points).
//
// Where Pi throws, on a list that is not iterable or a null tool (whose name
// it reads), CurrentTools fails with a *jsonv.PathError at that list or tool
// below at(i), the place of systems[i].
func CurrentTools(systems []*SystemMessage, at func(i int) string) ([]jsonv.Value, error) {
	m := newToolMap()
	for i, s := range systems {
		for _, list := range []struct {
			key   string
			tools jsonv.Value
			apply func(jsonv.Value)
		}{{"toolsRemoved", s.ToolsRemoved, m.delete}, {"toolsAdded", s.ToolsAdded, m.set}} {
			if list.tools.IsNullish() {
				continue
			}
			ptr := jsonv.Child(at(i), list.key)
			tools, ok := jsonv.Iterate(list.tools)
			if !ok {
				return nil, jsonv.Errorf(ptr, "%s", jsonv.NotIterableText(list.tools))
			}
			for j, t := range tools {
				if t.IsNullish() {
					return nil, jsonv.Errorf(jsonv.Index(ptr, j), "%s", jsonv.ReadPropertyText(t, "name"))
				}
				list.apply(t)
			}
		}
	}
	return m.values(), nil
}

// ToolChanges is pi-ai's getToolStateChanges from the tools previous to
// current: added are the declarations (ToolDeclaration) of the current tools
// whose name previous lacks or holds with another declaration, and removed
// the references {name} of the previous tools whose name current lacks or
// holds with another declaration (so a changed tool is both). Declarations
// are compared as JSON.stringify writes them.
func ToolChanges(previous, current []jsonv.Value) (added, removed []jsonv.Value, err error) {
	for _, tools := range [][]jsonv.Value{previous, current} {
		for _, t := range tools {
			if t.Kind() == jsonv.Null {
				return nil, nil, jsonv.Errorf("", "want a tool, got null (Pi reads its name)")
			}
		}
	}
	prev, cur := newToolMap(), newToolMap()
	for _, t := range previous {
		prev.set(t)
	}
	for _, t := range current {
		cur.set(t)
	}
	// Names no other value finds get fresh keys each time: look them up
	// with a map that never finds them.
	lookup := func(m *toolMap, t jsonv.Value) (jsonv.Value, bool) {
		if _, k, ok := toolName(t); ok {
			v, found := m.tools[k]
			return v, found
		}
		return jsonv.Value{}, false
	}
	for _, t := range current {
		p, ok := lookup(prev, t)
		same := false
		if ok {
			if same, err = declarationsEqual(p, t); err != nil {
				return nil, nil, err
			}
		}
		if !same {
			d, err := ToolDeclaration(t)
			if err != nil {
				return nil, nil, err
			}
			added = append(added, d)
		}
	}
	for _, t := range previous {
		c, ok := lookup(cur, t)
		same := false
		if ok {
			if same, err = declarationsEqual(t, c); err != nil {
				return nil, nil, err
			}
		}
		if !same {
			name, _, _ := toolName(t)
			removed = append(removed, new(jsonv.ObjectBuilder).Set("name", name).Value())
		}
	}
	return added, removed, nil
}

// declarationsEqual is pi-ai's declarationsEqual: the two declarations
// written as JSON are the same text.
func declarationsEqual(a, b jsonv.Value) (bool, error) {
	da, err := ToolDeclaration(a)
	if err != nil {
		return false, err
	}
	db, err := ToolDeclaration(b)
	if err != nil {
		return false, err
	}
	return string(da.AppendJSON(nil)) == string(db.AppendJSON(nil)), nil
}
