package compare_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
)

// parse parses JSON text a test wrote, or fails the test.
var parse = jsonvtest.Parse

func red(path, as string) compare.Redaction { return compare.Redaction{Path: path, As: as} }

func TestCompare(t *testing.T) {
	tests := []struct {
		name       string
		want, got  string
		redactions []compare.Redaction
		path       string // "" and equal=true: no mismatch
		equal      bool
		wantV      string // Mismatch.Want, if checked
		gotV       string // Mismatch.Got, if checked
	}{
		{name: "same", want: `{"a":1}`, got: `{"a":1}`, equal: true},
		{name: "key order ignored", want: `{"a":1,"b":{"x":true,"y":null}}`, got: `{"b":{"y":null,"x":true},"a":1}`, equal: true},
		{name: "1 equals 1.0", want: `{"n":1}`, got: `{"n":1.0}`, equal: true},
		{name: "1 equals 1e0 and 10e-1", want: `[1,1,0.5]`, got: `[1e0,10e-1,5E-1]`, equal: true},
		{name: "0 equals -0", want: `[0]`, got: `[-0.0]`, equal: true},
		{name: "numbers by value", want: `{"n":1}`, got: `{"n":1.5}`, path: "/n", wantV: "1", gotV: "1.5"},
		{name: "digits a double loses still count", want: `[9007199254740993]`, got: `[9007199254740992]`, path: "/0"},
		{name: "number vs string", want: `{"n":1}`, got: `{"n":"1"}`, path: "/n", wantV: "1", gotV: `"1"`},
		{name: "null vs absent", want: `{"n":null}`, got: `{}`, path: "/n", wantV: "null", gotV: "absent"},
		{name: "extra member", want: `{}`, got: `{"extra":0}`, path: "/extra", wantV: "absent", gotV: "0"},
		{name: "lone surrogates equal", want: `{"s":"a\ud83db"}`, got: `{"s":"a\ud83db"}`, equal: true},
		{name: "lone low surrogate", want: `["\udc00"]`, got: `["\udc00"]`, equal: true},
		{name: "escaped pair equals the literal character", want: `{"s":"\ud83d\ude00"}`, got: `{"s":"😀"}`, equal: true},
		{name: "different lone surrogates", want: `{"s":"\ud83d"}`, got: `{"s":"\ud83e"}`, path: "/s"},
		{name: "lone surrogate vs replacement character", want: `{"s":"\ud83d"}`, got: `{"s":"\ufffd"}`, path: "/s"},
		{name: "lone surrogate vs removed", want: `{"s":"x\ud83d"}`, got: `{"s":"x"}`, path: "/s"},
		{name: "surrogate in a key", want: `{"\ud83d":1}`, got: `{"\ud83d":1}`, equal: true},
		{name: "array order matters", want: `[1,2]`, got: `[2,1]`, path: "/0"},
		{name: "shorter array", want: `[1,2,3]`, got: `[1,2]`, path: "/2", wantV: "3", gotV: "absent"},
		{name: "root type", want: `{}`, got: `[]`, path: ""},
		{
			name: "first difference in the wanted document's order, then index order",
			want: `{"b":[1,2,3],"a":{"x":1,"z":{"q":"s"}},"c":1}`,
			got:  `{"c":2,"b":[1,5,4],"a":{"x":1,"z":{"q":"t"}}}`,
			path: "/b/1",
		},
		{name: "pointer escapes", want: `{"a/b":{"c~d":1}}`, got: `{"a/b":{"c~d":2}}`, path: "/a~1b/c~0d"},

		// Redactions.
		{name: "redacted number", want: `{"t":1,"x":1}`, got: `{"t":2,"x":1}`, redactions: []compare.Redaction{red("/t", "number")}, equal: true},
		{name: "redacted but the rest differs", want: `{"t":1,"x":1}`, got: `{"t":2,"x":2}`, redactions: []compare.Redaction{red("/t", "number")}, path: "/x"},
		{
			name: "redacted wrong type", want: `{"t":1}`, got: `{"t":"soon"}`, redactions: []compare.Redaction{red("/t", "number")},
			path: "/t", wantV: `"a number (volatile)"`, gotV: `"soon"`,
		},
		{
			name: "redacted absent", want: `{"t":1}`, got: `{}`, redactions: []compare.Redaction{red("/t", "number")},
			path: "/t", wantV: `"a number (volatile)"`, gotV: "absent",
		},
		{name: "redacted absent on both sides", want: `{}`, got: `{}`, redactions: []compare.Redaction{red("/t", "number")}, equal: true},
		{name: "redacted null", want: `{"t":1}`, got: `{"t":null}`, redactions: []compare.Redaction{red("/t", "number")}, path: "/t"},
		{name: "redacted any", want: `{"t":1}`, got: `{"t":{"o":[]}}`, redactions: []compare.Redaction{red("/t", "any")}, equal: true},
		{name: "redacted any still must be there", want: `{"t":1}`, got: `{}`, redactions: []compare.Redaction{red("/t", "any")}, path: "/t"},
		{name: "redacted string", want: `{"id":"a"}`, got: `{"id":"b"}`, redactions: []compare.Redaction{red("/id", "string")}, equal: true},
		{
			name:       "star over array elements",
			want:       `{"messages":[{"role":"user","timestamp":1},{"role":"toolResult","timestamp":2}]}`,
			got:        `{"messages":[{"role":"user","timestamp":9},{"role":"toolResult","timestamp":8}]}`,
			redactions: []compare.Redaction{red("/messages/*/timestamp", "number")},
			equal:      true,
		},
		{
			name:       "star with a wrong type in one element",
			want:       `{"messages":[{"timestamp":1},{"timestamp":2}]}`,
			got:        `{"messages":[{"timestamp":9},{"timestamp":"x"}]}`,
			redactions: []compare.Redaction{red("/messages/*/timestamp", "number")},
			path:       "/messages/1/timestamp",
		},
		{
			name:       "star with a missing field in one element",
			want:       `{"messages":[{"timestamp":1},{"timestamp":2}]}`,
			got:        `{"messages":[{"timestamp":9},{}]}`,
			redactions: []compare.Redaction{red("/messages/*/timestamp", "number")},
			path:       "/messages/1/timestamp",
		},
		{
			name:       "star over object members",
			want:       `{"m":{"a":{"t":1},"b":{"t":2}}}`,
			got:        `{"m":{"a":{"t":3},"b":{"t":4}}}`,
			redactions: []compare.Redaction{red("/m/*/t", "number")},
			equal:      true,
		},
		{
			name:       "index segment redacts one element only",
			want:       `[{"t":1},{"t":2}]`,
			got:        `[{"t":5},{"t":6}]`,
			redactions: []compare.Redaction{red("/0/t", "number")},
			path:       "/1/t",
		},
		{
			name:       "escaped redaction path",
			want:       `{"a/b":1}`,
			got:        `{"a/b":2}`,
			redactions: []compare.Redaction{red("/a~1b", "number")},
			equal:      true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := compare.Compare(parse(t, tt.want), parse(t, tt.got), tt.redactions)
			if tt.equal {
				if m != nil {
					t.Fatalf("want equal, got a mismatch: %v\n%s", m, m.Diff)
				}
				return
			}
			if m == nil {
				t.Fatalf("want a mismatch at %q, got equal", tt.path)
			}
			if m.Path != tt.path {
				t.Errorf("Path = %q, want %q (%v)", m.Path, tt.path, m)
			}
			if tt.wantV != "" && m.Want != tt.wantV {
				t.Errorf("Want = %q, want %q", m.Want, tt.wantV)
			}
			if tt.gotV != "" && m.Got != tt.gotV {
				t.Errorf("Got = %q, want %q", m.Got, tt.gotV)
			}
			if m.Diff == "" {
				t.Error("no diff")
			}
			shown := tt.path
			if shown == "" {
				shown = "/"
			}
			if !strings.HasPrefix(m.Error(), shown+": want ") {
				t.Errorf("Error() = %q, want it to start with the path %q", m.Error(), shown)
			}
		})
	}
}

