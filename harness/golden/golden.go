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
	"fmt"
	"net/http"
	"os"
	"path/filepath"

	"github.com/piconform/piconform/harness/atomicfile"
	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/kinds"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/runtimetext"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/harness/wire"
	"github.com/piconform/piconform/reference/conformance"
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

// Change is what an update did, or would do, to one case's golden.
type Change struct {
	Case   *suite.Case
	Status Status
	// Mismatch explains a change; Err explains a failure.
	Mismatch *compare.Mismatch
	Err      error
	// Bytes is the new content.
	Bytes []byte
}

// Encode renders an output as a golden file: two-space indented JSON and a
// final newline.
func Encode(v jsonv.Value) []byte { return append(v.AppendIndent(nil), '\n') }

// Fixtures returns the fixtures the runner uses, by case kind (see
// kinds.Registry.Fixtures); they read recordings from each case's suite.
func Fixtures() map[string]run.Fixture { return kinds.Fixtures() }

// Produce runs the reference on one case the way goldens are made and
// returns the golden document: the output, with the runtime texts it holds
// marked (runtimetext.Mark). A case whose kind has a fixture runs with it,
// and the fixture's check must pass too (for a wire case: the reference's
// request matches the cassette).
func Produce(c *suite.Case, fixtures map[string]run.Fixture) (jsonv.Value, error) {
	ctx, stop := context.WithCancelCause(context.Background())
	defer stop(nil)
	input, check := c.Input, func() error { return nil }
	if fx := fixtures[c.Kind]; fx != nil {
		var err error
		if input, check, err = fx.Setup(ctx, c, stop); err != nil {
			return jsonv.Value{}, &suite.Error{File: c.File, CaseID: c.ID, Err: fmt.Errorf("preparing it: %w", err)}
		}
	}
	out, err := conformance.HandleContext(ctx, c.Kind, input, conformance.Options{Now: Clock, HTTPClient: wire.InProcess})
	cerr := check()
	if cause := context.Cause(ctx); cause != nil {
		return jsonv.Value{}, &suite.Error{File: c.File, CaseID: c.ID, Err: fmt.Errorf("the fixture stopped the reference: %w", cause)}
	}
	if err != nil {
		return jsonv.Value{}, &suite.Error{File: c.File, CaseID: c.ID, Err: fmt.Errorf("the reference cannot run it: %w", jsonv.Under("input", err))}
	}
	if cerr != nil {
		return jsonv.Value{}, &suite.Error{File: c.File, CaseID: c.ID, Err: fmt.Errorf("the reference fails its check: %w", cerr)}
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

// reference runs the Go reference the way recordings are made.
func reference(ctx context.Context, c *suite.Case, input jsonv.Value, client *http.Client) (jsonv.Value, error) {
	return conformance.HandleContext(ctx, c.Kind, input, conformance.Options{Now: Clock, HTTPClient: client})
}

// Record makes the cassette of a case whose kind has a recorder (for a
// wire case: the reference runs against the case's hand-built response
// through go-vcr's recorder, see wire.Record). It returns the cassette's
// bytes and writes nothing.
func Record(ctx context.Context, c *suite.Case) ([]byte, error) {
	rec := recorder(c)
	if rec == nil {
		return nil, &suite.Error{File: c.File, CaseID: c.ID, Err: fmt.Errorf("case kind %q records nothing", c.Kind)}
	}
	return rec.Record(ctx, c, reference)
}

// CassetteChange is what recording does, or would do, to one case's cassette.
type CassetteChange struct {
	Case   *suite.Case
	Status Status
	Err    error
	Bytes  []byte
	// Changes lists, for a changed cassette, what its requests say
	// differently, by JSON Pointer (/requests/0/body/…, /requests/0/headers/x).
	// It is empty when only the file's layout changed.
	Changes []compare.Diff
	// Where reports Changes for people: the first path, then one line per
	// change (at most 20, then a count).
	Where string
}

// RecordAll records the cassette of every recordable case and writes
// nothing. It also returns the fixtures to make goldens with: they replay
// the new recordings, so the goldens match the cassettes Apply will write.
func RecordAll(ctx context.Context, cases []*suite.Case) ([]CassetteChange, map[string]run.Fixture) {
	var changes []CassetteChange
	recorded := map[string]map[string][]byte{} // by kind, then case id
	for _, c := range cases {
		if !Recordable(c) {
			continue
		}
		data, err := Record(ctx, c)
		if err != nil {
			changes = append(changes, CassetteChange{Case: c, Status: Failed, Err: err})
			continue
		}
		if recorded[c.Kind] == nil {
			recorded[c.Kind] = map[string][]byte{}
		}
		recorded[c.Kind][c.ID] = data
		ch := CassetteChange{Case: c, Bytes: data, Status: Unchanged}
		if old, err := c.ReadCassette(); err != nil {
			ch.Status = New
		} else if !bytes.Equal(old, data) {
			ch.Status = Changed
			ch.Changes, ch.Where = recorder(c).Compare(old, data)
		}
		changes = append(changes, ch)
	}
	fixtures := Fixtures()
	for kind, rec := range recorded {
		fixtures[kind] = kinds.Builtin.Lookup(kind).Recorder.Replaying(rec)
	}
	return changes, fixtures
}

// ApplyCassettes writes the new and changed cassettes of a suite on disk.
func ApplyCassettes(s *suite.Suite, changes []CassetteChange) error {
	for _, ch := range changes {
		if ch.Status != New && ch.Status != Changed {
			continue
		}
		if err := atomicfile.WriteFile(s.DiskPath(ch.Case.CassettePath()), ch.Bytes); err != nil {
			return err
		}
	}
	return nil
}

// Plan computes the change for every case without writing anything.
// fixtures are as for Produce.
func Plan(cases []*suite.Case, fixtures map[string]run.Fixture) []Change {
	changes := make([]Change, 0, len(cases))
	for _, c := range cases {
		out, err := Produce(c, fixtures)
		if err != nil {
			changes = append(changes, Change{Case: c, Status: Failed, Err: err})
			continue
		}
		ch := Change{Case: c, Bytes: Encode(out)}
		old, err := c.ReadGolden()
		switch {
		case err != nil:
			ch.Status = New
		default:
			if m := compare.Compare(old, out, c.Redactions); m != nil {
				ch.Status, ch.Mismatch = Changed, m
			} else {
				ch.Status = Unchanged
			}
		}
		changes = append(changes, ch)
	}
	return changes
}

// Apply writes the new and changed goldens of a suite on disk.
func Apply(s *suite.Suite, changes []Change) error {
	if s.Dir == "" {
		return fmt.Errorf("suite %s is not a folder on disk; cannot write goldens", s.Name)
	}
	for _, ch := range changes {
		if ch.Status != New && ch.Status != Changed {
			continue
		}
		if err := atomicfile.WriteFile(filepath.Join(s.Dir, filepath.FromSlash(ch.Case.GoldenPath())), ch.Bytes); err != nil {
			return err
		}
	}
	return nil
}

// RemoveOrphans deletes golden files no case uses.
func RemoveOrphans(orphans []string) error {
	for _, o := range orphans {
		if err := os.Remove(o); err != nil {
			return err
		}
	}
	return nil
}
