package golden

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/piconform/piconform/harness/suite"
)

// Refused explains why an update writes nothing at all: the cases whose
// cassette or golden failed, each with its reason, or a target outside the
// suite. An update is all or nothing, so one refused recording (a secret
// found, a reference error) leaves every file as it was.
type Refused struct{ Reasons []string }

func (r *Refused) Error() string {
	return "nothing written: " + strings.Join(r.Reasons, "; ")
}

// CheckWrite tells whether an update may write: no cassette and no golden
// failed, and every file it would write or delete lies inside the suite
// folder once symlinks are resolved (a symlinked golden/ or cassettes/
// leading elsewhere is refused). It writes nothing.
func CheckWrite(s *suite.Suite, cassettes []CassetteChange, changes []Change, orphans []string) error {
	r := &Refused{}
	var targets []string
	for _, ch := range cassettes {
		switch ch.Status {
		case Failed:
			r.Reasons = append(r.Reasons, fmt.Sprintf("the cassette of %s was refused: %v", ch.Case.ID, ch.Err))
		}
		targets = append(targets, ch.Files.targets()...)
	}
	for _, ch := range changes {
		switch ch.Status {
		case Failed:
			r.Reasons = append(r.Reasons, fmt.Sprintf("the golden of %s failed: %v", ch.Case.ID, ch.Err))
		}
		targets = append(targets, ch.Files.targets()...)
	}
	if len(r.Reasons) > 0 {
		return r
	}
	if s.Dir == "" {
		return fmt.Errorf("suite %s is not a folder on disk; cannot write goldens", s.Name)
	}
	root, err := filepath.EvalSymlinks(s.Dir)
	if err != nil {
		return err
	}
	root, err = filepath.Abs(root)
	if err != nil {
		return err
	}
	for _, t := range targets {
		if err := inside(root, s.DiskPath(t)); err != nil {
			r.Reasons = append(r.Reasons, err.Error())
		}
	}
	for _, o := range orphans {
		if err := inside(root, filepath.Dir(o)); err != nil {
			r.Reasons = append(r.Reasons, err.Error())
		}
	}
	if len(r.Reasons) > 0 {
		return r
	}
	return nil
}

// inside checks that p, with the symlinks of its existing folders
// resolved, lies under root (itself resolved). The file itself may be a
// symlink: writing replaces it, never follows it.
func inside(root, p string) error {
	dir := filepath.Dir(p)
	rest := ""
	for {
		real, err := filepath.EvalSymlinks(dir)
		if err == nil {
			real, err = filepath.Abs(filepath.Join(real, rest))
			if err != nil {
				return err
			}
			if real != root && !strings.HasPrefix(real, root+string(filepath.Separator)) {
				return fmt.Errorf("%s: its folder leads outside the suite (to %s), through a symlink; refusing to write there", p, real)
			}
			return nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return err
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}

func (f Files) targets() []string {
	var out []string
	for _, p := range []string{f.Write, f.Remove} {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}
