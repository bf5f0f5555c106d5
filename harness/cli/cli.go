// Package cli is the piconform command line: it parses flags into harness
// options and prints results. cmd/piconform only calls Main.
package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/piconform/piconform"
	"github.com/piconform/piconform/harness/atomicfile"
	"github.com/piconform/piconform/harness/expect"
	"github.com/piconform/piconform/harness/golden"
	"github.com/piconform/piconform/harness/kinds"
	"github.com/piconform/piconform/harness/printable"
	"github.com/piconform/piconform/harness/profile"
	"github.com/piconform/piconform/harness/report"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/subject"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/harness/wire"
	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/dialect"
)

// Exit codes.
const (
	ExitOK          = 0
	ExitNonConform  = 1
	ExitUsageOrData = 2
)

// usageError is bad command-line use or bad input files: exit 2.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

const topUsage = `piconform checks implementations of Pi's message system against its spec.

Usage:
  piconform run [flags]        run the suite (default subject: the built-in Go reference)
  piconform list [flags]       list the cases
  piconform coverage [flags]   show which cases test each spec rule
  piconform changes [flags]    list what changed from one Pi release line to the next: the rules and the cases that show it
  piconform update [flags]     re-record cassettes and regenerate goldens from the reference, showing what changed
  piconform report [flags] REPORT.jsonl...   merge JSON reports into a compatibility matrix (Markdown, HTML)
  piconform serve [flags]      serve the reference under the subprocess protocol (stdin/stdout)
  piconform version            print the version

Run 'piconform COMMAND --help' for the flags of a command. A flag that may be
given more than once also takes a comma-separated list (--kind wire,cost).
Exit codes: 0 conforms, 1 does not conform, 2 usage or input error (an
implementation that cannot start included), 130 interrupted (Ctrl-C).
`

// Env is what Main reads from the outside world, so tests can fake it.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
}

// Main runs the command line and returns the exit code.
func Main(args []string, env Env) int {
	if env.Getenv == nil {
		env.Getenv = os.Getenv
	}
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, topUsage)
		return ExitUsageOrData
	}
	var err error
	code := ExitOK
	switch cmd, rest := args[0], args[1:]; cmd {
	case "run":
		code, err = cmdRun(rest, env)
	case "list":
		err = cmdList(rest, env)
	case "coverage":
		code, err = cmdCoverage(rest, env)
	case "update":
		code, err = cmdUpdate(rest, env)
	case "changes":
		err = cmdChanges(rest, env)
	case "report":
		code, err = cmdReport(rest, env)
	case "serve":
		err = cmdServe(rest, env)
	case "version", "--version":
		fmt.Fprintf(env.Stdout, "piconform %s (dialects: %s; protocol %d)\n", report.Version, dialectReleases(), subject.ProtocolVersion)
	case "help", "-h", "--help":
		fmt.Fprint(env.Stdout, topUsage)
	default:
		err = usagef("unknown command %q\n\n%s", cmd, topUsage)
	}
	if err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return ExitOK
		}
		fmt.Fprintf(env.Stderr, "piconform: %s\n", printable.String(err.Error()))
		return ExitUsageOrData
	}
	return code
}

// suiteFlags select cases.
type suiteFlags struct {
	suites    []string
	noBuiltin bool
	ids       []string
	kinds     []string
	rules     []string
	shard     string
}

func (s *suiteFlags) register(fs *pflag.FlagSet) {
	fs.StringSliceVar(&s.suites, "suite", nil, "add a suite `DIR` holding fixtures/ and golden/ (repeatable, or a comma list)")
	fs.BoolVar(&s.noBuiltin, "no-builtin", false, "leave out the built-in suite (use with --suite)")
	fs.StringSliceVar(&s.ids, "case", nil, "only cases whose id matches `GLOB` (repeatable, or a comma list)")
	fs.StringSliceVar(&s.kinds, "kind", nil, "only cases of `KIND` (repeatable, or a comma list)")
	fs.StringSliceVar(&s.rules, "rule", nil, "only cases citing a rule matching `GLOB` (repeatable, or a comma list)")
	fs.StringVar(&s.shard, "shard", "", "run shard `i/n` of the selected cases")
}

