package bedrock

import (
	"math"
	"strconv"
	"strings"

	"github.com/piconform/piconform/reference/jsonv"
)

// shape is what the AWS SDK's schema-driven JSON reader knows of one
// member's type, reduced to what changes the members Pi reads: a structure
// or union lists the members Pi reads (a member not listed is one Pi never
// looks at), a number turns the strings "NaN", "Infinity" and "-Infinity"
// into numbers, and any other type takes the value as it is.
type shape struct {
	members []field
	union   bool
	number  bool
	// list is the shape of a list's elements (nil: not a list).
	list *shape
}

type field struct {
	name  string
	shape *shape
}

var (
	stringShape = &shape{}
	numberShape = &shape{number: true}
)

func structure(members ...field) *shape { return &shape{members: members} }
func union(members ...field) *shape     { return &shape{members: members, union: true} }
func list(elem *shape) *shape           { return &shape{list: elem} }

// eventShapes are ConverseStream's event structures, by :event-type.
var eventShapes = map[string]*shape{
	"messageStart": structure(field{"role", stringShape}),
	"contentBlockStart": structure(
		field{"start", union(field{"toolUse", structure(field{"toolUseId", stringShape}, field{"name", stringShape})})},
		field{"contentBlockIndex", numberShape}),
	"contentBlockDelta": structure(
		field{"delta", union(
			field{"text", stringShape},
			field{"toolUse", structure(field{"input", stringShape})},
			// redactedContent is a blob: its base64 text is kept, and the
			// parser decodes it (Pi 1.6 reads it).
			field{"reasoningContent", union(field{"text", stringShape}, field{"signature", stringShape}, field{"redactedContent", stringShape})})},
		field{"contentBlockIndex", numberShape}),
	"contentBlockStop": structure(field{"contentBlockIndex", numberShape}),
	"messageStop":      structure(field{"stopReason", stringShape}),
	"metadata": structure(field{"usage", structure(
		field{"inputTokens", numberShape}, field{"outputTokens", numberShape},
		field{"totalTokens", numberShape}, field{"cacheReadInputTokens", numberShape},
		field{"cacheWriteInputTokens", numberShape},
		// Pi 1.6 sums the one-hour entries of cacheDetails.
		field{"cacheDetails", list(structure(field{"ttl", stringShape}, field{"inputTokens", numberShape}))})}),
}

// read is the SDK's reading of v, a value as JSON.parse leaves it (one
// member per name), as a member of shape s. A structure or union read from
// an object or array (which has none of its members) keeps its members
// that are present and not null, each read by its own shape; a structure
// (not a union)
// whose "__type" is a string also takes every other member of the object
// as it stands, nulls included. A value of any other type, or of a
// non-structure shape, passes through untouched: nulls inside it stay.
func read(s *shape, v jsonv.Value) jsonv.Value {
	switch {
	case s.members != nil && (v.Kind() == jsonv.Object || v.Kind() == jsonv.Array):
		out := make([]jsonv.Member, 0, len(s.members))
		has := map[string]bool{}
		for _, f := range s.members {
			m, _ := v.Get(f.name)
			if m.IsNullish() {
				continue
			}
			out = append(out, jsonv.Member{Key: f.name, Value: read(f.shape, m)})
			has[f.name] = true
		}
		if typ, _ := v.Get("__type"); !s.union && typ.Kind() == jsonv.String {
			for _, m := range v.Members() {
				if !has[m.Key] {
					out = append(out, m)
				}
			}
		}
		return jsonv.ObjectValue(out...)
	case s.list != nil && v.Kind() == jsonv.Array:
		out := make([]jsonv.Value, 0, len(v.Elems()))
		for _, e := range v.Elems() {
			out = append(out, read(s.list, e))
		}
		return jsonv.ArrayValue(out...)
	case s.number && v.Kind() == jsonv.String:
		switch v.Str() {
		case "NaN", "Infinity", "-Infinity":
			f, _ := strconv.ParseFloat(v.Str(), 64)
			return jsonv.JSNumberValue(f)
		}
	}
	return v
}

// revivedAsNumber reports whether the SDK's JSON reviver leaves the number
// n a JavaScript number. The SDK parses the payloads of the events whose
// schema holds a document (contentBlockDelta, messageStop) with it: a
// number beyond the safe integer range becomes a BigInt, and one whose text
// does not stand for the double JavaScript reads a NumericValue object.
// Neither is modelled.
func revivedAsNumber(n jsonv.Value) bool {
	f, ok := n.Float64()
	if !ok {
		return true // not a number: the reviver leaves it alone
	}
	return math.Abs(f) <= maxSafeInteger && representable(n.Literal(), f)
}

const maxSafeInteger = 1<<53 - 1

// representable is the reviver's test that the text lit stands for f: it
// is how JavaScript prints f, or -0, or the same decimal once exponents are
// expanded and trailing fractional zeros dropped.
func representable(lit string, f float64) bool {
	canonical := jsonv.FormatFloat(f)
	switch {
	case lit == canonical || f == 0 && math.Signbit(f):
		return true
	case strings.ContainsAny(lit, "eE"):
		a, ok1 := expandExponent(lit)
		b, ok2 := expandExponent(canonical)
		return ok1 && ok2 && a == b
	}
	normalized := trimFraction(lit)
	if normalized == canonical {
		return true
	}
	b, ok := expandExponent(canonical)
	return strings.Contains(canonical, "e") && ok && normalized == b
}

// expandExponent writes a number's text without an exponent, as the
// reviver does, digits kept as they are; it reports false for an exponent
// too large to write out.
func expandExponent(s string) (string, bool) {
	sign, abs := "", s
	if strings.HasPrefix(s, "-") {
		sign, abs = "-", s[1:]
	}
	result := abs
	if e := strings.IndexAny(abs, "eE"); e >= 0 {
		exp, err := strconv.Atoi(abs[e+1:])
		if err != nil || exp > maxExponent || exp < -maxExponent {
			return "", false
		}
		mantissa := abs[:e]
		digits, intLen := mantissa, len(mantissa)
		if dot := strings.IndexByte(mantissa, '.'); dot >= 0 {
			digits, intLen = mantissa[:dot]+mantissa[dot+1:], dot
		}
		digits = strings.TrimRight(digits, "0")
		pos := intLen + exp
		switch {
		case digits == "":
			result = "0"
		case pos <= 0:
			result = "0." + strings.Repeat("0", -pos) + digits
		case pos >= len(digits):
			result = digits + strings.Repeat("0", pos-len(digits))
		default:
			result = digits[:pos] + "." + digits[pos:]
		}
	}
	if strings.Contains(result, ".") {
		result = trimFraction(result)
	}
	return sign + result, true
}

// maxExponent bounds the exponents expandExponent writes out.
const maxExponent = 1 << 16

// trimFraction drops the trailing zeros of a fraction, and its point when
// nothing is left after it.
func trimFraction(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}
