package stream

import (
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
)

// TestConversions: ToString, ToJoinString and ToNumber give what String(),
// join and Number() give in Node 22, and throw V8's TypeError (a JSError)
// where those throw.
func TestConversions(t *testing.T) {
	for _, tc := range []struct {
		in          string
		str, join   string
		num         float64
		throws, nan bool
	}{
		{in: `"a"`, str: "a", join: "a", nan: true},
		{in: `[1,null,"b"]`, str: "1,,b", join: "1,,b", nan: true},
		{in: `" 12 "`, str: " 12 ", join: " 12 ", num: 12},
		{in: `null`, str: "null", join: "", num: 0},
		{in: `{}`, str: "[object Object]", join: "[object Object]", nan: true},
		{in: `{"toString":"x"}`, throws: true},
		{in: `[1,[{"toString":1}]]`, throws: true},
	} {
		v, err := jsonv.Parse([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		for name, f := range map[string]func() any{
			"ToString":     func() any { return ToString(v) },
			"ToJoinString": func() any { return ToJoinString(v) },
			"ToNumber":     func() any { return ToNumber(v) },
		} {
			got, thrown := catch(f)
			switch {
			case thrown != nil && (!tc.throws || thrown.Msg != NoPrimitiveText):
				t.Errorf("%s(%s) threw %q", name, tc.in, thrown.Msg)
			case thrown == nil && tc.throws:
				t.Errorf("%s(%s) = %v, want V8's TypeError", name, tc.in, got)
			case tc.throws:
			case name == "ToString" && got != tc.str, name == "ToJoinString" && got != tc.join:
				t.Errorf("%s(%s) = %q", name, tc.in, got)
			case name == "ToNumber" && tc.nan && got == got:
				t.Errorf("ToNumber(%s) = %v, want NaN", tc.in, got)
			case name == "ToNumber" && !tc.nan && got != tc.num:
				t.Errorf("ToNumber(%s) = %v, want %v", tc.in, got, tc.num)
			}
		}
	}
}

// catch runs f and returns its result, or the JSError it threw.
func catch(f func() any) (got any, thrown *JSError) {
	defer func() {
		if x := recover(); x != nil {
			e := x.(JSError)
			thrown = &e
		}
	}()
	return f(), nil
}
