package session_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/codingagent/session"
	"github.com/piconform/piconform/reference/jsonv"
)

// lines joins session lines with "\n".
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

const header3 = `{"type":"session","version":3,"id":"s","timestamp":"2025-01-01T00:00:00Z","cwd":"/w"}`

func user(id, parent, text string) string {
	return fmt.Sprintf(`{"type":"message","id":%q,"parentId":%s,"timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":%q,"timestamp":1}}`, id, parent, text)
}

// contextJSON is a Context as the session kind writes it, without the
// convertToLlm part.
func contextJSON(c session.Context) string {
	o := new(jsonv.ObjectBuilder).Set("messages", jsonv.ArrayValue(c.Messages...))
	o.Set("thinkingLevel", c.ThinkingLevel).Set("model", c.Model)
	return string(o.Value().AppendJSON(nil))
}

// loaded is what Load makes of text: the context as JSON (contextJSON), or
// "throws: <category>" where Pi throws.
func loaded(t *testing.T, text string, leaf session.Leaf, opts session.Options) string {
	t.Helper()
	ctx, err := session.Load(text, leaf, opts)
	if th, ok := errors.AsType[*session.Thrown](err); ok {
		return "throws: " + th.Category
	}
	if err != nil {
		t.Fatal(err)
	}
	return contextJSON(ctx)
}

