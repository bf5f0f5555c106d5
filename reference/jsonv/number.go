package jsonv

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Float64 converts a number to the double JavaScript would read. It reports
// false for a value that is not a number.
func (v Value) Float64() (float64, bool) {
	if v.kind != Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.Str(), 64)
	if err != nil && !isRangeError(err) {
		return 0, false
	}
	return f, true
}

func isRangeError(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// FloatValue makes the number JSON.stringify writes for f: JavaScript's
// shortest round-trip digits, or null for NaN and the infinities.
func FloatValue(f float64) Value {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return NullValue()
	}
	return textValue(Number, FormatFloat(f))
}

// JSNumberValue is f as a JavaScript number that may still be computed
// with: unlike FloatValue, NaN and the infinities stay numbers (they are
// not nullish to ??, and String() writes them as "NaN" and "Infinity"),
// and only AppendJSON writes them as null, as JSON.stringify does.
func JSNumberValue(f float64) Value {
	switch {
	case math.IsNaN(f):
		return textValue(Number, "NaN")
	case math.IsInf(f, 1):
		return textValue(Number, "Infinity")
	case math.IsInf(f, -1):
		return textValue(Number, "-Infinity")
	}
	return FloatValue(f)
}

// Stringified is v as JSON.stringify writes it: the NaN and infinities of
// JSNumberValue become null, at any depth.
func (v Value) Stringified() Value {
	return v.ReplaceNonFinite(func(Value) Value { return NullValue() })
}

// ReplaceNonFinite is v with each NaN or infinity of JSNumberValue in it,
// at any depth, replaced by what f gives for it. A value without them is
// returned as it is, not copied.
func (v Value) ReplaceNonFinite(f func(Value) Value) Value {
	if !hasNonFinite(v) {
		return v
	}
	switch v.kind {
	case Number:
		return f(v)
	case Array:
		elems := make([]Value, len(v.Elems()))
		for i, e := range v.Elems() {
			elems[i] = e.ReplaceNonFinite(f)
		}
		return ArrayValue(elems...)
	default: // Object
		members := make([]Member, len(v.Members()))
		for i, m := range v.Members() {
			members[i] = Member{Key: m.Key, Value: m.Value.ReplaceNonFinite(f)}
		}
		return ObjectValue(members...)
	}
}

func hasNonFinite(v Value) bool {
	switch v.kind {
	case Number:
		return nonFinite(v.Str())
	case Array:
		return slices.ContainsFunc(v.Elems(), hasNonFinite)
	case Object:
		return slices.ContainsFunc(v.Members(), func(m Member) bool { return hasNonFinite(m.Value) })
	}
	return false
}

// nonFinite reports whether s, a Number's text, is one JSNumberValue made
// for NaN or an infinity; a JSON number never starts with N or I.
func nonFinite(s string) bool {
	return s != "" && (s[0] == 'N' || s[0] == 'I' || len(s) > 1 && s[1] == 'I')
}

// FormatFloat formats f as JavaScript's Number.prototype.toString() does
// (ECMAScript, Number::toString with radix 10).
func FormatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	case f < 0:
		return "-" + FormatFloat(-f)
	}
	// strconv gives the shortest digits that round-trip, like ECMAScript asks.
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, expText, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expText)
	k, n := len(digits), exp+1
	switch {
	case k <= n && n <= 21:
		return digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return "0." + strings.Repeat("0", -n) + digits
	}
	sign := "+"
	if n-1 < 0 {
		sign = "-"
	}
	abs := n - 1
	if abs < 0 {
		abs = -abs
	}
	if k == 1 {
		return digits + "e" + sign + strconv.Itoa(abs)
	}
	return digits[:1] + "." + digits[1:] + "e" + sign + strconv.Itoa(abs)
}
