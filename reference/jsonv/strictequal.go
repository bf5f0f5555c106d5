package jsonv

// StrictEqual is JavaScript's === on values JSON.parse made: Absent is
// undefined, numbers compare as doubles, and two objects or arrays are never
// the same object.
func StrictEqual(a, b Value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case Absent, Null:
		return true
	case Bool:
		return a.b == b.b
	case Number:
		x, _ := a.Float64()
		y, _ := b.Float64()
		return x == y
	case String:
		return canonicalString(a.s) == canonicalString(b.s)
	}
	return false
}
