package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/piconform/piconform"
	"github.com/piconform/piconform/harness/cli"
	"github.com/piconform/piconform/protocol"
	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/jsonv"
)

// The fake adapter, by the self-re-exec trick: with PICONFORM_FAKE_IMPL set
// this test binary answers the protocol as the reference does, except that
// with "wrong-output:ID" it answers case ID with a wrong output.
const fakeEnv = "PICONFORM_FAKE_IMPL"

// With mainEnv set this test binary is piconform itself (cli.Main), so a
// test can read its real stdout through a pipe; progressEnv sets
// cli.ProgressEvery.
const (
	mainEnv     = "PICONFORM_TEST_MAIN"
	progressEnv = "PICONFORM_TEST_PROGRESS_EVERY"
)

func TestMain(m *testing.M) {
	if b := os.Getenv(fakeEnv); b != "" {
		os.Exit(fakeAdapter(b))
	}
	if role := os.Getenv(noopEnv); role != "" {
		os.Exit(noopAdapter(role))
	}
	if os.Getenv(mainEnv) != "" {
		if d, err := time.ParseDuration(os.Getenv(progressEnv)); err == nil {
			cli.ProgressEvery = d
		}
		os.Exit(cli.Main(os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
	}
	os.Exit(m.Run())
}

// fakeAdapter answers as the reference does, changed by behaviour: a list
// of "wrong-output:ID" (answer case ID with a wrong output),
// "slow:ID" (answer case ID after 3 s), "huge-number" (answer every
// case with {"text": N}, N a number of 15 MiB of digits), "forge" (a
// name, messages and keys made to pass for a report's own lines: see
// forged) and "leak" (send the credentials of leaked in custom headers and
// the body of a wire case's request, and in the error of any other case),
// separated by ";".
func fakeAdapter(behaviour string) int {
	wrong, slow := map[string]bool{}, map[string]bool{}
	var huge jsonv.Value
	forge, leak := false, false
	for _, b := range strings.Split(behaviour, ";") {
		verb, id, _ := strings.Cut(b, ":")
		switch verb {
		case "wrong-output":
			wrong[id] = true
		case "slow":
			slow[id] = true
		case "forge":
			forge = true
		case "leak":
			leak = true
		case "huge-number":
			huge = jsonv.ObjectValue(jsonv.Member{Key: "text", Value: jsonv.NumberValue("1" + strings.Repeat("234567890", 15<<20/9))})
		}
	}
	in := bufio.NewReader(os.Stdin)
	write := func(f protocol.Frame) { os.Stdout.Write(append(f.Value().AppendJSON(nil), '\n')) }
	for {
		data, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		frame, err := protocol.Decode(data)
		if err != nil {
			return 2
		}
		switch frame.Type {
		case protocol.TypeBye:
			return 0
		case protocol.TypeHello:
			name := "fake"
			if forge {
				name = "fake" + forged
			}
			impl := protocol.Implementation{Name: name, Version: "1", Language: "go", Kinds: []string{"sanitize", "cost"}, APIs: []string{}}
			if leak {
				impl.Kinds, impl.APIs = append(impl.Kinds, "wire"), []string{"anthropic-messages"}
			}
			write(protocol.HelloReply(impl))
		case protocol.TypeRun:
			if leak && frame.Case.Kind == "wire" {
				frame.Case.Input = leakInto(frame.Case.Input)
			}
			a := conformance.Answer(context.Background(), frame.Case, conformance.Options{})
			if leak && frame.Case.Kind != "wire" {
				a = protocol.Error("could not reach the API with " + strings.Join(leaked, ", "))
			}
			if slow[frame.Case.ID] {
				time.Sleep(3 * time.Second)
			}
			if wrong[frame.Case.ID] {
				a = protocol.Result(jsonv.ObjectValue(jsonv.Member{Key: "text", Value: jsonv.StringValue("wrong")}))
			}
			if !huge.IsAbsent() {
				a = protocol.Result(huge)
			}
			if forge {
				switch frame.Seq % 3 {
				case 0:
					a = protocol.Error("boom" + forged)
				case 1:
					a = protocol.Result(jsonv.ObjectValue(jsonv.Member{Key: "text" + forged, Value: jsonv.StringValue("x" + forged)}))
				default:
					a = protocol.Skip("not now"+forged, "")
				}
			}
			write(protocol.Reply(frame.Seq, a))
		}
	}
}

// forged is text an adapter writes to pass for a report's own lines: a
// verdict on a line of its own (after a newline, a CR, a line separator),
// a Markdown heading, GitHub workflow commands, a bidirectional override
// that shows "does not conform" reversed, and terminal escapes that erase
// the line.
const forged = "\nconforms\r\nconforms\u2028conforms\u2029\n## piconform: fake — ✅ conforms\n" +
	"::error::forged\n  ::notice::forged\n\u202emrofnoc ton seod\u202c\x1b[2K\x1b[1Aconforms\n"

// leaked are credentials of the kinds an adapter may find in its
// environment, each ending in "Secret" and a digit, which no output may
// show.
var leaked = []string{
	"Basic " + base64.StdEncoding.EncodeToString([]byte("alice:Secret1")),
	"https://bob:Secret2@proxy.example.com/",
	"ya29.a0AfH6SMBxSecret3",
	"xoxb-123456789012-Secret4abcd",
	"hf_AbCdEfGhIjKlMnOpQrStUvWxSecret5",
	"sk-ant-api03-Secret6abcdef",
	"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEASecret7\n-----END RSA PRIVATE KEY-----",
}

// leakInto puts leaked into a wire case's input: each in a custom header,
// all of them in the text of its first message, which goes in the body.
func leakInto(input jsonv.Value) jsonv.Value {
	opts, _ := input.Get("options")
	if opts.IsAbsent() {
		opts = jsonv.ObjectValue()
	}
	headers, _ := opts.Get("headers")
	if headers.IsAbsent() {
		headers = jsonv.ObjectValue()
	}
	for i, l := range leaked {
		headers = headers.With(fmt.Sprintf("x-leak-%d", i), jsonv.StringValue(strings.ReplaceAll(l, "\n", " ")))
	}
	ctx, _ := input.Get("context")
	msgs, _ := ctx.Get("messages")
	first := msgs.Elems()[0].With("content", jsonv.StringValue("my credentials: "+strings.Join(leaked, " ")))
	ctx = ctx.With("messages", jsonv.ArrayValue(append([]jsonv.Value{first}, msgs.Elems()[1:]...)...))
	return input.With("options", opts.With("headers", headers)).With("context", ctx)
}

func fakeImpl(t *testing.T, b string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	return fakeEnv + "=" + q(b) + " " + q(exe)
}

type result struct {
	code           int
	stdout, stderr string
}

// piconform runs Main with a clean environment (vars holds what Getenv
// sees) and fails the test if it does not return within a minute.
func pic(t *testing.T, vars map[string]string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := cli.Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return vars[k] }}
	done := make(chan int, 1)
	go func() { done <- cli.Main(args, env) }()
	select {
	case code := <-done:
		return result{code, stdout.String(), stderr.String()}
	case <-time.After(time.Minute):
		t.Fatalf("piconform %s did not finish within a minute", strings.Join(args, " "))
		return result{}
	}
}

