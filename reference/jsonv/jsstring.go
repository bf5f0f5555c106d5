package jsonv

import (
	"errors"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/piconform/piconform/reference/wtf8"
)

// JSString is String(v) as JavaScript computes it for the value JSON.parse
// gives: "undefined" for Absent, numbers in Number#toString form, arrays
// joined with commas (null elements as empty), and "[object Object]".
func (v Value) JSString() string {
	switch v.kind {
	case Absent:
		return "undefined"
	case Null:
		return "null"
	case Bool:
		if v.b {
			return "true"
		}
		return "false"
	case Number:
		f, _ := v.Float64()
		return FormatFloat(f)
	case String:
		return v.Str()
	case Array:
		parts := make([]string, len(v.Elems()))
		for i, e := range v.Elems() {
			if e.kind != Null && e.kind != Absent {
				parts[i] = e.JSString()
			}
		}
		return wtf8.Concat(strings.Join(parts, ","))
	}
	return "[object Object]"
}

// ErrNoPrimitive is the TypeError JavaScript throws converting to a string or
// a number an object that has a "toString" member of its own: JSON cannot
// make that member a function, so it hides Object.prototype.toString, and the
// inherited valueOf gives back the object itself, which is no primitive.
var ErrNoPrimitive = errors.New("cannot convert an object with a toString member to a primitive value")

// ConversionThrows reports whether String(v), Number(v), `+` and template
// literals throw ErrNoPrimitive on v: v is an object with its own "toString"
// member, or an array holding one at any depth (join converts each element).
// JSString and JSNumber give what JavaScript would for every other value.
func (v Value) ConversionThrows() bool {
	switch v.kind {
	case Object:
		_, own := v.Get("toString")
		return own
	case Array:
		return slices.ContainsFunc(v.Elems(), Value.ConversionThrows)
	}
	return false
}

// IsNullish reports JavaScript's v == null: null or undefined (Absent),
// what ?? and ?. pass over.
func (v Value) IsNullish() bool { return v.kind == Null || v.kind == Absent }

// NullAsAbsent is v, or Absent when v is null: what a serializer that
// leaves out null members writes.
func (v Value) NullAsAbsent() Value {
	if v.kind == Null {
		return Value{}
	}
	return v
}

// JoinString is v as Array.prototype.join writes an element: "" for null
// and undefined, String(v) for anything else.
func (v Value) JoinString() string {
	if v.IsNullish() {
		return ""
	}
	return v.JSString()
}

// JSNumber is Number(v) as JavaScript computes it for the value JSON.parse
// gives: NaN for Absent and objects, 0 for null and false, 1 for true, a
// string read by StringToNumber, and an array through its String() form
// ([] is 0, [5] is 5).
func (v Value) JSNumber() float64 {
	switch v.kind {
	case Null:
		return 0
	case Bool:
		if v.b {
			return 1
		}
		return 0
	case Number:
		f, _ := v.Float64()
		return f
	case String:
		return stringToNumber(v.Str())
	case Array:
		return stringToNumber(v.JSString())
	}
	return math.NaN()
}

// jsSpace is what String.prototype.trim and StringToNumber strip: white
// space and line terminators.
const jsSpace = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"

var (
	jsDecimal = regexp.MustCompile(`^[+-]?(Infinity|([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)$`)
	jsRadix   = regexp.MustCompile(`^0([xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)$`)
)

// stringToNumber is ECMAScript's StringToNumber: an empty or blank string is
// 0, a decimal literal (Infinity included) or a 0x/0o/0b integer is its
// value, anything else NaN.
func stringToNumber(s string) float64 {
	s = strings.Trim(s, jsSpace)
	switch {
	case s == "":
		return 0
	case jsDecimal.MatchString(s):
		if strings.HasSuffix(s, "Infinity") {
			if s[0] == '-' {
				return math.Inf(-1)
			}
			return math.Inf(1)
		}
		f, _ := strconv.ParseFloat(s, 64) // a range error still gives ±Inf or 0
		return f
	case jsRadix.MatchString(s):
		n, _ := new(big.Int).SetString(s[2:], map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[s[1]])
		f, _ := new(big.Float).SetInt(n).Float64()
		return f
	}
	return math.NaN()
}
