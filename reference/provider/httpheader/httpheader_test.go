package httpheader

import "testing"

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
