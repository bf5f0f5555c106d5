// Package golden regenerates expected outputs from the Go reference.
//
// A golden is rewritten only when its content changes under the case's
// redactions, so volatile values never churn the diff, and a case the
// reference cannot run never gets a golden. Files are written atomically.
package golden

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/piconform/piconform/harness/atomicfile"
	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/suite"
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

// Produce runs the reference on one case the way goldens are made.
func Produce(c *suite.Case) (jsonv.Value, error) {
	out, err := conformance.Handle(c.Kind, c.Input, conformance.Options{Now: Clock})
	if err != nil {
		return jsonv.Value{}, fmt.Errorf("the reference cannot run %s: %w", c.ID, err)
	}
	return out, nil
}

// Plan computes the change for every case without writing anything.
func Plan(cases []*suite.Case) []Change {
	changes := make([]Change, 0, len(cases))
	for _, c := range cases {
		out, err := Produce(c)
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
