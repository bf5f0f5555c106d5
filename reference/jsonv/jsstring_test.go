package jsonv_test

import (
	"math"
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
)

// TestJSString checks String(JSON.parse(text)) as Node prints it.
func TestJSString(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		{`null`, "null"},
		{`true`, "true"},
		{`1.50`, "1.5"},
		{`1e21`, "1e+21"},
		{`"a\ud83d"`, "a\xed\xa0\xbd"},
		{`[1,null,"x",[2,3]]`, "1,,x,2,3"},
		{`[]`, ""},
		{`{"a":1}`, "[object Object]"},
	} {
		v, err := jsonv.Parse([]byte(tc.json))
		if err != nil {
			t.Fatal(err)
		}
		if got := v.JSString(); got != tc.want {
			t.Errorf("String(%s) = %q, want %q", tc.json, got, tc.want)
		}
	}
	if got := (jsonv.Value{}).JSString(); got != "undefined" {
		t.Errorf("String(undefined) = %q", got)
	}
}

// TestJSNumberOfStrings: Number(s), as Node 22 gives it.
func TestJSNumberOfStrings(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		in   string
		want float64
	}{
		{"0x1F", 31}, {"0X1f", 31}, {" 12 ", 12}, {"1e3", 1000}, {".5", 0.5}, {"5.", 5}, {"-Infinity", math.Inf(-1)}, {"+Infinity", math.Inf(1)},
		{"0b101", 5}, {"0o17", 15}, {"1_000", nan}, {"+0x10", nan}, {"abc", nan}, {"", 0}, {"\ufeff2\u00a0", 2},
	} {
		got := jsonv.StringValue(tc.in).JSNumber()
		if got != tc.want && !(math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("Number(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestConversionThrows: where Node 22 throws "Cannot convert object to
// primitive value" for String(JSON.parse(text)).
func TestConversionThrows(t *testing.T) {
	for _, tc := range []struct {
		json   string
		throws bool
	}{
		{`{"toString":"x"}`, true},
		{`{"toString":null}`, true},
		{`{"a":1,"toString":{}}`, true},
		{`[1,[2,{"toString":1}]]`, true},
		{`{"valueOf":1}`, false}, // the inherited toString still answers
		{`{"a":{"toString":1}}`, false},
		{`[1,null,{}]`, false},
		{`"toString"`, false},
		{`null`, false},
	} {
		v, err := jsonv.Parse([]byte(tc.json))
		if err != nil {
			t.Fatal(err)
		}
		if got := v.ConversionThrows(); got != tc.throws {
			t.Errorf("ConversionThrows(%s) = %v, want %v", tc.json, got, tc.throws)
		}
	}
}
