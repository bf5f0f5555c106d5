// Package suite loads conformance cases and their goldens.
//
// A suite is a folder (or fs.FS) holding fixtures/<kind>/<name>.json, one
// case per file, golden/<kind>/<name>.json, the expected output of each, and
// for cases that talk to a server (wire cases) cassettes/<kind>/<name>.yaml,
// the recorded HTTP exchange.
// A case's id is its path under fixtures/ without ".json", so ids are stable
// and a file can be found from its id. fixtures/models.json, when present,
// holds the named model presets cases refer to (see Presets).
//
// What a kind adds to a case (its validation, its default redactions, the
// API it needs) comes from a Kinds value; package kinds holds the harness's.
package suite

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/reference/jsonv"
)

// Dirs inside a suite.
const (
	FixturesDir = "fixtures"
	GoldenDir   = "golden"
	CassetteDir = "cassettes"
)

var (
	idPattern   = regexp.MustCompile(`^[a-z0-9-]+/[a-z0-9-]+$`)
	rulePattern = regexp.MustCompile(`^[a-z0-9]+(\.[a-z0-9-]+)+$`)
)

// Case is one conformance case.
type Case struct {
	ID          string
	Kind        string
	Description string
	Rules       []string
	// Input is the case's input with model presets expanded: what an
	// implementation receives.
	Input jsonv.Value
	// Redactions are the kind's defaults, then the case's own "redact".
	Redactions []compare.Redaction
	// API names the provider API the case needs ("" for none); an
	// implementation that lacks it skips the case.
	API string
	// Raw is the whole case object, for members only some kinds have (a wire
	// case's response, for one).
	Raw jsonv.Value
	// File is where the case was read, for messages: the suite's name and the
	// path inside it.
	File string
	// Suite is the suite the case came from.
	Suite *Suite
}

// Suite is one loaded folder of cases.
type Suite struct {
	// Name identifies the suite in messages: "builtin" or the folder given.
	Name string
	// FS holds fixtures/, golden/ and cassettes/.
	FS fs.FS
	// Dir is the folder on disk, or "" for an embedded suite (not writable).
	Dir   string
	Cases []*Case
	// Presets are the named models of fixtures/models.json.
	Presets Presets
}

// Kinds is what Load needs to know of case kinds; package kinds provides
// the harness's registry. A nil Kinds accepts any kind as it is.
type Kinds interface {
	// Names lists the known kinds, for messages.
	Names() []string
	// Complete checks a case whose common members are read and fills in
	// what its kind adds: default redactions and the API it needs. It is
	// called only for a known kind (one in Names). Errors carry a JSON
	// Pointer into the case file.
	Complete(c *Case) error
}

// Error is a problem with one case file. It names the file, the case (when
// known) and the JSON path or line.
type Error struct {
	File   string
	CaseID string
	Err    error
}

