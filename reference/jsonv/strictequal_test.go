package jsonv_test

import (
	"math"
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
)

func TestStrictEqual(t *testing.T) {
	parse := func(s string) jsonv.Value {
		if s == "" {
			return jsonv.Value{}
		}
		v, err := jsonv.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"", "", true}, {"null", "null", true}, {"", "null", false},
		{"2", "2.0", true}, {"-0", "0", true}, {"2", `"2"`, false},
		{`"a"`, `"a"`, true}, {`"\ud83d"`, `"\ud83d"`, true}, {`"a"`, `"b"`, false},
		{"true", "true", true}, {"true", "1", false},
		{"{}", "{}", false}, {"[]", "[]", false},
	} {
		if got := jsonv.StrictEqual(parse(tc.a), parse(tc.b)); got != tc.want {
			t.Errorf("%s === %s: got %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestSameValueZero(t *testing.T) {
	nan, one := jsonv.JSNumberValue(math.NaN()), jsonv.NumberValue("1")
	for _, tc := range []struct {
		a, b       jsonv.Value
		strict, sv bool
	}{
		{nan, nan, false, true},
		{one, jsonv.NumberValue("1.0"), true, true},
		{one, jsonv.StringValue("1"), false, false},
		{jsonv.ObjectValue(), jsonv.ObjectValue(), false, false},
		{jsonv.Value{}, jsonv.Value{}, true, true},
	} {
		if got := jsonv.StrictEqual(tc.a, tc.b); got != tc.strict {
			t.Errorf("StrictEqual(%v, %v) = %v", tc.a, tc.b, got)
		}
		if got := jsonv.SameValueZero(tc.a, tc.b); got != tc.sv {
			t.Errorf("SameValueZero(%v, %v) = %v", tc.a, tc.b, got)
		}
	}
}