func TestLoad(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		leaf       session.Leaf
		want       string // the context as JSON, or "throws: <category>"
	}{
		{"empty", "", session.Leaf{}, `{"messages":[],"thinkingLevel":"off","model":null}`},
		{"linear", lines(header3, user("a", "null", "one"), user("b", `"a"`, "two")), session.Leaf{},
			`{"messages":[{"role":"user","content":"one","timestamp":1},{"role":"user","content":"two","timestamp":1}],"thinkingLevel":"off","model":null}`},
		{"leaf null", lines(header3, user("a", "null", "one")), session.Leaf{Null: true}, `{"messages":[],"thinkingLevel":"off","model":null}`},
		{"leaf id", lines(header3, user("a", "null", "one"), user("b", `"a"`, "two")), session.Leaf{ID: "a"},
			`{"messages":[{"role":"user","content":"one","timestamp":1}],"thinkingLevel":"off","model":null}`},
		{"leaf unknown", lines(header3, user("a", "null", "one"), user("b", "null", "two")), session.Leaf{ID: "zz"},
			`{"messages":[{"role":"user","content":"two","timestamp":1}],"thinkingLevel":"off","model":null}`},
		{"bom crlf blank", "\ufeff" + header3 + "\r\n\r\n  \r\n" + user("a", "null", "one") + "\r\n", session.Leaf{},
			`{"messages":[{"role":"user","content":"one","timestamp":1}],"thinkingLevel":"off","model":null}`},
		{"malformed skipped", lines(header3, "{oops", user("a", "null", "one"), "]"), session.Leaf{},
			`{"messages":[{"role":"user","content":"one","timestamp":1}],"thinkingLevel":"off","model":null}`},
		{"thinking and model", lines(header3,
			`{"type":"thinking_level_change","id":"t","parentId":null,"thinkingLevel":"high"}`,
			`{"type":"model_change","id":"m","parentId":"t","provider":"p","modelId":"x"}`), session.Leaf{},
			`{"messages":[],"thinkingLevel":"high","model":{"provider":"p","modelId":"x"}}`},
		{"thinking undefined", lines(header3, `{"type":"thinking_level_change","id":"t","parentId":null}`), session.Leaf{},
			`{"messages":[],"model":null}`},
		{"compaction", lines(header3, user("a", "null", "one"), user("b", `"a"`, "two"),
			`{"type":"compaction","id":"k","parentId":"b","timestamp":"1970-01-01T00:00:00.005Z","summary":"S","firstKeptEntryId":"b","tokensBefore":7}`,
			user("c", `"k"`, "three")), session.Leaf{},
			`{"messages":[{"role":"compactionSummary","summary":"S","tokensBefore":7,"timestamp":5},{"role":"user","content":"two","timestamp":1},{"role":"user","content":"three","timestamp":1}],"thinkingLevel":"off","model":null}`},
		{"custom and branch summary", lines(header3,
			`{"type":"custom_message","id":"c","parentId":null,"timestamp":0,"customType":"x","content":"hi","display":false}`,
			`{"type":"branch_summary","id":"b","parentId":"c","timestamp":null,"fromId":"f","summary":"s"}`,
			`{"type":"branch_summary","id":"e","parentId":"b","fromId":"f","summary":""}`), session.Leaf{},
			`{"messages":[{"role":"custom","customType":"x","content":"hi","display":false,"timestamp":0},{"role":"branchSummary","summary":"s","fromId":"f","timestamp":0}],"thinkingLevel":"off","model":null}`},
		{"numbers as doubles", lines(header3, `{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"x","timestamp":1.50e3,"n":-0}}`), session.Leaf{},
			`{"messages":[{"role":"user","content":"x","timestamp":1500,"n":0}],"thinkingLevel":"off","model":null}`},
		{"raw lone surrogate", lines(header3, `{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"`+"\xed\xa0\xbd"+`","timestamp":1}}`), session.Leaf{},
			`{"messages":[{"role":"user","content":"\ud83d","timestamp":1}],"thinkingLevel":"off","model":null}`},
		{"v2 hookMessage", lines(`{"type":"session","version":2,"id":"s"}`, `{"type":"message","id":"a","parentId":null,"message":{"role":"hookMessage","x":1}}`), session.Leaf{},
			`{"messages":[{"role":"custom","x":1}],"thinkingLevel":"off","model":null}`},
		{"version NaN: no migration", lines(`{"type":"session","version":"two","id":"s"}`, `{"type":"message","message":{"role":"hookMessage"}}`), session.Leaf{},
			`{"messages":[{"role":"hookMessage"}],"thinkingLevel":"off","model":null}`},
		{"message missing on the path", lines(header3, `{"type":"message","id":"a","parentId":null}`), session.Leaf{}, "throws: type-error"},
		{"message missing off the path", lines(header3, `{"type":"message","id":"a","parentId":null}`, user("b", "null", "two")), session.Leaf{},
			`{"messages":[{"role":"user","content":"two","timestamp":1}],"thinkingLevel":"off","model":null}`},
		{"null entry", lines(header3, "null"), session.Leaf{Null: true}, "throws: type-error"},
		{"v1 scalar", lines(`{"type":"session","id":"s"}`, `"text"`), session.Leaf{}, "throws: type-error"},
		{"version with toString", lines(`{"type":"session","version":{"toString":1},"id":"s"}`), session.Leaf{}, "throws: type-error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, loaded(t, tc.text, tc.leaf, session.Options{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestOutsideModel: input on which Pi's answer is the engine's, or none.
// (A date string of any form is modelled: package jsdate.)
func TestOutsideModel(t *testing.T) {
	for name, text := range map[string]string{
		"huge number":  lines(header3, `{"type":"label","id":"l","parentId":null,"n":1e400}`),
		"parent cycle": lines(header3, user("a", `"b"`, "one"), user("b", `"a"`, "two")),
		"deep nesting": lines(header3, strings.Repeat("[", 20000)+strings.Repeat("]", 20000)),
	} {
		if _, err := session.Load(text, session.Leaf{}, session.Options{}); !errors.Is(err, session.ErrOutsideModel) {
			t.Errorf("%s: got %v, want ErrOutsideModel", name, err)
		}
	}
}

// TestMadeUpIDsNeverReachOutput runs every version 1 and 2 case of the suite
// with two different id makers: the outputs must be equal and hold none of
// the ids made.
func TestMadeUpIDsNeverReachOutput(t *testing.T) {
	files, err := filepath.Glob("../../../fixtures/session/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no session fixtures: %v", err)
	}
	migrated := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		c, err := jsonv.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		input, _ := c.Get("input")
		text, _ := input.Get("text")
		var made []string
		maker := func(prefix string) func() string {
			n := 0
			return func() string {
				n++
				id := fmt.Sprintf("%s%06d", prefix, n)
				made = append(made, id)
				return id
			}
		}
		a, errA := session.Load(text.Str(), session.Leaf{}, session.Options{NewID: maker("aa")})
		b, errB := session.Load(text.Str(), session.Leaf{}, session.Options{NewID: maker("bb")})
		if len(made) == 0 {
			continue
		}
		migrated++
		if fmt.Sprint(errA) != fmt.Sprint(errB) {
			t.Errorf("%s: errors differ: %v / %v", file, errA, errB)
			continue
		}
		outA, outB := contextJSON(a), contextJSON(b)
		if diff := cmp.Diff(outA, outB); diff != "" {
			t.Errorf("%s: the output depends on the made-up ids (-first +second):\n%s", file, diff)
		}
		for _, id := range made {
			if strings.Contains(outA, id) || strings.Contains(outB, id) {
				t.Errorf("%s: made-up id %s reached the output", file, id)
			}
		}
	}
	if migrated < 5 {
		t.Errorf("only %d cases made ids; the suite's version 1 cases are missing", migrated)
	}
}
