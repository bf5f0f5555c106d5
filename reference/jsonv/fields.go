package jsonv

import (
	"fmt"
	"strconv"
	"strings"
)

// PathError is a well-formed JSON value of the wrong shape. Pointer is the
// RFC 6901 JSON Pointer of the offending value.
type PathError struct {
	Pointer string
	Msg     string
}

func (e *PathError) Error() string {
	ptr := e.Pointer
	if ptr == "" {
		ptr = "/"
	}
	return ptr + ": " + e.Msg
}

// Under puts err inside the member key: a *PathError's pointer gains the
// prefix /key, so an error about a case's input can name the path in the
// whole case file. Other errors come back as they are.
func Under(key string, err error) error {
	if pe, ok := err.(*PathError); ok {
		return &PathError{Pointer: Child("", key) + pe.Pointer, Msg: pe.Msg}
	}
	return err
}

// Errorf makes a PathError at ptr.
func Errorf(ptr, format string, args ...any) error {
	return &PathError{Pointer: ptr, Msg: fmt.Sprintf(format, args...)}
}

// Child extends a JSON Pointer by one segment.
func Child(ptr, segment string) string {
	if !strings.ContainsAny(segment, "~/") {
		return ptr + "/" + segment // one allocation: decoders call this for every member they descend into
	}
	return ptr + Pointer(segment)
}

// Index extends a JSON Pointer by an array index.
func Index(ptr string, i int) string { return ptr + "/" + strconv.Itoa(i) }

// Fields reads the members of one object with a sticky error: the first
// problem is kept and later reads return zero values. Members that were never
// read are returned by Rest, so types can carry fields they do not know.
type Fields struct {
	v   Value
	ptr string
	// read marks the members read so far, by position: every member of a
	// name read counts, duplicates included. Bits serve the first 64
	// members, more (rare) go to readMore.
	read     uint64
	readMore []bool
	err      error
}

// ReadFields starts reading v, which must be an object.
func ReadFields(v Value, ptr string) *Fields {
	// Small enough to inline, so that a caller that keeps f to itself
	// (most decoders) has it on its stack instead of the heap.
	f := &Fields{v: v, ptr: ptr}
	f.start()
	return f
}

func (f *Fields) start() {
	if f.v.n > 64 && f.v.kind == Object {
		f.readMore = make([]bool, f.v.n-64)
	}
	if f.v.kind != Object {
		f.err = Errorf(f.ptr, "want an object, got %s", describeKind(f.v))
	}
}

func describeKind(v Value) string {
	if v.kind == Absent {
		return "nothing"
	}
	return v.kind.String()
}

// Err returns the first problem met, if any.
func (f *Fields) Err() error { return f.err }

// Fail records a problem found by the caller at the member key.
func (f *Fields) Fail(key, format string, args ...any) {
	if f.err == nil {
		f.err = Errorf(f.At(key), format, args...)
	}
}

// At returns the JSON Pointer of the member key.
func (f *Fields) At(key string) string { return Child(f.ptr, key) }

// Pointer returns the JSON Pointer of the object itself.
func (f *Fields) Pointer() string { return f.ptr }

func (f *Fields) get(key string, required bool, want Kind) (Value, bool) {
	if f.err != nil {
		return Value{}, false
	}
	v, ok := f.find(key)
	if !ok {
		if required {
			f.err = Errorf(f.At(key), "missing required %s", want)
		}
		return Value{}, false
	}
	if want != Absent && v.kind != want {
		f.err = Errorf(f.At(key), "want %s, got %s", want, v.kind)
		return Value{}, false
	}
	return v, true
}

// String reads a required string.
func (f *Fields) String(key string) string {
	v, _ := f.get(key, true, String)
	return v.Str()
}

// OptString reads a string that may be left out.
func (f *Fields) OptString(key string) *string {
	v, ok := f.get(key, false, String)
	if !ok {
		return nil
	}
	s := v.Str()
	return &s
}

// Bool reads a required boolean.
func (f *Fields) Bool(key string) bool {
	v, _ := f.get(key, true, Bool)
	return v.b
}

// OptBool reads a boolean that may be left out.
func (f *Fields) OptBool(key string) *bool {
	v, ok := f.get(key, false, Bool)
	if !ok {
		return nil
	}
	b := v.b
	return &b
}

// Number reads a required number, kept as its literal.
func (f *Fields) Number(key string) Value {
	v, _ := f.get(key, true, Number)
	return v
}

// OptNumber reads a number that may be left out (the result is then Absent).
func (f *Fields) OptNumber(key string) Value {
	v, _ := f.get(key, false, Number)
	return v
}

