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

// TestArithmetic: Plus, Minus, Sum, Or and Nullish give what +, -, || and
// ?? give in Node 22 (the type, and String() of the result), and throw
// where those throw.
func TestArithmetic(t *testing.T) {
	parse := func(s string) jsonv.Value {
		if s == "" {
			return jsonv.Value{} // undefined
		}
		v, err := jsonv.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		op     string
		a, b   string
		kind   jsonv.Kind
		str    string
		throws bool
	}{
		{op: "+", a: `1`, b: `2`, kind: jsonv.Number, str: "3"},
		{op: "+", a: `"25"`, b: `1`, kind: jsonv.String, str: "251"},
		{op: "+", a: `1`, b: `"25"`, kind: jsonv.String, str: "125"},
		{op: "+", a: `true`, b: `1`, kind: jsonv.Number, str: "2"},
		{op: "+", a: `null`, b: `false`, kind: jsonv.Number, str: "0"},
		{op: "+", a: `[9]`, b: `1`, kind: jsonv.String, str: "91"},
		{op: "+", a: `{}`, b: `1`, kind: jsonv.String, str: "[object Object]1"},
		{op: "+", a: `1e308`, b: `1e308`, kind: jsonv.Number, str: "Infinity"},
		{op: "+", a: `1`, b: `{"toString":"x"}`, throws: true},
		{op: "-", a: `"25"`, b: `"10"`, kind: jsonv.Number, str: "15"},
		{op: "-", a: `"x"`, b: `1`, kind: jsonv.Number, str: "NaN"},
		{op: "-", a: `[9]`, b: `true`, kind: jsonv.Number, str: "8"},
		{op: "-", a: `{"valueOf":1,"toString":1}`, b: `1`, throws: true},
		{op: "||", a: `0`, b: `7`, kind: jsonv.Number, str: "7"},
		{op: "||", a: `""`, b: `7`, kind: jsonv.Number, str: "7"},
		{op: "||", a: `"0"`, b: `7`, kind: jsonv.String, str: "0"},
		{op: "||", a: `[]`, b: `7`, kind: jsonv.Array, str: ""},
		{op: "??", a: `null`, b: `7`, kind: jsonv.Number, str: "7"},
		{op: "??", a: ``, b: `7`, kind: jsonv.Number, str: "7"},
		{op: "??", a: `false`, b: `7`, kind: jsonv.Bool, str: "false"},
		{op: "??", a: `0`, b: `7`, kind: jsonv.Number, str: "0"},
	} {
		a, b := parse(tc.a), parse(tc.b)
		got, thrown := catch(func() any {
			switch tc.op {
			case "+":
				return Plus(a, b)
			case "-":
				return Minus(a, b)
			case "||":
				return Or(a, b)
			}
			return Nullish(a, b)
		})
		name := tc.a + " " + tc.op + " " + tc.b
		switch {
		case thrown != nil && (!tc.throws || thrown.Msg != NoPrimitiveText):
			t.Errorf("%s threw %q", name, thrown.Msg)
		case thrown == nil && tc.throws:
			t.Errorf("%s = %v, want V8's TypeError", name, got)
		case tc.throws:
		default:
			v := got.(jsonv.Value)
			if v.Kind() != tc.kind || v.JSString() != tc.str {
				t.Errorf("%s = %v %q, want %v %q", name, v.Kind(), v.JSString(), tc.kind, tc.str)
			}
		}
	}
	if got := Sum(jsonv.NumberValue("15"), jsonv.StringValue("9"), jsonv.StringValue("10"), Zero); got.JSString() != "159100" {
		t.Errorf(`15 + "9" + "10" + 0 = %q, want "159100"`, got.JSString())
	}
	// A NaN that a difference made is still a number to a later +.
	if got := Plus(Minus(jsonv.StringValue("x"), Zero), jsonv.StringValue("x")); got.JSString() != "NaNx" {
		t.Errorf(`("x" - 0) + "x" = %q, want "NaNx"`, got.JSString())
	}
}
