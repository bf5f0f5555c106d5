package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/piconform/piconform/harness/cli"
)

// TestNoLeakedCredentials: credentials an adapter sends (in custom headers
// and the body of a wire case's request, which the case's cassette does not
// hold, and in an error message) are masked in every output: the terminal
// (with -v and GitHub annotations), the JSON, JUnit and Markdown reports,
// the expected-failure file --write-expect writes, and the matrix.
func TestNoLeakedCredentials(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{"md": filepath.Join(dir, "r.md"), "junit": filepath.Join(dir, "r.xml"), "json": filepath.Join(dir, "r.jsonl"), "expect": filepath.Join(dir, "expected.txt")}
	args := []string{"run", "--case", "wire/anthropic-auth-header-only", "--case", "sanitize/ascii-unchanged", "-v", "--log-dir", dir,
		"--impl", fakeImpl(t, "leak"), "--markdown", files["md"], "--junit", files["junit"], "--json", files["json"], "--write-expect", files["expect"]}
	r := pic(t, map[string]string{"GITHUB_ACTIONS": "true"}, args...)
	expectCode(t, r, cli.ExitNonConform, args...)
	outputs := map[string]string{"terminal": r.stdout + r.stderr}
	for name, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		outputs[name] = string(data)
	}
	html, md := filepath.Join(dir, "m.html"), filepath.Join(dir, "m.md")
	expectCode(t, pic(t, nil, "report", "--html", html, "--markdown", md, files["json"]), cli.ExitOK)
	for name, p := range map[string]string{"matrix HTML": html, "matrix Markdown": md} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		outputs[name] = string(data)
	}
	if !strings.Contains(outputs["terminal"], "/requests/0/headers/x-leak-0") || !strings.Contains(outputs["terminal"], "[masked]") {
		t.Fatalf("the run did not show the differing headers, masked:\n%s", outputs["terminal"])
	}
	for name, out := range outputs {
		for _, secret := range []string{"YWxpY2U6U2VjcmV0MQ", "Secret2", "Secret3", "Secret4", "Secret5", "Secret6", "Secret7"} {
			if i := strings.Index(out, secret); i >= 0 {
				t.Errorf("the %s output shows %s: …%s…", name, secret, out[max(0, i-60):min(len(out), i+20)])
			}
		}
	}
}
