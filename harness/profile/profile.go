// Package profile holds the documented profiles of `piconform run
// --profile`: sets of cases a kind of port may leave out, each skipped with
// a message naming the profile and the reason, so every report shows it
// (docs/profiles.md).
package profile

import (
	"path"
	"slices"
	"strings"

	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/jsonv"
)

// Typed is for a port in a typed language, which decodes its input into
// types and refuses what does not fit. It leaves out the rules that exist
// only because JavaScript reads input of any type: the cases that cite a
// lenient-input rule (UntypedRules), and the cases whose expected output
// is a JavaScript TypeError (CrashTexts), where the suite pins where Pi's
// JavaScript crashes on such input.
var Typed = &run.Profile{Name: "typed", Skip: typedSkip}

// UntypedRules are the rules that hold only for untyped input, as globs
// over rule ids.
var UntypedRules = []string{"input.lenient", "wire.*.lenient"}

// CrashTexts are the words of V8's TypeError messages: an output holding
// one pins a JavaScript crash.
var CrashTexts = []string{"Cannot read properties of ", "Cannot convert object to primitive value", "is not a function", "is not iterable"}

var all = []*run.Profile{Typed}

// Names lists the profiles' names.
func Names() []string {
	var out []string
	for _, p := range all {
		out = append(out, p.Name)
	}
	return out
}

// Named is the profile called name, or nil.
func Named(name string) *run.Profile {
	i := slices.IndexFunc(all, func(p *run.Profile) bool { return p.Name == name })
	if i < 0 {
		return nil
	}
	return all[i]
}

func typedSkip(c *suite.Case, golden jsonv.Value) string {
	for _, r := range c.Rules {
		for _, g := range UntypedRules {
			if ok, _ := path.Match(g, r); ok {
				return "the case checks reading input of another type than declared (" + r + "), which a typed port refuses as it decodes"
			}
		}
	}
	if text, ok := crashText(golden); ok {
		return "the case pins a JavaScript crash (" + text + ")"
	}
	return ""
}

// crashText finds a TypeError's words in an expected output: in a string,
// or as a thrown failure's category.
func crashText(v jsonv.Value) (string, bool) {
	switch v.Kind() {
	case jsonv.String:
		for _, t := range CrashTexts {
			if strings.Contains(v.Str(), t) {
				return strings.TrimSpace(t), true
			}
		}
	case jsonv.Array:
		for _, e := range v.Elems() {
			if t, ok := crashText(e); ok {
				return t, true
			}
		}
	case jsonv.Object:
		for _, m := range v.Members() {
			if m.Key == "category" && m.Value.Kind() == jsonv.String && m.Value.Str() == "type-error" {
				return "a thrown TypeError", true
			}
			if t, ok := crashText(m.Value); ok {
				return t, true
			}
		}
	}
	return "", false
}
