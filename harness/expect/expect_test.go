package expect_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/harness/expect"
)

const sample = `# Known failures of Pi 0.73.1.

cost/reference-example-with-1h  # cacheWrite1h is priced like cacheWrite
normalize/images-*	#	images are not collapsed
   # an indented comment
sanitize/?one-high-removed # one character wildcard
wire/a-*  /message/durationMs,/events/*/message/**  # paths
`

func TestParse(t *testing.T) {
	f, err := expect.Parse("exp.txt", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	want := []expect.Entry{
		{Pattern: "cost/reference-example-with-1h", Reason: "cacheWrite1h is priced like cacheWrite", Line: 3},
		{Pattern: "normalize/images-*", Reason: "images are not collapsed", Line: 4},
		{Pattern: "sanitize/?one-high-removed", Reason: "one character wildcard", Line: 6},
		{Pattern: "wire/a-*", Paths: []string{"/message/durationMs", "/events/*/message/**"}, Reason: "paths", Line: 7},
	}
	if d := cmp.Diff(want, f.Entries); d != "" {
		t.Errorf("entries (-want +got):\n%s", d)
	}
	if f.Path != "exp.txt" {
		t.Errorf("Path %q", f.Path)
	}
}

// longPaths is a path list of about 200 KB, as --write-expect writes for a
// case that differs at thousands of paths.
var longPaths = strings.Repeat("/requests/0/body/messages/0/content/0/text,", 5000) + "/x"

func TestParseLongLine(t *testing.T) {
	f, err := expect.Parse("exp.txt", []byte("wire/a "+longPaths+" # many paths\n"))
	if err != nil || len(f.Entries) != 1 || len(f.Entries[0].Paths) != 5001 {
		t.Fatalf("Parse = %v, %v", f, err)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		data string
		want string
	}{
		{"# c\n\ncost/a\n", "exp.txt:3:"},
		{"cost/a #\n", "exp.txt:1:"},
		{"cost/a #   \n", "no reason"},
		{"# c\ncost/a  # ok\ncost/b\n", "exp.txt:3: \"cost/b\" has no reason"},
		{"cost/a cost/b /x # three\n", "exp.txt:1: \"cost/a cost/b /x\" is not a case id glob and an optional list of paths"},
		{"\n\ncost/[ # bad glob\n", "exp.txt:3: bad case glob"},
		{"cost/a message/x # no slash\n", "exp.txt:1: bad path glob \"message/x\": a path glob is a JSON Pointer"},
		{"cost/a /x,,/y # empty\n", "exp.txt:1: bad path glob \"\""},
		{"cost/a /x/a** # half\n", "** must be a whole segment"},
		{"cost/a /x/[ # bad\n", "exp.txt:1: bad path glob \"/x/[\""},
		// A line longer than bufio.Scanner's limit is read, and a later
		// line's error still names its number.
		{"wire/a " + longPaths + " # many paths\nwire/b\n", "exp.txt:2: \"wire/b\" has no reason"},
	}
	for _, tt := range tests {
		_, err := expect.Parse("exp.txt", []byte(tt.data))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", tt.data, err, tt.want)
		}
	}
}

