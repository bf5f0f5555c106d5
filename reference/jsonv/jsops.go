package jsonv

import (
	"errors"
	"math"
	"slices"

	"github.com/piconform/piconform/reference/wtf8"
)

// textual reports whether JavaScript's ToPrimitive makes a string of v:
// a string, an array (joined) or an object ("[object Object]").
func textual(v Value) bool {
	return v.kind == String || v.kind == Array || v.kind == Object
}

// Add is JavaScript's `a + b` on values JSON.parse made: when either side's
// primitive is a string both are joined as text, else their numbers are
// added. It fails with ErrNoPrimitive where JavaScript throws
// (ConversionThrows), the left side first.
func Add(a, b Value) (Value, error) {
	if a.ConversionThrows() || b.ConversionThrows() {
		return Value{}, ErrNoPrimitive
	}
	if textual(a) || textual(b) {
		return StringValue(wtf8.Concat(a.JSString(), b.JSString())), nil
	}
	return JSNumberValue(a.JSNumber() + b.JSNumber()), nil
}

// Greater is JavaScript's `a > b` on values JSON.parse made: two values
// whose primitives are strings compare by UTF-16 code units, anything else
// by number, where NaN (undefined, an object's text) is never greater nor
// smaller. It fails with ErrNoPrimitive where JavaScript throws.
func Greater(a, b Value) (bool, error) {
	if a.ConversionThrows() || b.ConversionThrows() {
		return false, ErrNoPrimitive
	}
	if textual(a) && textual(b) {
		return slices.Compare(wtf8.ToUTF16(a.JSString()), wtf8.ToUTF16(b.JSString())) > 0, nil
	}
	x, y := a.JSNumber(), b.JSNumber()
	if math.IsNaN(x) || math.IsNaN(y) {
		return false, nil
	}
	return x > y, nil
}

// LengthAboveZero is JavaScript's `v.length > 0` on a value JSON.parse
// made: a string's or an array's length, an object's own length member as
// `>` compares it (never above zero when it is missing), and no length for
// a number or a boolean. Reading the length of undefined (Absent) or null
// fails with V8's TypeError text, and a length with no primitive value
// with ErrNoPrimitive.
func LengthAboveZero(v Value) (bool, error) {
	switch v.kind {
	case Absent, Null:
		return false, errors.New(ReadPropertyText(v, "length"))
	case String:
		return v.Str() != "", nil
	case Array:
		return len(v.Elems()) > 0, nil
	case Object:
		n, _ := v.Get("length")
		return Greater(n, NumberValue("0"))
	}
	return false, nil
}

// NoPrimitiveText is V8's TypeError text for ErrNoPrimitive.
const NoPrimitiveText = "Cannot convert object to primitive value"

// ReadPropertyText is V8's TypeError text for reading the member key of
// base, undefined (Absent) or null.
func ReadPropertyText(base Value, key string) string {
	what := "undefined"
	if base.kind == Null {
		what = "null"
	}
	return "Cannot read properties of " + what + " (reading '" + key + "')"
}

// SetPropertyText is V8's TypeError text for setting the member key of
// base, a value that holds no members: undefined (Absent), null, or, in
// strict code, a string, number or boolean.
func SetPropertyText(base Value, key string) string {
	switch base.kind {
	case Absent, Null:
		what := "undefined"
		if base.kind == Null {
			what = "null"
		}
		return "Cannot set properties of " + what + " (setting '" + key + "')"
	case String:
		return "Cannot create property '" + key + "' on string '" + base.Str() + "'"
	}
	return "Cannot create property '" + key + "' on " + base.kind.String() + " '" + base.JSString() + "'"
}

// NotIterableText is V8's TypeError text for iterating, with for-of, a
// value that is no array nor string and that the code names by no
// variable (a number, a boolean or an object).
func NotIterableText(v Value) string {
	what := "object"
	switch v.kind {
	case Number:
		what = "number " + v.JSString()
	case Bool:
		what = "boolean " + v.JSString()
	}
	return what + " is not iterable (cannot read property Symbol(Symbol.iterator))"
}