func expectCode(t *testing.T, r result, code int, args ...string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("piconform %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, code, r.stdout, r.stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		msg  string // in stderr
	}{
		{nil, "Usage:"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"run", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"run", "--jobs", "0"}, "--jobs must be at least 1"},
		{[]string{"run", "--jobs", "many"}, "invalid argument"},
		{[]string{"run", "--timeout", "soon"}, "invalid argument"},
		{[]string{"run", "--shard", "3/2"}, "--shard wants i/n"},
		{[]string{"run", "--shard", "1of2"}, "--shard wants i/n"},
		{[]string{"run", "extra"}, `unexpected argument "extra"`},
		{[]string{"run", "--expect", "/nonexistent/expected.txt"}, "/nonexistent/expected.txt"},
		{[]string{"run", "--no-builtin"}, "--no-builtin needs at least one --suite"},
		{[]string{"run", "--suite", "/nonexistent/suite"}, "no fixtures/ folder"},
		{[]string{"list", "--shard", "0/1"}, "--shard wants i/n"},
		{[]string{"coverage", "--spec", "/nonexistent/SPEC.md"}, "SPEC.md"},
		{[]string{"update", "--root", "/nonexistent/suite"}, "no fixtures/ folder"},
	}
	for _, tt := range tests {
		r := pic(t, nil, tt.args...)
		if r.code != cli.ExitUsageOrData || !strings.Contains(r.stderr, tt.msg) {
			t.Errorf("piconform %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(tt.args, " "), r.code, r.stderr, tt.msg)
		}
	}
}