// Object reads a required object.
func (f *Fields) Object(key string) Value {
	v, _ := f.get(key, true, Object)
	return v
}

// OptObject reads an object that may be left out.
func (f *Fields) OptObject(key string) Value {
	v, _ := f.get(key, false, Object)
	return v
}

// Array reads a required array.
func (f *Fields) Array(key string) []Value {
	v, _ := f.get(key, true, Array)
	return v.Elems()
}

// OptArray reads an array that may be left out; ok tells whether it was there.
func (f *Fields) OptArray(key string) (elems []Value, ok bool) {
	v, ok := f.get(key, false, Array)
	return v.Elems(), ok
}

// Any reads a member of any type, Absent when left out.
func (f *Fields) Any(key string) Value {
	v, _ := f.get(key, false, Absent)
	return v
}

// Rest returns the members not read so far, in their written order.
func (f *Fields) Rest() []Member {
	var rest []Member
	for i, m := range f.v.Members() {
		if !f.wasRead(i) {
			rest = append(rest, m)
		}
	}
	return rest
}

// find marks every member named key read and returns the last one's
// value, the one Get returns, in one pass over the members.
func (f *Fields) find(key string) (v Value, ok bool) {
	members := f.v.Members()
	for i := len(members) - 1; i >= 0; i-- {
		if members[i].Key != key {
			continue
		}
		if !ok {
			v, ok = members[i].Value, true
		}
		if i < 64 {
			f.read |= 1 << i
		} else {
			f.readMore[i-64] = true
		}
	}
	return v, ok
}

func (f *Fields) wasRead(i int) bool {
	if i < 64 {
		return f.read&(1<<i) != 0
	}
	return f.readMore[i-64]
}

// ObjectBuilder writes an object's members in a fixed order, leaving out the
// absent ones, then appends carried-over members.
type ObjectBuilder struct{ members []Member }

// Set adds key unless v is Absent.
func (b *ObjectBuilder) Set(key string, v Value) *ObjectBuilder {
	if v.kind != Absent {
		if b.members == nil {
			b.members = make([]Member, 0, 4) // most built objects fit
		}
		b.members = append(b.members, Member{Key: key, Value: v})
	}
	return b
}

// SetString adds a string member.
func (b *ObjectBuilder) SetString(key, s string) *ObjectBuilder {
	return b.Set(key, StringValue(s))
}

// SetOptString adds a string member when s is not nil.
func (b *ObjectBuilder) SetOptString(key string, s *string) *ObjectBuilder {
	if s != nil {
		b.Set(key, StringValue(*s))
	}
	return b
}

// SetBool adds a boolean member.
func (b *ObjectBuilder) SetBool(key string, v bool) *ObjectBuilder {
	return b.Set(key, BoolValue(v))
}

// SetOptBool adds a boolean member when v is not nil.
func (b *ObjectBuilder) SetOptBool(key string, v *bool) *ObjectBuilder {
	if v != nil {
		b.Set(key, BoolValue(*v))
	}
	return b
}

// Extend appends members carried over from the input, skipping keys already
// set. A key repeated within rest is kept every time, so the last one still
// wins for a reader, as it did in the input.
func (b *ObjectBuilder) Extend(rest []Member) *ObjectBuilder {
	set := b.members[:len(b.members):len(b.members)]
	for _, m := range rest {
		dup := false
		for _, have := range set {
			if have.Key == m.Key {
				dup = true
				break
			}
		}
		if !dup {
			b.members = append(b.members, m)
		}
	}
	return b
}

// Value returns the built object.
func (b *ObjectBuilder) Value() Value { return ObjectValue(b.members...) }

// Members returns the members set so far, in order.
func (b *ObjectBuilder) Members() []Member { return b.members }

// StringMembers returns the members of obj, an object at ptr (or Absent)
// whose values must all be strings, such as a set of environment values.
func StringMembers(obj Value, ptr string) ([]Member, error) {
	for _, m := range obj.Members() {
		if m.Value.Kind() != String {
			return nil, Errorf(Child(ptr, m.Key), "want a string, got %s", m.Value.Kind())
		}
	}
	return obj.Members(), nil
}

// LastString is the string JavaScript reads for key from an object with
// these members (the last one of that name wins), or "" when key is
// missing.
func LastString(members []Member, key string) string {
	for i := len(members) - 1; i >= 0; i-- {
		if members[i].Key == key {
			return members[i].Value.Str()
		}
	}
	return ""
}