// load reads the suites and returns all cases and the filtered ones. A
// filter that selects nothing is a usage error: a typo must not conform.
func (s *suiteFlags) load() (suites []*suite.Suite, all, selected []*suite.Case, err error) {
	if unknown := kinds.Builtin.UnknownKinds(s.kinds); len(unknown) > 0 {
		return nil, nil, nil, usagef("--kind %s: unknown case kind; known kinds: %s", strings.Join(unknown, ", "), strings.Join(kinds.Builtin.Names(), ", "))
	}
	if err := checkGlobs("--case", s.ids); err != nil {
		return nil, nil, nil, err
	}
	if err := checkGlobs("--rule", s.rules); err != nil {
		return nil, nil, nil, err
	}
	if !s.noBuiltin {
		b, err := loadBuiltin()
		if err != nil {
			return nil, nil, nil, usageError{err}
		}
		suites = append(suites, b)
	}
	for _, dir := range s.suites {
		ds, err := loadDir("--suite", dir)
		if err != nil {
			return nil, nil, nil, err
		}
		suites = append(suites, ds)
	}
	if len(suites) == 0 {
		return nil, nil, nil, usagef("no suite: --no-builtin needs at least one --suite")
	}
	seen := map[string]string{}
	for _, st := range suites {
		for _, c := range st.Cases {
			if prev, dup := seen[c.ID]; dup {
				return nil, nil, nil, usagef("%s: case %s is also in %s", c.File, c.ID, prev)
			}
			seen[c.ID] = c.File
			all = append(all, c)
		}
	}
	if len(all) == 0 {
		return nil, nil, nil, usagef("the suite holds no case (%s/<kind>/<name>.json)", suite.FixturesDir)
	}
	f := run.Filter{IDs: s.ids, Kinds: s.kinds, Rules: s.rules}
	selected = f.Apply(all)
	if len(selected) == 0 && (len(s.ids) > 0 || len(s.kinds) > 0 || len(s.rules) > 0) {
		return nil, nil, nil, usagef("no case matches %s", describeFilter(s.ids, s.kinds, s.rules))
	}
	if s.shard != "" {
		if f.ShardIndex, f.ShardCount, err = run.ParseShard(s.shard); err != nil {
			return nil, nil, nil, usageError{err}
		}
		selected = f.Apply(all)
	}
	return suites, all, selected, nil
}

// checkGlobs refuses a malformed glob, which would otherwise match nothing.
func checkGlobs(flag string, globs []string) error {
	for _, g := range globs {
		if _, err := path.Match(g, ""); err != nil {
			return usagef("%s %q: not a valid glob: %v", flag, g, err)
		}
	}
	return nil
}

func describeFilter(ids, kinds, rules []string) string {
	var parts []string
	for _, f := range []struct {
		flag  string
		value []string
	}{{"--case", ids}, {"--kind", kinds}, {"--rule", rules}} {
		for _, v := range f.value {
			parts = append(parts, f.flag+" "+v)
		}
	}
	return strings.Join(parts, ", ")
}

// loadDir loads the suite in a folder on disk; flag names where it came from.
func loadDir(flag, dir string) (*suite.Suite, error) {
	if st, err := os.Stat(filepath.Join(dir, suite.FixturesDir)); err != nil || !st.IsDir() {
		return nil, usagef("%s %s: no %s/ folder there", flag, dir, suite.FixturesDir)
	}
	s, err := kinds.Load(dir, os.DirFS(dir), dir)
	if err != nil {
		return nil, usageError{err}
	}
	return s, nil
}

// loadBuiltin loads the built-in suite. In a piconform checkout whose files
// differ from the ones embedded in this binary (a fixture edited since the
// build), it loads the checkout's folder instead: a user who edits a case
// expects the run to see it. The header of `run` says which one ran.
func loadBuiltin() (*suite.Suite, error) {
	if dir, ok := checkoutDir(); ok {
		if differs, err := suitesDiffer(piconform.Builtin(), os.DirFS(dir)); err == nil && differs {
			s, err := kinds.Load(dir, os.DirFS(dir), dir)
			if s != nil {
				s.Name = checkoutName
			}
			return s, err
		}
	}
	return kinds.LoadEmbedded(piconform.Builtin())
}

// checkoutName names the built-in suite when it was read from a checkout.
const checkoutName = "checkout"

// checkoutDir is the current folder when it is the root of a piconform
// checkout (its go.mod declares the module and it holds fixtures/).
func checkoutDir() (string, bool) {
	data, err := os.ReadFile("go.mod")
	if err != nil || !strings.HasPrefix(string(data), "module github.com/piconform/piconform\n") {
		return "", false
	}
	if st, err := os.Stat(suite.FixturesDir); err != nil || !st.IsDir() {
		return "", false
	}
	return ".", true
}

// suitesDiffer tells whether the case, golden and cassette files of two
// suites differ in name or content.
func suitesDiffer(a, b fs.FS) (bool, error) {
	read := func(fsys fs.FS) (map[string][]byte, error) {
		files := map[string][]byte{}
		for _, dir := range []string{suite.FixturesDir, suite.GoldenDir, suite.CassetteDir} {
			err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
				if errors.Is(err, fs.ErrNotExist) && p == dir {
					return fs.SkipDir
				}
				if err != nil || d.IsDir() {
					return err
				}
				data, err := suite.ReadFile(fsys, p)
				files[p] = data
				return err
			})
			if err != nil {
				return nil, err
			}
		}
		return files, nil
	}
	fa, err := read(a)
	if err != nil {
		return false, err
	}
	fb, err := read(b)
	if err != nil {
		return false, err
	}
	if len(fa) != len(fb) {
		return true, nil
	}
	for p, data := range fa {
		if other, ok := fb[p]; !ok || !bytes.Equal(data, other) {
			return true, nil
		}
	}
	return false, nil
}

// describeSuites says which suites a run reads, for its header.
func describeSuites(suites []*suite.Suite) string {
	var parts []string
	for _, s := range suites {
		switch {
		case s.Dir == "":
			parts = append(parts, "built-in (embedded in this binary)")
		case s.Name == checkoutName:
			parts = append(parts, "built-in, read from the checkout in "+s.Dir+" (its files differ from the embedded ones)")
		default:
			parts = append(parts, "folder "+s.Dir)
		}
	}
	return strings.Join(parts, " + ")
}

