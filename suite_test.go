package piconform_test

import (
	"path"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/piconform/piconform"
	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/golden"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/jsonv"
)

const updateHint = "if the change is intended, regenerate with `go run ./cmd/piconform update` (or `go test . -update`) and review the diff"

func loadBuiltin(t *testing.T) *suite.Suite {
	t.Helper()
	s, err := suite.Load("builtin", piconform.Builtin(), "")
	if err != nil {
		t.Fatalf("loading the built-in suite: %v", err)
	}
	return s
}

// TestGoldens runs every built-in case through the Go reference and compares
// the output with its golden, as JSON under the case's redactions.
func TestGoldens(t *testing.T) {
	s := loadBuiltin(t)
	if len(s.Cases) == 0 {
		t.Fatal("the built-in suite has no cases")
	}
	for _, c := range s.Cases {
		t.Run(c.ID, func(t *testing.T) {
			out, err := golden.Produce(c)
			if err != nil {
				t.Fatalf("%s: %v", c.File, err)
			}
			var mismatch *compare.Mismatch
			g := goldie.New(t,
				goldie.WithFixtureDir(path.Join(suite.GoldenDir, c.Kind)),
				goldie.WithNameSuffix(".json"),
				goldie.WithEqualFn(func(actual, expected []byte) bool {
					want, err := jsonv.Parse(expected)
					if err != nil {
						t.Errorf("golden/%s.json: %v", c.ID, err)
						return false
					}
					got, _ := jsonv.Parse(actual)
					mismatch = compare.Compare(want, got, c.Redactions)
					return mismatch == nil
				}),
				goldie.WithDiffFn(func(actual, expected string) string {
					if mismatch == nil {
						return "the golden is not valid JSON"
					}
					return mismatch.Error() + "\ndiff (-want +got):\n" + mismatch.Diff + "\n" + updateHint
				}),
			)
			g.Assert(t, strings.TrimPrefix(c.ID, c.Kind+"/"), golden.Encode(out))
		})
	}
}

// TestNoOrphanGoldens fails on golden files no case uses.
func TestNoOrphanGoldens(t *testing.T) {
	orphans, err := loadBuiltin(t).Orphans()
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range orphans {
		t.Errorf("%s: no case uses this golden; delete it with `go run ./cmd/piconform update --prune`", o)
	}
}

// TestEveryCitedRuleIsSpecified ties cases to the spec: every rule a case
// cites is defined in spec/SPEC.md.
func TestEveryCitedRuleIsSpecified(t *testing.T) {
	rules, err := suite.ReadRules(piconform.Builtin(), suite.SpecFile)
	if err != nil {
		t.Fatal(err)
	}
	cov := suite.Coverage(rules, loadBuiltin(t).Cases)
	for _, u := range cov.Unknown {
		t.Errorf("rule %s is cited by %v but not defined in %s", u.Rule, u.Cases, suite.SpecFile)
	}
}