func (e *Error) Error() string {
	var sb strings.Builder
	sb.WriteString(e.File)
	var syn *jsonv.SyntaxError
	isSyntax := errors.As(e.Err, &syn)
	if isSyntax {
		fmt.Fprintf(&sb, ":%d:%d", syn.Line, syn.Column)
	}
	if e.CaseID != "" {
		fmt.Fprintf(&sb, " (case %s)", e.CaseID)
	}
	sb.WriteString(": ")
	if isSyntax {
		// The position is already in front; say where in the JSON and what.
		ptr := syn.Pointer
		if ptr == "" {
			ptr = "/"
		}
		sb.WriteString(ptr + ": " + syn.Msg)
	} else {
		sb.WriteString(e.Err.Error())
	}
	return sb.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Load reads every case of the suite in fsys and checks none of it by kind;
// the harness uses LoadWith and the kinds registry.
func Load(name string, fsys fs.FS, dir string) (*Suite, error) {
	return LoadWith(name, fsys, dir, nil)
}

// LoadWith reads every case of the suite in fsys and checks each fully by
// its kind, so a malformed case is an input error before anything runs.
// Every problem is reported, not just the first, joined with errors.Join.
func LoadWith(name string, fsys fs.FS, dir string, kinds Kinds) (*Suite, error) {
	s := &Suite{Name: name, FS: fsys, Dir: dir}
	presets, err := readPresets(fsys, s.display(PresetsFile))
	if err != nil {
		return nil, err
	}
	s.Presets = presets
	var errs []error
	err = fs.WalkDir(fsys, FixturesDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".json") || p == PresetsFile {
			return nil
		}
		if path.Dir(p) == FixturesDir {
			errs = append(errs, &Error{File: s.display(p), Err: fmt.Errorf("not a case: cases live in %s/<kind>/<name>.json", FixturesDir)})
			return nil
		}
		c, err := s.loadCase(p, kinds)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		s.Cases = append(s.Cases, c)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	seen := map[string]string{}
	for _, c := range s.Cases {
		if prev, dup := seen[c.ID]; dup {
			errs = append(errs, &Error{File: c.File, CaseID: c.ID, Err: fmt.Errorf("id already used by %s", prev)})
		}
		seen[c.ID] = c.File
	}
	slices.SortFunc(s.Cases, func(a, b *Case) int { return strings.Compare(a.ID, b.ID) })
	return s, errors.Join(errs...)
}

func (s *Suite) display(p string) string {
	if s.Dir != "" {
		return path.Join(s.Dir, p)
	}
	return p
}

func (s *Suite) loadCase(p string, kinds Kinds) (*Case, error) {
	file := s.display(p)
	data, err := ReadFile(s.FS, p)
	if err != nil {
		return nil, &Error{File: file, Err: err}
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		return nil, &Error{File: file, Err: err}
	}
	c := &Case{File: file, Suite: s, Raw: v}
	f := jsonv.ReadFields(v, "")
	c.ID = f.String("id")
	c.Kind = f.String("kind")
	c.Description = f.String("description")
	rules := f.Array("rules")
	c.Input = f.Object("input")
	redact, _ := f.OptArray("redact")
	f.Rest() // unknown members are allowed: newer suites may add some
	if err := f.Err(); err != nil {
		return nil, &Error{File: file, CaseID: c.ID, Err: err}
	}
	want := strings.TrimSuffix(strings.TrimPrefix(p, FixturesDir+"/"), ".json")
	switch {
	case !idPattern.MatchString(c.ID):
		return nil, &Error{File: file, CaseID: c.ID, Err: jsonv.Errorf("/id", "id %q is not kind/name in [a-z0-9-]", c.ID)}
	case c.ID != want:
		return nil, &Error{File: file, CaseID: c.ID, Err: jsonv.Errorf("/id", "id %q does not match the file's path %q", c.ID, want)}
	case !strings.HasPrefix(c.ID, c.Kind+"/"):
		return nil, &Error{File: file, CaseID: c.ID, Err: jsonv.Errorf("/kind", "kind %q does not match the folder of id %q", c.Kind, c.ID)}
	case strings.TrimSpace(c.Description) == "":
		return nil, &Error{File: file, CaseID: c.ID, Err: jsonv.Errorf("/description", "the description is empty")}
	case len(rules) == 0:
		return nil, &Error{File: file, CaseID: c.ID, Err: jsonv.Errorf("/rules", "a case must cite at least one rule")}
	}
	for i, r := range rules {
		if r.Kind() != jsonv.String || !rulePattern.MatchString(r.Str()) {
			return nil, &Error{File: file, CaseID: c.ID, Err: jsonv.Errorf(jsonv.Index("/rules", i), "want a rule id like convert.bash.exit-code, got %s", r)}
		}
		if slices.Contains(c.Rules, r.Str()) {
			return nil, &Error{File: file, CaseID: c.ID, Err: jsonv.Errorf(jsonv.Index("/rules", i), "rule %s is cited twice", r.Str())}
		}
		c.Rules = append(c.Rules, r.Str())
	}
	for i, r := range redact {
		red, err := compare.ParseRedaction(r, jsonv.Index("/redact", i))
		if err != nil {
			return nil, &Error{File: file, CaseID: c.ID, Err: err}
		}
		c.Redactions = append(c.Redactions, red)
	}
	if c.Input, err = s.Presets.Expand(c.Input, "/input"); err != nil {
		return nil, &Error{File: file, CaseID: c.ID, Err: err}
	}
	c.Raw = c.Raw.With("input", c.Input)
	if kinds != nil {
		if !slices.Contains(kinds.Names(), c.Kind) {
			return nil, &Error{File: file, CaseID: c.ID, Err: jsonv.Errorf("/kind", "unknown case kind %q; known kinds: %s", c.Kind, strings.Join(kinds.Names(), ", "))}
		}
		if err := kinds.Complete(c); err != nil {
			return nil, &Error{File: file, CaseID: c.ID, Err: err}
		}
	}
	return c, nil
}

// GoldenPath is the path of the case's golden inside its suite's FS.
func (c *Case) GoldenPath() string { return path.Join(GoldenDir, c.ID+".json") }

// CassettePath is the path of the case's cassette inside its suite's FS.
// Only cases that talk to a server have one.
func (c *Case) CassettePath() string { return path.Join(CassetteDir, c.ID+".yaml") }

// CassetteFile names the case's cassette for messages.
func (c *Case) CassetteFile() string { return c.Suite.display(c.CassettePath()) }

// ReadCassette reads the case's cassette. A missing one is an error whose
// message says how to make it.
func (c *Case) ReadCassette() ([]byte, error) {
	file := c.Suite.display(c.CassettePath())
	data, err := ReadFile(c.Suite.FS, c.CassettePath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &Error{File: file, CaseID: c.ID, Err: fmt.Errorf("no cassette; run `piconform update` to record it")}
	}
	if err != nil {
		return nil, &Error{File: file, CaseID: c.ID, Err: err}
	}
	return data, nil
}

// DiskPath is where a path of the suite's FS lives on disk, or "" for an
// embedded suite.
func (s *Suite) DiskPath(p string) string {
	if s.Dir == "" {
		return ""
	}
	return filepath.Join(s.Dir, filepath.FromSlash(p))
}

// ReadGolden reads the case's expected output.
func (c *Case) ReadGolden() (jsonv.Value, error) {
	file := c.Suite.display(c.GoldenPath())
	data, err := ReadFile(c.Suite.FS, c.GoldenPath())
	if errors.Is(err, fs.ErrNotExist) {
		return jsonv.Value{}, &Error{File: file, CaseID: c.ID, Err: fmt.Errorf("no golden; run `piconform update` to create it")}
	}
	if err != nil {
		return jsonv.Value{}, &Error{File: file, CaseID: c.ID, Err: err}
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		return jsonv.Value{}, &Error{File: file, CaseID: c.ID, Err: err}
	}
	return v, nil
}

// Goldens lists the golden files present in the suite, as paths in its FS.
func (s *Suite) Goldens() ([]string, error) { return s.files(GoldenDir, ".json") }

// Cassettes lists the cassette files present in the suite, as paths in its FS.
func (s *Suite) Cassettes() ([]string, error) { return s.files(CassetteDir, ".yaml") }

func (s *Suite) files(dir, suffix string) ([]string, error) {
	var out []string
	err := fs.WalkDir(s.FS, dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == dir {
			return fs.SkipDir
		}
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, suffix) {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

// Orphans lists golden and cassette files that no case of the suite uses.
func (s *Suite) Orphans() ([]string, error) {
	goldens, err := s.Goldens()
	if err != nil {
		return nil, err
	}
	cassettes, err := s.Cassettes()
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	for _, c := range s.Cases {
		used[c.GoldenPath()] = true
		used[c.CassettePath()] = true
	}
	var orphans []string
	for _, g := range append(goldens, cassettes...) {
		if !used[g] {
			orphans = append(orphans, s.display(g))
		}
	}
	return orphans, nil
}
