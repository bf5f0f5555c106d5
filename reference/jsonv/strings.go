package jsonv

// EachString calls fn with every string in v, in document order, member
// names included: what a scan of text (for secrets, for encoding checks)
// must see.
func (v Value) EachString(fn func(string)) {
	switch v.Kind() {
	case String:
		fn(v.Str())
	case Array:
		for _, e := range v.Elems() {
			e.EachString(fn)
		}
	case Object:
		for _, m := range v.Members() {
			fn(m.Key)
			m.Value.EachString(fn)
		}
	}
}
