package perturb

import (
	"slices"

	"github.com/piconform/piconform/reference/jsonv"
)

// Members is what the server answers of a set of cases hold at each place:
// for an event (its name and its data's type) and the pattern of an
// object's pointer within the event's data, the members found there, each
// with the first value seen that JavaScript reads as true, if any: a count
// of 0 or an empty text would show little.
type Members map[string][]jsonv.Member

// Gather adds the members of the objects in response's event data to m.
func (m Members) Gather(response jsonv.Value) {
	eventObjects(response, func(place, _ string, obj jsonv.Value, _ func(jsonv.Value) jsonv.Value) {
		for _, mem := range obj.Members() {
			i := slices.IndexFunc(m[place], func(x jsonv.Member) bool { return x.Key == mem.Key })
			switch {
			case i < 0:
				m[place] = append(m[place], mem)
			case !m[place][i].Value.Truthy() && mem.Value.Truthy():
				m[place][i].Value = mem.Value
			}
		}
	})
}

// Borrowed returns the variants of response that give an object in an
// event's data a member it lacks which another answer has at the same
// place, with the value it has there (Change "borrowed"). A server sends
// members in combinations no single case holds; an implementation that
// reads one only where the cases put it shows here.
func Borrowed(response jsonv.Value, m Members) []Variant {
	var out []Variant
	eventObjects(response, func(place, ptr string, obj jsonv.Value, rebuild func(jsonv.Value) jsonv.Value) {
		for _, mem := range m[place] {
			if _, has := obj.Get(mem.Key); has {
				continue
			}
			added := jsonv.ObjectValue(append(slices.Clone(obj.Members()), mem)...)
			out = append(out, Variant{Pointer: jsonv.Child(ptr, mem.Key), Change: "borrowed", Input: rebuild(added)})
		}
	})
	return out
}

// eventObjects calls visit for every object within the data of an event
// ({"event", "data"}) in response, with its place (the event's name and
// data type, and the pattern of its pointer within the data), its pointer
// in response, and a function that makes response with the object
// replaced.
func eventObjects(response jsonv.Value, visit func(place, ptr string, obj jsonv.Value, rebuild func(jsonv.Value) jsonv.Value)) {
	var inData func(v jsonv.Value, ptr, place string, rebuild func(jsonv.Value) jsonv.Value)
	inData = func(v jsonv.Value, ptr, place string, rebuild func(jsonv.Value) jsonv.Value) {
		switch v.Kind() {
		case jsonv.Object:
			visit(place, ptr, v, rebuild)
			members := v.Members()
			for i, m := range members {
				inData(m.Value, jsonv.Child(ptr, m.Key), place+"/"+m.Key, putMember(members, i, rebuild))
			}
		case jsonv.Array:
			elems := v.Elems()
			for i, e := range elems {
				inData(e, jsonv.Index(ptr, i), place+"/*", putElem(elems, i, rebuild))
			}
		}
	}
	var find func(v jsonv.Value, ptr string, rebuild func(jsonv.Value) jsonv.Value)
	find = func(v jsonv.Value, ptr string, rebuild func(jsonv.Value) jsonv.Value) {
		switch v.Kind() {
		case jsonv.Object:
			members := v.Members()
			if data, ok := v.Get("data"); ok {
				name, _ := v.Get("event")
				typ, _ := data.Get("type")
				i := slices.IndexFunc(members, func(m jsonv.Member) bool { return m.Key == "data" })
				inData(data, jsonv.Child(ptr, "data"), name.Str()+" "+typ.Str()+" ", putMember(members, i, rebuild))
				return
			}
			for i, m := range members {
				find(m.Value, jsonv.Child(ptr, m.Key), putMember(members, i, rebuild))
			}
		case jsonv.Array:
			elems := v.Elems()
			for i, e := range elems {
				find(e, jsonv.Index(ptr, i), putElem(elems, i, rebuild))
			}
		}
	}
	find(response, "", func(v jsonv.Value) jsonv.Value { return v })
}

// putMember makes, of the object whose members are members, the object
// with member i's value replaced, and hands it to rebuild.
func putMember(members []jsonv.Member, i int, rebuild func(jsonv.Value) jsonv.Value) func(jsonv.Value) jsonv.Value {
	return func(nv jsonv.Value) jsonv.Value {
		ms := slices.Clone(members)
		ms[i].Value = nv
		return rebuild(jsonv.ObjectValue(ms...))
	}
}

// putElem is putMember for an array's element i.
func putElem(elems []jsonv.Value, i int, rebuild func(jsonv.Value) jsonv.Value) func(jsonv.Value) jsonv.Value {
	return func(nv jsonv.Value) jsonv.Value {
		es := slices.Clone(elems)
		es[i] = nv
		return rebuild(jsonv.ArrayValue(es...))
	}
}
