package cli_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/piconform/piconform/harness/cli"
)

// TestNoForgedLines: an adapter whose name, error messages, skip reasons,
// output strings and output keys (hence the paths of differences) hold
// newlines, CR, U+2028, U+2029, U+202E, ESC, Markdown headings and GitHub
// workflow commands cannot make any output (terminal with -v and without,
// GitHub annotations, Markdown, JUnit, the JSON report, and the matrix in
// Markdown and HTML) show a line that passes for the report's own: a
// verdict on a line of its own, a heading, a workflow command; and none of
// them holds those characters raw.
func TestNoForgedLines(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{"md": filepath.Join(dir, "r.md"), "junit": filepath.Join(dir, "r.xml"), "json": filepath.Join(dir, "r.jsonl")}
	outputs := map[string]string{}
	for _, verbose := range []bool{false, true} {
		args := []string{"run", "--kind", "sanitize", "--log-dir", dir, "--impl", fakeImpl(t, "forge"),
			"--markdown", files["md"], "--junit", files["junit"], "--json", files["json"]}
		name := "terminal"
		if verbose {
			args, name = append(args, "-v"), "terminal -v"
		}
		r := pic(t, map[string]string{"GITHUB_ACTIONS": "true"}, args...)
		expectCode(t, r, cli.ExitNonConform, args...)
		outputs[name] = r.stdout + r.stderr
	}
	for name, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		outputs[name] = string(data)
	}
	html := filepath.Join(dir, "m.html")
	r := pic(t, nil, "report", "--html", html, "--markdown", filepath.Join(dir, "m.md"), files["json"])
	expectCode(t, r, cli.ExitOK)
	for name, p := range map[string]string{"matrix HTML": html, "matrix Markdown": filepath.Join(dir, "m.md")} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		outputs[name] = string(data)
	}

	// Lines the tool writes itself that an adapter must not pass off.
	own := regexp.MustCompile(`^\s*(conforms|::|#+ piconform:)`)
	for name, out := range outputs {
		if i := strings.IndexAny(out, "\x1b\r\u2028\u2029\u202e\u0085"); i >= 0 {
			t.Errorf("the %s output holds %q raw", name, out[i:i+3])
		}
		var forgedLines []string
		lines := strings.Split(out, "\n")
		for _, l := range lines {
			switch {
			case !own.MatchString(l):
			case strings.HasPrefix(l, "::error file=fixtures/sanitize/"): // the run's own annotation
			case strings.HasPrefix(l, "## piconform: <code>fake"): // the Markdown's own heading, the name quoted
			case name == "json": // data, with every newline escaped: a line is a record
			case name == "matrix HTML": // text in a cell of its own, escaped by html/template; the page has no line of its own
			default:
				forgedLines = append(forgedLines, l)
			}
		}
		if len(forgedLines) > 0 {
			t.Errorf("the %s output has lines the adapter wrote that pass for its own:\n%s", name, strings.Join(forgedLines, "\n"))
		}
	}
	if !strings.Contains(outputs["terminal"], "\ndoes not conform\n") {
		t.Errorf("the terminal does not give the verdict:\n%s", outputs["terminal"])
	}
}
