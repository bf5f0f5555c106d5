package stream

import (
	"github.com/piconform/piconform/reference/jsonv"
)

// Texts Pi's stream readers share.
const (
	// UnknownErrorText is the errorMessage of a failure that carries no
	// message of its own.
	UnknownErrorText = "An unknown error occurred"
	// UnhandledStopReason starts the error thrown for a stop reason Pi
	// does not map; the reason follows.
	UnhandledStopReason = "Unhandled stop reason: "
	// NoPrimitiveText is V8's TypeError for converting an object that has
	// no primitive value (jsonv.ErrNoPrimitive).
	NoPrimitiveText = jsonv.NoPrimitiveText
)

// ToString is String(v) where Pi's own code converts v (a template literal,
// +, String(), a header value fetch stores): it throws V8's TypeError (a
// JSError panic) where JavaScript does, on a value with no string form
// (jsonv.Value.ConversionThrows).
func ToString(v jsonv.Value) string {
	if v.ConversionThrows() {
		panic(JSError{NoPrimitiveText})
	}
	return v.JSString()
}

// Kept is the text of a value Pi keeps as it is where it expects a string
// (an assignment, no conversion). Another type sets outside: the message
// would carry the value itself, which the reference does not model. Its
// text is then only a stand-in, and never throws, since Pi converts
// nothing there.
func Kept(v jsonv.Value, outside *bool) string {
	if v.Kind() == jsonv.String {
		return v.Str()
	}
	*outside = true
	if v.ConversionThrows() {
		return ""
	}
	return v.JSString()
}

// ToJoinString is v as Array.prototype.join writes an element, throwing as
// ToString does.
func ToJoinString(v jsonv.Value) string {
	if v.IsNullish() {
		return ""
	}
	return ToString(v)
}

// ToNumber is Number(v) (arithmetic, a comparison, Math.min), throwing as
// ToString does.
func ToNumber(v jsonv.Value) float64 {
	if v.ConversionThrows() {
		panic(JSError{NoPrimitiveText})
	}
	return v.JSNumber()
}

// Or is `v || alt`.
func Or(v, alt jsonv.Value) jsonv.Value {
	if v.Truthy() {
		return v
	}
	return alt
}

// Nullish is `v ?? alt`.
func Nullish(v, alt jsonv.Value) jsonv.Value {
	if v.IsNullish() {
		return alt
	}
	return v
}

// Plus is `a + b`: when either side's primitive is a string (a string, an
// array or an object) both are joined as text, else their numbers are
// added. It throws as ToString does.
func Plus(a, b jsonv.Value) jsonv.Value {
	v, err := jsonv.Add(a, b)
	if err != nil {
		panic(JSError{NoPrimitiveText})
	}
	return v
}

// Sum is `v[0] + v[1] + …`, left to right.
func Sum(v ...jsonv.Value) jsonv.Value {
	total := v[0]
	for _, x := range v[1:] {
		total = Plus(total, x)
	}
	return total
}

// Minus is `a - b`, which reads both sides as numbers.
func Minus(a, b jsonv.Value) jsonv.Value {
	return jsonv.JSNumberValue(ToNumber(a) - ToNumber(b))
}

// JSError is an exception thrown while Pi reads a stream; Msg becomes the
// errorMessage. Parsers panic with it and recover it where Pi catches.
type JSError struct{ Msg string }

// PropertyTypeError is V8's TypeError for reading key of undefined or null.
func PropertyTypeError(base jsonv.Value, key string) JSError {
	return JSError{jsonv.ReadPropertyText(base, key)}
}

// Member is `base?.key` on a JSON value: undefined (Absent) for anything
// but an object that has the member.
func Member(base jsonv.Value, key string) jsonv.Value {
	if base.Kind() != jsonv.Object {
		return jsonv.Value{}
	}
	v, _ := base.Get(key)
	return v
}

// Prop is `base.key`: it throws PropertyTypeError like V8 when base is undefined
// or null.
func Prop(base jsonv.Value, key string) jsonv.Value {
	if base.IsNullish() {
		panic(PropertyTypeError(base, key))
	}
	return Member(base, key)
}
