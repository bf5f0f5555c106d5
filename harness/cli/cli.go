// Package cli is the piconform command line: it parses flags into harness
// options and prints results. cmd/piconform only calls Main.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/piconform/piconform"
	"github.com/piconform/piconform/harness/atomicfile"
	"github.com/piconform/piconform/harness/expect"
	"github.com/piconform/piconform/harness/golden"
	"github.com/piconform/piconform/harness/report"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/subject"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/harness/wire"
	"github.com/piconform/piconform/reference/conformance"
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
  piconform update [flags]     re-record cassettes and regenerate goldens from the reference, showing what changed
  piconform report [flags] REPORT.jsonl...   merge JSON reports into a compatibility matrix (Markdown, HTML)
  piconform serve              serve the reference under the subprocess protocol (stdin/stdout)
  piconform version            print the version

Run 'piconform COMMAND --help' for the flags of a command.
Exit codes: 0 conforms, 1 does not conform, 2 usage or input error.
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
	case "report":
		code, err = cmdReport(rest, env)
	case "serve":
		err = conformance.Serve(env.Stdin, env.Stdout, subject.ReferenceVersion, conformance.Options{})
	case "version", "--version":
		fmt.Fprintf(env.Stdout, "piconform %s (reference: Pi %s, protocol %d)\n", report.Version, subject.ReferenceVersion, subject.ProtocolVersion)
	case "help", "-h", "--help":
		fmt.Fprint(env.Stdout, topUsage)
	default:
		err = usagef("unknown command %q\n\n%s", cmd, topUsage)
	}
	if err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return ExitOK
		}
		fmt.Fprintf(env.Stderr, "piconform: %v\n", err)
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
	fs.StringArrayVar(&s.suites, "suite", nil, "add a suite `DIR` holding fixtures/ and golden/ (repeatable)")
	fs.BoolVar(&s.noBuiltin, "no-builtin", false, "leave out the built-in suite (use with --suite)")
	fs.StringArrayVar(&s.ids, "case", nil, "only cases whose id matches `GLOB` (repeatable)")
	fs.StringArrayVar(&s.kinds, "kind", nil, "only cases of `KIND` (repeatable)")
	fs.StringArrayVar(&s.rules, "rule", nil, "only cases citing a rule matching `GLOB` (repeatable)")
	fs.StringVar(&s.shard, "shard", "", "run shard `i/n` of the selected cases")
}