func TestRead(t *testing.T) {
	p := filepath.Join(t.TempDir(), "expected.txt")
	if err := os.WriteFile(p, []byte("cost/a  # why\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := expect.Read(p)
	if err != nil || len(f.Entries) != 1 || f.Entries[0].Reason != "why" || f.Path != p {
		t.Fatalf("Read: %+v, %v", f, err)
	}
	if _, err := expect.Read(filepath.Join(t.TempDir(), "missing.txt")); err == nil {
		t.Error("Read of a missing file: no error")
	}
}

func TestMatch(t *testing.T) {
	f, err := expect.Parse("exp.txt", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	for id, line := range map[string]int{
		"cost/reference-example-with-1h":    3,
		"normalize/images-collapse-user":    4,
		"normalize/images-":                 4,
		"sanitize/lone-high-removed":        6,
		"cost/reference-example-without-1h": 0,
		"normalize/thinking-list":           0,
		"sanitize/alone-high-removed":       0,
		"other/normalize/images-x":          0,
	} {
		e, ok := f.Match(id)
		if ok != (line != 0) || e.Line != line {
			t.Errorf("Match(%q) = %+v, %v; want line %d", id, e, ok, line)
		}
	}
	// A nil file matches nothing.
	var none *expect.File
	if _, ok := none.Match("cost/a"); ok {
		t.Error("nil file matched")
	}
	if u := none.Unmatched([]string{"cost/a"}); u != nil {
		t.Errorf("nil file: Unmatched %v", u)
	}
}

func TestUnmatched(t *testing.T) {
	f, err := expect.Parse("exp.txt", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	u := f.Unmatched([]string{"normalize/images-a", "normalize/thinking-b"})
	if len(u) != 3 || u[0].Line != 3 || u[1].Line != 6 || u[2].Line != 7 {
		t.Errorf("Unmatched = %+v, want lines 3, 6 and 7", u)
	}
	if u := f.Unmatched([]string{"cost/reference-example-with-1h", "normalize/images-a", "sanitize/lone-high-removed", "wire/a-b"}); len(u) != 0 {
		t.Errorf("Unmatched = %+v, want none", u)
	}
}

func TestRender(t *testing.T) {
	old, err := expect.Parse("exp.txt", []byte(`# Known failures.

# cause A
cost/reference-example-with-1h  # cacheWrite1h is priced like cacheWrite
# cause B, one line for many cases
normalize/images-*  /messages/*/content  # images are not collapsed
wire/x  /message/durationMs,/message/gone  # durationMs is new
wire/*  /requests/0/body/max_tokens  # max_tokens
sanitize/?one-high-removed # stale
wire/crashes  # crashes
`))
	if err != nil {
		t.Fatal(err)
	}
	failures := []expect.Failure{
		{ID: "normalize/images-b", Outcome: "fail", Paths: []string{"/messages/1/content", "/messages/2/role"}, Message: "m"},
		{ID: "convert/new-failure", Outcome: "fail", Paths: []string{"/messages/0/content"}, Message: "/messages/0/content: want\n  \"a\", got \"b\""},
		{ID: "normalize/images-a", Outcome: "fail", Paths: []string{"/messages/0/content"}, Message: "first of the glob"},
		{ID: "cost/reference-example-with-1h", Outcome: "fail", Paths: []string{"/usage/cost/cacheWrite", "/usage/cost/total"}},
		{ID: "wire/x", Outcome: "fail", Paths: []string{"/requests/0/body/max_tokens", "/message/durationMs", "/events/3/message/durationMs", "/events/7/message/durationMs"}},
		{ID: "wire/y", Outcome: "fail", Paths: []string{"/requests/0/body/max_tokens"}},
		{ID: "wire/crashes", Outcome: "crash", Message: "exited"},
		{ID: "wire/z", Outcome: "timeout", Message: "no answer"},
	}
	got := string(expect.Render(old, failures, nil))
	want := `# Known failures.

# cause A
cost/reference-example-with-1h  /usage/cost/cacheWrite,/usage/cost/total  # cacheWrite1h is priced like cacheWrite
# cause B, one line for many cases
normalize/images-*  /messages/*/content  # images are not collapsed
wire/x  /message/durationMs,/events/3/message/durationMs,/events/7/message/durationMs  # durationMs is new
wire/*  /requests/0/body/max_tokens  # max_tokens
wire/crashes  # crashes
convert/new-failure  /messages/0/content  # TODO explain: /messages/0/content: want "a", got "b"
normalize/images-b  /messages/2/role  # TODO explain: m
wire/z  # TODO explain: no answer
`
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Render (-want +got):\n%s", d)
	}
	// What Render writes parses, and expects every failure.
	f, err := expect.Parse("new.txt", []byte(got))
	if err != nil {
		t.Fatal(err)
	}
	for _, fl := range failures {
		if v := f.Judge(fl.ID, fl.Outcome, fl.Paths); !v.Expected {
			t.Errorf("the rendered file does not expect %s: %s", fl.ID, v.Why)
		}
	}
	// Rendering again changes nothing.
	if again := string(expect.Render(f, failures, nil)); again != got {
		t.Errorf("Render is not stable:\n%s", cmp.Diff(got, again))
	}
	// Without an old file every failure gets a TODO, and a header.
	got = string(expect.Render(nil, []expect.Failure{{ID: "normalize/images-b", Message: "second of the glob"}}, nil))
	if !strings.HasPrefix(got, "# ") || !strings.Contains(got, "\nnormalize/images-b  # TODO explain: second of the glob\n") {
		t.Errorf("Render(nil):\n%s", got)
	}
}

// TestRenderPartialRun: a run of some cases (--case) rewrites only what it
// can judge: the entries of cases it left out stay as they were.
func TestRenderPartialRun(t *testing.T) {
	old, err := expect.Parse("exp.txt", []byte(`wire/a  /x,/y  # a
wire/b  /x  # b, not run
wire/*  /z  # many, some not run
wire/c  # whole, not run
wire/d  /x  # d, ran and passes
`))
	if err != nil {
		t.Fatal(err)
	}
	failures := []expect.Failure{
		{ID: "wire/a", Outcome: "fail", Paths: []string{"/x"}},
		{ID: "wire/e", Outcome: "fail", Paths: []string{"/z", "/w"}, Message: "new"},
	}
	got := string(expect.Render(old, failures, []string{"wire/b", "wire/c"}))
	want := `wire/a  /x  # a
wire/b  /x  # b, not run
wire/*  /z  # many, some not run
wire/c  # whole, not run
wire/e  /w  # TODO explain: new
`
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Render (-want +got):\n%s", d)
	}
}

func TestPathMatch(t *testing.T) {
	tests := []struct {
		glob, path string
		want       bool
	}{
		{"/message/usage/*", "/message/usage/input", true},
		{"/message/usage/*", "/message/usage/cost/total", false},
		{"/message/usage/*", "/message/usage", false},
		{"/requests/0/body/**", "/requests/0/body", true},
		{"/requests/0/body/**", "/requests/0/body/messages/3/content", true},
		{"/requests/0/body/**", "/requests/1/body/x", false},
		{"/requests/*/headers/x-*", "/requests/2/headers/x-stainless-os", true},
		{"/events/**/durationMs", "/events/3/message/durationMs", true},
		{"/events/**/durationMs", "/events/durationMs", true},
		{"/events/**/durationMs", "/events/3/message/durationMsX", false},
		{"/**", "", true},
		{"/**", "/a/b", true},
		{"/*", "", false},
		{"/a", "/a", true},
		{"/a", "/a/b", false},
		{"/a~1b", "/a~1b", true},
		{"a", "a", false},
	}
	for _, tt := range tests {
		if got := expect.PathMatch(tt.glob, tt.path); got != tt.want {
			t.Errorf("PathMatch(%q, %q) = %v, want %v", tt.glob, tt.path, got, tt.want)
		}
	}
}

func TestJudge(t *testing.T) {
	f, err := expect.Parse("exp.txt", []byte(`wire/a  /message/durationMs  # one
wire/*  /requests/0/body/**  # two
cost/b  # whole case
`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id, outcome string
		paths       []string
		expected    bool
		unpinned    []string
		why         string
	}{
		{"wire/a", "fail", []string{"/message/durationMs"}, true, nil, ""},
		{"wire/a", "fail", []string{"/message/durationMs", "/requests/0/body/max_tokens"}, true, nil, ""},
		{"wire/a", "fail", []string{"/message/durationMs", "/message/usage/input"}, false, []string{"/message/usage/input"}, "new difference at /message/usage/input, which the expected-failure entry at exp.txt:1 does not name"},
		{"wire/b", "fail", []string{"/message/durationMs"}, false, []string{"/message/durationMs"}, "exp.txt:2"},
		{"wire/a", "timeout", nil, false, nil, "not timeout"},
		{"wire/a", "fail", nil, false, nil, "without naming a differing path"},
		{"cost/b", "crash", nil, true, nil, ""},
		{"cost/b", "fail", []string{"/anything"}, true, nil, ""},
	}
	for _, tt := range tests {
		v := f.Judge(tt.id, tt.outcome, tt.paths)
		if v.Expected != tt.expected || v.Entry == nil || !cmp.Equal(v.Unpinned, tt.unpinned) || !strings.Contains(v.Why, tt.why) {
			t.Errorf("Judge(%s, %s, %v) = %+v; want expected %v, unpinned %v, why containing %q", tt.id, tt.outcome, tt.paths, v, tt.expected, tt.unpinned, tt.why)
		}
	}
	if v := f.Judge("convert/x", "fail", []string{"/a"}); v.Entry != nil || v.Expected {
		t.Errorf("a case no entry matches: %+v", v)
	}
}

func TestCollapsePaths(t *testing.T) {
	tests := []struct {
		in, want []string
	}{
		{nil, []string{}},
		{[]string{"/a/b", "/a/b", "/c"}, []string{"/a/b", "/c"}},
		// Up to MaxPathsPerEntry paths: as the run saw them, never widened.
		{[]string{"/events/3/message/x", "/message/x", "/events/9/message/x"}, []string{"/events/3/message/x", "/message/x", "/events/9/message/x"}},
		{[]string{"/requests/0/body/a", "/requests/1/body/a"}, []string{"/requests/0/body/a", "/requests/1/body/a"}},
		{[]string{"/requests/0/body/tools/0/strict"}, []string{"/requests/0/body/tools/0/strict"}},
		{[]string{""}, []string{"/**"}},
		// More: indices fold first.
		{
			[]string{"/events/1/x", "/events/2/x", "/events/3/x", "/events/4/x", "/events/5/x", "/events/6/x", "/message/x"},
			[]string{"/events/*/x", "/message/x"},
		},
		{
			// Globs another one covers go.
			[]string{"/m/1/a", "/m/2/b", "/m/3/c", "/m/4/d", "/m/4/content/0/x", "/m/4/content/0/y", "/m/11", "/n/1", "/o/1", "/p/1"},
			[]string{"/m/**", "/n/1", "/o/1", "/p/1"},
		},
		{
			[]string{"/requests/0/body/a", "/requests/0/body/b", "/requests/0/body/c", "/requests/0/body/d", "/requests/0/headers/x", "/message/y", "/message/z"},
			[]string{"/requests/0/body/**", "/requests/0/headers/x", "/message/y", "/message/z"},
		},
		{
			[]string{"/a/1", "/b/1", "/c/1", "/d/1", "/e/1", "/f/1", "/g/1"},
			[]string{"/a/1", "/b/1", "/c/1", "/d/1", "/e/1", "/f/1", "/g/1"}, // nothing shared to fold
		},
		{
			// Keys that hold the file's syntax or glob metacharacters.
			[]string{"/m/1/r,s", "/m/a b#c", "/m/x*y"},
			[]string{"/m/1/r?s", "/m/a?b?c", `/m/x\*y`},
		},
	}
	for _, tt := range tests {
		got := expect.CollapsePaths(tt.in)
		if len(got) == 0 && len(tt.want) == 0 {
			continue
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("CollapsePaths(%q) (-want +got):\n%s", tt.in, d)
		}
		for _, p := range tt.in {
			if !slices.ContainsFunc(got, func(g string) bool { return expect.PathMatch(g, p) }) {
				t.Errorf("CollapsePaths(%q) = %q does not match %q", tt.in, got, p)
			}
		}
		if len(tt.in) > 0 {
			// The file reads back what Render writes.
			rendered := expect.Render(nil, []expect.Failure{{ID: "cost/a", Message: "m", Paths: tt.in}}, nil)
			if f, err := expect.Parse("exp.txt", rendered); err != nil || len(f.Entries) != 1 || !slices.Equal(f.Entries[0].Paths, got) {
				t.Errorf("Render then Parse of %q: %v, %+v", tt.in, err, f)
			}
		}
	}
}

// TestRenderLongMessage: a long message is cut, and the cut never splits a
// UTF-8 character, so the file stays valid text that Parse reads back.
func TestRenderLongMessage(t *testing.T) {
	for _, msg := range []string{strings.Repeat("a", 500), strings.Repeat("é", 300), "x" + strings.Repeat("😀", 100)} {
		got := expect.Render(nil, []expect.Failure{{ID: "cost/a", Message: msg}}, nil)
		if !utf8.Valid(got) {
			t.Errorf("Render wrote invalid UTF-8 for a message of %d bytes: %q", len(msg), got)
		}
		if len(got) > 400 {
			t.Errorf("Render wrote %d bytes: the message was not cut", len(got))
		}
		f, err := expect.Parse("x.txt", got)
		if err != nil || len(f.Entries) != 1 {
			t.Errorf("Parse(Render) = %+v, %v", f, err)
		}
	}
}
