package jsonv

import (
	"testing"
)

// TestNumbersEqualAsText compares number literals by exact value, at a cost
// linear in their length: huge exponents (1e999999999) are compared as
// text, not built.
func TestNumbersEqualAsText(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"1", "1", true},
		{"1", "1.0", true},
		{"1", "10e-1", true},
		{"100", "1e2", true},
		{"100", "1E+2", true},
		{"0.001", "1e-3", true},
		{"-0", "0", true},
		{"0", "0.000e5", true},
		{"-1.5", "-15e-1", true},
		{"1.5", "-1.5", false},
		{"1", "1.0000000000000000000001", false},
		{"12", "21", false},
		{"1e999999", "1e999999", true},
		{"1e999999", "10e999998", true},
		{"1e999999", "1e999998", false},
		{"1e999999999", "10e999999998", true},
		{"-1e-999999999", "-0.1e-999999998", true},
		{"1e99999999999999999999999", "1e99999999999999999999998", false},
		{"1e99999999999999999999999", "0.1e100000000000000000000000", true},
		{"123456789012345678901234567890", "1.2345678901234567890123456789e29", true},
		{"1", "x", false},
		{"1.", "1", false},
		{"1e", "1", false},
	}
	for _, tt := range tests {
		if got := NumbersEqual(tt.a, tt.b); got != tt.want {
			t.Errorf("NumbersEqual(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := NumbersEqual(tt.b, tt.a); got != tt.want {
			t.Errorf("NumbersEqual(%s, %s) = %v, want %v", tt.b, tt.a, got, tt.want)
		}
	}
}
