package expect_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/piconform/piconform/harness/expect"
)

const sample = `# Known failures of Pi 0.73.1.

cost/reference-example-with-1h  # cacheWrite1h is priced like cacheWrite
normalize/images-*	#	images are not collapsed
   # an indented comment
sanitize/?one-high-removed # one character wildcard
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
	}
	if len(f.Entries) != len(want) {
		t.Fatalf("entries %+v", f.Entries)
	}
	for i := range want {
		if f.Entries[i] != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, f.Entries[i], want[i])
		}
	}
	if f.Path != "exp.txt" {
		t.Errorf("Path %q", f.Path)
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
		{"cost/a cost/b # two\n", "exp.txt:1: \"cost/a cost/b\" is not one case id glob"},
		{"\n\ncost/[ # bad glob\n", "exp.txt:3: bad glob"},
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
	if len(u) != 2 || u[0].Line != 3 || u[1].Line != 6 {
		t.Errorf("Unmatched = %+v, want lines 3 and 6", u)
	}
	if u := f.Unmatched([]string{"cost/reference-example-with-1h", "normalize/images-a", "sanitize/lone-high-removed"}); len(u) != 0 {
		t.Errorf("Unmatched = %+v, want none", u)
	}
}

func TestRender(t *testing.T) {
	old, err := expect.Parse("exp.txt", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	failures := []expect.Failure{
		{ID: "normalize/images-b", Message: "second of the glob"},
		{ID: "convert/new-failure", Message: "/messages/0/content: want\n  \"a\", got \"b\""},
		{ID: "normalize/images-a", Message: "first of the glob"},
		{ID: "cost/reference-example-with-1h", Message: "still failing"},
	}
	got := string(expect.Render(old, failures))
	want := "# Expected failures: case id glob, then # and why the implementation fails it.\n" +
		"convert/new-failure  # TODO explain: /messages/0/content: want \"a\", got \"b\"\n" +
		"cost/reference-example-with-1h  # cacheWrite1h is priced like cacheWrite\n" +
		"normalize/images-*  # images are not collapsed\n"
	if got != want {
		t.Errorf("Render:\n%s\nwant:\n%s", got, want)
	}
	// What Render writes parses, and matches every failure.
	f, err := expect.Parse("new.txt", []byte(got))
	if err != nil {
		t.Fatal(err)
	}
	for _, fl := range failures {
		if _, ok := f.Match(fl.ID); !ok {
			t.Errorf("the rendered file does not match %s", fl.ID)
		}
	}
	// An entry that no longer matches a failure is dropped.
	if strings.Contains(got, "sanitize/") {
		t.Error("a stale entry was kept")
	}
	// Without an old file every failure gets a TODO.
	if got := string(expect.Render(nil, []expect.Failure{{ID: "normalize/images-b", Message: "second of the glob"}})); !strings.Contains(got, "normalize/images-b  # TODO explain: second of the glob\n") {
		t.Errorf("Render(nil):\n%s", got)
	}
}

// TestRenderLongMessage: a long message is cut, and the cut never splits a
// UTF-8 character, so the file stays valid text that Parse reads back.
func TestRenderLongMessage(t *testing.T) {
	for _, msg := range []string{strings.Repeat("a", 500), strings.Repeat("é", 300), "x" + strings.Repeat("😀", 100)} {
		got := expect.Render(nil, []expect.Failure{{ID: "cost/a", Message: msg}})
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
