// Package compare decides whether a subject's output equals a golden.
//
// Outputs are compared as JSON, not bytes: key order does not matter,
// numbers compare by exact value ("1" equals "1.0"), strings by their UTF-16
// content (lone surrogates included). Fields a case declares volatile are
// redacted first: they must be there on both sides with the declared JSON
// type, and their values are not compared. A mismatch names the first JSON
// path that differs and carries a go-cmp diff for people to read.
package compare

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// Redaction marks a volatile field. Path is a JSON Pointer in which a "*"
// segment matches every member or element.
type Redaction struct {
	Path string
	// As is the JSON type the value must have: number, string, boolean,
	// object, array, null, or any.
	As string
}

var redactionTypes = []string{"number", "string", "boolean", "object", "array", "null", "any"}

// ParseRedaction reads a redaction entry {path, as} at ptr.
func ParseRedaction(v jsonv.Value, ptr string) (Redaction, error) {
	f := jsonv.ReadFields(v, ptr)
	r := Redaction{Path: f.String("path"), As: f.String("as")}
	if err := f.Err(); err != nil {
		return Redaction{}, err
	}
	if r.Path == "" || r.Path[0] != '/' {
		return Redaction{}, jsonv.Errorf(f.At("path"), "want a JSON Pointer starting with /, got %q", r.Path)
	}
	if !slices.Contains(redactionTypes, r.As) {
		return Redaction{}, jsonv.Errorf(f.At("as"), "want one of %s, got %q", strings.Join(redactionTypes, ", "), r.As)
	}
	return r, nil
}

func (r Redaction) segments() []string {
	parts := strings.Split(r.Path[1:], "/")
	for i, p := range parts {
		parts[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(p)
	}
	return parts
}

// Mismatch explains why two outputs differ.
type Mismatch struct {
	// Path is the JSON Pointer of the first difference.
	Path string
	// Want and Got are the values there, as compact JSON ("absent" when missing).
	Want, Got string
	// Diff is go-cmp's report (-want +got) over the whole output.
	Diff string
}

func (m *Mismatch) Error() string {
	return fmt.Sprintf("%s: want %s, got %s", displayPath(m.Path), m.Want, m.Got)
}

func displayPath(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// Compare returns nil when got equals want under the redactions.
func Compare(want, got jsonv.Value, redactions []Redaction) *Mismatch {
	w, g := toTree(want), toTree(got)
	for _, r := range redactions {
		w = redact(w, r.segments(), r.As)
		g = redact(g, r.segments(), r.As)
	}
	path, wv, gv, differ := firstDifference(w, g, "")
	if !differ {
		return nil
	}
	return &Mismatch{Path: path, Want: render(wv), Got: render(gv), Diff: cmp.Diff(w, g, Options)}
}

// number is a JSON number literal; strings are canonical WTF-8.
type number string

// absent marks a member or element that is not there.
type absent struct{}

// redacted replaces a volatile value: Kind is the type the case declared,
// Found the type that was there.
type redacted struct{ Kind, Found string }

// Options are the go-cmp options for output trees: numbers compare by value.
var Options = cmp.Options{
	cmp.Comparer(func(a, b number) bool { return jsonv.NumbersEqual(string(a), string(b)) }),
}

func toTree(v jsonv.Value) any {
	switch v.Kind() {
	case jsonv.Null:
		return nil
	case jsonv.Bool:
		return v.Bool()
	case jsonv.Number:
		return number(v.Literal())
	case jsonv.String:
		return wtf8.Canonical(v.Str())
	case jsonv.Array:
		out := make([]any, len(v.Elems()))
		for i, e := range v.Elems() {
			out[i] = toTree(e)
		}
		return out
	case jsonv.Object:
		out := make(map[string]any, len(v.Members()))
		for _, m := range v.Members() {
			out[wtf8.Canonical(m.Key)] = toTree(m.Value)
		}
		return out
	}
	return absent{}
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case redacted:
		return "redacted"
	}
	return "absent"
}

func redact(tree any, segs []string, as string) any {
	if len(segs) == 0 {
		found := typeName(tree)
		if found == "absent" {
			return tree
		}
		if as == "any" {
			found = "any"
		}
		return redacted{Kind: as, Found: found}
	}
	seg, rest := segs[0], segs[1:]
	switch t := tree.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, v := range t {
			if seg == "*" || k == seg {
				v = redact(v, rest, as)
			}
			out[k] = v
		}
		return out
	case []any:
		out := slices.Clone(t)
		for i := range out {
			if seg == "*" || strconv.Itoa(i) == seg {
				out[i] = redact(out[i], rest, as)
			}
		}
		return out
	}
	return tree
}

func firstDifference(w, g any, path string) (string, any, any, bool) {
	if typeName(w) != typeName(g) {
		return path, w, g, true
	}
	switch wt := w.(type) {
	case map[string]any:
		gt := g.(map[string]any)
		keys := make([]string, 0, len(wt)+len(gt))
		for k := range wt {
			keys = append(keys, k)
		}
		for k := range gt {
			if _, ok := wt[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			wv, ok := wt[k]
			if !ok {
				wv = absent{}
			}
			gv, ok := gt[k]
			if !ok {
				gv = absent{}
			}
			if p, a, b, d := firstDifference(wv, gv, jsonv.Child(path, k)); d {
				return p, a, b, true
			}
		}
		return "", nil, nil, false
	case []any:
		gt := g.([]any)
		for i := 0; i < max(len(wt), len(gt)); i++ {
			var wv, gv any = absent{}, absent{}
			if i < len(wt) {
				wv = wt[i]
			}
			if i < len(gt) {
				gv = gt[i]
			}
			if p, a, b, d := firstDifference(wv, gv, jsonv.Index(path, i)); d {
				return p, a, b, true
			}
		}
		return "", nil, nil, false
	case number:
		return path, w, g, !jsonv.NumbersEqual(string(wt), string(g.(number)))
	case redacted:
		gr := g.(redacted)
		return path, w, g, wt.Found != wt.Kind && wt.Kind != "any" || gr.Found != gr.Kind && gr.Kind != "any"
	}
	return path, w, g, w != g
}

func render(v any) string {
	switch t := v.(type) {
	case absent:
		return "absent"
	case redacted:
		if t.Found != t.Kind && t.Kind != "any" {
			return fmt.Sprintf("a %s (volatile, must be a %s)", t.Found, t.Kind)
		}
		return "a " + t.Kind + " (volatile)"
	}
	return fromTree(v).String()
}

func fromTree(v any) jsonv.Value {
	switch t := v.(type) {
	case nil:
		return jsonv.NullValue()
	case bool:
		return jsonv.BoolValue(t)
	case number:
		return jsonv.NumberValue(string(t))
	case string:
		return jsonv.StringValue(t)
	case []any:
		elems := make([]jsonv.Value, len(t))
		for i, e := range t {
			elems[i] = fromTree(e)
		}
		return jsonv.ArrayValue(elems...)
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		members := make([]jsonv.Member, len(keys))
		for i, k := range keys {
			members[i] = jsonv.Member{Key: k, Value: fromTree(t[k])}
		}
		return jsonv.ObjectValue(members...)
	case redacted:
		return jsonv.StringValue("[volatile " + t.Kind + "]")
	}
	return jsonv.Value{}
}
