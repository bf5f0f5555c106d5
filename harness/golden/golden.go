// Package golden regenerates expected outputs from the Go reference.
//
// A golden is rewritten only when its content changes under the case's
// redactions, so volatile values never churn the diff, and a case the
// reference cannot run never gets a golden. Files are written atomically.
//
// Cases whose kind has a fixture run with it, exactly as the runner runs
// them (a wire case: the reference calls the fixture's loopback server,
// which replays the case's cassette and checks the request). Kinds with a
// recorder get their recordings made first, by RecordAll.
package golden

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"slices"

	"github.com/piconform/piconform/harness/atomicfile"
	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/kinds"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/runtimetext"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/harness/wire"
	"github.com/piconform/piconform/protocol"
	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// Clock is the time the reference reads while making goldens. Values taken
// from it are volatile and redacted, so any fixed value serves.
var Clock = func() jsonv.Value { return jsonv.NumberValue("1767225600000") }

// Status of one golden after an update.
type Status string

const (
	Unchanged Status = "unchanged"
	Changed   Status = "changed"
	New       Status = "new"
	Failed    Status = "failed"
)

// Files is what an update writes and deletes for one case in one dialect:
// the file that holds the dialect's version (the plain one for the case's
// first dialect, else the dialect's overlay) is written when its content
// changes, and an overlay that equals the dialect before it is deleted.
type Files struct {
	// Write is the path inside the suite's FS to write Bytes to; "" when
	// the file stays as it is.
	Write string
	Bytes []byte
	// Remove is an overlay to delete; "".
	Remove string
}

// Change is what an update did, or would do, to one case's golden in one
// dialect. Status says how the dialect's expected output changed; Files
// what that means on disk.
type Change struct {
	Case    *suite.Case
	Dialect dialect.Dialect
	Status  Status
	// Mismatch explains a change; Err explains a failure.
	Mismatch *compare.Mismatch
	Err      error
	Files
}

// Encode renders an output as a golden file: two-space indented JSON and a
// final newline.
func Encode(v jsonv.Value) []byte { return append(v.AppendIndent(nil), '\n') }

// Fixtures returns the fixtures the runner uses in dialect d, by case kind
// (see kinds.Registry.Fixtures); they read recordings from each case's
// suite.
func Fixtures(d dialect.Dialect) map[string]run.Fixture { return kinds.Fixtures(d) }

// Produce runs the reference in dialect d on one case the way goldens are
// made and returns the golden document: the output, with the runtime texts
// it holds marked (runtimetext.Mark). A case whose kind has a fixture runs
// with it, and the fixture's check must pass too (for a wire case: the
// reference's request matches the cassette).
func Produce(c *suite.Case, d dialect.Dialect, fixtures map[string]run.Fixture) (jsonv.Value, error) {
	ctx, stop := context.WithCancelCause(context.Background())
	defer stop(nil)
	input, check := c.Input, func() error { return nil }
	if fx := fixtures[c.Kind]; fx != nil {
		var err error
		if input, check, err = fx.Setup(ctx, c, stop); err != nil {
			return jsonv.Value{}, &suite.Error{File: c.File, CaseID: c.ID, Err: fmt.Errorf("preparing it: %w", err)}
		}
	}
	out, err := conformance.HandleContext(ctx, c.Kind, input, conformance.Options{Now: Clock, HTTPClient: wire.InProcess, Dialect: d})
	cerr := check()
	if cause := context.Cause(ctx); cause != nil {
		return jsonv.Value{}, &suite.Error{File: c.File, CaseID: c.ID, Err: fmt.Errorf("the fixture stopped the reference (dialect %s): %w", d, cause)}
	}
	if err != nil {
		return jsonv.Value{}, &suite.Error{File: c.File, CaseID: c.ID, Err: fmt.Errorf("the reference cannot run it (dialect %s): %w", d, jsonv.Under("input", err))}
	}
	if cerr != nil {
		return jsonv.Value{}, &suite.Error{File: c.File, CaseID: c.ID, Err: fmt.Errorf("the reference fails its check (dialect %s): %w", d, cerr)}
	}
	return runtimetext.Mark(out), nil
}

// Recordable tells whether a case's kind has a recorder, so the case has a
// cassette that Record makes.
func Recordable(c *suite.Case) bool { return recorder(c) != nil }

func recorder(c *suite.Case) kinds.Recorder {
	if k := kinds.Builtin.Lookup(c.Kind); k != nil {
		return k.Recorder
	}
	return nil
}