// load reads the suites and returns all cases and the filtered ones.
func (s *suiteFlags) load() (suites []*suite.Suite, all, selected []*suite.Case, err error) {
	if !s.noBuiltin {
		b, err := suite.Load("builtin", piconform.Builtin(), "")
		if err != nil {
			return nil, nil, nil, usageError{err}
		}
		suites = append(suites, b)
	}
	for _, dir := range s.suites {
		if st, err := os.Stat(filepath.Join(dir, suite.FixturesDir)); err != nil || !st.IsDir() {
			return nil, nil, nil, usagef("--suite %s: no %s/ folder there", dir, suite.FixturesDir)
		}
		ds, err := suite.Load(dir, os.DirFS(dir), dir)
		if err != nil {
			return nil, nil, nil, usageError{err}
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
	f := run.Filter{IDs: s.ids, Kinds: s.kinds, Rules: s.rules}
	if s.shard != "" {
		if f.ShardIndex, f.ShardCount, err = run.ParseShard(s.shard); err != nil {
			return nil, nil, nil, usageError{err}
		}
	}
	return suites, all, f.Apply(all), nil
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
	impl := fs.String("impl", "", "run the implementation started by `CMD` (sh -c) under the subprocess protocol")
	jobs := fs.Int("jobs", 1, "run `N` implementation processes in parallel")
	timeout := fs.Duration("timeout", 10*time.Second, "deadline of one case, from sending it to its answer")
	startTimeout := fs.Duration("start-timeout", subject.DefaultStartTimeout, "deadline of starting one implementation process, from its command to its hello (a process that misses it is started again and charged to no case); also the deadline of the first case of each kind and API a process runs, when longer than --timeout")
	maxRestarts := fs.Int("max-restarts", 5, "restarts of a broken implementation process before its remaining cases are given up")
	expectFile := fs.String("expect", "", "expected-failure `FILE`")
	writeExpect := fs.String("write-expect", "", "write the current failures to `FILE` as an expected-failure file, with the paths each differs at (an existing FILE is rewritten in place, keeping its comments and reasons)")
	jsonOut := fs.String("json", "", "write the JSON-lines report to `FILE` (- for stdout)")
	junitOut := fs.String("junit", "", "write a JUnit XML report to `FILE`")
	mdOut := fs.String("markdown", "", "write a Markdown summary to `FILE`")
	logDir := fs.String("log-dir", "", "folder for the implementation's stderr logs (default: a new temporary folder)")
	verbose := fs.BoolP("verbose", "v", false, "list every case, not only those that need attention")
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
	var exp *expect.File
	if *expectFile != "" {
		var err error
		if exp, err = expect.Read(*expectFile); err != nil {
			return 0, usageError{err}
		}
	}
	_, all, cases, err := sf.load()
	if err != nil {
		return 0, err
	}
	allIDs := make([]string, len(all))
	for i, c := range all {
		allIDs[i] = c.ID
	}

	opts := run.Options{Jobs: *jobs, Timeout: *timeout, MaxRestarts: *maxRestarts, Expect: exp, Fixtures: golden.Fixtures(), StrictIdentity: *strictIdentity}
	if fx, ok := opts.Fixtures[wire.Kind].(*wire.Fixture); ok {
		fx.StrictIdentity = *strictIdentity
	}
	if *impl != "" {
		opts.FirstUseTimeout = *startTimeout
	}
	if *impl == "" {
		opts.NewSubject = func(int) subject.Subject { return &subject.Reference{} }
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
	if progressTo, ok := env.Stderr.(*os.File); ok && report.StyleFor(progressTo).Color {
		opts.Progress = func(done, total int, r run.Result) {
			fmt.Fprintf(progressTo, "\r\x1b[K[%d/%d] %s", done, total, r.Case.ID)
			if done == total {
				fmt.Fprint(progressTo, "\r\x1b[K")
			}
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum := run.Run(ctx, cases, allIDs, opts)
	for _, f := range sum.StartFailures {
		fmt.Fprintf(env.Stderr, "implementation process %d did not start (%s: %s); no case was charged, and it was started again up to --max-restarts times\n", f.Worker, f.Outcome, f.Message)
	}

	style := report.Style{}
	if f, ok := env.Stdout.(*os.File); ok {
		style = report.StyleFor(f)
	}
	if *jsonOut == "-" {
		env.Stdout.Write(report.JSONLines(sum))
	} else {
		report.Terminal(env.Stdout, sum, style, *verbose)
	}
	for _, out := range []struct {
		path string
		data func(*run.Summary) []byte
	}{{*jsonOut, report.JSONLines}, {*junitOut, report.JUnit}, {*mdOut, report.Markdown}} {
		if out.path == "" || out.path == "-" {
			continue
		}
		if err := atomicfile.WriteFile(out.path, out.data(sum)); err != nil {
			return 0, err
		}
	}
	if *writeExpect != "" {
		var failures []expect.Failure
		for _, r := range sum.Results {
			if !r.Passed() {
				failures = append(failures, expect.Failure{ID: r.Case.ID, Message: r.Message, Outcome: string(r.Outcome), Paths: r.DiffPaths()})
			}
		}
		if err := atomicfile.WriteFile(*writeExpect, expect.Render(exp, failures)); err != nil {
			return 0, err
		}
		fmt.Fprintf(env.Stderr, "wrote %d expected failures to %s\n", len(failures), *writeExpect)
	}
	return report.ExitCode(sum), nil
}

func cmdList(args []string, env Env) error {
	fs := newFlagSet("list", "Lists the selected cases: id, kind, rules and description.", env)
	var sf suiteFlags
	sf.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	_, _, cases, err := sf.load()
	if err != nil {
		return err
	}
	for _, c := range cases {
		fmt.Fprintf(env.Stdout, "%s\t%s\t%s\n", c.ID, strings.Join(c.Rules, ","), c.Description)
	}
	return nil
}

func cmdCoverage(args []string, env Env) (int, error) {
	fs := newFlagSet("coverage", "Shows, for every rule of the spec, the cases that test it, and names the rules no case tests.\nExits 1 when a case cites a rule the spec does not define.", env)
	var sf suiteFlags
	sf.register(fs)
	specPath := fs.String("spec", "", "read rules from this spec `FILE` instead of the built-in spec/*.md")
	if err := parse(fs, args); err != nil {
		return 0, err
	}
	_, _, cases, err := sf.load()
	if err != nil {
		return 0, err
	}
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
	if len(cov.Unknown) > 0 {
		return ExitNonConform, nil
	}
	return ExitOK, nil
}

func cmdUpdate(args []string, env Env) (int, error) {
	fs := newFlagSet("update", "Regenerates the cassettes and goldens of the suite in --root from the Go reference and prints\nwhat changed, what is new, and which files no case uses. Refuses to write when CI is set, unless --force.\n\nA wire case's cassette is recorded first: the reference runs against the case's hand-built\nresponse through go-vcr's recorder, credentials scrubbed before saving. Its golden is then made\nby replaying that cassette, as the runner does.", env)
	root := fs.String("root", ".", "the suite `DIR` to update (holding fixtures/, golden/ and cassettes/)")
	dry := fs.Bool("dry-run", false, "show what would change; write nothing")
	force := fs.Bool("force", false, "write even when CI is set")
	prune := fs.Bool("prune", false, "delete goldens that no case uses")
	ids := fs.StringArray("case", nil, "only cases whose id matches `GLOB` (repeatable)")
	noRecord := fs.Bool("no-record", false, "keep the cassettes as they are; only replay them to make goldens")
	if err := parse(fs, args); err != nil {
		return 0, err
	}
	if ci := env.Getenv("CI"); ci != "" && ci != "false" && !*dry && !*force {
		return 0, usagef("CI is set: refusing to write goldens and cassettes (use --dry-run to see the changes, or --force)")
	}
	if st, err := os.Stat(filepath.Join(*root, suite.FixturesDir)); err != nil || !st.IsDir() {
		return 0, usagef("--root %s: no %s/ folder there", *root, suite.FixturesDir)
	}
	s, err := suite.Load(*root, os.DirFS(*root), *root)
	if err != nil {
		return 0, usageError{err}
	}
	cases := run.Filter{IDs: *ids}.Apply(s.Cases)
	fixtures := golden.Fixtures()
	var cassettes []golden.CassetteChange
	if !*noRecord {
		cassettes, fixtures = golden.RecordAll(context.Background(), cases)
	}
	cassetteCounts := map[golden.Status]int{}
	for _, ch := range cassettes {
		cassetteCounts[ch.Status]++
		switch ch.Status {
		case golden.New:
			fmt.Fprintf(env.Stdout, "new      cassette %s\n", ch.Case.ID)
		case golden.Changed:
			fmt.Fprintf(env.Stdout, "changed  cassette %s %s\n", ch.Case.ID, ch.Where)
		case golden.Failed:
			fmt.Fprintf(env.Stdout, "FAILED   cassette %s: %v\n", ch.Case.ID, ch.Err)
		}
	}
	changes := golden.Plan(cases, fixtures)
	counts := map[golden.Status]int{}
	for _, ch := range changes {
		counts[ch.Status]++
		switch ch.Status {
		case golden.New:
			fmt.Fprintf(env.Stdout, "new      %s\n", ch.Case.ID)
		case golden.Changed:
			fmt.Fprintf(env.Stdout, "changed  %s at %s\n%s", ch.Case.ID, ch.Mismatch.Path, indentDiff(ch.Mismatch.Diff))
		case golden.Failed:
			fmt.Fprintf(env.Stdout, "FAILED   %v\n", ch.Err)
		}
	}
	orphans, err := s.Orphans()
	if err != nil {
		return 0, err
	}
	for _, o := range orphans {
		fmt.Fprintf(env.Stdout, "orphan   %s (no case uses it)\n", o)
	}
	verb := "wrote"
	if *dry {
		verb = "would write"
	} else {
		if err := golden.ApplyCassettes(s, cassettes); err != nil {
			return 0, err
		}
		if err := golden.Apply(s, changes); err != nil {
			return 0, err
		}
		if *prune {
			if err := golden.RemoveOrphans(orphans); err != nil {
				return 0, err
			}
		}
	}
	fmt.Fprintf(env.Stdout, "%s %d new and %d changed goldens; %d unchanged, %d failed, %d orphaned\n",
		verb, counts[golden.New], counts[golden.Changed], counts[golden.Unchanged], counts[golden.Failed], len(orphans))
	if len(cassettes) > 0 {
		fmt.Fprintf(env.Stdout, "%s %d new and %d changed cassettes; %d unchanged, %d failed\n", verb,
			cassetteCounts[golden.New], cassetteCounts[golden.Changed], cassetteCounts[golden.Unchanged], cassetteCounts[golden.Failed])
	}
	if counts[golden.Failed] > 0 || cassetteCounts[golden.Failed] > 0 {
		return ExitUsageOrData, nil
	}
	return ExitOK, nil
}

func indentDiff(d string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(d, "\n"), "\n") {
		b.WriteString("         " + l + "\n")
	}
	return b.String()
}
