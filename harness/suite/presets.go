package suite

import (
	"errors"
	"io/fs"
	"slices"
	"sort"
	"strings"

	"github.com/piconform/piconform/reference/jsonv"
)

// PresetsFile holds a suite's named model presets.
const PresetsFile = FixturesDir + "/models.json"

// PresetMember is the member of a model object that names its preset.
const PresetMember = "preset"

// Presets are named model objects, so that a case writes
// {"preset": "anthropic/claude-sonnet-4-5"} instead of pasting the whole
// model. A case may override members next to the preset's name; each
// override replaces the preset's member of that name whole (a shallow
// merge), and members the preset lacks are added after its own.
//
// The harness expands presets when it loads a suite, so an implementation
// always receives the full model and the protocol does not change.
type Presets map[string]jsonv.Value

// readPresets reads PresetsFile: {"description": "...", "models": {name:
// model object}}. A suite without the file has no presets.
func readPresets(fsys fs.FS, file string) (Presets, error) {
	data, err := ReadFile(fsys, PresetsFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &Error{File: file, Err: err}
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		return nil, &Error{File: file, Err: err}
	}
	f := jsonv.ReadFields(v, "")
	f.OptString("description")
	models := f.Object("models")
	if rest := f.Rest(); len(rest) > 0 && f.Err() == nil {
		return nil, &Error{File: file, Err: jsonv.Errorf(f.At(rest[0].Key), "unknown member; want description and models")}
	}
	if err := f.Err(); err != nil {
		return nil, &Error{File: file, Err: err}
	}
	p := Presets{}
	for _, m := range models.Members() {
		ptr := jsonv.Child("/models", m.Key)
		switch {
		case m.Key == "":
			return nil, &Error{File: file, Err: jsonv.Errorf(ptr, "a preset needs a name")}
		case m.Value.Kind() != jsonv.Object:
			return nil, &Error{File: file, Err: jsonv.Errorf(ptr, "want a model object, got %s", m.Value.Kind())}
		case hasMember(m.Value, PresetMember):
			return nil, &Error{File: file, Err: jsonv.Errorf(jsonv.Child(ptr, PresetMember), "a preset cannot refer to another preset")}
		}
		if _, dup := p[m.Key]; dup {
			return nil, &Error{File: file, Err: jsonv.Errorf(ptr, "preset %q is defined twice", m.Key)}
		}
		p[m.Key] = m.Value
	}
	return p, nil
}

// Names lists the presets in name order.
func (p Presets) Names() []string {
	names := make([]string, 0, len(p))
	for n := range p {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Expand returns input with its "model" member expanded when that names a
// preset. ptr is input's JSON Pointer in the case file, for errors.
func (p Presets) Expand(input jsonv.Value, ptr string) (jsonv.Value, error) {
	model, ok := input.Get("model")
	if !ok || model.Kind() != jsonv.Object || !hasMember(model, PresetMember) {
		return input, nil
	}
	mptr := jsonv.Child(ptr, "model")
	name, _ := model.Get(PresetMember)
	if name.Kind() != jsonv.String {
		return input, jsonv.Errorf(jsonv.Child(mptr, PresetMember), "want a preset name (a string), got %s", name.Kind())
	}
	base, ok := p[name.Str()]
	if !ok {
		known := "the suite has none (" + PresetsFile + ")"
		if len(p) > 0 {
			known = "known presets: " + strings.Join(p.Names(), ", ")
		}
		return input, jsonv.Errorf(jsonv.Child(mptr, PresetMember), "unknown model preset %q; %s", name.Str(), known)
	}
	members := slices.Clone(base.Members())
	for _, o := range model.Members() {
		if o.Key == PresetMember {
			continue
		}
		if i := slices.IndexFunc(members, func(m jsonv.Member) bool { return m.Key == o.Key }); i >= 0 {
			members[i].Value = o.Value
		} else {
			members = append(members, o)
		}
	}
	return input.With("model", jsonv.ObjectValue(members...)), nil
}

func hasMember(obj jsonv.Value, key string) bool {
	_, ok := obj.Get(key)
	return ok
}
