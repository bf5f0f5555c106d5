// Package atomicfile writes files so that a reader sees the old content or
// the new, never half of either: the data goes to a temporary file in the
// same folder, is synced, and is renamed over the target.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces path with data, creating folders as needed.
func WriteFile(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err = tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// CheckWritable tells, without writing it, whether WriteFile can write
// path: it is not a folder, and its folder (or the nearest one that exists,
// since WriteFile creates the rest) is a folder where a file can be made.
// A command checks its output paths with it before long work, so a typo
// fails at once rather than after the work.
func CheckWritable(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("%s is a folder", path)
	}
	dir := filepath.Dir(path)
	for {
		st, err := os.Stat(dir)
		if err == nil {
			if !st.IsDir() {
				return fmt.Errorf("%s: %s is not a folder", path, dir)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: %w", path, err)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return fmt.Errorf("%s: %w", path, err)
		}
		dir = parent
	}
	tmp, err := os.CreateTemp(dir, ".piconform-check-*")
	if err != nil {
		return fmt.Errorf("%s: cannot write in %s: %w", path, dir, err)
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}
