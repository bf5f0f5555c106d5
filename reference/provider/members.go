package provider

import (
	"fmt"
	"reflect"

	"github.com/piconform/piconform/reference/jsonv"
)

// tagKey is the struct tag that names an API's own options member: the
// fields of an API's Options tagged `pi:"name"`, name being the member's
// JSON name, are a jsonv.Value for a member Pi reads whatever its type
// (input.lenient; Absent when left out) or a *string for one that must be
// a string (nil when left out). The tags are the one list of an API's
// members: DecodeTagged (or ReadTagged) reads them and EncodeOptions
// writes them back, in the order of the fields, with the fields of
// embedded structs in their place. A member no tag can describe is read by
// the API's own step in Decode and written by its EncodeOwn.
const tagKey = "pi"

var (
	valueType     = reflect.TypeFor[jsonv.Value]()
	stringPtrType = reflect.TypeFor[*string]()
	optionsType   = reflect.TypeFor[Options]()
)

// DecodeTagged reads options O whose own members are all tagged fields:
// the shared members, then O's. A member of the wrong type is an error
// naming its JSON Pointer.
func DecodeTagged[O any, P interface {
	*O
	Options
}](v jsonv.Value, ptr string) (O, error) {
	return Decode(v, ptr, func(o P, f *jsonv.Fields) { ReadTagged(o, f) })
}

// ReadTagged reads the tagged members of the options o points to from the
// fields of the options. The fields of an embedded API's options (Vertex's
// on Google's) are that API's to read, so they are left alone.
func ReadTagged(o Options, f *jsonv.Fields) {
	eachTagged(reflect.ValueOf(o).Elem(), false, func(name string, field reflect.Value) {
		if field.Type() == valueType {
			field.Set(reflect.ValueOf(f.Any(name)))
		} else {
			field.Set(reflect.ValueOf(f.OptString(name)))
		}
	})
}

// OwnEncoder is options with members no tag can describe: EncodeOwn adds
// them to the options' JSON.
type OwnEncoder interface {
	EncodeOwn(b *jsonv.ObjectBuilder)
}

// EncodeOptions encodes o back in the shape its API's DecodeOptions reads:
// the shared members, the tagged ones (those of embedded options
// included), EncodeOwn's and Extra.
func EncodeOptions(o Options) jsonv.Value {
	shared := o.Shared()
	b := shared.Builder()
	eachTagged(reflect.Indirect(reflect.ValueOf(o)), true, func(name string, field reflect.Value) {
		if field.Type() == valueType {
			b.Set(name, field.Interface().(jsonv.Value))
		} else {
			b.SetOptString(name, field.Interface().(*string))
		}
	})
	if own, ok := o.(OwnEncoder); ok {
		own.EncodeOwn(b)
	}
	return b.Extend(shared.Extra).Value()
}

// eachTagged calls fn for each tagged field of the struct v, descending
// into embedded structs: into embedded options (StreamOptions, or another
// API's) only with intoOptions.
func eachTagged(v reflect.Value, intoOptions bool, fn func(name string, field reflect.Value)) {
	t := v.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		name, tagged := sf.Tag.Lookup(tagKey)
		switch {
		case tagged && (sf.Type == valueType || sf.Type == stringPtrType):
			fn(name, v.Field(i))
		case tagged:
			panic(fmt.Sprintf("provider: %s.%s is tagged %q but is a %s, not a jsonv.Value or a *string", t, sf.Name, name, sf.Type))
		case sf.Anonymous && sf.Type.Kind() == reflect.Struct:
			if intoOptions || !reflect.PointerTo(sf.Type).Implements(optionsType) {
				eachTagged(v.Field(i), intoOptions, fn)
			}
		}
	}
}
