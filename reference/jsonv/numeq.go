package jsonv

import (
	"math/big"
	"strings"
)

// NumbersEqual tells whether two JSON number literals have the same exact
// value ("1", "1.0" and "1e0" are equal, while digits a double would lose
// still count). It compares them as text, never by
// building the value: each is brought to a sign, its significant digits
// and a power of ten, so the cost is linear in the literals' length
// whatever their exponent. (Building 1e999999 as an exact rational, as a
// general decimal library does, costs seconds of CPU per number: an
// implementation could spend the runner's time outside any deadline.)
// A literal that is not JSON number syntax equals only itself.
func NumbersEqual(a, b string) bool {
	if a == b {
		return true
	}
	na, okA := normalize(a)
	nb, okB := normalize(b)
	return okA && okB && na.neg == nb.neg && na.digits == nb.digits && na.exp.Cmp(nb.exp) == 0
}

// decimal is digits × 10^exp with no leading or trailing zero in digits;
// zero is the empty digits, with no sign and exponent 0.
type decimal struct {
	neg    bool
	digits string
	exp    *big.Int
}

// normalize reads a JSON number: -?int(.frac)?([eE][+-]?exp)?.
func normalize(s string) (decimal, bool) {
	d := decimal{exp: new(big.Int)}
	if strings.HasPrefix(s, "-") {
		d.neg, s = true, s[1:]
	}
	mant, expText, hasExp := strings.Cut(strings.ToLower(s), "e")
	intPart, frac, _ := strings.Cut(mant, ".")
	if !allDigits(intPart) || intPart == "" || (strings.Contains(mant, ".") && (frac == "" || !allDigits(frac))) {
		return d, false
	}
	if hasExp {
		t := strings.TrimPrefix(strings.TrimPrefix(expText, "+"), "-")
		if t == "" || !allDigits(t) || len(expText)-len(t) > 1 {
			return d, false
		}
		if _, ok := d.exp.SetString(expText, 10); !ok {
			return d, false
		}
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	trimmed := strings.TrimRight(digits, "0")
	if trimmed == "" {
		return decimal{exp: new(big.Int)}, true // zero, whatever its sign
	}
	// value = (intPart frac) × 10^(exp - len(frac)); each trailing zero
	// dropped raises the power by one.
	d.exp.Sub(d.exp, big.NewInt(int64(len(frac))))
	d.exp.Add(d.exp, big.NewInt(int64(len(digits)-len(trimmed))))
	d.digits = trimmed
	return d, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
