// Package kinds is the registry of case kinds. Each kind is one value: its
// name, the validation its cases get when a suite loads, its default
// redactions, the fixture that prepares its cases (a wire case's loopback
// server), an optional recorder (a wire case's cassette) and the provider
// API a case needs. The loader, the runner, `update` and the command line
// iterate over the registry; no other harness code names a kind.
//
// Adding a kind is adding its entry here, its handler in the reference
// (reference/conformance) and its section in the spec.
package kinds

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"slices"
	"strings"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// Kind is one case kind.
type Kind struct {
	// Name is the kind's name, the "kind" member of its case files and the
	// folder under fixtures/.
	Name string
	// Redactions are the redactions every case of the kind gets. A case's
	// own "redact" adds to them; "redactDefaults": false turns them off.
	Redactions []compare.Redaction
	// JSONTexts are the strings of the kind's outputs that hold JSON text
	// (compare.JSONText): compared as JSON, so key order does not count.
	JSONTexts []compare.JSONText
	// Validate checks a case's input and kind-specific members when the
	// suite loads. Errors carry a JSON Pointer into the case file. Nil
	// checks nothing beyond the common members.
	Validate func(c *suite.Case) error
	// API names the provider API a case needs, or "". Nil for kinds that
	// need none.
	API func(c *suite.Case) string
	// Fixture makes the harness-side setup of the kind's cases; nil when
	// the input goes to the implementation as it is.
	Fixture func(FixtureOptions) run.Fixture
	// CheckFiles checks the files a case needs besides its golden (a wire
	// case's cassette) in dialect d before a run starts. Nil for none.
	CheckFiles func(c *suite.Case, d dialect.Dialect) error
	// Recorder, when set, makes a recording (a cassette) for each case
	// before its golden is made.
	Recorder Recorder
}

// Reference runs a case's input on the Go reference the way goldens are
// made, sending any HTTP request with client.
type Reference func(ctx context.Context, c *suite.Case, input jsonv.Value, client *http.Client) (jsonv.Value, error)

// Recorder makes the recordings of a kind's cases: files under cassettes/
// that its fixture replays.
type Recorder interface {
	// Record runs the reference on the case and returns the recording's
	// bytes; it writes nothing.
	Record(ctx context.Context, c *suite.Case, ref Reference) ([]byte, error)
	// Compare lists what two versions of a recording say differently, by
	// JSON Pointer (Want the old value, Got the new), and describes it for
	// people.
	Compare(old, new []byte) ([]compare.Diff, string)
	// Replaying returns the kind's fixture for dialect d, replaying
	// recorded (by case id) instead of the suite's files for the cases it
	// holds.
	Replaying(recorded map[string][]byte, d dialect.Dialect) run.Fixture
}

// Registry is a set of kinds. It implements suite.Kinds.
type Registry []*Kind

// Lookup returns the kind of that name, or nil.
func (r Registry) Lookup(name string) *Kind {
	for _, k := range r {
		if k.Name == name {
			return k
		}
	}
	return nil
}

// Names lists the kinds' names, sorted.
func (r Registry) Names() []string {
	names := make([]string, len(r))
	for i, k := range r {
		names[i] = k.Name
	}
	slices.Sort(names)
	return names
}

// Complete implements suite.Kinds: it prepends the kind's default
// redactions, validates the case and names its API.
func (r Registry) Complete(c *suite.Case) error {
	k := r.Lookup(c.Kind)
	if k == nil {
		return jsonv.Errorf("/kind", "unknown case kind %q; known kinds: %s", c.Kind, strings.Join(r.Names(), ", "))
	}
	defaults := true
	if v, ok := c.Raw.Get(RedactDefaultsMember); ok {
		if v.Kind() != jsonv.Bool {
			return jsonv.Errorf("/"+RedactDefaultsMember, "want true or false, got %s", v.Kind())
		}
		defaults = v.Bool()
	}
	if defaults {
		// A case that repeats a default states it once (a redaction applied
		// twice would compare the first one's mark).
		own := slices.DeleteFunc(c.Redactions, func(r compare.Redaction) bool { return slices.Contains(k.Redactions, r) })
		c.Redactions = append(slices.Clone(k.Redactions), own...)
	}
	c.JSONTexts = k.JSONTexts
	if k.Validate != nil {
		if err := k.Validate(c); err != nil {
			return err
		}
	}
	if k.API != nil {
		c.API = k.API(c)
	}
	return nil
}

