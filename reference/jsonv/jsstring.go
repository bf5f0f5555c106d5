package jsonv

import (
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
		return v.s
	case Array:
		parts := make([]string, len(v.arr))
		for i, e := range v.arr {
			if e.kind != Null && e.kind != Absent {
				parts[i] = e.JSString()
			}
		}
		return wtf8.Concat(strings.Join(parts, ","))
	}
	return "[object Object]"
}
