// Package perturb makes malformed neighbours of a case's input: each value in
// turn made null, left out, or replaced by a value of another JSON type. Run
// through two implementations, they show where one accepts an input the
// other refuses (TestAgainstPi runs them against the real Pi).
package perturb

import (
	"slices"
	"strings"

	"github.com/piconform/piconform/reference/jsonv"
)

// Variant is one perturbed input.
type Variant struct {
	// Pointer is the JSON Pointer of the changed value, within the input.
	Pointer string
	// Change names what was done: "null", "absent", the JSON type put in
	// ("string", "number", "bool", "object", "array"), a value of the
	// same type that reads otherwise ("empty", "zero", "flip",
	// "numeric-string" for a number written as a string, "overflow" for
	// one beyond float64), for a string or a number "no-string-form", an
	// object JavaScript cannot convert (its own toString member hides the
	// inherited one), or, for a header value, "elements": an array of
	// null, the value and "x".
	Change string
	Input  jsonv.Value
}

// replacements are the values put in for each change, one per JSON type. The
// string is not a number and the number is neither 0 nor 1, so neither can
// pass for the other through JavaScript's coercions.
var replacements = []struct {
	change string
	kind   jsonv.Kind
	value  jsonv.Value
}{
	{"null", jsonv.Null, jsonv.NullValue()},
	{"string", jsonv.String, jsonv.StringValue("x")},
	{"number", jsonv.Number, jsonv.NumberValue("7")},
	{"bool", jsonv.Bool, jsonv.BoolValue(true)},
	{"object", jsonv.Object, jsonv.ObjectValue()},
	{"array", jsonv.Array, jsonv.ArrayValue()},
}

// Variants returns every perturbation of input below its root, in document
// order: each value in turn made null, left out, replaced by a value of each
// other JSON type, and by the values of falsy. A member can be left out; an array element is only replaced, as
// removing one makes another valid array rather than a malformed one. Values
// under a pointer for which skip reports true are left alone, with their
// children.
func Variants(input jsonv.Value, skip func(pointer string) bool) []Variant {
	var out []Variant
	var walk func(v jsonv.Value, ptr string, rebuild func(jsonv.Value) jsonv.Value)
	walk = func(v jsonv.Value, ptr string, rebuild func(jsonv.Value) jsonv.Value) {
		switch v.Kind() {
		case jsonv.Object:
			members := v.Members()
			for i, m := range members {
				p := jsonv.Child(ptr, m.Key)
				if skip != nil && skip(p) {
					continue
				}
				put := func(nv jsonv.Value) jsonv.Value {
					ms := slices.Clone(members)
					if nv.IsAbsent() {
						ms = slices.Delete(ms, i, i+1)
					} else {
						ms[i].Value = nv
					}
					return rebuild(jsonv.ObjectValue(ms...))
				}
				out = append(out, Variant{Pointer: p, Change: "absent", Input: put(jsonv.Value{})})
				out = append(out, replaced(m.Value, p, put)...)
				walk(m.Value, p, put)
			}
		case jsonv.Array:
			elems := v.Elems()
			for i, e := range elems {
				p := jsonv.Index(ptr, i)
				if skip != nil && skip(p) {
					continue
				}
				put := putElem(elems, i, rebuild)
				out = append(out, replaced(e, p, put)...)
				walk(e, p, put)
			}
		}
	}
	walk(input, "", func(v jsonv.Value) jsonv.Value { return v })
	return out
}

// noStringForm is an object JavaScript cannot convert to a string or a
// number: its own toString member hides the inherited one.
var noStringForm = jsonv.ObjectValue(jsonv.Member{Key: "toString", Value: jsonv.StringValue("x")})

// alt is a value put in, and the name of the change.
type alt struct {
	change string
	value  jsonv.Value
}