// RedactDefaultsMember is the case member that, set to false, turns the
// kind's default redactions off for that case.
const RedactDefaultsMember = "redactDefaults"

// Load reads a suite and checks every case by its kind (suite.LoadWith).
func Load(name string, fsys fs.FS, dir string) (*suite.Suite, error) {
	return suite.LoadWith(name, fsys, dir, Builtin)
}

// LoadEmbedded loads the built-in suite that the binary embeds
// (piconform.Builtin()) with every check but the kinds' Validate, which runs
// the reference on every case's input in every dialect: the embedded files
// are the ones the tests load with Load and check in full
// (TestEmbeddedSuiteValidates), and running the reference over them again
// at every start was a third of what a run of the suite cost piconform.
// A suite read from a folder, a checkout's included, is checked in full.
func LoadEmbedded(fsys fs.FS) (*suite.Suite, error) {
	return suite.LoadWith("builtin", fsys, "", Builtin.withoutValidate())
}

// withoutValidate is r with no Validate.
func (r Registry) withoutValidate() Registry {
	out := make(Registry, len(r))
	for i, k := range r {
		k2 := *k
		k2.Validate = nil
		out[i] = &k2
	}
	return out
}

// FixtureOptions are the run's settings a fixture follows.
type FixtureOptions struct {
	// StrictIdentity compares what only identifies the client library
	// (a wire request's identity headers) exactly instead of noting it.
	StrictIdentity bool
	// Dialect is the Pi release line whose files (cassettes) the run reads.
	Dialect dialect.Dialect
}

// Fixtures returns a fresh fixture for every kind that has one, by name,
// as run.Options wants them.
func (r Registry) Fixtures(o FixtureOptions) map[string]run.Fixture {
	out := map[string]run.Fixture{}
	for _, k := range r {
		if k.Fixture != nil {
			out[k.Name] = k.Fixture(o)
		}
	}
	return out
}

// UnknownKinds returns the names in kinds that the registry lacks, for a
// --kind filter.
func (r Registry) UnknownKinds(kinds []string) []string {
	var out []string
	for _, k := range kinds {
		if r.Lookup(k) == nil {
			out = append(out, k)
		}
	}
	return out
}

// CheckFiles checks, before a run, that every case has a golden for
// dialect d that is JSON and the other files its kind needs (a wire case's
// cassette), so a missing or broken file is an input error naming it, not a
// failed case. Every problem is reported, joined.
func (r Registry) CheckFiles(cases []*suite.Case, d dialect.Dialect) error {
	var errs []error
	for _, c := range cases {
		if _, err := c.ReadGolden(d); err != nil {
			errs = append(errs, err)
			continue
		}
		if k := r.Lookup(c.Kind); k != nil && k.CheckFiles != nil {
			if err := k.CheckFiles(c, d); err != nil {
				var se *suite.Error
				if !errors.As(err, &se) {
					err = &suite.Error{File: c.File, CaseID: c.ID, Err: err}
				}
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// Builtin is the harness's registry.
var Builtin = Registry{
	throwingKind("convert"),
	throwingKind("normalize"),
	throwingKind("cost"),
	throwingKind("sanitize"),
	pureKind("pipeline"),
	sessionKind,
	wireKind,
}

// Fixtures returns the built-in registry's fixtures for dialect d, with
// default options otherwise (Registry.Fixtures).
func Fixtures(d dialect.Dialect) map[string]run.Fixture {
	return Builtin.Fixtures(FixtureOptions{Dialect: d})
}

var _ suite.Kinds = Registry(nil)

// inputError wraps a reference error about a case's input so its pointer names
// the place in the case file.
func inputError(err error) error {
	var pe *jsonv.PathError
	if errors.As(err, &pe) {
		return jsonv.Under("input", pe)
	}
	return fmt.Errorf("/input: %w", err)
}
