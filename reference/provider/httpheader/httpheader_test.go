package httpheader

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/jsonv"
)

func TestLayers(t *testing.T) {
	sdk := []Header{New("Accept", "a"), New("X-K", "1")}
	caller := []Header{New("x-k", " 2 "), New("X-K", "3"), {Name: "accept"}}

	set := NewSet()
	set.SetLayer(sdk)
	set.SetLayer(caller)
	if h := set.Header(); h.Get("X-K") != "3" || h.Get("Accept") != "" || !set.Removed("ACCEPT") {
		t.Errorf("SetLayer: %v", h)
	}
}

// TestSetLayerArrays checks how a Stainless SDK sets a caller's header
// object whose values are arrays (the values as Decode reads them, over an
// SDK layer that set X-A and accept).
func TestSetLayerArrays(t *testing.T) {
	for _, tc := range []struct {
		name, headers string
		want          http.Header
		removed       bool // x-a deleted by a null
	}{
		{"each element a value", `{"X-A": ["a", 7, " b ", {}, [1, null, 2]]}`,
			http.Header{"X-A": {"a, 7, b, [object Object], 1,,2"}, "Accept": {"json"}}, false},
		{"a null element deletes what came before", `{"X-A": ["a", null, "b"]}`,
			http.Header{"X-A": {"b"}, "Accept": {"json"}}, false},
		{"a last null element leaves it deleted", `{"X-A": ["a", null]}`,
			http.Header{"Accept": {"json"}}, true},
		{"an empty array leaves the header as it was", `{"X-A": [], "accept": []}`,
			http.Header{"X-A": {"sdk"}, "Accept": {"json"}}, false},
		{"a later spelling replaces an earlier", `{"X-A": "s", "x-a": ["t", "u"]}`,
			http.Header{"X-A": {"t, u"}, "Accept": {"json"}}, false},
		{"other types as String() writes them", `{"X-A": 7, "accept": true}`,
			http.Header{"X-A": {"7"}, "Accept": {"true"}}, false},
	} {
		v, err := jsonv.Parse([]byte(tc.headers))
		if err != nil {
			t.Fatal(err)
		}
		set := NewSet()
		set.SetLayer([]Header{New("X-A", "sdk"), New("accept", "json")})
		set.SetLayer(Decode(v))
		if diff := cmp.Diff(tc.want, set.Header()); diff != "" {
			t.Errorf("%s: headers (-want +got):\n%s", tc.name, diff)
		}
		if set.Removed("x-a") != tc.removed {
			t.Errorf("%s: Removed = %v, want %v", tc.name, set.Removed("x-a"), tc.removed)
		}
	}
}

func TestAssignKeepsSpellings(t *testing.T) {
	got := Assign([]Header{New("A", "1"), New("b", "2")}, []Header{New("a", "3"), New("b", "4")})
	if len(got) != 3 || *got[1].Value != "4" || got[2].Name != "a" {
		t.Errorf("Assign = %v", got)
	}
}

// TestStainlessTimeout: absent is the default; anything but a
// non-negative integer, null included, is the SDK's error.
func TestStainlessTimeout(t *testing.T) {
	for _, tt := range []struct {
		in   jsonv.Value
		want float64
		err  string
	}{
		{in: jsonv.Value{}, want: 600},
		{in: jsonv.NullValue(), err: "timeout must be an integer"},
		{in: jsonv.NumberValue("0"), want: 0},
		{in: jsonv.NumberValue("1500"), want: 1500},
		{in: jsonv.NumberValue("1.5"), err: "timeout must be an integer"},
		{in: jsonv.NumberValue("-1"), err: "timeout must be a positive integer"},
		{in: jsonv.StringValue("1"), err: "timeout must be an integer"},
		{in: jsonv.BoolValue(true), err: "timeout must be an integer"},
	} {
		got, err := StainlessTimeout(tt.in, 600)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if msg != tt.err || got != tt.want {
			t.Errorf("StainlessTimeout(%s) = %v, %v; want %v, %q", tt.in, got, err, tt.want, tt.err)
		}
	}
}

// TestAssignTakesRaw checks that a later value replaces the earlier one
// as written, an array's elements included.
func TestAssignTakesRaw(t *testing.T) {
	arr, _ := jsonv.Parse([]byte(`["x", "y"]`))
	got := Assign([]Header{Member("A", arr)}, []Header{New("A", "s")})
	if len(got) != 1 || !got[0].Raw.IsAbsent() || len(got[0].SDKValues()) != 1 {
		t.Errorf("Assign = %+v", got)
	}
	got = Assign([]Header{New("A", "s")}, []Header{Member("A", arr)})
	if vs := got[0].SDKValues(); len(vs) != 2 || *vs[1] != "y" || *got[0].Value != "x,y" {
		t.Errorf("Assign = %+v", got)
	}
}
