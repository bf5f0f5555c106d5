package jsonv_test

import (
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
