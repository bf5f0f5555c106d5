package provider

import (
	"math"
	"strings"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// MaxUint32 is the largest value Node takes for an unsigned 32-bit
// argument.
const MaxUint32 = 4294967295

// Uint32ArgError is what Node (22) throws when a function that wants an
// unsigned 32-bit integer argument named name (AbortSignal.timeout's
// "delay") gets v, a value JSON.parse made: the message of its TypeError
// for a value that is not a number, of its RangeError for a number that is
// no integer or lies outside 0 … MaxUint32, and "" for a value it takes.
// ok is false where Node's message depends on what the reference does not
// model: an object with a constructor member of its own, whose name Node
// reads.
func Uint32ArgError(name string, v jsonv.Value) (msg string, ok bool) {
	if v.Kind() != jsonv.Number {
		what, ok := receivedType(v)
		return `The "` + name + `" argument must be of type number. Received ` + what, ok
	}
	f := v.JSNumber()
	outOf := `The value of "` + name + `" is out of range. It must be `
	switch {
	case !isInteger(f):
		return outOf + "an integer. Received " + receivedNumber(f), true
	case f < 0 || f > MaxUint32:
		return outOf + ">= 0 && <= 4294967295. Received " + receivedNumber(f), true
	}
	return "", true
}

// isInteger is Number.isInteger.
func isInteger(f float64) bool {
	return !math.IsInf(f, 0) && !math.IsNaN(f) && math.Trunc(f) == f
}

// receivedNumber is how Node's range error shows a number: an integer
// beyond 2^32 either way as its text with an underscore before each group
// of three characters from the end (addNumericalSeparator, which groups
// an exponent's characters too), anything else as inspect shows it.
func receivedNumber(f float64) string {
	s := jsonv.FormatFloat(f)
	if !isInteger(f) || math.Abs(f) <= 1<<32 {
		return s
	}
	start := 0
	if s[0] == '-' {
		start = 1
	}
	var groups []string
	i := len(s)
	for ; i >= start+4; i -= 3 {
		groups = append([]string{s[i-3 : i]}, groups...)
	}
	return s[:i] + "_" + strings.Join(groups, "_")
}

// receivedType is how Node's type error names a value that is not a
// number (determineSpecificType).
func receivedType(v jsonv.Value) (string, bool) {
	switch v.Kind() {
	case jsonv.Absent:
		return "undefined", true
	case jsonv.Null:
		return "null", true
	case jsonv.Bool:
		if v.Bool() {
			return "type boolean (true)", true
		}
		return "type boolean (false)", true
	case jsonv.Array:
		return "an instance of Array", true
	case jsonv.Object:
		if _, own := v.Get("constructor"); own {
			return "", false
		}
		return "an instance of Object", true
	}
	// A string longer than 28 UTF-16 units shows its first 25 and "...";
	// one that holds a single quote is written as JSON.stringify writes it.
	s := v.Str()
	if units := wtf8.ToUTF16(s); len(units) > 28 {
		s = wtf8.FromUTF16(units[:25]) + "..."
	}
	if strings.Contains(s, "'") {
		return "type string (" + string(jsonv.AppendString(nil, s)) + ")", true
	}
	return "type string ('" + s + "')", true
}
