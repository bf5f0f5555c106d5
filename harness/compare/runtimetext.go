package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// RuntimeTextsMember is the member of an object golden that lists its
// runtime texts. It is not part of the output: SplitGolden takes it out
// before comparing.
const RuntimeTextsMember = "runtimeTexts"

// RuntimePlaceholder stands for the runtime's words in a RuntimeText
// pattern.
const RuntimePlaceholder = "{runtime}"

// RuntimeText marks a string of a golden that holds words of the JavaScript
// runtime (V8's JSON.parse and TypeError messages) rather than Pi's own.
// Pattern is the golden's string with each runtime part replaced by
// RuntimePlaceholder; the rest is what Pi (or its SDK) writes around it.
// By default an output string fits when it reads as the pattern with any
// text (including none) in each placeholder; a strict comparison wants the
// golden's string exactly.
type RuntimeText struct {
	Path    string
	Pattern string
}

// MatchesRuntimeText tells whether s fits pattern. Strings are compared by
// their UTF-16 content, as everywhere else.
func MatchesRuntimeText(pattern, s string) bool {
	parts := strings.Split(wtf8.Canonical(pattern), RuntimePlaceholder)
	s = wtf8.Canonical(s)
	if len(parts) == 1 {
		return parts[0] == s
	}
	first, last := parts[0], parts[len(parts)-1]
	if !strings.HasPrefix(s, first) || !strings.HasSuffix(s[len(first):], last) {
		return false
	}
	s = s[len(first) : len(s)-len(last)]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(s, mid)
		if i < 0 {
			return false
		}
		s = s[i+len(mid):]
	}
	return true
}

// SplitGolden separates a golden document into the output to compare and
// the runtime texts it marks. Only an object golden can carry the member;
// anything else is all output.
func SplitGolden(golden jsonv.Value) (jsonv.Value, []RuntimeText, error) {
	if golden.Kind() != jsonv.Object {
		return golden, nil, nil
	}
	list, ok := golden.Get(RuntimeTextsMember)
	if !ok {
		return golden, nil, nil
	}
	ptr := "/" + RuntimeTextsMember
	if list.Kind() != jsonv.Array {
		return jsonv.Value{}, nil, jsonv.Errorf(ptr, "want an array, got %s", list.Kind())
	}
	var texts []RuntimeText
	for i, e := range list.Elems() {
		f := jsonv.ReadFields(e, jsonv.Index(ptr, i))
		t := RuntimeText{Path: f.String("path"), Pattern: f.String("pattern")}
		if rest := f.Rest(); len(rest) > 0 && f.Err() == nil {
			return jsonv.Value{}, nil, jsonv.Errorf(f.At(rest[0].Key), "unknown member")
		}
		if err := f.Err(); err != nil {
			return jsonv.Value{}, nil, err
		}
		if !strings.HasPrefix(t.Path, "/") {
			return jsonv.Value{}, nil, jsonv.Errorf(f.At("path"), "want a JSON Pointer starting with /, got %q", t.Path)
		}
		if !strings.Contains(t.Pattern, RuntimePlaceholder) {
			return jsonv.Value{}, nil, jsonv.Errorf(f.At("pattern"), "want a pattern holding %s, got %q", RuntimePlaceholder, t.Pattern)
		}
		texts = append(texts, t)
	}
	var out []jsonv.Member
	for _, m := range golden.Members() {
		if m.Key != RuntimeTextsMember {
			out = append(out, m)
		}
	}
	return jsonv.ObjectValue(out...), texts, nil
}

// JoinGolden is the golden document of an output and its runtime texts: the
// output with RuntimeTextsMember last, or the output alone when there are
// none. It is SplitGolden's inverse.
func JoinGolden(output jsonv.Value, texts []RuntimeText) (jsonv.Value, error) {
	if len(texts) == 0 {
		return output, nil
	}
	if output.Kind() != jsonv.Object {
		return jsonv.Value{}, fmt.Errorf("runtime texts need an object output, got %s", output.Kind())
	}
	texts = slices.Clone(texts)
	elems := make([]jsonv.Value, len(texts))
	for i, t := range texts {
		elems[i] = jsonv.ObjectValue(
			jsonv.Member{Key: "path", Value: jsonv.StringValue(t.Path)},
			jsonv.Member{Key: "pattern", Value: jsonv.StringValue(t.Pattern)},
		)
	}
	members := append(slices.Clone(output.Members()), jsonv.Member{Key: RuntimeTextsMember, Value: jsonv.ArrayValue(elems...)})
	return jsonv.ObjectValue(members...), nil
}
