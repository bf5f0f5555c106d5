package httpheader

import (
	"testing"

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

	set = NewSet()
	set.AppendLayer(sdk)
	set.AppendLayer(caller)
	if h := set.Header(); h.Get("X-K") != "2, 3" || set.Has("accept") {
		t.Errorf("AppendLayer: %v", h)
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
