package stream

import (
	"fmt"

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
	NoPrimitiveText = "Cannot convert object to primitive value"
)

// JSError is an exception thrown while Pi reads a stream; Msg becomes the
// errorMessage. Parsers panic with it and recover it where Pi catches.
type JSError struct{ Msg string }

// PropertyTypeError is V8's TypeError for reading key of undefined or null.
func PropertyTypeError(base jsonv.Value, key string) JSError {
	what := "undefined"
	if base.Kind() == jsonv.Null {
		what = "null"
	}
	return JSError{fmt.Sprintf("Cannot read properties of %s (reading '%s')", what, key)}
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