func newFlagSet(name, usage string, env Env) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "Usage: piconform %s [flags]\n\n%s\n\nFlags:\n%s", name, usage, fs.FlagUsages())
	}
	return fs
}

func parse(fs *pflag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

func cmdRun(args []string, env Env) (int, error) {
	fs := newFlagSet("run", "Runs the suite against the built-in Go reference, or against --impl.", env)
	var sf suiteFlags
	sf.register(fs)
	impl := fs.String("impl", "", "run the implementation started by `CMD` under the subprocess protocol (plain words run directly, anything else with sh -c)")
	jobs := fs.Int("jobs", 1, "run `N` implementation processes in parallel")
	timeout := fs.Duration("timeout", 10*time.Second, "deadline of one case, from sending it to its answer")
	startTimeout := fs.Duration("start-timeout", subject.DefaultStartTimeout, "deadline of starting one implementation process, from its command to its hello (a process that misses it is started again and charged to no case); also the deadline of the first case of each kind and API a process runs, when longer than --timeout")
	maxRestarts := fs.Int("max-restarts", 5, "restarts of a broken implementation process before its remaining cases are given up")
	expectFile := fs.String("expect", "", "expected-failure `FILE`")
	writeExpect := fs.String("write-expect", "", "write the current failures to `FILE` (- for stdout) as an expected-failure file, with the paths each differs at (an existing FILE is rewritten in place, keeping its comments and reasons, and the entries of cases the run left out)")
	jsonOut := fs.String("json", "", "write the JSON-lines report to `FILE` (- for stdout), a line as each case ends")
	junitOut := fs.String("junit", "", "write a JUnit XML report to `FILE` (- for stdout)")
	mdOut := fs.String("markdown", "", "write a Markdown summary to `FILE` (- for stdout)")
	profileFlag := fs.String("profile", "", "leave out the cases a kind of port need not pass: `NAME` is "+strings.Join(profile.Names(), ", ")+" (see docs/profiles.md); the reports say it was used")
	logDir := fs.String("log-dir", "", "folder for the implementation's stderr logs (default: a new temporary folder)")
	verbose := fs.BoolP("verbose", "v", false, "list every case, not only those that need attention")
	dialectName := fs.String("dialect", "", "check the Pi release line `D` ("+strings.Join(dialect.Names(), ", ")+", or all for each in turn); default: the newest the implementation states in its hello, else "+dialect.Latest.String())
	strictIdentity := fs.Bool("strict-identity", false, "compare identity headers (user-agent, accept, SDK telemetry) and runtime texts (V8's error wording) exactly, as the real Pi must match them")
	if err := parse(fs, args); err != nil {
		return 0, err
	}
	if *jobs < 1 {
		return 0, usagef("--jobs must be at least 1")
	}
	if *timeout <= 0 || *startTimeout <= 0 {
		return 0, usagef("--timeout and --start-timeout must be positive")
	}
	if *maxRestarts < 0 {
		return 0, usagef("--max-restarts must be 0 or more, not %d", *maxRestarts)
	}
	// The output paths are checked before the run, so a typo is not found
	// only after it.
	toStdout := 0
	for _, p := range []string{*jsonOut, *junitOut, *mdOut, *writeExpect} {
		if p == "-" {
			toStdout++
		} else if p != "" {
			if err := atomicfile.CheckWritable(p); err != nil {
				return 0, usageError{err}
			}
		}
	}
	if toStdout > 1 {
		return 0, usagef("only one of --json, --junit, --markdown and --write-expect can write to stdout (-)")
	}
	var prof *run.Profile
	if *profileFlag != "" {
		if prof = profile.Named(*profileFlag); prof == nil {
			return 0, usagef("--profile %q: unknown profile; known: %s", *profileFlag, strings.Join(profile.Names(), ", "))
		}
	}
	dialects, err := parseDialects(*dialectName, nil)
	if err != nil {
		return 0, err
	}
	if len(dialects) > 1 && (*expectFile != "" || *writeExpect != "") {
		return 0, usagef("--expect and --write-expect hold one dialect's failures: give --dialect a single dialect")
	}
	var exp *expect.File
	if *expectFile != "" {
		if exp, err = expect.Read(*expectFile); err != nil {
			return 0, usageError{err}
		}
	}
	suites, all, selected, err := sf.load()
	if err != nil {
		return 0, err
	}
	implOf, _ := (&subject.Reference{Version: report.Version}).Start(context.Background())
	if *impl != "" {
		// One start before the run: a command that cannot start is one
		// clear error, and the hello says which dialect it follows.
		hello, err := probe(*impl, *startTimeout)
		if err != nil {
			return 0, usageError{err}
		}
		implOf = hello
		if dialects == nil {
			d, note := dialectOf(hello)
			if note != "" {
				fmt.Fprintf(env.Stderr, "piconform: %s\n", note)
			}
			dialects = []dialect.Dialect{d}
		} else if len(hello.Dialects) > 0 {
			for _, d := range dialects {
				if !slices.Contains(hello.Dialects, d.String()) {
					fmt.Fprintf(env.Stderr, "piconform: note: checking dialect %s, which the implementation does not state (it states %s)\n", d, strings.Join(hello.Dialects, ", "))
				}
			}
		}
	}
	if dialects == nil {
		dialects = []dialect.Dialect{dialect.Latest}
	}
	allIDs := make([]string, len(all))
	for i, c := range all {
		allIDs[i] = c.ID
	}
	casesOf := map[dialect.Dialect][]*suite.Case{}
	for _, d := range dialects {
		for _, c := range selected {
			if c.HoldsIn(d) {
				casesOf[d] = append(casesOf[d], c)
			}
		}
		if err := kinds.Builtin.CheckFiles(casesOf[d], d); err != nil {
			return 0, usageError{err}
		}
	}

	var sums []*run.Summary // read by the deferred clean-up of the logs
	opts := run.Options{Jobs: *jobs, Timeout: *timeout, MaxRestarts: *maxRestarts, Expect: exp, StrictIdentity: *strictIdentity}
	if *impl != "" {
		opts.FirstUseTimeout = *startTimeout
	}
	if *impl == "" {
		opts.NewSubject = func(int) subject.Subject {
			return &subject.Reference{Options: conformance.Options{HTTPClient: wire.InProcess}, Version: report.Version}
		}
	} else {
		dir := *logDir
		if dir == "" {
			if dir, err = os.MkdirTemp("", "piconform-logs-"); err != nil {
				return 0, err
			}
		} else if err := os.MkdirAll(dir, 0o755); err != nil {
			return 0, usageError{err}
		}
		fmt.Fprintf(env.Stderr, "implementation logs: %s\n", dir)
		var logs []io.Closer
		var logsMu sync.Mutex // NewSubject is called from every worker
		defer func() {
			for _, l := range logs {
				l.Close()
			}
			if *logDir == "" {
				removeTempLogs(dir, sums, env.Stderr)
			}
		}()
		opts.NewSubject = func(w int) subject.Subject {
			p := &subject.Process{Command: *impl, StartTimeout: *startTimeout}
			if f, err := subject.LogFile(filepath.Join(dir, fmt.Sprintf("impl-%d.log", w+1))); err == nil {
				logsMu.Lock()
				logs = append(logs, f)
				logsMu.Unlock()
				p.Log = f
			}
			return p
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// What people read goes to stdout, unless a report does: then to stderr.
	human := env.Stdout
	if toStdout > 0 {
		human = env.Stderr
	}
	style := report.Style{}
	if f, ok := human.(*os.File); ok {
		style = report.StyleFor(f)
	}
	term := &report.TerminalSink{W: human, Style: style, Verbose: *verbose, Suite: describeSuites(suites),
		GitHub: env.Getenv("GITHUB_ACTIONS") == "true", ProgressEvery: ProgressEvery}
	if f, ok := human.(*os.File); ok && style.Color {
		term.Status = f // a terminal: a status line in place of progress lines
	}
	if *writeExpect == "" {
		term.WriteExpect = func(d dialect.Dialect) string {
			target := "expected.txt"
			if *expectFile != "" {
				target = *expectFile // rewritten in place, keeping its comments
			}
			return writeExpectCommand(args, d, len(dialects) > 1, target)
		}
	}
	live := &report.Live{Sinks: []report.Sink{term}}
	var jsonFile *os.File
	var jsonSink *report.JSONSink
	switch *jsonOut {
	case "":
	case "-":
		jsonSink = &report.JSONSink{W: env.Stdout}
		live.Sinks = append(live.Sinks, jsonSink)
	default:
		// Written as the run goes, so a run cut short (a CI timeout) leaves
		// what it did; a reader refuses it for its missing footer.
		if err := os.MkdirAll(filepath.Dir(*jsonOut), 0o755); err != nil {
			return 0, usageError{err}
		}
		if jsonFile, err = os.Create(*jsonOut); err != nil {
			return 0, usageError{err}
		}
		defer jsonFile.Close()
		jsonSink = &report.JSONSink{W: jsonFile}
		live.Sinks = append(live.Sinks, jsonSink)
	}
	opts.Started, opts.Progress = live.Started, live.Done
	opts.Profile = prof
	for i, d := range dialects {
		if ctx.Err() != nil {
			break
		}
		if i > 0 {
			fmt.Fprintln(human)
		}
		opts.Dialect = d
		opts.Fixtures = kinds.Builtin.Fixtures(kinds.FixtureOptions{StrictIdentity: *strictIdentity, Dialect: d})
		live.Begin(report.Head{Implementation: implOf, Dialect: d, Cases: len(casesOf[d]), Profile: profileName(prof), Started: time.Now()})
		sum := run.Run(ctx, casesOf[d], allIDs, opts)
		live.End(sum)
		sums = append(sums, sum)
	}
	if jsonFile != nil {
		if err := jsonFile.Close(); err != nil && jsonSink.Err() == nil {
			return 0, fmt.Errorf("writing %s: %w", *jsonOut, err)
		}
	}
	if jsonSink != nil && jsonSink.Err() != nil {
		where := *jsonOut
		if where == "-" {
			where = "stdout"
		}
		return 0, fmt.Errorf("writing the JSON report to %s: %w", where, jsonSink.Err())
	}
	for _, out := range []struct {
		path string
		data func(...*run.Summary) []byte
	}{{*junitOut, report.JUnit}, {*mdOut, report.Markdown}} {
		if out.path == "" {
			continue
		}
		if err := writeOut(env, out.path, out.data(sums...)); err != nil {
			return 0, err
		}
	}
	sum := sums[len(sums)-1]
	switch {
	case *writeExpect == "":
	case sum.Interrupted:
		fmt.Fprintf(env.Stderr, "piconform: %s not written: the run was interrupted\n", *writeExpect)
	default:
		var failures []expect.Failure
		ran := map[string]bool{}
		for _, r := range sum.Results {
			ran[r.Case.ID] = true
			if !r.Passed() {
				failures = append(failures, expect.Failure{ID: r.Case.ID, Message: r.Message, Outcome: string(r.Outcome), Paths: r.DiffPaths()})
			}
		}
		var notRun []string
		for _, id := range allIDs {
			if !ran[id] {
				notRun = append(notRun, id)
			}
		}
		if err := writeOut(env, *writeExpect, expect.Render(exp, failures, notRun)); err != nil {
			return 0, err
		}
		fmt.Fprintf(env.Stderr, "wrote %d expected failures to %s\n", len(failures), *writeExpect)
	}
	if sum.Interrupted {
		fmt.Fprintln(env.Stderr, "piconform: interrupted")
	}
	return report.ExitCode(sums...), nil
}

// ProgressEvery is how often a run that writes to a pipe or a file prints a
// progress line (a terminal gets a status line instead).
var ProgressEvery = 10 * time.Second

func profileName(p *run.Profile) string {
	if p == nil {
		return ""
	}
	return p.Name
}

// writeExpectCommand is the command line of this run with --write-expect
// target added (and, for a run of several dialects, --dialect d): the
// exact command that records this run's failures.
func writeExpectCommand(args []string, d dialect.Dialect, several bool, target string) string {
	words := []string{"piconform", "run"}
	skip := false
	for _, a := range args {
		switch {
		case skip:
			skip = false
			continue
		case several && a == "--dialect":
			skip = true
			continue
		case several && strings.HasPrefix(a, "--dialect="):
			continue
		}
		words = append(words, a)
	}
	if several {
		words = append(words, "--dialect", d.String())
	}
	words = append(words, "--write-expect", target)
	for i, w := range words {
		words[i] = shellQuote(w)
	}
	return strings.Join(words, " ")
}

// shellQuote quotes a word for sh when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,@+%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// inDialects keeps the cases that hold in one of dialects.
func inDialects(cases []*suite.Case, dialects []dialect.Dialect) []*suite.Case {
	var out []*suite.Case
	for _, c := range cases {
		if slices.ContainsFunc(dialects, c.HoldsIn) {
			out = append(out, c)
		}
	}
	return out
}

// parseDialects reads a --dialect value: one dialect, or "all" for every
// one; "" gives def.
func parseDialects(name string, def []dialect.Dialect) ([]dialect.Dialect, error) {
	switch name {
	case "":
		return def, nil
	case "all":
		return dialect.All(), nil
	}
	d, err := dialect.Parse(name)
	if err != nil {
		return nil, usagef("--dialect: %v, or all", err)
	}
	return []dialect.Dialect{d}, nil
}

// probe starts the implementation once to read its hello, so the run can
// follow the dialect it states and a command that cannot start is one
// clear line before any case: the command, why, and the last line it
// wrote to stderr.
func probe(command string, timeout time.Duration) (subject.Implementation, error) {
	var stderr tail
	p := &subject.Process{Command: command, StartTimeout: timeout, Log: &stderr}
	impl, err := p.Start(context.Background())
	p.Close()
	if err != nil {
		why := err.Error()
		if f := subject.AsFailure(err); f != nil && f.Msg != "" {
			why = f.Msg
		}
		msg := fmt.Sprintf("--impl %s cannot start: %s", shellQuote(command), why)
		if last := stderr.lastLine(); last != "" && !strings.Contains(why, last) {
			msg += "; its stderr ends: " + last
		}
		return impl, errors.New(printable.Line(strings.TrimSpace(msg)))
	}
	return impl, nil
}

// tail keeps the last bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 4096 {
		t.buf = t.buf[len(t.buf)-4096:]
	}
	return len(p), nil
}

func (t *tail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func cmdServe(args []string, env Env) error {
	fs := newFlagSet("serve", "Serves the Go reference under the subprocess protocol (spec/PROTOCOL.md) on stdin and stdout,\nas an adapter does: piconform run --impl \"piconform serve\" checks it.", env)
	if err := parse(fs, args); err != nil {
		return err
	}
	return conformance.Serve(env.Stdin, env.Stdout, report.Version, conformance.Options{})
}

// dialectOf is the dialect a run checks when none is asked for: the newest
// known one the implementation states, else the newest of all. note says
// why, when the hello did not decide it.
func dialectOf(impl subject.Implementation) (d dialect.Dialect, note string) {
	found := false
	for _, name := range impl.Dialects {
		if x, err := dialect.Parse(name); err == nil && (!found || x > d) {
			d, found = x, true
		}
	}
	switch {
	case found:
		return d, ""
	case len(impl.Dialects) > 0:
		return dialect.Latest, fmt.Sprintf("the implementation states dialects %s, none known to this piconform (%s); checking %s",
			strings.Join(impl.Dialects, ", "), strings.Join(dialect.Names(), ", "), dialect.Latest)
	}
	return dialect.Latest, fmt.Sprintf("the implementation states no dialect in its hello; checking the newest, %s (--dialect to choose)", dialect.Latest)
}

// removeTempLogs removes the temporary log folder a run made itself, unless
// the run did not conform and the implementation wrote something there:
// then the logs are what explains it, and the folder stays.
func removeTempLogs(dir string, sums []*run.Summary, stderr io.Writer) {
	if slices.ContainsFunc(sums, func(s *run.Summary) bool { return !s.OK() }) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if info, err := e.Info(); err == nil && info.Size() > 0 {
				fmt.Fprintf(stderr, "implementation logs kept: %s\n", dir)
				return
			}
		}
	}
	_ = os.RemoveAll(dir)
}