func TestHelpAndVersion(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"help"}, {"--help"}, {"run", "--help"}, {"update", "-h"}, {"version"}} {
		r := pic(t, nil, args...)
		expectCode(t, r, 0, args...)
		if r.stdout+r.stderr == "" {
			t.Errorf("piconform %s printed nothing", strings.Join(args, " "))
		}
	}
	if r := pic(t, nil, "version"); !strings.Contains(r.stdout, "protocol 1") {
		t.Errorf("version: %q", r.stdout)
	}
}

func TestRunBuiltin(t *testing.T) {
	t.Parallel()
	r := pic(t, nil, "run")
	expectCode(t, r, 0, "run")
	if !strings.HasSuffix(r.stdout, "\nconforms\n") || strings.Contains(r.stdout, "\x1b[") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	// The header says which suite ran; the test's folder is no checkout.
	if !strings.HasPrefix(r.stdout, "suite: built-in (embedded in this binary)\n") {
		t.Errorf("the header does not name the suite:\n%s", r.stdout)
	}
}

// TestRunStrictIdentity: the reference sends what the cassettes hold and
// produces the goldens' runtime texts, so it passes strictly too.
func TestRunStrictIdentity(t *testing.T) {
	t.Parallel()
	args := []string{"run", "--strict-identity", "--case", "wire/anthropic-*", "--case", "wire/*-bad-json*", "-v"}
	r := pic(t, nil, args...)
	expectCode(t, r, 0, args...)
	if !strings.Contains(r.stdout, "PASS wire/anthropic-stream-bad-json") || !strings.HasSuffix(r.stdout, "\nconforms\n") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
}

