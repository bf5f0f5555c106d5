package dialect

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Dialect
		err  string
	}{
		{in: "0.80", want: V0_80},
		{in: "1.6", want: V1_6},
		{in: "1.6.0", want: V1_6},
		{in: "1.6.1", want: V1_6},
		{in: "0.80.2", want: V0_80},
		{in: "1.60", err: `unknown dialect "1.60"; known dialects: 0.80, 1.6`},
		{in: "0.8", err: "unknown dialect"},
		{in: "", err: "unknown dialect"},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Parse(%q) = %v, %v; want error %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestTableStepFunction(t *testing.T) {
	tab := Table[string]{V0_80: "old"}
	for _, d := range All() {
		if got := tab.At(d); got != "old" {
			t.Errorf("At(%v) = %q; want the oldest entry to hold on", d, got)
		}
	}
	tab[V1_6] = "new"
	if got := tab.At(V0_80); got != "old" {
		t.Errorf("At(0.80) = %q, want old", got)
	}
	if got := tab.At(V1_6); got != "new" {
		t.Errorf("At(1.6) = %q, want new", got)
	}
}

func TestOrder(t *testing.T) {
	if Latest != V1_6 || !V1_6.AtLeast(V0_80) || V0_80.AtLeast(V1_6) {
		t.Fatal("dialects out of release order")
	}
	if p, ok := V1_6.Prev(); !ok || p != V0_80 {
		t.Errorf("Prev(1.6) = %v, %v", p, ok)
	}
	if _, ok := V0_80.Prev(); ok {
		t.Error("0.80 has no previous dialect")
	}
}