// Record makes the cassette of a case whose kind has a recorder in dialect
// d (for a wire case: the reference runs against the case's hand-built
// response through go-vcr's recorder, see wire.Record). It returns the
// cassette's bytes and writes nothing.
func Record(ctx context.Context, c *suite.Case, d dialect.Dialect) ([]byte, error) {
	rec := recorder(c)
	if rec == nil {
		return nil, &suite.Error{File: c.File, CaseID: c.ID, Err: fmt.Errorf("case kind %q records nothing", c.Kind)}
	}
	ref := func(ctx context.Context, c *suite.Case, input jsonv.Value, client *http.Client) (jsonv.Value, error) {
		return conformance.HandleContext(ctx, c.Kind, input, conformance.Options{Now: Clock, HTTPClient: client, Dialect: d})
	}
	return rec.Record(ctx, c, ref)
}

// CassetteChange is what recording does, or would do, to one case's
// cassette in one dialect.
type CassetteChange struct {
	Case    *suite.Case
	Dialect dialect.Dialect
	Status  Status
	Err     error
	// Changes lists, for a changed cassette, what its requests say
	// differently, by JSON Pointer (/requests/0/body/…, /requests/0/headers/x).
	// It is empty when only the file's layout changed.
	Changes []compare.Diff
	// Where reports Changes for people: the first path, then one line per
	// change (at most 20, then a count).
	Where string
	Files
}

// Fixtures by dialect, as RecordAll returns them.
type DialectFixtures map[dialect.Dialect]map[string]run.Fixture

// layer decides the files of one case in one dialect from its new content
// and the content of the dialect before it (prev, nil for the case's first
// dialect): the dialect's own file is written when it is needed and
// differs, and an overlay equal to prev is deleted. same compares two
// contents.
func layer(c *suite.Case, d dialect.Dialect, own string, content, prev []byte, same func(a, b []byte) bool) Files {
	old, err := suite.ReadFile(c.Suite.FS, own)
	exists := err == nil
	if prev != nil && same(prev, content) {
		if exists {
			return Files{Remove: own}
		}
		return Files{}
	}
	if exists && same(old, content) {
		return Files{}
	}
	return Files{Write: own, Bytes: content}
}

// RecordAll records the cassette of every recordable case in each of
// dialects it holds in, and writes nothing. It also returns the fixtures to
// make goldens with: they replay the new recordings, so the goldens match
// the cassettes Apply will write.
func RecordAll(ctx context.Context, cases []*suite.Case, dialects []dialect.Dialect) ([]CassetteChange, DialectFixtures) {
	var changes []CassetteChange
	recorded := map[dialect.Dialect]map[string]map[string][]byte{} // by dialect, kind, case id
	for _, c := range cases {
		if !Recordable(c) {
			continue
		}
		var prev []byte
		for _, d := range c.AllDialects() {
			if !slices.Contains(dialects, d) {
				prev, _ = c.ReadCassette(d)
				continue
			}
			data, err := Record(ctx, c, d)
			if err != nil {
				changes = append(changes, CassetteChange{Case: c, Dialect: d, Status: Failed, Err: err})
				prev = nil
				continue
			}
			if recorded[d] == nil {
				recorded[d] = map[string]map[string][]byte{}
			}
			if recorded[d][c.Kind] == nil {
				recorded[d][c.Kind] = map[string][]byte{}
			}
			recorded[d][c.Kind][c.ID] = data
			ch := CassetteChange{Case: c, Dialect: d, Status: Unchanged}
			if old, err := c.ReadCassette(d); err != nil {
				ch.Status = New
			} else if !bytes.Equal(old, data) {
				ch.Status = Changed
				ch.Changes, ch.Where = recorder(c).Compare(old, data)
			}
			if d == c.First() {
				prev = nil
			}
			ch.Files = layer(c, d, c.OwnCassettePath(d), data, prev, bytes.Equal)
			changes = append(changes, ch)
			prev = data
		}
	}
	fixtures := DialectFixtures{}
	for _, d := range dialects {
		fixtures[d] = Fixtures(d)
		for kind, rec := range recorded[d] {
			fixtures[d][kind] = kinds.Builtin.Lookup(kind).Recorder.Replaying(rec, d)
		}
	}
	return changes, fixtures
}

