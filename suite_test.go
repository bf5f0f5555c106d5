package piconform_test

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/piconform/piconform"
	"github.com/piconform/piconform/harness/cli"
	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/golden"
	"github.com/piconform/piconform/harness/kinds"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/harness/wire"
	"github.com/piconform/piconform/reference/dialect"
)

const updateHint = "if the change is intended, regenerate with `go run ./cmd/piconform update` (or `go test . -update`, which runs it) and review the diff"

// update makes TestGoldens run `piconform update` first: there is one way to
// regenerate cassettes and goldens, and this flag only calls it.
var update = flag.Bool("update", false, "run `piconform update --suite .` before checking the goldens")

// loadBuiltin is the built-in suite, loaded and checked once for the
// package's tests, which only read it.
func loadBuiltin(t testing.TB) *suite.Suite {
	t.Helper()
	s, err := builtinSuite()
	if err != nil {
		t.Fatalf("loading the built-in suite: %v", err)
	}
	return s
}

var builtinSuite = sync.OnceValues(func() (*suite.Suite, error) {
	return kinds.Load("builtin", piconform.Builtin(), "")
})

// TestGoldens runs every built-in case through the Go reference and compares
// the output with its golden, as JSON under the case's redactions. Wire cases
// run against their cassette, replayed on a loopback server, and fail when
// the reference's request differs from the cassette's. Nothing is recorded.
//
// With -update it first runs `piconform update` on the checkout, then checks
// the files on disk (the embedded ones are those of the build).
func TestGoldens(t *testing.T) {
	s := loadBuiltin(t)
	if *update {
		var out bytes.Buffer
		env := cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}
		code := cli.Main([]string{"update", "--suite", "."}, env)
		t.Logf("piconform update --suite .:\n%s", out.String())
		if code != cli.ExitOK {
			t.Fatalf("piconform update exited %d", code)
		}
		var err error
		if s, err = kinds.Load(".", os.DirFS("."), "."); err != nil {
			t.Fatal(err)
		}
	}
	if len(s.Cases) == 0 {
		t.Fatal("the built-in suite has no cases")
	}
	for _, d := range dialect.All() {
		fixtures := golden.Fixtures(d)
		for _, c := range s.Cases {
			if !c.HoldsIn(d) {
				continue
			}
			t.Run(d.String()+"/"+c.ID, func(t *testing.T) {
				out, err := golden.Produce(c, d, fixtures)
				if err != nil {
					t.Fatalf("%s: %v", c.File, err)
				}
				want, err := c.ReadGolden(d)
				if err != nil {
					t.Fatal(err)
				}
				if m := compare.Compare(want, out, c.Redactions); m != nil {
					t.Errorf("%s: %v\ndiff (-want +got):\n%s\n%s", c.GoldenFile(d), m, m.Diff, updateHint)
				}
			})
		}
	}
}

// TestNoOrphanGoldens fails on golden and cassette files no case uses.
func TestNoOrphanGoldens(t *testing.T) {
	orphans, err := loadBuiltin(t).Orphans()
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range orphans {
		t.Errorf("%s: no case uses this file; delete it with `go run ./cmd/piconform update --prune`", o)
	}
}