// TestCompareSymmetric: swapping want and got finds the same path.
func TestCompareSymmetric(t *testing.T) {
	pairs := [][2]string{
		{`{"a":[1,{"b":"\ud83d"}],"c":1}`, `{"a":[1,{"b":"\ud83e"}],"c":2}`},
		{`{"x":1}`, `{"x":1,"y":2}`},
	}
	for _, p := range pairs {
		m1 := compare.Compare(parse(t, p[0]), parse(t, p[1]), nil)
		m2 := compare.Compare(parse(t, p[1]), parse(t, p[0]), nil)
		if m1 == nil || m2 == nil || m1.Path != m2.Path || m1.Want != m2.Got {
			t.Errorf("%s vs %s: %v / %v", p[0], p[1], m1, m2)
		}
	}
}

func TestParseRedaction(t *testing.T) {
	r, err := compare.ParseRedaction(parse(t, `{"path":"/messages/*/timestamp","as":"number"}`), "/redact/0")
	if err != nil || r.Path != "/messages/*/timestamp" || r.As != "number" {
		t.Fatalf("got %+v, %v", r, err)
	}
	for in, want := range map[string]string{
		`{"path":"messages","as":"number"}`: "/redact/0/path",
		`{"path":"","as":"number"}`:         "/redact/0/path",
		`{"path":"/t","as":"integer"}`:      "/redact/0/as",
		`{"path":"/t"}`:                     "as",
		`{"as":"number"}`:                   "path",
		`{"path":1,"as":"number"}`:          "path",
	} {
		_, err := compare.ParseRedaction(parse(t, in), "/redact/0")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseRedaction(%s) = %v, want an error naming %s", in, err, want)
		}
	}
}

