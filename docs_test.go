package piconform_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/piconform/piconform"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/dialect"
)

// docFiles are the Markdown files people read for how the suite is: the
// README, docs/ (but the generated upgrade lists) and the adapters' READMEs.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md"}
	for _, glob := range []string{"docs/*.md", "adapters/*/README.md", "bench/README.md"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			if !strings.HasPrefix(filepath.Base(f), "changes-") {
				files = append(files, f)
			}
		}
	}
	return files
}

// docCounts are the numbers the docs may state, each computed from the
// suite as it is.
func docCounts(t *testing.T) map[string]int {
	s := loadBuiltin(t)
	rules, err := suite.ReadSpec(piconform.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	counts := map[string]int{"cases": len(s.Cases), "rules": len(rules), "apis": len(conformance.APIs())}
	for _, c := range s.Cases {
		kinds[c.Kind] = true
		counts["cases-"+c.Kind]++
		for _, d := range dialect.All() {
			if c.HoldsIn(d) {
				counts["cases@"+d.String()]++
			}
		}
	}
	counts["kinds"] = len(kinds)
	return counts
}

var (
	// countMark is a number the docs state: <!--count:NAME-->N<!--/count-->.
	countMark = regexp.MustCompile(`<!--count:([a-z0-9@.-]+)-->([0-9,]+)<!--/count-->`)
	// bareCount is a number of things the suite holds, stated without a mark.
	bareCount = regexp.MustCompile(`(?i)\b([0-9][0-9,]*)\s+(?:built-in\s+|wire\s+|session\s+)?(cases|rules|goldens|case files|cassettes)\b`)
)

// TestDocCounts keeps every count in the docs equal to the suite: a count
// is written with its mark, which this test checks against the suite, and
// a count of cases or rules without one fails, since it would drift.
func TestDocCounts(t *testing.T) {
	counts := docCounts(t)
	marked := 0
	for _, file := range docFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		for _, m := range countMark.FindAllStringSubmatch(text, -1) {
			marked++
			want, ok := counts[m[1]]
			if !ok {
				t.Errorf("%s: <!--count:%s-->: no such count; known: %v", file, m[1], keys(counts))
				continue
			}
			if got, _ := strconv.Atoi(strings.ReplaceAll(m[2], ",", "")); got != want {
				t.Errorf("%s: <!--count:%s--> says %s, the suite has %d: write <!--count:%s-->%d<!--/count-->", file, m[1], m[2], want, m[1], want)
			}
		}
		// Marks are blanked to spaces, so line numbers stay, and a count
		// may run over a line break.
		prose := strings.Join(proseLines(countMark.ReplaceAllStringFunc(text, func(m string) string {
			return strings.Repeat(" ", len(m)-strings.Count(m, "\n")) + strings.Repeat("\n", strings.Count(m, "\n"))
		})), "\n")
		for _, m := range bareCount.FindAllStringSubmatchIndex(prose, -1) {
			if n, _ := strconv.Atoi(strings.ReplaceAll(prose[m[2]:m[3]], ",", "")); n >= 10 {
				t.Errorf("%s:%d: %q states a count without a mark; write it as <!--count:NAME-->N<!--/count--> (names: %v) or leave the number out",
					file, strings.Count(prose[:m[0]], "\n")+1, prose[m[0]:m[1]], keys(counts))
			}
		}
	}
	if marked == 0 {
		t.Error("no marked count in the docs: the README states how many provider APIs the suite covers")
	}
}

// proseLines are the lines of a Markdown text, with the lines of fenced
// code blocks (example output) blanked, keeping the line numbers.
func proseLines(text string) []string {
	lines := strings.Split(text, "\n")
	fenced := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			lines[i] = ""
			continue
		}
		if fenced {
			lines[i] = ""
		}
	}
	return lines
}

func keys(m map[string]int) string {
	var out []string
	for k, v := range m {
		out = append(out, fmt.Sprintf("%s=%d", k, v))
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// TestDocCountPatterns: what the doc check counts as a stated count.
func TestDocCountPatterns(t *testing.T) {
	for _, tt := range []struct {
		text  string
		flags bool
	}{
		{"takes 0.6 s for the 823\nbuilt-in cases", true},
		{"611 of 863 cases", true},
		{"every 5th of 1,026 wire cases", true},
		{"the 214 rules of the spec", true},
		{"2 cases: /usage/cost differs", false},
		{"at <!--count:cases-->1026<!--/count--> cases", false},
		{"```text\n38 cases, dialect 1.6: 36 pass\n```", false},
		{"300 session files", false},
	} {
		text := strings.Join(proseLines(countMark.ReplaceAllString(tt.text, "")), "\n")
		flagged := false
		for _, m := range bareCount.FindAllStringSubmatch(text, -1) {
			if n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", "")); n >= 10 {
				flagged = true
			}
		}
		if flagged != tt.flags {
			t.Errorf("%q: flagged %v, want %v", tt.text, flagged, tt.flags)
		}
	}
}
