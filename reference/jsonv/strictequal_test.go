package jsonv_test

import (
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