// TestEveryCitedRuleIsSpecified ties cases to the spec: every rule a case
// cites is defined in one of spec/*.md.
func TestEveryCitedRuleIsSpecified(t *testing.T) {
	rules, err := suite.ReadSpec(piconform.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	cov := suite.Coverage(rules, loadBuiltin(t).Cases)
	for _, u := range cov.Unknown {
		t.Errorf("rule %s is cited by %v but not defined in %s", u.Rule, u.Cases, suite.SpecGlob)
	}
}

// TestCassettesHoldNoSecrets is the secret gate: no file under cassettes/
// (on disk, whatever its name) may hold something that looks like a key.
func TestCassettesHoldNoSecrets(t *testing.T) {
	n := 0
	err := filepath.WalkDir(suite.CassetteDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		for _, f := range wire.FindSecrets(data) {
			t.Errorf("%s:%d: looks like %s: %q", p, f.Line, f.Why, f.Text)
		}
		if bytes.Contains(data, []byte(wire.FakeAPIKey)) {
			t.Errorf("%s: holds the runner's fake key, so scrubbing failed", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no files under %s", suite.CassetteDir)
	}
}

// TestCassettesMatchTheirCases checks that each wire case has a
// well-formed cassette with one request per response written by hand in
// the case file (the responses are not in the cassette), so that a case
// edited without `piconform update` fails here.
func TestCassettesMatchTheirCases(t *testing.T) {
	for _, c := range loadBuiltin(t).Cases {
		if c.Kind != wire.Kind {
			continue
		}
		t.Run(c.ID, func(t *testing.T) {
			if _, _, err := wire.NewFixture(nil, nil).Load(c); err != nil {
				t.Fatalf("%v; %s", err, updateHint)
			}
		})
	}
}

// TestWireGoldensKeepTheGrammar: a wire case that cites wire.stream.grammar
// has a golden whose events keep it, and one that does not cite it records a
// quirk that breaks it.
func TestWireGoldensKeepTheGrammar(t *testing.T) {
	for _, c := range loadBuiltin(t).Cases {
		if c.Kind != wire.Kind {
			continue
		}
		want, err := c.ReadGolden(c.First())
		if err != nil {
			t.Fatal(err)
		}
		events, _ := want.Get("events")
		gerr := wire.GrammarError(events)
		cites := slices.Contains(c.Rules, "wire.stream.grammar")
		switch {
		case cites && gerr != nil:
			t.Errorf("%s: cites wire.stream.grammar, but its golden breaks it: %v", c.ID, gerr)
		case !cites && gerr == nil:
			t.Errorf("%s: its golden keeps the stream grammar; cite wire.stream.grammar", c.ID)
		}
	}
}

// TestEveryRuleIsChecked: a rule no case cites must name the Go tests that
// check it ("Checked by:" in the spec), and those tests must exist.
func TestEveryRuleIsChecked(t *testing.T) {
	rules, err := suite.ReadSpec(piconform.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	cov := suite.Coverage(rules, loadBuiltin(t).Cases)
	for _, rc := range cov.Rules {
		if len(rc.Cases) == 0 && len(rc.Rule.GoTests) == 0 {
			t.Errorf("%s:%d: rule %s has no case and names no Go test (Checked by:)", rc.Rule.File, rc.Rule.Line, rc.Rule.ID)
		}
		for _, g := range rc.Rule.GoTests {
			if !goTestExists(t, g) {
				t.Errorf("%s:%d: rule %s names %s, which does not exist", rc.Rule.File, rc.Rule.Line, rc.Rule.ID, suite.GoTestCommands([]suite.GoTest{g})[0])
			}
		}
	}
}

func goTestExists(t *testing.T, g suite.GoTest) bool {
	files, err := filepath.Glob(filepath.Join(filepath.FromSlash(g.Package), "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "\nfunc "+g.Name+"(t *testing.T)") {
			return true
		}
	}
	return false
}

// changesDoc is the upgrade list from 0.80 to 1.6 that `piconform changes`
// writes.
const changesDoc = "docs/changes-0.80-1.6.md"

// TestChangesDocIsCurrent: the committed upgrade list is what `piconform
// changes` writes from today's spec and suite.
func TestChangesDocIsCurrent(t *testing.T) {
	var out, errs bytes.Buffer
	if code := cli.Main([]string{"changes", "--from", "0.80", "--to", "1.6"}, cli.Env{Stdout: &out, Stderr: &errs}); code != 0 {
		t.Fatalf("piconform changes: exit %d: %s", code, errs.String())
	}
	want, err := os.ReadFile(changesDoc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, out.Bytes()) {
		t.Errorf("%s is out of date; regenerate it with `go run ./cmd/piconform changes > %s` and review the diff", changesDoc, changesDoc)
	}
}

// TestEveryChangeCitesAChangedRule: a case whose expectation differs from
// one dialect to the next cites a rule the spec marks as new, removed or
// changed there, so the upgrade list names every difference.
func TestEveryChangeCitesAChangedRule(t *testing.T) {
	rules, err := suite.ReadSpec(piconform.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	cases := loadBuiltin(t).Cases
	for _, d := range dialect.All() {
		prev, ok := d.Prev()
		if !ok {
			continue
		}
		for _, id := range suite.Changes(rules, cases, prev, d).Unexplained {
			t.Errorf("%s expects something else in %s than in %s, but cites no rule marked \"Changed in %s:\", \"Since: %s\" or \"Until: %s\"", id, d, prev, d, d, prev)
		}
	}
}
