package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run's JSON report, split in shards, goes through piconform report into
// a Markdown and an HTML matrix with one row.
func TestReportMergesRunShards(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var reports []string
	for _, shard := range []string{"1/2", "2/2"} {
		out := filepath.Join(dir, "shard-"+strings.ReplaceAll(shard, "/", "of")+".jsonl")
		args := []string{"run", "--kind", "sanitize", "--shard", shard, "--json", out}
		expectCode(t, pic(t, nil, args...), 0, args...)
		reports = append(reports, out)
	}
	md, page := filepath.Join(dir, "matrix.md"), filepath.Join(dir, "matrix.html")
	args := append([]string{"report", "--markdown", md, "--html", page}, reports...)
	r := pic(t, nil, args...)
	expectCode(t, r, 0, args...)
	if r.stdout != "" {
		t.Errorf("stdout holds %q; the matrix goes to the files", r.stdout)
	}
	mdText, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(mdText), "| piconform-reference "); n != 4 {
		t.Errorf("the reference appears in %d table rows, want 4 (implementations, kinds, the input and san families): one row for both shards\n%s", n, mdText)
	}
	cases, err := filepath.Glob(filepath.Join("..", "..", "fixtures", "sanitize", "*.json"))
	if err != nil || len(cases) < 20 {
		t.Fatalf("%d sanitize cases (%v)", len(cases), err)
	}
	if all := fmt.Sprintf("| ✅ %d/%d | ✅ %d/%d |", len(cases), len(cases), len(cases), len(cases)); !strings.Contains(string(mdText), all) {
		t.Errorf("the kind table does not count every sanitize case of both shards as passing:\n%s", mdText)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(html), "<!DOCTYPE html>") {
		t.Errorf("not an HTML page: %.80q", html)
	}

	// Without --markdown or --html the Markdown goes to stdout.
	r = pic(t, nil, "report", reports[0])
	expectCode(t, r, 0, "report", reports[0])
	if !strings.HasPrefix(r.stdout, "# piconform compatibility matrix") {
		t.Errorf("stdout: %.80q", r.stdout)
	}
}

func TestReportInputErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notReport := filepath.Join(dir, "junit.xml")
	if err := os.WriteFile(notReport, []byte("<testsuites/>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.jsonl")
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"report"}, "no report given"},
		{[]string{"report", missing}, missing + ": no such file or directory"},
		{[]string{"report", "--markdown", filepath.Join(dir, "out.md"), notReport}, notReport + ":1: not a piconform report: not JSON"},
		{[]string{"report", "--bogus", notReport}, "unknown flag: --bogus"},
	}
	for _, tc := range tests {
		r := pic(t, nil, tc.args...)
		expectCode(t, r, 2, tc.args...)
		if !strings.Contains(r.stderr, tc.msg) {
			t.Errorf("piconform %s: stderr %q does not say %q", strings.Join(tc.args, " "), r.stderr, tc.msg)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out.md")); err == nil {
		t.Error("a failed report wrote a file")
	}
}
