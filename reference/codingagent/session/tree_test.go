package session_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/piconform/piconform/reference/codingagent/session"
	"github.com/piconform/piconform/reference/jsonv"
)

// at is an entry of the given id, parent (JSON) and timestamp (JSON).
func at(id, parent, ts string) string {
	return fmt.Sprintf(`{"type":"message","id":%q,"parentId":%s,"timestamp":%s,"message":{"role":"user","content":"x","timestamp":1}}`, id, parent, ts)
}

func loadEntries(t *testing.T, text string) []*session.Entry {
	t.Helper()
	entries, err := session.LoadEntries(text, session.Options{NewID: func() string { return "id" }})
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// TestTree: SessionManager.getTree's nodes (entry indices, the header 0),
// children sorted by time. The orders with Invalid Dates are Node 22's
// (Array.prototype.sort of the same times).
func TestTree(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"by time", lines(header3, at("r", "null", `"2025-03-01"`),
			at("a", `"r"`, `"2025-03-04T10:00:00Z"`), at("b", `"r"`, `"Tue Mar 04 2025 09:00:00 GMT+0000"`), at("c", `"r"`, `1741075200000`)),
			`[{"entry":1,"children":[{"entry":4,"children":[]},{"entry":3,"children":[]},{"entry":2,"children":[]}]}]`},
		{"zones", lines(header3, at("r", "null", `"2025-03-01"`),
			at("a", `"r"`, `"Mar 4 2025 10:00 EST"`), at("b", `"r"`, `"2025-03-04T14:00:00Z"`), at("c", `"r"`, `"2025/03/04 16:00"`)),
			`[{"entry":1,"children":[{"entry":3,"children":[]},{"entry":2,"children":[]},{"entry":4,"children":[]}]}]`},
		{"invalid between", lines(header3, at("r", "null", `"2025-03-01"`),
			at("a", `"r"`, `"2025-03-04T10:00:00Z"`), at("b", `"r"`, `"not a date"`), at("c", `"r"`, `"2025-03-04T08:00:00Z"`)),
			`[{"entry":1,"children":[{"entry":2,"children":[]},{"entry":3,"children":[]},{"entry":4,"children":[]}]}]`},
		{"invalid first", lines(header3, at("r", "null", `"2025-03-01"`),
			at("a", `"r"`, `"x"`), at("b", `"r"`, `"2025-03-04T10:00:00Z"`), at("c", `"r"`, `"2025-03-04T08:00:00Z"`),
			at("d", `"r"`, `"y"`), at("e", `"r"`, `"2025-03-04T09:00:00Z"`)),
			`[{"entry":1,"children":[{"entry":2,"children":[]},{"entry":4,"children":[]},{"entry":6,"children":[]},{"entry":3,"children":[]},{"entry":5,"children":[]}]}]`},
		{"roots and orphans in file order", lines(header3, at("b", "null", `"2025-03-05"`), at("a", `"a"`, `"2025-03-04"`), at("c", `"gone"`, `"2025-03-03"`)),
			`[{"entry":1,"children":[]},{"entry":2,"children":[]},{"entry":3,"children":[]}]`},
		{"shared id", lines(header3, at("r", "null", `"2025-03-01"`), at("x", `"r"`, `"2025-03-04T10:00:00Z"`),
			at("y", `"r"`, `"2025-03-04T09:00:00Z"`), at("x", `"y"`, `"2025-03-04T08:00:00Z"`)),
			`[{"entry":1,"children":[{"entry":4,"children":[]},{"entry":3,"children":[{"entry":4,"children":[]}]}]}]`},
		{"header left out", lines(header3, at("r", "null", `"2025-03-01"`), header3),
			`[{"entry":1,"children":[]}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nodes, err := session.Tree(loadEntries(t, tc.text))
			if err != nil {
				t.Fatal(err)
			}
			if got := string(session.TreeJSON(nodes).AppendJSON(nil)); got != tc.want {
				t.Errorf("tree:\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestTreeFailures: a timestamp with no primitive value throws (only when
// a sort compares it: a lone child is never compared); a loop of shared
// ids is outside the model.
func TestTreeFailures(t *testing.T) {
	noString := `{"toString":1}`
	if _, err := session.Tree(loadEntries(t, lines(header3, at("r", "null", `"2025"`), at("a", `"r"`, noString), at("b", `"r"`, `"2025"`)))); !isThrown(err) {
		t.Errorf("no string form among two children: got %v, want a type-error", err)
	}
	if _, err := session.Tree(loadEntries(t, lines(header3, at("r", "null", `"2025"`), at("a", `"r"`, noString)))); err != nil {
		t.Errorf("no string form on a lone child: got %v, want none (never compared)", err)
	}
	loop := lines(header3, at("r", "null", `"2025"`), at("x", `"r"`, `"2025"`), at("y", `"x"`, `"2025"`), at("x", `"y"`, `"2025"`))
	if _, err := session.Tree(loadEntries(t, loop)); !errors.Is(err, session.ErrOutsideModel) {
		t.Errorf("a loop of shared ids: got %v, want ErrOutsideModel", err)
	}
}

func isThrown(err error) bool {
	th, ok := errors.AsType[*session.Thrown](err)
	return ok && th.Category == session.CategoryTypeError
}

func compaction(id, parent, ts string) string {
	return fmt.Sprintf(`{"type":"compaction","id":%q,"parentId":%s,"timestamp":%s,"summary":"s","firstKeptEntryId":"u1","tokensBefore":1}`, id, parent, ts)
}

// TestBeforeLatestCompaction: t <= the time of the last compaction on the
// branch from the last entry, with JavaScript's <= (each expectation as the
// real Pi's _checkCompaction answered in the session cases).
func TestBeforeLatestCompaction(t *testing.T) {
	const t10 = 1741082400000 // 2025-03-04T10:00:00Z
	base := lines(header3, at("u1", "null", `"2025-03-04T09:00:00Z"`), compaction("c1", `"u1"`, `"2025-03-04T10:00:00Z"`), at("u2", `"c1"`, `"2025-03-04T10:05:00Z"`))
	for _, tc := range []struct {
		name, text, ts string
		want           bool
	}{
		{"before", base, fmt.Sprint(t10 - 1), true},
		{"equal", base, fmt.Sprint(t10), true},
		{"after", base, fmt.Sprint(t10 + 1), false},
		{"numeric string", base, fmt.Sprintf(`"%d"`, t10), true},
		{"null is 0", base, `null`, true},
		{"true is 1", base, `true`, true},
		{"not a number", base, `"soon"`, false},
		{"object", base, `{}`, false},
		{"legacy compaction time", lines(header3, at("u1", "null", `"x"`), compaction("c1", `"u1"`, `"Tue Mar 04 2025 11:00:00 GMT+0100"`), at("u2", `"c1"`, `"x"`)), fmt.Sprint(t10), true},
		{"invalid compaction time", lines(header3, at("u1", "null", `"x"`), compaction("c1", `"u1"`, `"sometime"`), at("u2", `"c1"`, `"x"`)), `0`, false},
		{"off the branch", lines(header3, at("u1", "null", `"x"`), compaction("c1", `"u1"`, `"2025-03-04T10:00:00Z"`), at("u2", `"u1"`, `"x"`)), `0`, false},
		{"no compaction", lines(header3, at("u1", "null", `"x"`)), `0`, false},
		{"the latest counts", lines(header3, at("u1", "null", `"x"`), compaction("c1", `"u1"`, `"2025-03-04T10:00:00Z"`),
			compaction("c2", `"c1"`, `"2025-03-04 12:00"`), at("u3", `"c2"`, `"x"`)), fmt.Sprint(t10 + 3600000), true},
		{"leaf without id", lines(header3, at("u1", "null", `"x"`), compaction("c1", `"u1"`, `"2025-03-04T10:00:00Z"`), `7`), `0`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts, err := jsonv.Parse([]byte(tc.ts))
			if err != nil {
				t.Fatal(err)
			}
			got, err := session.BeforeLatestCompaction(loadEntries(t, tc.text), ts)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	noString, _ := jsonv.Parse([]byte(`{"toString":1}`))
	if _, err := session.BeforeLatestCompaction(loadEntries(t, base), noString); !isThrown(err) {
		t.Errorf("an assistant timestamp with no primitive value: got %v, want a type-error", err)
	}
}
