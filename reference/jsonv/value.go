// Package jsonv holds JSON values exactly as JavaScript wrote them.
//
// encoding/json cannot be trusted with Pi's JSON: it turns a lone UTF-16
// surrogate escape into U+FFFD, rounds numbers through float64 and forgets key
// order. A Value keeps all three: strings are WTF-8 (see package wtf8),
// numbers keep their literal text, and objects keep their members in order.
package jsonv

import (
	"fmt"
	"slices"
	"strings"
)

// Kind is the JSON type of a Value. The zero Kind, Absent, stands for a value
// that is not there at all, the way JavaScript's undefined leaves a key out.
type Kind uint8

const (
	Absent Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"absent", "null", "boolean", "number", "string", "array", "object"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Value is one JSON value. The zero Value is Absent.
type Value struct {
	kind Kind
	b    bool
	s    string // number literal, or WTF-8 string
	arr  []Value
	obj  []Member
}

// Member is one name/value pair of an object, in the order it was written.
type Member struct {
	Key   string
	Value Value
}

func NullValue() Value           { return Value{kind: Null} }
func BoolValue(b bool) Value     { return Value{kind: Bool, b: b} }
func StringValue(s string) Value { return Value{kind: String, s: s} }

// NumberValue makes a number from its JSON literal, which is kept as written.
// It panics on text that is not a JSON number: callers pass literals they
// parsed or formatted themselves.
func NumberValue(literal string) Value {
	if !validNumber(literal) {
		panic(fmt.Sprintf("jsonv: %q is not a JSON number", literal))
	}
	return Value{kind: Number, s: literal}
}

func ArrayValue(elems ...Value) Value {
	if elems == nil {
		elems = []Value{}
	}
	return Value{kind: Array, arr: elems}
}

func ObjectValue(members ...Member) Value {
	if members == nil {
		members = []Member{}
	}
	return Value{kind: Object, obj: members}
}

func (v Value) Kind() Kind        { return v.kind }
func (v Value) IsAbsent() bool    { return v.kind == Absent }
func (v Value) Bool() bool        { return v.b }
func (v Value) Str() string       { return v.s }
func (v Value) Literal() string   { return v.s }
func (v Value) Elems() []Value    { return v.arr }
func (v Value) Members() []Member { return v.obj }

// Get returns the member named key and whether it is there. With duplicate
// keys the last one wins, as in JSON.parse.
func (v Value) Get(key string) (Value, bool) {
	for i := len(v.obj) - 1; i >= 0; i-- {
		if v.obj[i].Key == key {
			return v.obj[i].Value, true
		}
	}
	return Value{}, false
}

// With returns a copy of the object v with key set to m: in place when v
// has it (the last of duplicate keys, the one Get reads), else appended.
func (v Value) With(key string, m Value) Value {
	members := slices.Clone(v.obj)
	for i := len(members) - 1; i >= 0; i-- {
		if members[i].Key == key {
			members[i].Value = m
			return ObjectValue(members...)
		}
	}
	return ObjectValue(append(members, Member{Key: key, Value: m})...)
}

// Truthy reports JavaScript truthiness.
func (v Value) Truthy() bool {
	switch v.kind {
	case Bool:
		return v.b
	case Number:
		f, ok := v.Float64()
		return ok && f != 0 && f == f
	case String:
		return v.s != ""
	case Array, Object:
		return true
	}
	return false
}

// Equal reports whether two values are the same JSON: key order does not
// matter, numbers compare by exact decimal value, strings by canonical WTF-8.
func Equal(a, b Value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case Bool:
		return a.b == b.b
	case Number:
		return NumbersEqual(a.s, b.s)
	case String:
		return canonicalString(a.s) == canonicalString(b.s)
	case Array:
		if len(a.arr) != len(b.arr) {
			return false
		}
		for i := range a.arr {
			if !Equal(a.arr[i], b.arr[i]) {
				return false
			}
		}
		return true
	case Object:
		am, bm := a.lastMembers(), b.lastMembers()
		if len(am) != len(bm) {
			return false
		}
		for k, av := range am {
			bv, ok := bm[k]
			if !ok || !Equal(av, bv) {
				return false
			}
		}
		return true
	}
	return true
}

func (v Value) lastMembers() map[string]Value {
	m := make(map[string]Value, len(v.obj))
	for _, mem := range v.obj {
		if mem.Value.kind == Absent {
			continue // not there at all, as AppendJSON writes it
		}
		m[canonicalString(mem.Key)] = mem.Value
	}
	return m
}

// String renders v as compact JSON, for messages and debugging.
func (v Value) String() string {
	var sb strings.Builder
	sb.Write(v.AppendJSON(nil))
	return sb.String()
}