// TestDiffs: every difference, in document order (the wanted document's
// member order, then members only got has, in got's order; arrays by
// index), with values as JSON.
func TestDiffs(t *testing.T) {
	tests := []struct {
		name      string
		want, got string
		rules     compare.Rules
		diffs     []string // "path want got", absent sides as "-"
	}{
		{name: "equal", want: `{"a":1}`, got: `{"a":1.0}`},
		{
			name: "document order, not alphabetical",
			want: `{"z":1,"a":{"y":true,"b":null},"m":[1,2]}`,
			got:  `{"a":{"b":0,"y":false},"m":[1],"z":2,"extra2":"e","extra1":[]}`,
			diffs: []string{
				`/z 1 2`, `/a/y true false`, `/a/b null 0`, `/m/1 2 -`, `/extra2 - "e"`, `/extra1 - []`,
			},
		},
		{
			name:  "values as JSON, not Go",
			want:  `{"n":30,"o":{"k":"v"},"s":"\ud83d"}`,
			got:   `{"n":"30","o":[1],"s":"x"}`,
			diffs: []string{`/n 30 "30"`, `/o {"k":"v"} [1]`, `/s "\ud83d" "x"`},
		},
		{
			name:  "duplicate keys: the last one counts, at the first one's place",
			want:  `{"a":1,"b":2,"a":3}`,
			got:   `{"b":2,"a":4}`,
			diffs: []string{`/a 3 4`},
		},
		{
			name:  "root",
			want:  `[1]`,
			got:   `{}`,
			diffs: []string{` [1] {}`},
		},
		{
			name:  "runtime text fits its pattern",
			want:  `{"e":"Could not parse: Unexpected end of JSON input; data=x"}`,
			got:   `{"e":"Could not parse: unexpected EOF; data=x"}`,
			rules: compare.Rules{RuntimeTexts: []compare.RuntimeText{{Path: "/e", Pattern: "Could not parse: {runtime}; data=x"}}},
		},
		{
			name:  "runtime text whose frame differs shows the pattern",
			want:  `{"e":"Could not parse: Unexpected end of JSON input; data=x"}`,
			got:   `{"e":"parse error: unexpected EOF"}`,
			rules: compare.Rules{RuntimeTexts: []compare.RuntimeText{{Path: "/e", Pattern: "Could not parse: {runtime}; data=x"}}},
			diffs: []string{`/e "Could not parse: {runtime}; data=x" "parse error: unexpected EOF"`},
		},
		{
			name:  "runtime text must still be a string",
			want:  `{"e":"Unexpected end of JSON input"}`,
			got:   `{"e":null}`,
			rules: compare.Rules{RuntimeTexts: []compare.RuntimeText{{Path: "/e", Pattern: "{runtime}"}}},
			diffs: []string{`/e "{runtime}" null`},
		},
		{
			name:  "runtime text must be there",
			want:  `{"e":"Unexpected end of JSON input"}`,
			got:   `{}`,
			rules: compare.Rules{RuntimeTexts: []compare.RuntimeText{{Path: "/e", Pattern: "{runtime}"}}},
			diffs: []string{`/e "{runtime}" -`},
		},
		{
			name:  "strict compares runtime texts exactly",
			want:  `{"e":"Unexpected end of JSON input"}`,
			got:   `{"e":"unexpected EOF"}`,
			rules: compare.Rules{RuntimeTexts: []compare.RuntimeText{{Path: "/e", Pattern: "{runtime}"}}, Strict: true},
			diffs: []string{`/e "Unexpected end of JSON input" "unexpected EOF"`},
		},
		{
			name:  "an element more is one difference, at its index in got",
			want:  `{"m":[{"r":"u","t":1},{"r":"a","t":2},{"r":"u","t":3}]}`,
			got:   `{"m":[{"r":"u","t":1},{"r":"s","t":2},{"r":"a","t":2},{"r":"u","t":3}]}`,
			diffs: []string{`/m/1 - {"r":"s","t":2}`},
		},
		{
			name:  "an element less is one difference, at its index in want",
			want:  `["a","b","c","d"]`,
			got:   `["a","c","d"]`,
			diffs: []string{`/1 "b" -`},
		},
		{
			name:  "elements align on what the redactions leave",
			want:  `[{"k":"a","ts":1},{"k":"b","ts":2},{"k":"c","ts":3}]`,
			got:   `[{"k":"x","ts":7},{"k":"a","ts":8},{"k":"b","ts":9},{"k":"c","ts":10}]`,
			rules: compare.Rules{Redactions: []compare.Redaction{{Path: "/*/ts", As: "number"}}},
			diffs: []string{`/0 - {"k":"x","ts":7}`},
		},
		{
			name:  "an aligned element is checked where want has it",
			want:  `[1,2,{"e":"Unexpected end of JSON input"}]`,
			got:   `[0,1,2,{"e":"unexpected EOF"}]`,
			rules: compare.Rules{RuntimeTexts: []compare.RuntimeText{{Path: "/2/e", Pattern: "{runtime}"}}},
			diffs: []string{`/0 - 0`},
		},
		{
			name:  "between aligned elements, elements pair by index and the surplus is whole",
			want:  `[1,{"a":1},9]`,
			got:   `[1,{"a":2},{"b":3},9]`,
			diffs: []string{`/1/a 1 2`, `/2 - {"b":3}`},
		},
		{
			name:  "several runs of elements more and less",
			want:  `["a","b","c","d","e","f"]`,
			got:   `["a","x","c","d","f","y","z"]`,
			diffs: []string{`/1 "b" "x"`, `/4 "e" -`, `/5 - "y"`, `/6 - "z"`},
		},
		{
			name:  "a duration is any non-negative integer",
			want:  `{"d":5,"e":5,"f":5,"g":5}`,
			got:   `{"d":1234,"e":-1,"f":1.5,"g":"5"}`,
			rules: compare.Rules{Redactions: []compare.Redaction{{Path: "/*", As: "duration"}}},
			diffs: []string{`/e "a duration (volatile)" -1`, `/f "a duration (volatile)" 1.5`, `/g "a duration (volatile)" "5"`},
		},
		{
			name:  "a redacted member the golden lacks is a difference by its presence",
			want:  `{}`,
			got:   `{"d":3}`,
			rules: compare.Rules{Redactions: []compare.Redaction{{Path: "/d", As: "duration"}}},
			diffs: []string{`/d - 3`},
		},
		{
			name:  "a redacted member the output lacks is a difference",
			want:  `{"d":3}`,
			got:   `{}`,
			rules: compare.Rules{Redactions: []compare.Redaction{{Path: "/d", As: "duration"}}},
			diffs: []string{`/d "a duration (volatile)" -`},
		},
		{
			name:  "arrays of one length pair by index",
			want:  `[1,2,3]`,
			got:   `[2,3,4]`,
			diffs: []string{`/0 1 2`, `/1 2 3`, `/2 3 4`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range compare.Diffs(parse(t, tt.want), parse(t, tt.got), tt.rules) {
				got = append(got, d.Path+" "+side(d.Want)+" "+side(d.Got))
			}
			if strings.Join(got, "\n") != strings.Join(tt.diffs, "\n") {
				t.Errorf("diffs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.diffs, "\n"))
			}
			m := compare.Check(parse(t, tt.want), parse(t, tt.got), tt.rules)
			if (m == nil) != (len(tt.diffs) == 0) || m != nil && len(m.Diffs) != len(tt.diffs) {
				t.Errorf("Check = %v, want %d diffs", m, len(tt.diffs))
			}
		})
	}
}

// TestDiffsLargeMiddle checks that arrays whose differing middles are too
// large to align pairwise are still compared, element by element.
func TestDiffsLargeMiddle(t *testing.T) {
	var want, got []string
	for i := range 100 {
		want = append(want, strconv.Itoa(i))
		got = append(got, strconv.Itoa(i+1000))
	}
	got = append(got, "0")
	diffs := compare.Diffs(parse(t, "["+strings.Join(want, ",")+"]"), parse(t, "["+strings.Join(got, ",")+"]"), compare.Rules{})
	if len(diffs) != 101 || diffs[0].Path != "/0" || diffs[100].Path != "/100" || !diffs[100].Want.IsAbsent() {
		t.Errorf("got %d diffs (first %+v), want 100 pairs by index and one element more at /100", len(diffs), diffs[0])
	}
}

func side(v jsonv.Value) string {
	if v.IsAbsent() {
		return "-"
	}
	return v.String()
}

func TestFormatDiffs(t *testing.T) {
	diffs := compare.Diffs(parse(t, `{"a":[1,2,3],"b":"x"}`), parse(t, `{"a":[1,5],"c":{"k":null}}`), compare.Rules{})
	want := "/a/1\n  - 2\n  + 5\n/a/2\n  - 3\n/b\n  - \"x\"\n… and 1 more difference\n"
	if got := compare.FormatDiffs(diffs, 3); got != want {
		t.Errorf("FormatDiffs(3) =\n%s\nwant\n%s", got, want)
	}
	if got := compare.FormatDiffs(diffs, 0); !strings.HasSuffix(got, "/c\n  + {\"k\":null}\n") {
		t.Errorf("FormatDiffs(0) =\n%s", got)
	}
}

func TestMatchesRuntimeText(t *testing.T) {
	for _, tt := range []struct {
		pattern, s string
		ok         bool
	}{
		{"{runtime}", "", true},
		{"{runtime}", "anything", true},
		{"pre: {runtime}", "pre: x", true},
		{"pre: {runtime}", "pre:x", false},
		{"{runtime}; post", "x; post", true},
		{"a{runtime}b{runtime}c", "a1b2c", true},
		{"a{runtime}b{runtime}c", "a12c", false},
		{"ab{runtime}ba", "aba", false}, // prefix and suffix must not overlap
	} {
		if got := compare.MatchesRuntimeText(tt.pattern, tt.s); got != tt.ok {
			t.Errorf("MatchesRuntimeText(%q, %q) = %v, want %v", tt.pattern, tt.s, got, tt.ok)
		}
	}
}

func TestSplitGolden(t *testing.T) {
	g := parse(t, `{"message":{"e":"x"},"runtimeTexts":[{"path":"/message/e","pattern":"{runtime}"}]}`)
	out, texts, err := compare.SplitGolden(g)
	if err != nil || out.String() != `{"message":{"e":"x"}}` || len(texts) != 1 || texts[0] != (compare.RuntimeText{Path: "/message/e", Pattern: "{runtime}"}) {
		t.Fatalf("SplitGolden = %s, %v, %v", out, texts, err)
	}
	back, err := compare.JoinGolden(out, texts)
	if err != nil || back.String() != g.String() {
		t.Errorf("JoinGolden = %s, %v", back, err)
	}
	for in, ptr := range map[string]string{
		`{"runtimeTexts":{}}`: "/runtimeTexts",
		`{"runtimeTexts":[{"path":"e","pattern":"{runtime}"}]}`:        "/runtimeTexts/0/path",
		`{"runtimeTexts":[{"path":"/e","pattern":"no marker"}]}`:       "/runtimeTexts/0/pattern",
		`{"runtimeTexts":[{"path":"/e","pattern":"{runtime}","x":1}]}`: "/runtimeTexts/0/x",
	} {
		if _, _, err := compare.SplitGolden(parse(t, in)); err == nil || !strings.Contains(err.Error(), ptr) {
			t.Errorf("SplitGolden(%s) = %v, want an error at %s", in, err, ptr)
		}
	}
	if out, texts, err := compare.SplitGolden(parse(t, `[1]`)); err != nil || texts != nil || out.String() != "[1]" {
		t.Errorf("array golden: %s %v %v", out, texts, err)
	}
}

// TestCompareHugeNumbers: an output full of 1e999999 compares with its
// golden at once: numbers are compared as text (jsonv.NumbersEqual), never
// built, so an implementation cannot spend the runner's CPU outside the
// case deadline.
func TestCompareHugeNumbers(t *testing.T) {
	want, _ := jsonv.Parse([]byte(`{"n": [` + strings.Repeat(`1e999999, `, 1000) + `1e999999999]}`))
	got, _ := jsonv.Parse([]byte(`{"n": [` + strings.Repeat(`1e999998, `, 1000) + `10e999999998]}`))
	if d := compare.Diffs(want, got, compare.Rules{}); len(d) != 1000 {
		t.Errorf("%d differences, want 1000", len(d))
	}
}

// TestJSONTexts: a string the rules say holds JSON text compares as the JSON
// it holds when both sides parse as an object or an array; anything else,
// and every other string, compares as text.
func TestJSONTexts(t *testing.T) {
	rules := compare.Rules{JSONTexts: []compare.JSONText{
		{Path: "/events/*/delta", Type: "toolcall_delta"},
		{Path: "/body/messages/*/tool_calls/*/function/arguments"},
	}}
	delta := func(typ, d string) string {
		b, _ := json.Marshal(d)
		return `{"events":[{"type":"` + typ + `","delta":` + string(b) + `}]}`
	}
	args := func(a string) string {
		b, _ := json.Marshal(a)
		return `{"body":{"messages":[{"tool_calls":[{"function":{"arguments":` + string(b) + `}}]}]}}`
	}
	tests := []struct {
		name      string
		want, got string
		paths     []string // where they differ
	}{
		{"keys in another order", delta("toolcall_delta", `{"command":"ls","timeout":1.5,"n":100}`), delta("toolcall_delta", `{"n":100,"command":"ls","timeout":1.5}`), nil},
		{"spacing and number spelling", delta("toolcall_delta", `{"a":[1,2],"b":1.50}`), delta("toolcall_delta", `{ "b": 1.5, "a": [ 1, 2 ] }`), nil},
		{"nested keys", args(`{"o":{"x":1,"y":2}}`), args(`{"o":{"y":2,"x":1}}`), nil},
		{"a value differs", delta("toolcall_delta", `{"a":1,"b":2}`), delta("toolcall_delta", `{"b":3,"a":1}`), []string{"/events/0/delta"}},
		{"a member more", args(`{"a":1}`), args(`{"a":1,"b":null}`), []string{"/body/messages/0/tool_calls/0/function/arguments"}},
		{"fragments compare as text", delta("toolcall_delta", `{"path":`), delta("toolcall_delta", `{ "path":`), []string{"/events/0/delta"}},
		{"one side not JSON", delta("toolcall_delta", `{"a":1}`), delta("toolcall_delta", `{a:1}`), []string{"/events/0/delta"}},
		{"scalars compare as text", delta("toolcall_delta", `1.0`), delta("toolcall_delta", `1`), []string{"/events/0/delta"}},
		{"another event type compares as text", delta("text_delta", `{"a":1,"b":2}`), delta("text_delta", `{"b":2,"a":1}`), []string{"/events/0/delta"}},
		{"lone surrogates survive", args(`{"s":"\ud83d","t":1}`), args(`{"t":1,"s":"\ud83d"}`), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := jsonv.Parse([]byte(tt.want))
			if err != nil {
				t.Fatal(err)
			}
			g, err := jsonv.Parse([]byte(tt.got))
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, d := range compare.Diffs(w, g, rules) {
				paths = append(paths, d.Path)
			}
			if diff := cmp.Diff(tt.paths, paths); diff != "" {
				t.Errorf("differing paths (-want +got):\n%s", diff)
			}
			if d := compare.Diffs(w, g, compare.Rules{}); len(d) == 0 && tt.want != tt.got {
				t.Error("equal without the rule: the case tests nothing")
			}
		})
	}
}
