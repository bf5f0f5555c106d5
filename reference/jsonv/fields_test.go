package jsonv_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/jsonv"
)

func TestFieldsReads(t *testing.T) {
	v := mustParse(t, `{"s":"x","b":true,"n":1.50,"o":{},"a":[1],"any":null,"extra":"keep","z":0}`)
	f := jsonv.ReadFields(v, "/m/0")
	if got := f.String("s"); got != "x" {
		t.Errorf("String = %q", got)
	}
	if got := f.Bool("b"); !got {
		t.Error("Bool = false")
	}
	if got := f.Number("n"); got.Literal() != "1.50" {
		t.Errorf("Number = %v, want the literal 1.50 kept", got)
	}
	if got := f.Object("o"); got.Kind() != jsonv.Object {
		t.Errorf("Object = %v", got)
	}
	if got := f.Array("a"); len(got) != 1 {
		t.Errorf("Array = %v", got)
	}
	if got := f.Any("any"); got.Kind() != jsonv.Null {
		t.Errorf("Any = %v, want null (present)", got)
	}
	if got := f.Any("missing"); !got.IsAbsent() {
		t.Errorf("Any(missing) = %v, want absent", got)
	}
	if got := f.OptString("nope"); got != nil {
		t.Errorf("OptString(missing) = %v", *got)
	}
	if got := f.OptBool("nope"); got != nil {
		t.Errorf("OptBool(missing) = %v", *got)
	}
	if got := f.OptNumber("z"); got.Literal() != "0" {
		t.Errorf("OptNumber = %v", got)
	}
	if got := f.OptNumber("nope"); !got.IsAbsent() {
		t.Errorf("OptNumber(missing) = %v", got)
	}
	if got := f.OptObject("nope"); !got.IsAbsent() {
		t.Errorf("OptObject(missing) = %v", got)
	}
	if _, ok := f.OptArray("nope"); ok {
		t.Error("OptArray(missing) ok")
	}
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	if got, want := f.Pointer(), "/m/0"; got != want {
		t.Errorf("Pointer = %q", got)
	}
	if got, want := f.At("a/b"), "/m/0/a~1b"; got != want {
		t.Errorf("At = %q, want %q", got, want)
	}
	rest := f.Rest()
	if len(rest) != 1 || rest[0].Key != "extra" || rest[0].Value.Str() != "keep" {
		t.Errorf("Rest = %v, want only extra", rest)
	}
}

func TestFieldsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		read     func(f *jsonv.Fields)
		want     string
	}{
		{"not an object", `[1]`, func(f *jsonv.Fields) { f.String("a") }, "/p: want an object, got array"},
		{"null", `null`, func(f *jsonv.Fields) { f.String("a") }, "/p: want an object, got null"},
		{"missing string", `{}`, func(f *jsonv.Fields) { f.String("role") }, "/p/role: missing required string"},
		{"wrong string", `{"role":1}`, func(f *jsonv.Fields) { f.String("role") }, "/p/role: want string, got number"},
		{"opt wrong", `{"x":"1"}`, func(f *jsonv.Fields) { f.OptNumber("x") }, "/p/x: want number, got string"},
		{"opt null", `{"x":null}`, func(f *jsonv.Fields) { f.OptString("x") }, "/p/x: want string, got null"},
		{"bool", `{"x":"yes"}`, func(f *jsonv.Fields) { f.OptBool("x") }, "/p/x: want boolean, got string"},
		{"missing array", `{}`, func(f *jsonv.Fields) { f.Array("c") }, "/p/c: missing required array"},
		{"object", `{"c":[]}`, func(f *jsonv.Fields) { f.Object("c") }, "/p/c: want object, got array"},
		{"sticky: first wins", `{"a":1,"b":2}`, func(f *jsonv.Fields) { f.String("a"); f.String("b") }, "/p/a: want string, got number"},
		{"fail", `{"a":1}`, func(f *jsonv.Fields) { f.Fail("a~", "bad %d", 7) }, "/p/a~0: bad 7"},
		{"escaped key", `{"a/b":1}`, func(f *jsonv.Fields) { f.Bool("a/b") }, "/p/a~1b: want boolean, got number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := jsonv.ReadFields(mustParse(t, tc.in), "/p")
			tc.read(f)
			err := f.Err()
			var pe *jsonv.PathError
			if !errors.As(err, &pe) {
				t.Fatalf("Err() = %v, want a *PathError", err)
			}
			if err.Error() != tc.want {
				t.Errorf("Err() = %q, want %q", err, tc.want)
			}
		})
	}
	// After an error reads give zero values.
	f := jsonv.ReadFields(mustParse(t, `{"a":1,"b":"x"}`), "")
	f.String("a")
	if got := f.String("b"); got != "" {
		t.Errorf("read after error = %q, want zero", got)
	}
	f = jsonv.ReadFields(jsonv.Value{}, "/q")
	if err := f.Err(); err == nil || err.Error() != "/q: want an object, got nothing" {
		t.Errorf("ReadFields(absent) = %v", err)
	}
}

func TestObjectBuilder(t *testing.T) {
	s := "sig"
	yes := true
	b := new(jsonv.ObjectBuilder).SetString("type", "text").Set("gone", jsonv.Value{}).SetOptString("none", nil)
	b.SetOptString("sig", &s).SetBool("f", false).SetOptBool("y", &yes).SetOptBool("n", nil)
	b.Extend([]jsonv.Member{{Key: "type", Value: jsonv.StringValue("dup")}, {Key: "extra", Value: jsonv.NumberValue("1")}})
	got := b.Value().String()
	if diff := cmp.Diff(`{"type":"text","sig":"sig","f":false,"y":true,"extra":1}`, got); diff != "" {
		t.Errorf("builder (-want +got):\n%s", diff)
	}
	// A key repeated in the carried-over members stays repeated, so the last
	// one still wins (found by FuzzDecodeMessages: the first used to win).
	rest := []jsonv.Member{{Key: "x", Value: jsonv.NumberValue("0")}, {Key: "x", Value: jsonv.ObjectValue()}, {Key: "type", Value: jsonv.NullValue()}}
	got = new(jsonv.ObjectBuilder).SetString("type", "t").Extend(rest).Value().String()
	if diff := cmp.Diff(`{"type":"t","x":0,"x":{}}`, got); diff != "" {
		t.Errorf("Extend with duplicates (-want +got):\n%s", diff)
	}
	if got := new(jsonv.ObjectBuilder).Value().String(); got != "{}" {
		t.Errorf("empty builder = %s", got)
	}
}