func cmdList(args []string, env Env) error {
	fs := newFlagSet("list", "Lists the selected cases: id, rules and description. With --json, one JSON object a line:\nid, kind, rules, description, file, api (wire cases) and the dialects the case holds in.", env)
	var sf suiteFlags
	sf.register(fs)
	dialectName := fs.String("dialect", dialect.Latest.String(), "only cases of the Pi release line `D` ("+strings.Join(dialect.Names(), ", ")+", or all)")
	asJSON := fs.Bool("json", false, "write JSON lines")
	if err := parse(fs, args); err != nil {
		return err
	}
	dialects, err := parseDialects(*dialectName, nil)
	if err != nil {
		return err
	}
	_, _, cases, err := sf.load()
	if err != nil {
		return err
	}
	enc := json.NewEncoder(env.Stdout)
	enc.SetEscapeHTML(false)
	for _, c := range inDialects(cases, dialects) {
		if *asJSON {
			if err := enc.Encode(listEntry{ID: c.ID, Kind: c.Kind, Rules: nonNil(c.Rules), Description: c.Description,
				File: c.File, API: c.API, Dialects: dialectNames(c)}); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(env.Stdout, "%s\t%s\t%s\n", c.ID, strings.Join(c.Rules, ","), printable.Line(c.Description))
	}
	return nil
}

// listEntry is one line of list --json.
type listEntry struct {
	ID          string   `json:"id"`
	Kind        string   `json:"kind"`
	Rules       []string `json:"rules"`
	Description string   `json:"description"`
	File        string   `json:"file"`
	API         string   `json:"api,omitempty"`
	Dialects    []string `json:"dialects"`
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// dialectNames are the dialects a case holds in.
func dialectNames(c *suite.Case) []string {
	out := []string{}
	for _, d := range dialect.All() {
		if c.HoldsIn(d) {
			out = append(out, d.String())
		}
	}
	return out
}

func cmdCoverage(args []string, env Env) (int, error) {
	fs := newFlagSet("coverage", "Shows, for every rule of the spec, the cases that test it, and names the rules no case tests.\nExits 1 when a case cites a rule the spec does not define.", env)
	var sf suiteFlags
	sf.register(fs)
	specPath := fs.String("spec", "", "read rules from this spec `FILE` instead of the built-in spec/*.md")
	dialectName := fs.String("dialect", dialect.Latest.String(), "count the cases of the Pi release line `D` ("+strings.Join(dialect.Names(), ", ")+", or all)")
	asJSON := fs.Bool("json", false, "write one JSON object: every rule with its cases or Go tests, the rules cases cite that the spec lacks, and the counts")
	if err := parse(fs, args); err != nil {
		return 0, err
	}
	dialects, err := parseDialects(*dialectName, nil)
	if err != nil {
		return 0, err
	}
	_, _, cases, err := sf.load()
	if err != nil {
		return 0, err
	}
	cases = inDialects(cases, dialects)
	var rules []suite.Rule
	if *specPath != "" {
		rules, err = suite.ReadRules(os.DirFS(filepath.Dir(*specPath)), filepath.Base(*specPath))
	} else {
		rules, err = suite.ReadSpec(piconform.Builtin())
	}
	if err != nil {
		return 0, usageError{err}
	}
	cov := suite.Coverage(rules, cases)
	code := ExitOK
	if len(cov.Unknown) > 0 {
		code = ExitNonConform
	}
	if *asJSON {
		return code, writeCoverageJSON(env.Stdout, cov)
	}
	byCases, byGoTests, untested := 0, 0, 0
	for _, rc := range cov.Rules {
		switch {
		case len(rc.Cases) > 0:
			byCases++
			fmt.Fprintf(env.Stdout, "%-40s %3d cases %s\n", rc.Rule.ID, len(rc.Cases), strings.Join(rc.Cases, " "))
		case len(rc.Rule.GoTests) > 0:
			byGoTests++
			fmt.Fprintf(env.Stdout, "%-40s  go tests %s\n", rc.Rule.ID, strings.Join(suite.GoTestCommands(rc.Rule.GoTests), "; "))
		default:
			untested++
			fmt.Fprintf(env.Stdout, "%-40s UNTESTED  %s\n", rc.Rule.ID, rc.Rule.Title)
		}
	}
	fmt.Fprintf(env.Stdout, "\n%d rules: %d tested by cases, %d only by the reference's Go tests (not checkable in other implementations), %d untested\n",
		len(cov.Rules), byCases, byGoTests, untested)
	for _, u := range cov.Unknown {
		fmt.Fprintf(env.Stdout, "UNKNOWN RULE %s cited by %s\n", u.Rule, strings.Join(u.Cases, " "))
	}
	return code, nil
}

// coverageJSON is what coverage --json writes.
type coverageJSON struct {
	Rules   []coverageRule    `json:"rules"`
	Unknown []coverageUnknown `json:"unknown"`
	Counts  map[string]int    `json:"counts"`
}

type coverageRule struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	File  string `json:"file"`
	Line  int    `json:"line"`
	// Status is "cases", "go-tests" (only the reference's Go tests check
	// it) or "untested".
	Status  string   `json:"status"`
	Cases   []string `json:"cases"`
	GoTests []string `json:"go_tests"`
}

type coverageUnknown struct {
	Rule  string   `json:"rule"`
	Cases []string `json:"cases"`
}

func writeCoverageJSON(w io.Writer, cov suite.CoverageReport) error {
	out := coverageJSON{Rules: []coverageRule{}, Unknown: []coverageUnknown{}, Counts: map[string]int{"rules": len(cov.Rules), "cases": 0, "go-tests": 0, "untested": 0}}
	for _, rc := range cov.Rules {
		r := coverageRule{ID: rc.Rule.ID, Title: rc.Rule.Title, File: rc.Rule.File, Line: rc.Rule.Line, Cases: nonNil(rc.Cases),
			GoTests: nonNil(suite.GoTestCommands(rc.Rule.GoTests))}
		switch {
		case len(rc.Cases) > 0:
			r.Status = "cases"
		case len(rc.Rule.GoTests) > 0:
			r.Status = "go-tests"
		default:
			r.Status = "untested"
		}
		out.Counts[r.Status]++
		out.Rules = append(out.Rules, r)
	}
	for _, u := range cov.Unknown {
		out.Unknown = append(out.Unknown, coverageUnknown{Rule: u.Rule, Cases: u.Cases})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func cmdUpdate(args []string, env Env) (int, error) {
	fs := newFlagSet("update", "Regenerates the cassettes and goldens of the suite in --suite from the Go reference and prints\nwhat changed, what is new, and which files no case uses. Refuses to write when CI is set, unless --force.\nWith --dry-run it writes nothing and exits 1 when a file would change.\n\nA wire case's cassette is recorded first: the reference runs against the case's hand-built\nresponse through go-vcr's recorder, credentials scrubbed before saving. Its golden is then made\nby replaying that cassette, as the runner does.", env)
	root := fs.String("suite", ".", "the suite `DIR` to update (holding fixtures/, golden/ and cassettes/)")
	fs.StringVar(root, "root", ".", "the suite `DIR` to update")
	_ = fs.MarkDeprecated("root", "use --suite")
	dry := fs.Bool("dry-run", false, "show what would change; write nothing")
	force := fs.Bool("force", false, "write even when CI is set")
	prune := fs.Bool("prune", false, "delete goldens that no case uses")
	ids := fs.StringSlice("case", nil, "only cases whose id matches `GLOB` (repeatable, or a comma list)")
	noRecord := fs.Bool("no-record", false, "keep the cassettes as they are; only replay them to make goldens")
	dialectName := fs.String("dialect", "all", "regenerate the files of the Pi release line `D` ("+strings.Join(dialect.Names(), ", ")+", or all)")
	if err := parse(fs, args); err != nil {
		return 0, err
	}
	dialects, err := parseDialects(*dialectName, dialect.All())
	if err != nil {
		return 0, err
	}
	if ci := env.Getenv("CI"); ci != "" && ci != "false" && !*dry && !*force {
		return 0, usagef("CI is set: refusing to write goldens and cassettes (use --dry-run to see the changes, or --force)")
	}
	if err := checkGlobs("--case", *ids); err != nil {
		return 0, err
	}
	s, err := loadDir("--suite", *root)
	if err != nil {
		return 0, err
	}
	cases := run.Filter{IDs: *ids}.Apply(s.Cases)
	if len(cases) == 0 && len(*ids) > 0 {
		return 0, usagef("no case matches %s", describeFilter(*ids, nil, nil))
	}
	// A signal stops the update and writes nothing.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var fixtures golden.DialectFixtures
	var cassettes []golden.CassetteChange
	if !*noRecord {
		cassettes, fixtures = golden.RecordAll(ctx, cases, dialects)
	}
	// Each line names the case and the dialect whose expectation changed
	// ([1.6]); a file written or deleted without a change in what a
	// dialect expects (an overlay made or dropped because the dialect
	// before changed) is shown as such.
	cassetteCounts := map[dialect.Dialect]map[golden.Status]int{}
	counts := map[dialect.Dialect]map[golden.Status]int{}
	for _, d := range dialects {
		cassetteCounts[d], counts[d] = map[golden.Status]int{}, map[golden.Status]int{}
	}
	writes, removes := 0, 0
	tally := func(f golden.Files) {
		if f.Write != "" {
			writes++
		}
		if f.Remove != "" {
			removes++
		}
		printFiles(env.Stdout, f)
	}
	for _, ch := range cassettes {
		cassetteCounts[ch.Dialect][ch.Status]++
		id := fmt.Sprintf("%s [%s]", ch.Case.ID, ch.Dialect)
		switch ch.Status {
		case golden.New:
			fmt.Fprintf(env.Stdout, "new      cassette %s\n", id)
		case golden.Changed:
			fmt.Fprintf(env.Stdout, "changed  cassette %s %s\n", id, ch.Where)
		case golden.Failed:
			fmt.Fprintf(env.Stdout, "FAILED   cassette %s: %s\n", id, printable.String(ch.Err.Error()))
		}
		tally(ch.Files)
	}
	changes := golden.Plan(cases, dialects, fixtures)
	for _, ch := range changes {
		counts[ch.Dialect][ch.Status]++
		id := fmt.Sprintf("%s [%s]", ch.Case.ID, ch.Dialect)
		switch ch.Status {
		case golden.New:
			fmt.Fprintf(env.Stdout, "new      %s\n", id)
		case golden.Changed:
			fmt.Fprintf(env.Stdout, "changed  %s at %s\n%s", id, ch.Mismatch.Path, indentDiff(ch.Mismatch.Diff))
		case golden.Failed:
			fmt.Fprintf(env.Stdout, "FAILED   %s\n", printable.String(ch.Err.Error()))
		}
		tally(ch.Files)
	}
	orphans, err := s.Orphans()
	if err != nil {
		return 0, err
	}
	for _, o := range orphans {
		fmt.Fprintf(env.Stdout, "orphan   %s (no case uses it)\n", o)
	}
	temps, err := golden.StaleTemps(s)
	if err != nil {
		return 0, err
	}
	for _, o := range temps {
		fmt.Fprintf(env.Stdout, "orphan   %s (a temporary file a killed update left)\n", o)
	}
	orphans = append(orphans, temps...)
	if ctx.Err() != nil {
		fmt.Fprintln(env.Stderr, "piconform: interrupted; nothing written")
		return report.ExitInterrupted, nil
	}
	verbs := [2]string{"wrote", "deleted"}
	if *dry {
		verbs = [2]string{"would write", "would delete"}
	} else {
		var remove []string
		if *prune {
			remove = orphans
		}
		// All or nothing: a refused recording or a target outside the suite
		// writes no file at all, and neither does a failed write or a signal.
		if err := golden.CheckWrite(s, cassettes, changes, remove); err != nil {
			return 0, usageError{err}
		}
		if err := golden.Write(ctx, s, cassettes, changes, remove); err != nil {
			if ctx.Err() != nil {
				fmt.Fprintln(env.Stderr, "piconform: interrupted; nothing written")
				return report.ExitInterrupted, nil
			}
			return 0, usageError{err}
		}
	}
	failed := false
	for _, d := range dialects {
		c := counts[d]
		fmt.Fprintf(env.Stdout, "dialect %s: %d new and %d changed goldens; %d unchanged, %d failed\n",
			d, c[golden.New], c[golden.Changed], c[golden.Unchanged], c[golden.Failed])
		if len(cassettes) > 0 {
			c := cassetteCounts[d]
			fmt.Fprintf(env.Stdout, "dialect %s: %d new and %d changed cassettes; %d unchanged, %d failed\n",
				d, c[golden.New], c[golden.Changed], c[golden.Unchanged], c[golden.Failed])
		}
		failed = failed || counts[d][golden.Failed] > 0 || cassetteCounts[d][golden.Failed] > 0
	}
	fmt.Fprintf(env.Stdout, "%s %d %s, %s %d; %d orphaned\n", verbs[0], writes, plural(writes, "file", "files"), verbs[1], removes, len(orphans))
	switch {
	case failed:
		return ExitUsageOrData, nil
	case *dry && (writes > 0 || removes > 0 || *prune && len(orphans) > 0):
		// As gofmt -l and git diff --exit-code: pending changes fail a check.
		return ExitNonConform, nil
	}
	return ExitOK, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// printFiles shows the files an update writes and deletes.
func printFiles(w io.Writer, f golden.Files) {
	if f.Write != "" {
		fmt.Fprintf(w, "         write  %s\n", f.Write)
	}
	if f.Remove != "" {
		fmt.Fprintf(w, "         delete %s (the dialect before gives the same)\n", f.Remove)
	}
}

func indentDiff(d string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(d, "\n"), "\n") {
		b.WriteString("         " + l + "\n")
	}
	return b.String()
}

// dialectReleases names each dialect and the Pi release it pins: "0.80
// (Pi 0.80.2), 1.6 (Pi 1.6.0)".
func dialectReleases() string {
	var parts []string
	for _, d := range dialect.All() {
		parts = append(parts, fmt.Sprintf("%s (Pi %s)", d, d.Release()))
	}
	return strings.Join(parts, ", ")
}
