package provider

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
)

// Compat reads model.compat with JavaScript's rules, as the APIs that
// read a few flags of it do.
type Compat struct{ v jsonv.Value }

// CompatOf is the model's compat.
func CompatOf(model *ai.Model) Compat { return Compat{model.Compat} }

// Truthy is `model.compat?.name ?? def` read as a condition.
func (c Compat) Truthy(name string, def bool) bool {
	v, ok := c.v.Get(name)
	if !ok || v.Kind() == jsonv.Null {
		return def
	}
	return v.Truthy()
}

// IsTrue is `model.compat?.name === true`.
func (c Compat) IsTrue(name string) bool {
	v, ok := c.v.Get(name)
	return ok && v.Kind() == jsonv.Bool && v.Bool()
}

// IsFalse is `model.compat?.name === false`.
func (c Compat) IsFalse(name string) bool {
	v, ok := c.v.Get(name)
	return ok && v.Kind() == jsonv.Bool && !v.Bool()
}

// Value is `model.compat?.name`: Absent when the model has no compat or
// the compat has no such member.
func (c Compat) Value(name string) jsonv.Value {
	v, _ := c.v.Get(name)
	return v
}

// Is is `model.compat?.name === want` for a string want.
func (c Compat) Is(name, want string) bool {
	v := c.Value(name)
	return v.Kind() == jsonv.String && v.Str() == want
}