// TestNothingSelected: a filter that selects nothing, an unknown kind or an
// invalid glob is a usage error naming it, never "0 cases … conforms".
func TestNothingSelected(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"run", "--case", "nomatch*"}, "no case matches --case nomatch*"},
		{[]string{"run", "--case", "nomatch*", "--json", "-"}, "no case matches --case nomatch*"},
		{[]string{"run", "--rule", "no.such.rule"}, "no case matches --rule no.such.rule"},
		{[]string{"run", "--kind", "sanitise"}, "--kind sanitise: unknown case kind; known kinds: convert, cost, normalize, pipeline, sanitize, session, wire"},
		{[]string{"list", "--kind", "sanitise"}, "--kind sanitise: unknown case kind"},
		{[]string{"run", "--case", "["}, `--case "[": not a valid glob`},
		{[]string{"run", "--rule", "[a-"}, `--rule "[a-": not a valid glob`},
		{[]string{"list", "--case", "sanitize/*", "--kind", "cost"}, "no case matches --case sanitize/*, --kind cost"},
		{[]string{"update", "--suite", "/nonexistent/suite"}, "--suite /nonexistent/suite: no fixtures/ folder"},
	}
	empty := t.TempDir() // a suite with a fixtures/ folder and no case
	if err := os.Mkdir(filepath.Join(empty, "fixtures"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests = append(tests, struct {
		args []string
		msg  string
	}{[]string{"run", "--no-builtin", "--suite", empty}, "the suite holds no case"})
	for _, tt := range tests {
		r := pic(t, nil, tt.args...)
		if r.code != cli.ExitUsageOrData || !strings.Contains(r.stderr, tt.msg) || r.stdout != "" {
			t.Errorf("piconform %s: exit %d, stdout %q, stderr %q; want exit 2, no output, and %q", strings.Join(tt.args, " "), r.code, r.stdout, r.stderr, tt.msg)
		}
	}
}

const failing = "sanitize/lone-high-removed"

func TestRunImpl(t *testing.T) {
	t.Parallel()
	logDir := t.TempDir()
	base := []string{"run", "--kind", "sanitize", "--log-dir", logDir, "--timeout", "20s"}

	// A fake that fails one case: exit 1, and the case is named with its path.
	args := append(slices.Clone(base), "--impl", fakeImpl(t, "wrong-output:"+failing))
	r := pic(t, nil, args...)
	expectCode(t, r, 1, args...)
	if !strings.Contains(r.stdout, "FAIL "+failing+": /text") || !strings.Contains(r.stdout, "does not conform") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	streamed, _, _ := strings.Cut(r.stdout, "Failures by cause")
	if strings.Count(streamed, "FAIL ") != 1 {
		t.Errorf("not one failure line as the run went:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "Failures by cause (1 failing case):\n  1 case: /text differs\n") ||
		!strings.Contains(r.stdout, "  piconform run --kind sanitize --log-dir "+logDir+" --timeout 20s --impl ") ||
		!strings.Contains(r.stdout, " --write-expect expected.txt\n") {
		t.Errorf("the end does not group the failure or name the command that records it:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "implementation logs: "+logDir) {
		t.Errorf("stderr does not name the log folder: %q", r.stderr)
	}

	// --write-expect records it; --expect with that file conforms.
	dir := t.TempDir()
	expFile := filepath.Join(dir, "expected.txt")
	r = pic(t, nil, append(slices.Clone(args), "--write-expect", expFile)...)
	expectCode(t, r, 1)
	data, err := os.ReadFile(expFile)
	if err != nil || !strings.Contains(string(data), failing+"  /text  # TODO explain: ") {
		t.Fatalf("expectations file %q, %v", data, err)
	}
	r = pic(t, nil, append(slices.Clone(args), "--expect", expFile)...)
	expectCode(t, r, 0, append(slices.Clone(args), "--expect", expFile)...)
	if strings.Contains(r.stdout, "FAIL "+failing) || !strings.Contains(r.stdout, "1 expected failures") {
		t.Errorf("stdout:\n%s", r.stdout)
	}

	// An entry that pins another path: the new path fails the run.
	pinned := filepath.Join(dir, "pinned.txt")
	os.WriteFile(pinned, []byte(failing+"  /usage/**  # known\n"), 0o644)
	r = pic(t, nil, append(slices.Clone(args), "--expect", pinned)...)
	expectCode(t, r, 1)
	if !strings.Contains(r.stdout, "FAIL "+failing+": new difference at /text, which the expected-failure entry at "+pinned+":1 does not name") {
		t.Errorf("stdout:\n%s", r.stdout)
	}

	// An entry that matches no case is stale: exit 1.
	stale := filepath.Join(dir, "stale.txt")
	os.WriteFile(stale, []byte(failing+"  # known\nsanitize/no-such-case  # gone\n"), 0o644)
	r = pic(t, nil, append(slices.Clone(args), "--expect", stale)...)
	expectCode(t, r, 1)
	if !strings.Contains(r.stdout, `STALE EXPECTATION line 2: "sanitize/no-such-case"`) {
		t.Errorf("stdout:\n%s", r.stdout)
	}

	// An entry for a case that passes is an unexpected pass: exit 1.
	unexpected := filepath.Join(dir, "unexpected.txt")
	os.WriteFile(unexpected, []byte(failing+"  # known\nsanitize/ascii-unchanged  # said to fail\n"), 0o644)
	r = pic(t, nil, append(slices.Clone(args), "--expect", unexpected)...)
	expectCode(t, r, 1)
	if !strings.Contains(r.stdout, "UNEXPECTED PASS sanitize/ascii-unchanged") {
		t.Errorf("stdout:\n%s", r.stdout)
	}

	// A malformed expectations file is an input error naming file:line.
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("# ok\n"+failing+"\n"), 0o644)
	r = pic(t, nil, append(slices.Clone(args), "--expect", bad)...)
	expectCode(t, r, 2)
	if !strings.Contains(r.stderr, bad+":2:") {
		t.Errorf("stderr %q", r.stderr)
	}

	// The log folder has the adapter's log.
	if _, err := os.Stat(filepath.Join(logDir, "impl-1.log")); err != nil {
		t.Error(err)
	}
}

// TestRunImplJobs: several adapter processes give the same outcome (and,
// under -race, share nothing unsafely).
func TestRunImplJobs(t *testing.T) {
	t.Parallel()
	args := []string{"run", "--kind", "sanitize", "--kind", "cost", "--log-dir", t.TempDir(), "--jobs", "3", "--json", "-",
		"--impl", fakeImpl(t, "wrong-output:"+failing)}
	r := pic(t, nil, args...)
	expectCode(t, r, 1, args...)
	lines := jsonLines(t, r.stdout)
	footer := lines[len(lines)-1]
	if c := footer["counts"].(map[string]any); c["fail"] != float64(1) || c["pass"] != float64(len(lines)-3) {
		t.Errorf("counts %v", c)
	}
	if _, err := os.Stat(filepath.Join(args[6], "impl-3.log")); err != nil {
		t.Errorf("no log of the third process: %v", err)
	}
}

func jsonLines(t *testing.T, s string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not a JSON line: %q", l)
		}
		out = append(out, m)
	}
	return out
}

func caseIDs(lines []map[string]any) []string {
	var ids []string
	for _, l := range lines {
		if l["type"] == "case" {
			ids = append(ids, l["id"].(string))
		}
	}
	return ids
}

func TestReports(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	jsonFile, junit, md := filepath.Join(dir, "out", "report.jsonl"), filepath.Join(dir, "junit.xml"), filepath.Join(dir, "summary.md")
	r := pic(t, nil, "run", "--kind", "sanitize", "--json", jsonFile, "--junit", junit, "--markdown", md)
	expectCode(t, r, 0)
	data, err := os.ReadFile(jsonFile)
	if err != nil {
		t.Fatal(err)
	}
	lines := jsonLines(t, string(data))
	if len(lines) < 3 || lines[0]["type"] != "header" || lines[len(lines)-1]["type"] != "footer" || lines[len(lines)-1]["exit_code"] != float64(0) {
		t.Errorf("report:\n%s", data)
	}
	for _, id := range caseIDs(lines) {
		if !strings.HasPrefix(id, "sanitize/") {
			t.Errorf("case %s in a --kind sanitize run", id)
		}
	}
	if x, err := os.ReadFile(junit); err != nil || !bytes.HasPrefix(x, []byte("<?xml")) {
		t.Errorf("junit: %q, %v", x, err)
	}
	if m, err := os.ReadFile(md); err != nil || !strings.Contains(string(m), "conforms") {
		t.Errorf("markdown: %q, %v", m, err)
	}
	// The terminal summary still goes to stdout.
	if !strings.Contains(r.stdout, "conforms") {
		t.Errorf("stdout %q", r.stdout)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "out")); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestShards(t *testing.T) {
	t.Parallel()
	all := jsonLines(t, pic(t, nil, "run", "--kind", "sanitize", "--json", "-").stdout)
	want := caseIDs(all)
	if len(want) < 4 {
		t.Fatalf("only %d sanitize cases", len(want))
	}
	var got []string
	for _, shard := range []string{"1/2", "2/2"} {
		r := pic(t, nil, "run", "--kind", "sanitize", "--shard", shard, "--json", "-")
		expectCode(t, r, 0)
		ids := caseIDs(jsonLines(t, r.stdout))
		if len(ids) == 0 || len(ids) == len(want) {
			t.Errorf("shard %s has %d of %d cases", shard, len(ids), len(want))
		}
		got = append(got, ids...)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("shards 1/2 and 2/2 give\n%v\nwant\n%v", got, want)
	}
	// list agrees with run.
	r := pic(t, nil, "list", "--kind", "sanitize")
	expectCode(t, r, 0)
	if n := strings.Count(r.stdout, "\n"); n != len(want) {
		t.Errorf("list: %d lines, want %d", n, len(want))
	}
}

func TestCoverage(t *testing.T) {
	t.Parallel()
	r := pic(t, nil, "coverage")
	expectCode(t, r, 0)
	if !strings.Contains(r.stdout, "san.surrogates") || !strings.Contains(r.stdout, " rules: ") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	// A case citing a rule the spec does not define: exit 1.
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "fixtures", "sanitize", "x.json"),
		`{"id":"sanitize/x","kind":"sanitize","description":"x","rules":["san.no-such-rule"],"input":{"text":"a"}}`)
	r = pic(t, nil, "coverage", "--suite", dir)
	expectCode(t, r, 1)
	if !strings.Contains(r.stdout, "UNKNOWN RULE san.no-such-rule cited by sanitize/x") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
}

