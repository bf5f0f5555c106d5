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
	"unsafe"
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
//
// A Value is 24 bytes: its kind, a length and one pointer, which the kind
// says how to read (a string's bytes, or an array's elements, or an
// object's members). A parsed transcript holds millions of Values and
// Members, so their size is most of the tree's memory and of the garbage
// collector's work: the three separate fields this replaces made a Value
// 72 bytes.
type Value struct {
	kind Kind
	b    bool
	n    int            // length of the string, elements or members
	p    unsafe.Pointer // *byte, *Value or *Member, by kind; nil when n is 0 and nothing else is needed
}

// Member is one name/value pair of an object, in the order it was written.
type Member struct {
	Key   string
	Value Value
}

func NullValue() Value           { return Value{kind: Null} }
func BoolValue(b bool) Value     { return Value{kind: Bool, b: b} }
func StringValue(s string) Value { return textValue(String, s) }

// textValue is a String, or a Number with its literal.
func textValue(k Kind, s string) Value {
	return Value{kind: k, n: len(s), p: unsafe.Pointer(unsafe.StringData(s))}
}

// NumberValue makes a number from its JSON literal, which is kept as written.
// It panics on text that is not a JSON number: callers pass literals they
// parsed or formatted themselves.
func NumberValue(literal string) Value {
	if !validNumber(literal) {
		panic(fmt.Sprintf("jsonv: %q is not a JSON number", literal))
	}
	return textValue(Number, literal)
}

func ArrayValue(elems ...Value) Value {
	if elems == nil {
		elems = []Value{}
	}
	// SliceData of an empty, non-nil slice is not nil, so Elems gives
	// back an empty slice, not nil.
	return Value{kind: Array, n: len(elems), p: unsafe.Pointer(unsafe.SliceData(elems))}
}

func ObjectValue(members ...Member) Value {
	if members == nil {
		members = []Member{}
	}
	return Value{kind: Object, n: len(members), p: unsafe.Pointer(unsafe.SliceData(members))}
}

func (v Value) Kind() Kind     { return v.kind }
func (v Value) IsAbsent() bool { return v.kind == Absent }
func (v Value) Bool() bool     { return v.b }

// Str is a string's text or a number's literal, "" for other kinds.
func (v Value) Str() string {
	if v.kind != String && v.kind != Number {
		return ""
	}
	return unsafe.String((*byte)(v.p), v.n)
}

// Literal is a number's literal (Str).
func (v Value) Literal() string { return v.Str() }

// Elems is an array's elements, nil for other kinds.
func (v Value) Elems() []Value {
	if v.kind != Array || v.p == nil {
		return nil
	}
	return unsafe.Slice((*Value)(v.p), v.n)
}

// Members is an object's members in written order, nil for other kinds.
func (v Value) Members() []Member {
	if v.kind != Object || v.p == nil {
		return nil
	}
	return unsafe.Slice((*Member)(v.p), v.n)
}

// Get returns the member named key and whether it is there. With duplicate
// keys the last one wins, as in JSON.parse.
func (v Value) Get(key string) (Value, bool) {
	obj := v.Members()
	for i := len(obj) - 1; i >= 0; i-- {
		if obj[i].Key == key {
			return obj[i].Value, true
		}
	}
	return Value{}, false
}

// With returns a copy of the object v with key set to m: in place when v
// has it (the last of duplicate keys, the one Get reads), else appended.
func (v Value) With(key string, m Value) Value {
	members := slices.Clone(v.Members())
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
		return v.n != 0
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
		return NumbersEqual(a.Str(), b.Str())
	case String:
		return canonicalString(a.Str()) == canonicalString(b.Str())
	case Array:
		ae, be := a.Elems(), b.Elems()
		if len(ae) != len(be) {
			return false
		}
		for i := range ae {
			if !Equal(ae[i], be[i]) {
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
	m := make(map[string]Value, v.n)
	for _, mem := range v.Members() {
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
