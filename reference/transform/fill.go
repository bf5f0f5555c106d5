package transform

import (
	"strconv"

	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// FillContent is the first step of transformMessages in dialects that have
// it (Pi 1.6): on the messages as written (v, an array at ptr), every
// element whose content is null or absent becomes a copy of itself, made as
// JavaScript's object spread makes one, with content []. That holds for
// every role, for elements without one, and for elements that are not
// objects: a number or a boolean becomes {content: []}, a string its UTF-16
// code units under the keys "0", "1", ..., an array its elements the same
// way. A null element is refused (ErrThrows): Pi reads its content. In
// other dialects, and for a v that is not an array, v comes back as it is.
func FillContent(d dialect.Dialect, v jsonv.Value, ptr string) (jsonv.Value, error) {
	if !rulesOf.At(d).fillContent || v.Kind() != jsonv.Array {
		return v, nil
	}
	var out []jsonv.Value
	for i, e := range v.Elems() {
		filled, changed := e, false
		switch e.Kind() {
		case jsonv.Null:
			return jsonv.Value{}, Throws(jsonv.Index(ptr, i), "want a message, got null (Pi reads its content)")
		case jsonv.Object:
			if c, _ := e.Get("content"); c.IsNullish() {
				filled, changed = e.With("content", jsonv.ArrayValue()), true
			}
		default:
			filled, changed = spread(e).With("content", jsonv.ArrayValue()), true
		}
		if changed && out == nil {
			out = append(make([]jsonv.Value, 0, len(v.Elems())), v.Elems()[:i]...)
		}
		if out != nil {
			out = append(out, filled)
		}
	}
	if out == nil {
		return v, nil
	}
	return jsonv.ArrayValue(out...), nil
}

// spread is {...v} for a value JSON.parse made that is not an object: the
// indexed elements of an array, or of a string its UTF-16 code units; no
// members for anything else.
func spread(v jsonv.Value) jsonv.Value {
	var members []jsonv.Member
	switch v.Kind() {
	case jsonv.Array:
		for i, e := range v.Elems() {
			members = append(members, jsonv.Member{Key: strconv.Itoa(i), Value: e})
		}
	case jsonv.String:
		for i, u := range wtf8.ToUTF16(v.Str()) {
			members = append(members, jsonv.Member{Key: strconv.Itoa(i), Value: jsonv.StringValue(wtf8.FromUTF16([]uint16{u}))})
		}
	}
	return jsonv.ObjectValue(members...)
}