// falsy are the values of the same type that JavaScript's tests read
// otherwise ("" and 0 are false, true and false swap), and for a number a
// numeric string, which Number() reads as one, and a number beyond float64,
// which JSON.parse reads as Infinity.
func falsy(v jsonv.Value) []alt {
	switch v.Kind() {
	case jsonv.String:
		if v.Str() != "" {
			return []alt{{"empty", jsonv.StringValue("")}}
		}
	case jsonv.Number:
		alts := []alt{{"numeric-string", jsonv.StringValue(v.Literal())}, {"overflow", jsonv.NumberValue("1e400")}}
		if v.Truthy() {
			alts = append(alts, alt{"zero", jsonv.NumberValue("0")})
		}
		return alts
	case jsonv.Bool:
		return []alt{{"flip", jsonv.BoolValue(!v.Bool())}}
	}
	return nil
}

func replaced(v jsonv.Value, ptr string, put func(jsonv.Value) jsonv.Value) []Variant {
	var out []Variant
	for _, r := range replacements {
		if r.kind != v.Kind() {
			out = append(out, Variant{Pointer: ptr, Change: r.change, Input: put(r.value)})
		}
	}
	for _, a := range falsy(v) {
		out = append(out, Variant{Pointer: ptr, Change: a.change, Input: put(a.value)})
	}
	if k := v.Kind(); k == jsonv.String || k == jsonv.Number {
		out = append(out, Variant{Pointer: ptr, Change: "no-string-form", Input: put(noStringForm)})
	}
	if headerValue(ptr) {
		elems := jsonv.ArrayValue(jsonv.NullValue(), v, jsonv.StringValue("x"))
		out = append(out, Variant{Pointer: ptr, Change: "elements", Input: put(elems)})
	}
	return out
}

// headerValue reports whether ptr is a value that a client may set as a
// header (a member of a headers object, or the session id): there an
// array with elements reads otherwise than the empty one, each element a
// value of its own in some clients and joined with commas in others.
func headerValue(ptr string) bool {
	segs := strings.Split(ptr, "/")
	n := len(segs)
	return n >= 3 && segs[n-2] == "headers" || ptr == "/options/sessionId"
}

// Pattern is ptr with its array indices replaced by "*", so that findings
// about the same field of different elements group together.
func Pattern(ptr string) string {
	segs := strings.Split(ptr, "/")
	for i, s := range segs {
		if s != "" && strings.Trim(s, "0123456789") == "" {
			segs[i] = "*"
		}
	}
	return strings.Join(segs, "/")
}

// Added returns the variants of input that give its object member at (a
// member of the root, such as "options", made when missing) a member it
// lacks: each of names in turn, with each value of replacements, the
// falsy values "", 0 and false, and a value with no string form. They show what an implementation makes of
// a member that cases seldom set, whatever its type.
func Added(input jsonv.Value, at string, names []string) []Variant {
	if input.Kind() != jsonv.Object {
		return nil
	}
	obj, ok := input.Get(at)
	if ok && obj.Kind() != jsonv.Object {
		return nil
	}
	values := []alt{{"empty", jsonv.StringValue("")}, {"zero", jsonv.NumberValue("0")}, {"false", jsonv.BoolValue(false)}}
	for _, r := range replacements {
		values = append(values, alt{r.change, r.value})
	}
	values = append(values, alt{"no-string-form", noStringForm})
	var out []Variant
	for _, name := range names {
		if _, has := obj.Get(name); has {
			continue
		}
		for _, v := range values {
			added := jsonv.ObjectValue(append(slices.Clone(obj.Members()), jsonv.Member{Key: name, Value: v.value})...)
			out = append(out, Variant{Pointer: jsonv.Child(jsonv.Child("", at), name), Change: "added " + v.change, Input: withMember(input, at, added)})
		}
	}
	return out
}

// withMember is the object v with its member key set to value (added at
// the end when v has none).
func withMember(v jsonv.Value, key string, value jsonv.Value) jsonv.Value {
	ms := slices.Clone(v.Members())
	for i := range ms {
		if ms[i].Key == key {
			ms[i].Value = value
			return jsonv.ObjectValue(ms...)
		}
	}
	return jsonv.ObjectValue(append(ms, jsonv.Member{Key: key, Value: value})...)
}
