package jsonv

import (
	"math"

	"github.com/piconform/piconform/reference/wtf8"
)

// StrictEqual is JavaScript's === on values JSON.parse made: Absent is
// undefined, numbers compare as doubles, and two objects or arrays are never
// the same object.
func StrictEqual(a, b Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case Absent, Null:
		return true
	case Bool:
		return a.Bool() == b.Bool()
	case Number:
		x, _ := a.Float64()
		y, _ := b.Float64()
		return x == y
	case String:
		return wtf8.Canonical(a.Str()) == wtf8.Canonical(b.Str())
	}
	return false
}

// SameValueZero is the equality of a JavaScript Map's keys: StrictEqual,
// except that NaN equals NaN.
func SameValueZero(a, b Value) bool {
	if a.Kind() == Number && b.Kind() == Number {
		x, _ := a.Float64()
		y, _ := b.Float64()
		if math.IsNaN(x) && math.IsNaN(y) {
			return true
		}
	}
	return StrictEqual(a, b)
}