func writeFile(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBadSuite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "fixtures", "sanitize", "bad.json")
	writeFile(t, file, `{"id":"sanitize/bad","kind":"sanitize","description":"x","rules":["san.surrogates", 42],"input":{"text":"a"}}`)
	r := pic(t, nil, "run", "--suite", dir)
	expectCode(t, r, 2)
	if !strings.Contains(r.stderr, file) || !strings.Contains(r.stderr, "/rules/1") || !strings.Contains(r.stderr, "sanitize/bad") {
		t.Errorf("stderr does not name the file, case and JSON path: %q", r.stderr)
	}

	// A syntax error names file:line:column.
	dir = t.TempDir()
	file = filepath.Join(dir, "fixtures", "sanitize", "broken.json")
	writeFile(t, file, "{\n  \"id\": \"sanitize/broken\",\n  oops\n}")
	r = pic(t, nil, "list", "--suite", dir)
	expectCode(t, r, 2)
	if !strings.Contains(r.stderr, file+":3:") {
		t.Errorf("stderr does not name file:line: %q", r.stderr)
	}

	// A malformed cassette is an input error naming the file and line,
	// before anything runs.
	const sonnet = `{"id":"claude-sonnet-4-5","name":"Claude Sonnet 4.5","api":"anthropic-messages","provider":"anthropic","baseUrl":"https://api.anthropic.com","reasoning":true,"input":["text","image"],"cost":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75},"contextWindow":200000,"maxTokens":64000}`
	dir = t.TempDir()
	writeFile(t, filepath.Join(dir, "fixtures", "wire", "broken-cassette.json"),
		`{"id":"wire/broken-cassette","kind":"wire","description":"x","rules":["wire.request"],"input":{"model":`+sonnet+`,"context":{"messages":[]}},"response":{"body":"{}"}}`)
	writeFile(t, filepath.Join(dir, "golden", "wire", "broken-cassette.json"), `{}`)
	file = filepath.Join(dir, "cassettes", "wire", "broken-cassette.yaml")
	writeFile(t, file, "version: 2\n")
	r = pic(t, nil, "run", "--suite", dir, "--case", "wire/broken-cassette")
	expectCode(t, r, 2)
	if !strings.Contains(r.stderr, file) || !strings.Contains(r.stderr, "line 1: no \"interactions\"") {
		t.Errorf("stderr does not name the cassette and line: %q", r.stderr)
	}

	// A case id of the built-in suite cannot be used again.
	dir = t.TempDir()
	writeFile(t, filepath.Join(dir, "fixtures", "sanitize", "ascii-unchanged.json"),
		`{"id":"sanitize/ascii-unchanged","kind":"sanitize","description":"x","rules":["san.surrogates"],"input":{"text":"a"}}`)
	r = pic(t, nil, "list", "--suite", dir)
	expectCode(t, r, 2)
	if !strings.Contains(r.stderr, "is also in") {
		t.Errorf("stderr %q", r.stderr)
	}
}

