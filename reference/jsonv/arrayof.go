package jsonv

// ArrayOf is the array of xs, each encoded by its JSON method: how a list
// of messages, blocks or events is written.
func ArrayOf[T interface{ JSON() Value }](xs []T) Value {
	elems := make([]Value, len(xs))
	for i, x := range xs {
		elems[i] = x.JSON()
	}
	return ArrayValue(elems...)
}
