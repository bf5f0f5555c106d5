package session

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// JavaScript's reading of parsed JSON values, as far as Pi's session code
// needs it.

func describeValue(v jsonv.Value) string {
	switch v.Kind() {
	case jsonv.Absent:
		return "undefined"
	case jsonv.Null:
		return "null"
	case jsonv.Bool:
		return "a boolean"
	case jsonv.Number:
		return "a number"
	case jsonv.String:
		return "a string"
	case jsonv.Array:
		return "an array"
	}
	return "an object"
}

// mapKey is the key a Map holds v under (SameValueZero), and false for an
// object or array, which only that very value finds.
func mapKey(v jsonv.Value) (string, bool) {
	switch v.Kind() {
	case jsonv.Absent:
		return "u", true
	case jsonv.Null:
		return "n", true
	case jsonv.Bool:
		return "b" + strconv.FormatBool(v.Bool()), true
	case jsonv.Number:
		f, _ := v.Float64()
		return "d" + jsonv.FormatFloat(f), true // -0 formats as 0
	case jsonv.String:
		return "s" + wtf8.Canonical(v.Str()), true
	}
	return "", false
}

// toPrimitiveString is String(v) for a parsed value. An object whose own
// "toString" member is not a function (every parsed one) has no primitive
// value: JavaScript throws.
func toPrimitiveString(v jsonv.Value) (string, error) {
	switch v.Kind() {
	case jsonv.Object:
		if _, ok := v.Get("toString"); ok {
			return "", typeError("cannot convert an object with a toString member to a primitive value")
		}
		return "[object Object]", nil
	case jsonv.Array:
		parts := make([]string, len(v.Elems()))
		for i, e := range v.Elems() {
			if e.Kind() == jsonv.Null {
				continue
			}
			var err error
			if parts[i], err = toPrimitiveString(e); err != nil {
				return "", err
			}
		}
		return wtf8.Concat(strings.Join(parts, ",")), nil
	}
	return v.JSString(), nil
}

// toNumber is Number(v) for a parsed value.
func toNumber(v jsonv.Value) (float64, error) {
	switch v.Kind() {
	case jsonv.Absent:
		return math.NaN(), nil
	case jsonv.Null:
		return 0, nil
	case jsonv.Bool:
		if v.Bool() {
			return 1, nil
		}
		return 0, nil
	case jsonv.Number:
		f, _ := v.Float64()
		return f, nil
	}
	s, err := toPrimitiveString(v)
	if err != nil {
		return 0, err
	}
	return stringToNumber(s), nil
}

var (
	decimalLiteral = regexp.MustCompile(`^[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)$`)
	radixLiteral   = regexp.MustCompile(`^0(?:[xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)$`)
)

// stringToNumber is JavaScript's StringToNumber: white space around, an
// empty string is 0, decimal or 0x/0o/0b literals, else NaN.
func stringToNumber(s string) float64 {
	s = trimJS(s)
	switch {
	case s == "":
		return 0
	case radixLiteral.MatchString(s):
		base := map[byte]int{'x': 16, 'o': 8, 'b': 2}[s[1]|0x20]
		n, _ := new(big.Int).SetString(s[2:], base)
		f, _ := new(big.Float).SetInt(n).Float64()
		return f
	case decimalLiteral.MatchString(s):
		sign := 1.0
		if s[0] == '-' {
			sign = -1
		}
		if strings.HasSuffix(s, "Infinity") {
			return math.Inf(int(sign))
		}
		f, _ := strconv.ParseFloat(s, 64) // a range error still gives ±Inf or 0
		return f
	}
	return math.NaN()
}
