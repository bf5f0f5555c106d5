package suite_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/dialect"
)

func caseFile(id, extra string) string {
	kind, _, _ := strings.Cut(id, "/")
	return `{"id": "` + id + `", "kind": "` + kind + `", "description": "d", "rules": ["msg.user"], "input": {}` + extra + `}`
}

// TestDialectFiles: a dialect reads the newest overlay at or before it,
// else the plain file; a case that holds in some dialects only has its
// plain file for the first of them.
func TestDialectFiles(t *testing.T) {
	s, _, err := load(t, map[string]string{
		"fixtures/convert/shared.json":     caseFile("convert/shared", ""),
		"fixtures/convert/differs.json":    caseFile("convert/differs", ""),
		"fixtures/convert/new.json":        caseFile("convert/new", `, "since": "1.6"`),
		"fixtures/convert/old.json":        caseFile("convert/old", `, "until": "0.80"`),
		"golden/convert/shared.json":       `{"v": 1}`,
		"golden/convert/differs.json":      `{"v": 1}`,
		"golden/@1.6/convert/differs.json": `{"v": 2}`,
		"golden/convert/new.json":          `{"v": 3}`,
		"golden/convert/old.json":          `{"v": 4}`,
		"golden/@1.6/convert/old.json":     `{"v": 5}`,
		"golden/@1.6/convert/new.json":     `{"v": 6}`,
		"golden/@9.9/convert/shared.json":  `{}`,
	})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]int{}
	for i, c := range s.Cases {
		byID[c.ID] = i
	}
	tests := []struct {
		id    string
		holds []dialect.Dialect
		paths map[dialect.Dialect]string
	}{
		{"convert/shared", []dialect.Dialect{dialect.V0_80, dialect.V1_6},
			map[dialect.Dialect]string{dialect.V0_80: "golden/convert/shared.json", dialect.V1_6: "golden/convert/shared.json"}},
		{"convert/differs", []dialect.Dialect{dialect.V0_80, dialect.V1_6},
			map[dialect.Dialect]string{dialect.V0_80: "golden/convert/differs.json", dialect.V1_6: "golden/@1.6/convert/differs.json"}},
		{"convert/new", []dialect.Dialect{dialect.V1_6},
			map[dialect.Dialect]string{dialect.V1_6: "golden/convert/new.json"}},
		{"convert/old", []dialect.Dialect{dialect.V0_80},
			map[dialect.Dialect]string{dialect.V0_80: "golden/convert/old.json"}},
	}
	for _, tt := range tests {
		c := s.Cases[byID[tt.id]]
		if diff := cmp.Diff(tt.holds, c.AllDialects()); diff != "" {
			t.Errorf("%s: dialects (-want +got):\n%s", tt.id, diff)
		}
		for _, d := range dialect.All() {
			if got, want := c.HoldsIn(d), tt.paths[d] != ""; got != want {
				t.Errorf("%s: HoldsIn(%s) = %v", tt.id, d, got)
			}
			if tt.paths[d] == "" {
				continue
			}
			if got := c.GoldenPath(d); got != tt.paths[d] {
				t.Errorf("%s: GoldenPath(%s) = %s, want %s", tt.id, d, got, tt.paths[d])
			}
		}
	}
	orphans, err := s.Orphans()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, o := range orphans {
		names = append(names, o[strings.Index(o, "golden/"):])
	}
	want := []string{"golden/@1.6/convert/new.json", "golden/@1.6/convert/old.json", "golden/@9.9/convert/shared.json"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("orphans (-want +got):\n%s", diff)
	}
}

func TestDialectRangeErrors(t *testing.T) {
	for extra, want := range map[string]string{
		`, "since": "2.0"`:                  `/since: unknown dialect "2.0"; known dialects: 0.80, 1.6`,
		`, "until": 1.6`:                    `/until`,
		`, "since": "1.6", "until": "0.80"`: `/until: until 0.80 is before since 1.6`,
	} {
		_, _, err := load(t, map[string]string{"fixtures/convert/x.json": caseFile("convert/x", extra)})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "fixtures/convert/x.json (case convert/x)") {
			t.Errorf("%s: error %v, want one naming the file and %q", extra, err, want)
		}
	}
}

// A case whose input no run frame can carry is refused at load, naming it,
// though the file is under the limit of a suite file.
func TestInputOverAFrame(t *testing.T) {
	big := `, "input": {"text": "` + strings.Repeat("a", 16<<20) + `"}`
	file := strings.Replace(caseFile("sanitize/big", ""), `, "input": {}`, big, 1)
	_, _, err := load(t, map[string]string{"fixtures/sanitize/big.json": file})
	if err == nil || !strings.Contains(err.Error(), "fixtures/sanitize/big.json (case sanitize/big): /input: too large to send") {
		t.Errorf("error %v", err)
	}
}
