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
		return jsonv.Value{}, jsonv.Errorf("", "want a tool, got null (Pi reads its name)")
	}
	var name, description, params, sampling jsonv.Value
	if t.Kind() == jsonv.Object {
		name, _ = t.Get("name")
		description, _ = t.Get("description")
		params, _ = t.Get("parameters")
		sampling, _ = t.Get("constrainedSampling")
	}
	if params.IsAbsent() {
		return jsonv.Value{}, jsonv.Errorf("", "a tool without parameters: Pi copies them through JSON and throws (\"undefined\" is not valid JSON)")
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

// iterate is for-of over v, a member Pi reads with ?? []: null and absent
// give nothing, an array its elements, a string its code points; anything
// else throws.
func iterate(v jsonv.Value, what string) ([]jsonv.Value, error) {
	switch v.Kind() {
	case jsonv.Absent, jsonv.Null:
		return nil, nil
	case jsonv.Array:
		return v.Elems(), nil
	case jsonv.String:
		return codePointValues(v.Str()), nil
	}
	return nil, jsonv.Errorf("", "%s is %s, which is not iterable", what, v.Kind())
}

// toolMap is a JavaScript Map from tool names to tools: in insertion order,
// setting an existing name keeps its place.
type toolMap struct {
	keys  []string
	tools map[string]jsonv.Value
	n     int // for names no other value finds
}

func newToolMap() *toolMap { return &toolMap{tools: map[string]jsonv.Value{}} }

func (m *toolMap) key(t jsonv.Value) (string, error) {
	if t.Kind() == jsonv.Null {
		return "", jsonv.Errorf("", "want a tool, got null (Pi reads its name)")
	}
	_, k, ok := toolName(t)
	if !ok {
		m.n++
		k = "o" + strconv.Itoa(m.n)
	}
	return k, nil
}

func (m *toolMap) set(t jsonv.Value) error {
	k, err := m.key(t)
	if err != nil {
		return err
	}
	if _, ok := m.tools[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.tools[k] = t
	return nil
}

func (m *toolMap) delete(t jsonv.Value) error {
	k, err := m.key(t)
	if err != nil {
		return err
	}
	if _, ok := m.tools[k]; ok {
		delete(m.tools, k)
		for i, have := range m.keys {
			if have == k {
				m.keys = append(m.keys[:i:i], m.keys[i+1:]...)
				break
			}
		}
	}
	return nil
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
// replacing the earlier one where it stood). The tools are as written.
func CurrentTools(systems []*SystemMessage) ([]jsonv.Value, error) {
	m := newToolMap()
	for _, s := range systems {
		removed, err := iterate(s.ToolsRemoved, "toolsRemoved")
		if err != nil {
			return nil, err
		}
		for _, t := range removed {
			if err := m.delete(t); err != nil {
				return nil, err
			}
		}
		added, err := iterate(s.ToolsAdded, "toolsAdded")
		if err != nil {
			return nil, err
		}
		for _, t := range added {
			if err := m.set(t); err != nil {
				return nil, err
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
	prev, cur := newToolMap(), newToolMap()
	for _, t := range previous {
		if err := prev.set(t); err != nil {
			return nil, nil, err
		}
	}
	for _, t := range current {
		if err := cur.set(t); err != nil {
			return nil, nil, err
		}
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
