//go:build linux

package cli_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/piconform/piconform/harness/cli"
)

// TestReportRefusesWhatIsNotAFile: `report` reads only regular files: a
// device that never ends (/dev/zero, also behind a symlink) and a named
// pipe nobody writes are input errors at once, naming the path, not a
// read without end or a hang.
func TestReportRefusesWhatIsNotAFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	link := filepath.Join(dir, "zero.jsonl")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Skip(err)
	}
	for _, path := range []string{"/dev/zero", fifo, link, dir} {
		r := pic(t, nil, "report", path)
		expectCode(t, r, cli.ExitUsageOrData, "report", path)
		if !strings.Contains(r.stderr, path) || !strings.Contains(r.stderr, "not a regular file") || r.stdout != "" {
			t.Errorf("report %s: stdout %q, stderr %q; want it named as not a regular file", path, r.stdout, r.stderr)
		}
	}
}

// TestReportLongLine: a line longer than any piconform writes is an input
// error naming file and line, read no further than the limit.
func TestReportLongLine(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "long.jsonl")
	writeFile(t, p, `{"type":"header","schema":1,"piconform":"x","implementation":{"name":"n"},"cases":1}`+"\n"+
		`{"type":"case","id":"a/b","kind":"a","outcome":"error","message":"`+strings.Repeat("x", 5<<20)+`"}`+"\n")
	r := pic(t, nil, "report", p)
	expectCode(t, r, cli.ExitUsageOrData, "report", p)
	if !strings.Contains(r.stderr, p+":2: a line longer than 4 MiB") {
		t.Errorf("stderr %q, want it to name %s:2 and the limit", r.stderr, p)
	}
}

// TestReportMemory: `report` streams: merging and rendering a large report
// takes at most 1.5 times its size in memory beyond what rendering a tiny
// one takes, whatever the report is made of (many short passing cases, or
// failures with long messages and differences). Measured as the peak
// resident size of a piconform process (getrusage), not by timing.
func TestReportMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads reports of 40 MB")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	peak := func(args ...string) int64 {
		t.Helper()
		cmd := exec.Command(exe, append([]string{"report"}, args...)...)
		cmd.Env = append(os.Environ(), mainEnv+"=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("report %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
	}
	tiny := writeReport(t, filepath.Join(dir, "tiny.jsonl"), 1, passingCase)
	out := filepath.Join(dir, "out")
	base := max(peak("--markdown", out, tiny), peak("--html", out, tiny))
	for _, tt := range []struct {
		name  string
		cases int
		line  func(w *bufio.Writer, i int)
	}{
		{"passing cases", 300_000, passingCase},
		{"failures", 2_000, failingCase},
	} {
		p := writeReport(t, filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".jsonl"), tt.cases, tt.line)
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"--markdown", "--html"} {
			used, budget := peak(format, out, p)-base, st.Size()*3/2
			if used > budget {
				t.Errorf("%s, %s: %d MB beyond a tiny report's %d MB, over 1.5 times the report's %d MB",
					tt.name, format, used>>20, base>>20, st.Size()>>20)
			}
		}
	}
}

// writeReport writes a report of n cases, each written by line.
func writeReport(t *testing.T, p string, n int, line func(w *bufio.Writer, i int)) string {
	t.Helper()
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, `{"type":"header","schema":1,"piconform":"x","implementation":{"name":"big","version":"1","language":"go"},"started":"2026-01-01T00:00:00.000Z","cases":%d}`+"\n", n)
	for i := range n {
		line(w, i)
	}
	w.WriteString(`{"type":"footer","counts":{}}` + "\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func passingCase(w *bufio.Writer, i int) {
	fmt.Fprintf(w, `{"type":"case","id":"wire/case-%07d","kind":"wire","rules":["wire.request.body","wire.stream.text"],"outcome":"pass","duration_ms":3}`+"\n", i)
}

// failingCase is a failure with a message of 4 KB and 20 differences.
func failingCase(w *bufio.Writer, i int) {
	fmt.Fprintf(w, `{"type":"case","id":"wire/fail-%07d","kind":"wire","rules":["wire.request.body"],"outcome":"fail","message":"%s","diffs":[`, i, strings.Repeat("m", 4000))
	for j := range 20 {
		if j > 0 {
			w.WriteString(",")
		}
		fmt.Fprintf(w, `{"path":"/events/%d/delta/text","want":"%s","got":"%s"}`, j, strings.Repeat("w", 400), strings.Repeat("g", 400))
	}
	w.WriteString(`],"duration_ms":3}` + "\n")
}

// TestHugeNumbers: an implementation that answers every case with a number
// of 15 MiB of digits costs a run with every report on (terminal with -v
// and GitHub annotations, JSON, JUnit, Markdown) less than 500 MB of
// memory, and each report at most 1 MB per case. Measured as the peak
// resident size of a piconform process and the size of what it wrote.
func TestHugeNumbers(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 25 answers of 15 MiB")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out := map[string]string{"json": filepath.Join(dir, "r.jsonl"), "junit": filepath.Join(dir, "r.xml"), "markdown": filepath.Join(dir, "r.md")}
	cmd := exec.Command(exe, "run", "--kind", "sanitize", "-v", "--log-dir", dir, "--timeout", "60s",
		"--json", out["json"], "--junit", out["junit"], "--markdown", out["markdown"], "--impl", fakeImpl(t, "huge-number"))
	cmd.Env = append(os.Environ(), mainEnv+"=1", "GITHUB_ACTIONS=true")
	out["terminal"] = filepath.Join(dir, "stdout")
	stdout, err := os.Create(out["terminal"])
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = stdout, stdout
	err = cmd.Run()
	stdout.Close()
	if code := cmd.ProcessState.ExitCode(); code != cli.ExitNonConform {
		t.Fatalf("exit %d (%v), want %d", code, err, cli.ExitNonConform)
	}
	peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
	t.Logf("peak %d MB", peak>>20)
	if peak > 500<<20 {
		t.Errorf("peak memory %d MB, over 500 MB", peak>>20)
	}
	cases := len(sanitizeIDs(t))
	for name, p := range out {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d KB", name, st.Size()>>10)
		if st.Size() > int64(cases)<<20 {
			t.Errorf("the %s report is %d MB for %d cases, over 1 MB a case", name, st.Size()>>20, cases)
		}
	}
	// No line of the JSON report (one a case) is over 1 MB either, and it
	// says how long the value it cuts is.
	data, err := os.ReadFile(out["json"])
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if len(l) > 1<<20 {
			t.Errorf("line %d of the JSON report is %d bytes", i+1, len(l))
		}
	}
	if want := fmt.Sprintf(`"got_clipped":%d`, 1+9*(15<<20/9)); !strings.Contains(string(data), want) {
		t.Errorf("the JSON report does not say %s", want)
	}
}