// Plan computes the change of every case in each of dialects it holds in,
// without writing anything. fixtures are as RecordAll returns them (a
// dialect missing from it uses the suite's own files). A dialect left out
// of dialects keeps its golden, which the next dialect's overlay is
// decided against.
func Plan(cases []*suite.Case, dialects []dialect.Dialect, fixtures DialectFixtures) []Change {
	var changes []Change
	for _, c := range cases {
		var prev jsonv.Value // the expected output of the dialect before
		for _, d := range c.AllDialects() {
			if !slices.Contains(dialects, d) {
				prev, _ = c.ReadGolden(d)
				continue
			}
			fx, ok := fixtures[d]
			if !ok {
				fx = Fixtures(d)
			}
			out, err := Produce(c, d, fx)
			if err == nil {
				err = checkSize(c, out)
			}
			if err != nil {
				changes = append(changes, Change{Case: c, Dialect: d, Status: Failed, Err: err})
				prev = jsonv.Value{}
				continue
			}
			ch := Change{Case: c, Dialect: d}
			if old, err := c.ReadGolden(d); err != nil {
				ch.Status = New
			} else if m := compare.Compare(old, out, c.Redactions); m != nil {
				ch.Status, ch.Mismatch = Changed, m
			} else {
				ch.Status = Unchanged
			}
			var prevBytes []byte
			if d != c.First() && !prev.IsAbsent() {
				prevBytes = Encode(prev)
			}
			ch.Files = layer(c, d, c.OwnGoldenPath(d), Encode(out), prevBytes, func(a, b []byte) bool {
				va, erra := jsonv.Parse(a)
				vb, errb := jsonv.Parse(b)
				return erra == nil && errb == nil && compare.Compare(va, vb, c.Redactions) == nil
			})
			changes = append(changes, ch)
			prev = out
		}
	}
	return changes
}

// maxGoldenBytes is the largest golden file a run reads (a variable for
// tests).
var maxGoldenBytes = suite.MaxFileBytes

// checkSize refuses an output that a run could not read back: as a golden
// file over suite.MaxFileBytes (deep nesting makes an indented file large),
// or as an adapter's result frame over the protocol's frame limit.
func checkSize(c *suite.Case, out jsonv.Value) error {
	if n := len(Encode(out)); n > maxGoldenBytes {
		return &suite.Error{File: c.File, CaseID: c.ID, Err: fmt.Errorf("its golden would be %d bytes, over the %d MiB a run reads; make the case smaller", n, maxGoldenBytes>>20)}
	}
	if !protocol.Reply(0, protocol.Result(out)).Fits(0) {
		return &suite.Error{File: c.File, CaseID: c.ID, Err: fmt.Errorf("its output passes the protocol's limit of %d MiB a frame, so no adapter could answer it; make the case smaller", protocol.MaxFrameBytes>>20)}
	}
	return nil
}

// Write applies an update on disk at once or not at all: every cassette
// and golden it writes or deletes, and the orphans to remove. Each new file
// is staged beside its target first; a write that fails (a full disk), or
// ctx ending (a signal) before the commit, leaves every file as it was.
func Write(ctx context.Context, s *suite.Suite, cassettes []CassetteChange, changes []Change, orphans []string) error {
	if s.Dir == "" {
		return fmt.Errorf("suite %s is not a folder on disk; cannot write goldens", s.Name)
	}
	var files []Files
	for _, ch := range cassettes {
		files = append(files, ch.Files)
	}
	for _, ch := range changes {
		files = append(files, ch.Files)
	}
	var b atomicfile.Batch
	defer b.Abort() // a no-op once committed
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if f.Write != "" {
			if err := b.Write(s.DiskPath(f.Write), f.Bytes); err != nil {
				return fmt.Errorf("nothing written: %w", err)
			}
		}
		if f.Remove != "" {
			b.Remove(s.DiskPath(f.Remove))
		}
	}
	for _, o := range orphans {
		b.Remove(o)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return b.Commit()
}

// StaleTemps lists the temporary files an update or a run that was killed
// left in the suite's golden/ and cassettes/ folders.
func StaleTemps(s *suite.Suite) ([]string, error) {
	var out []string
	for _, dir := range []string{suite.GoldenDir, suite.CassetteDir} {
		err := fs.WalkDir(s.FS, dir, func(p string, d fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) && p == dir {
				return fs.SkipDir
			}
			if err != nil {
				return err
			}
			if !d.IsDir() && atomicfile.IsTemp(d.Name()) {
				out = append(out, s.DiskPath(p))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
