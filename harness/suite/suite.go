// Package suite loads conformance cases and their goldens.
//
// A suite is a folder (or fs.FS) holding fixtures/<kind>/<name>.json, one
// case per file, golden/<kind>/<name>.json, the expected output of each, and
// for cases that talk to a server (wire cases) cassettes/<kind>/<name>.yaml,
// the recorded HTTP exchange.
// A case's id is its path under fixtures/ without ".json", so ids are stable
// and a file can be found from its id.
//
// Dialects (Pi release lines, reference/dialect) share the cases. A golden
// or cassette at the plain path holds the output of the oldest dialect the
// case holds in; an overlay golden/@<dialect>/<kind>/<name>.json (likewise
// cassettes/@<dialect>/…) holds a later dialect's output where it differs
// from the dialect before it. For dialect D the newest overlay at or before D
// counts, else the plain file: a step function, so a new dialect adds files
// only where it changes something. A case that holds in some dialects only
// says so with "since" and "until" (dialect names, both inclusive). fixtures/models.json, when present,
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
	"github.com/piconform/piconform/protocol"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// FrameHeadroom is what a case's run frame keeps free for what the runner
// adds to its input (a wire case's baseUrl and apiKey).
const FrameHeadroom = 4 << 10

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
	// JSONTexts are the kind's strings that hold JSON text.
	JSONTexts []compare.JSONText
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
	// Dialects are the dialects the case holds in, oldest first: every
	// dialect unless the case file names "since" or "until". Nil means
	// every dialect too.
	Dialects []dialect.Dialect
}

// HoldsIn tells whether the case exists in dialect d.
func (c *Case) HoldsIn(d dialect.Dialect) bool {
	return c.Dialects == nil || slices.Contains(c.Dialects, d)
}

// AllDialects lists the dialects the case holds in, oldest first.
func (c *Case) AllDialects() []dialect.Dialect {
	if c.Dialects == nil {
		return dialect.All()
	}
	return c.Dialects
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
	// The input goes to an implementation in a run frame, which names each
	// key once (spec/PROTOCOL.md); a case file does too.
	if err := protocol.DuplicateKey(v, ""); err != nil {
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
	since, until := f.OptString("since"), f.OptString("until")
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
	if c.Dialects, err = dialectRange(since, until); err != nil {
		return nil, &Error{File: file, CaseID: c.ID, Err: err}
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
	// The input travels to an adapter in one run frame: a case no adapter
	// can be sent is refused here, before any adapter starts.
	if !protocol.Run(0, protocol.Case{ID: c.ID, Kind: c.Kind, Dialect: dialect.Latest.String(), Input: c.Input}).Fits(FrameHeadroom) {
		return nil, &Error{File: file, CaseID: c.ID, Err: jsonv.Errorf("/input", "too large to send: its run frame would pass the protocol's limit of %d MiB a frame", protocol.MaxFrameBytes>>20)}
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

// dialectRange reads a case's "since" and "until" into the dialects it
// holds in.
func dialectRange(since, until *string) ([]dialect.Dialect, error) {
	from, to := dialect.Dialect(0), dialect.Latest
	var err error
	if since != nil {
		if from, err = dialect.Parse(*since); err != nil {
			return nil, jsonv.Errorf("/since", "%v", err)
		}
	}
	if until != nil {
		if to, err = dialect.Parse(*until); err != nil {
			return nil, jsonv.Errorf("/until", "%v", err)
		}
	}
	if to < from {
		return nil, jsonv.Errorf("/until", "until %s is before since %s: the case holds in no dialect", to, from)
	}
	var out []dialect.Dialect
	for d := from; d <= to; d++ {
		out = append(out, d)
	}
	return out, nil
}

// First is the oldest dialect the case holds in: the one its plain golden
// and cassette are for.
func (c *Case) First() dialect.Dialect { return c.AllDialects()[0] }

// OwnGoldenPath is the path inside the suite's FS where dialect d's golden
// of the case is written: the plain path for the case's first dialect,
// else d's overlay.
func (c *Case) OwnGoldenPath(d dialect.Dialect) string { return c.ownPath(GoldenDir, ".json", d) }

// OwnCassettePath is OwnGoldenPath for the cassette.
func (c *Case) OwnCassettePath(d dialect.Dialect) string { return c.ownPath(CassetteDir, ".yaml", d) }

func (c *Case) ownPath(dir, ext string, d dialect.Dialect) string {
	if d == c.First() {
		return path.Join(dir, c.ID+ext)
	}
	return path.Join(dir, "@"+d.String(), c.ID+ext)
}

// resolve is the file that holds d's version: the newest overlay at or
// before d that exists, else the plain path.
func (c *Case) resolve(dir, ext string, d dialect.Dialect) string {
	for ; d > c.First(); d-- {
		p := c.ownPath(dir, ext, d)
		if _, err := fs.Stat(c.Suite.FS, p); err == nil {
			return p
		}
	}
	return path.Join(dir, c.ID+ext)
}

// GoldenPath is the path of the case's golden for dialect d inside its
// suite's FS.
func (c *Case) GoldenPath(d dialect.Dialect) string { return c.resolve(GoldenDir, ".json", d) }

// CassettePath is the path of the case's cassette for dialect d inside its
// suite's FS. Only cases that talk to a server have one.
func (c *Case) CassettePath(d dialect.Dialect) string { return c.resolve(CassetteDir, ".yaml", d) }

// CassetteFile names the case's cassette for dialect d in messages.
func (c *Case) CassetteFile(d dialect.Dialect) string { return c.Suite.display(c.CassettePath(d)) }

// GoldenFile names the case's golden for dialect d in messages.
func (c *Case) GoldenFile(d dialect.Dialect) string { return c.Suite.display(c.GoldenPath(d)) }

// ReadCassette reads the case's cassette for dialect d. A missing one is an
// error whose message says how to make it.
func (c *Case) ReadCassette(d dialect.Dialect) ([]byte, error) {
	p := c.CassettePath(d)
	file := c.Suite.display(p)
	data, err := ReadFile(c.Suite.FS, p)
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

// ReadGolden reads the case's expected output in dialect d.
func (c *Case) ReadGolden(d dialect.Dialect) (jsonv.Value, error) {
	p := c.GoldenPath(d)
	file := c.Suite.display(p)
	data, err := ReadFile(c.Suite.FS, p)
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
		for _, d := range c.AllDialects() {
			used[c.OwnGoldenPath(d)] = true
			used[c.OwnCassettePath(d)] = true
		}
	}
	var orphans []string
	for _, g := range append(goldens, cassettes...) {
		if !used[g] {
			orphans = append(orphans, s.display(g))
		}
	}
	return orphans, nil
}
