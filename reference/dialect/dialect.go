// Package dialect names the Pi release lines the reference implements and
// keys behaviour by them.
//
// A dialect is a release line of Pi whose message system the suite pins:
// 0.80 (Pi 0.80.2) and 1.6 (Pi 1.6.0). Behaviour that differs between them
// is looked up in a Table, a step function over the dialects in release
// order, as protobuf editions resolve their feature defaults: an entry
// holds from its dialect until the next entry. Adding a release line means
// a new constant here and new entries only where its behaviour changed.
package dialect

import (
	"fmt"
	"strings"
)

// Dialect is one release line of Pi. The zero value is the oldest, 0.80,
// so a library caller that names none keeps the behaviour it always had.
type Dialect uint8

// The dialects, in release order.
const (
	V0_80 Dialect = iota
	V1_6
	count
)

// Latest is the newest dialect: the release line Pi's users run today.
const Latest = count - 1

var info = [count]struct{ name, release string }{
	V0_80: {"0.80", "0.80.2"},
	V1_6:  {"1.6", "1.6.0"},
}

// All lists every dialect, oldest first.
func All() []Dialect {
	out := make([]Dialect, count)
	for i := range out {
		out[i] = Dialect(i)
	}
	return out
}

// Names lists the dialects' names, oldest first.
func Names() []string {
	out := make([]string, count)
	for i, d := range All() {
		out[i] = d.String()
	}
	return out
}

// String is the dialect's name: "0.80", "1.6".
func (d Dialect) String() string {
	if d >= count {
		return fmt.Sprintf("dialect(%d)", uint8(d))
	}
	return info[d].name
}

// Release is the Pi release the dialect's goldens were checked against.
func (d Dialect) Release() string {
	if d >= count {
		return ""
	}
	return info[d].release
}

// Valid reports whether d is a known dialect.
func (d Dialect) Valid() bool { return d < count }

// AtLeast reports whether d is o or a later dialect.
func (d Dialect) AtLeast(o Dialect) bool { return d >= o }

// Prev is the dialect before d; ok is false for the oldest.
func (d Dialect) Prev() (prev Dialect, ok bool) {
	if d == 0 || d >= count {
		return 0, false
	}
	return d - 1, true
}

// Parse reads a dialect's name. A Pi release ("1.6.0", "0.80.2") names the
// line it belongs to when that line is known.
func Parse(s string) (Dialect, error) {
	for _, d := range All() {
		if s == d.String() || strings.HasPrefix(s, d.String()+".") {
			return d, nil
		}
	}
	return 0, fmt.Errorf("unknown dialect %q; known dialects: %s", s, strings.Join(Names(), ", "))
}

// MarshalText writes the dialect's name.
func (d Dialect) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a dialect's name.
func (d *Dialect) UnmarshalText(b []byte) error {
	v, err := Parse(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Table holds a value that changes from one dialect to a later one. An
// entry holds from its dialect until the next entry's; the oldest dialect
// must have one.
type Table[T any] map[Dialect]T

// At is the value for d: the entry of d, or else of the newest dialect
// before it.
func (t Table[T]) At(d Dialect) T {
	for ; ; d-- {
		if v, ok := t[d]; ok {
			return v
		}
		if d == 0 {
			var zero T
			return zero
		}
	}
}
