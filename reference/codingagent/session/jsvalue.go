package session

import (
	"strconv"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// JavaScript's reading of parsed JSON values, as far as Pi's session code
// needs it.

func describeValue(v jsonv.Value) string {
	switch v.Kind() {
	case jsonv.Absent:
		return "undefined"
	case jsonv.Null:
		return "null"
	case jsonv.Bool:
		return "a boolean"
	case jsonv.Number:
		return "a number"
	case jsonv.String:
		return "a string"
	case jsonv.Array:
		return "an array"
	}
	return "an object"
}

// mapKey is the key a Map holds v under (SameValueZero), and false for an
// object or array, which only that very value finds.
func mapKey(v jsonv.Value) (string, bool) {
	switch v.Kind() {
	case jsonv.Absent:
		return "u", true
	case jsonv.Null:
		return "n", true
	case jsonv.Bool:
		return "b" + strconv.FormatBool(v.Bool()), true
	case jsonv.Number:
		f, _ := v.Float64()
		return "d" + jsonv.FormatFloat(f), true // -0 formats as 0
	case jsonv.String:
		return "s" + wtf8.Canonical(v.Str()), true
	}
	return "", false
}

// toPrimitiveString is String(v) for a parsed value, failing where
// JavaScript throws (jsonv.ErrNoPrimitive).
func toPrimitiveString(v jsonv.Value) (string, error) {
	if v.ConversionThrows() {
		return "", typeError("%v", jsonv.ErrNoPrimitive)
	}
	return v.JSString(), nil
}

// toNumber is Number(v) for a parsed value, failing where JavaScript throws.
func toNumber(v jsonv.Value) (float64, error) {
	if v.ConversionThrows() {
		return 0, typeError("%v", jsonv.ErrNoPrimitive)
	}
	return v.JSNumber(), nil
}
