package session

import (
	"math"

	"github.com/piconform/piconform/reference/jsdate"
	"github.com/piconform/piconform/reference/jsonv"
)

// timeValue is new Date(v).getTime() for a parsed value, as the number
// JSON.stringify writes (null for NaN, an Invalid Date): a string is read
// as V8 reads a date (package jsdate, in UTC), null is 0, a number is
// clipped to the Date range and truncated, undefined is NaN, and any other
// value is read as the string it converts to.
func timeValue(v jsonv.Value) (jsonv.Value, error) {
	t, err := timeOf(v)
	if err != nil {
		return jsonv.Value{}, err
	}
	return jsonv.FloatValue(t), nil
}

// timeOf is new Date(v).getTime() as a number: NaN for an Invalid Date.
func timeOf(v jsonv.Value) (float64, error) {
	var t float64
	switch v.Kind() {
	case jsonv.Absent:
		t = math.NaN()
	case jsonv.Null, jsonv.Bool, jsonv.Number:
		t, _ = toNumber(v)
	default:
		s, err := toPrimitiveString(v)
		if err != nil {
			return 0, err
		}
		t = jsdate.Parse(s)
	}
	return jsdate.Clip(t), nil
}