// copySuite copies the built-in fixtures of one kind, without goldens, into
// a new folder.
func copySuite(t *testing.T, kind string) (dir string, n int) {
	t.Helper()
	dir = t.TempDir()
	b := piconform.Builtin()
	err := fs.WalkDir(b, path.Join("fixtures", kind), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(b, p)
		if err != nil {
			return err
		}
		writeFile(t, filepath.Join(dir, filepath.FromSlash(p)), string(data))
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir, n
}

func TestUpdate(t *testing.T) {
	t.Parallel()
	dir, n := copySuite(t, "sanitize")
	goldenDir := filepath.Join(dir, "golden")

	// CI set: refused, nothing written.
	r := pic(t, map[string]string{"CI": "true"}, "update", "--suite", dir)
	expectCode(t, r, 2)
	if !strings.Contains(r.stderr, "CI is set") {
		t.Errorf("stderr %q", r.stderr)
	}
	if _, err := os.Stat(goldenDir); err == nil {
		t.Fatal("update wrote goldens with CI set")
	}

	// --dry-run: every golden is new in every dialect, nothing written (CI
	// does not matter), and the pending change fails the check.
	r = pic(t, map[string]string{"CI": "true"}, "update", "--suite", dir, "--dry-run")
	expectCode(t, r, 1)
	if strings.Count(r.stdout, "new      sanitize/") != 2*n || !strings.Contains(r.stdout, "dialect 1.6: "+itoa(n)+" new and 0 changed") ||
		!strings.Contains(r.stdout, "would write "+itoa(n)+" files, would delete 0") {
		t.Errorf("dry run:\n%s", r.stdout)
	}
	if _, err := os.Stat(goldenDir); err == nil {
		t.Fatal("--dry-run wrote goldens")
	}

	// update writes them, atomically (no temporary files left) ...
	// (one file per case: the dialects agree, so there is no overlay) ...
	r = pic(t, nil, "update", "--suite", dir)
	expectCode(t, r, 0)
	if !strings.Contains(r.stdout, "dialect 0.80: "+itoa(n)+" new and 0 changed") || !strings.Contains(r.stdout, "wrote "+itoa(n)+" files") {
		t.Errorf("update:\n%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(goldenDir, "@1.6")); err == nil {
		t.Error("update wrote 1.6 overlays where the dialects agree")
	}
	entries, err := os.ReadDir(filepath.Join(goldenDir, "sanitize"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != n {
		t.Errorf("%d files in golden/sanitize, want %d", len(entries), n)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || !strings.HasSuffix(e.Name(), ".json") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	// ... equal to the built-in goldens ...
	for _, e := range entries {
		got, _ := os.ReadFile(filepath.Join(goldenDir, "sanitize", e.Name()))
		want, err := fs.ReadFile(piconform.Builtin(), "golden/sanitize/"+e.Name())
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("golden/sanitize/%s differs from the built-in one", e.Name())
		}
	}
	// ... and a second update changes nothing.
	r = pic(t, nil, "update", "--suite", dir)
	expectCode(t, r, 0)
	if !strings.Contains(r.stdout, "dialect 1.6: 0 new and 0 changed goldens; "+itoa(n)+" unchanged") || !strings.Contains(r.stdout, "wrote 0 files") {
		t.Errorf("second update:\n%s", r.stdout)
	}

	// The suite runs on its own.
	r = pic(t, nil, "run", "--no-builtin", "--suite", dir)
	expectCode(t, r, 0)
	if !strings.Contains(r.stdout, itoa(n)+" cases, dialect 1.6: "+itoa(n)+" pass") {
		t.Errorf("run:\n%s", r.stdout)
	}

	// A changed golden is reported and rewritten; an orphan is reported and
	// pruned on request.
	writeFile(t, filepath.Join(goldenDir, "sanitize", "empty-string.json"), "{\n  \"text\": \"not empty\"\n}\n")
	writeFile(t, filepath.Join(goldenDir, "sanitize", "orphan.json"), "{}\n")
	writeFile(t, filepath.Join(goldenDir, "sanitize", ".empty-string.json.tmp-7"), "{") // a killed update's
	r = pic(t, nil, "update", "--suite", dir, "--dry-run")
	expectCode(t, r, 1)
	if !strings.Contains(r.stdout, "changed  sanitize/empty-string [0.80] at /text") || !strings.Contains(r.stdout, "changed  sanitize/empty-string [1.6] at /text") || !strings.Contains(r.stdout, "orphan   ") {
		t.Errorf("dry run:\n%s", r.stdout)
	}
	r = pic(t, nil, "update", "--suite", dir, "--prune")
	expectCode(t, r, 0)
	if !strings.Contains(r.stdout, "dialect 0.80: 0 new and 1 changed") || !strings.Contains(r.stdout, "wrote 1 file,") {
		t.Errorf("update:\n%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(goldenDir, "sanitize", ".empty-string.json.tmp-7")); err == nil {
		t.Error("--prune kept the temporary file")
	}
	if _, err := os.Stat(filepath.Join(goldenDir, "sanitize", "orphan.json")); err == nil {
		t.Error("--prune kept the orphan")
	}
	r = pic(t, nil, "update", "--suite", dir, "--dry-run")
	expectCode(t, r, 0)
	if !strings.Contains(r.stdout, "0 new and 0 changed goldens; "+itoa(n)+" unchanged, 0 failed") || !strings.Contains(r.stdout, "would write 0 files, would delete 0; 0 orphaned") {
		t.Errorf("after prune:\n%s", r.stdout)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestInputErrorsBeforeRun: every broken suite of harness/kinds/testdata is
// an input error (exit 2) before anything runs, naming file, case and JSON
// path as its want.txt says; so are cases whose golden or cassette is
// missing or broken.
func TestInputErrorsBeforeRun(t *testing.T) {
	t.Parallel()
	dirs, err := filepath.Glob(filepath.Join("..", "kinds", "testdata", "broken", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no broken suites (%v)", err)
	}
	for _, dir := range dirs {
		want, err := os.ReadFile(filepath.Join(dir, "want.txt"))
		if err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{"run", "list"} {
			r := pic(t, nil, cmd, "--no-builtin", "--suite", dir)
			msg := strings.ReplaceAll(strings.TrimSpace(string(want)), "DIR", dir)
			if r.code != cli.ExitUsageOrData || !strings.Contains(r.stderr, msg) || r.stdout != "" {
				t.Errorf("piconform %s --suite %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", cmd, dir, r.code, r.stdout, r.stderr, msg)
			}
		}
	}
	dir := filepath.Join("..", "kinds", "testdata", "files")
	r := pic(t, nil, "run", "--no-builtin", "--suite", dir)
	expectCode(t, r, cli.ExitUsageOrData)
	for _, want := range []string{
		filepath.Join(dir, "golden/sanitize/no-golden.json") + " (case sanitize/no-golden): no golden",
		filepath.Join(dir, "golden/sanitize/bad-golden.json") + ":1:14 (case sanitize/bad-golden)",
		filepath.Join(dir, "cassettes/wire/no-cassette.yaml") + " (case wire/no-cassette): no cassette",
		filepath.Join(dir, "cassettes/wire/bad-cassette.yaml") + " (case wire/bad-cassette)",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
		}
	}
	// Listing needs no golden.
	expectCode(t, pic(t, nil, "list", "--no-builtin", "--suite", dir), cli.ExitOK)
}

// TestCheckoutSuite: run in a piconform checkout whose files differ from
// the embedded ones reads the checkout, and its header says so.
func TestCheckoutSuite(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module github.com/piconform/piconform\n\ngo 1.26\n")
	writeFile(t, filepath.Join(dir, "fixtures", "sanitize", "edited.json"),
		`{"id":"sanitize/edited","kind":"sanitize","description":"x","rules":["san.surrogates"],"input":{"text":"a"}}`)
	writeFile(t, filepath.Join(dir, "golden", "sanitize", "edited.json"), `{"text":"a"}`)
	t.Chdir(dir)
	r := pic(t, nil, "run")
	expectCode(t, r, cli.ExitOK)
	if !strings.HasPrefix(r.stdout, "suite: built-in, read from the checkout in . (its files differ from the embedded ones)\n") ||
		!strings.Contains(r.stdout, "\n1 case, dialect 1.6: 1 pass") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	// Elsewhere (no go.mod of piconform) the embedded suite runs.
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/other\n")
	r = pic(t, nil, "list", "--case", "sanitize/edited")
	expectCode(t, r, cli.ExitUsageOrData)
}
