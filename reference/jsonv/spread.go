package jsonv

import (
	"strconv"

	"github.com/piconform/piconform/reference/wtf8"
)

// Spread is the object JavaScript's {...v} (and Object.assign) makes of a
// value JSON.parse gave: an object as it is, an array's elements and a
// string's UTF-16 units under their indices, and no member of anything
// else.
func Spread(v Value) Value {
	switch v.Kind() {
	case Object:
		return v
	case Array:
		ms := make([]Member, len(v.Elems()))
		for i, e := range v.Elems() {
			ms[i] = Member{Key: strconv.Itoa(i), Value: e}
		}
		return ObjectValue(ms...)
	case String:
		units := wtf8.ToUTF16(v.Str())
		ms := make([]Member, len(units))
		for i := range units {
			ms[i] = Member{Key: strconv.Itoa(i), Value: StringValue(wtf8.FromUTF16(units[i : i+1]))}
		}
		return ObjectValue(ms...)
	}
	return ObjectValue()
}

// Iterate is what for-of (and the spread [...v]) visits in v, a value
// JSON.parse gave: an array's elements, or a string's code points one by
// one (a lone surrogate on its own). ok is false for anything else, which
// JavaScript refuses as not iterable (NotIterableText).
func Iterate(v Value) (elems []Value, ok bool) {
	switch v.Kind() {
	case Array:
		return v.Elems(), true
	case String:
		s := wtf8.Canonical(v.Str())
		for s != "" {
			_, n := wtf8.Next(s)
			elems = append(elems, StringValue(s[:n]))
			s = s[n:]
		}
		return elems, true
	}
	return nil, false
}
