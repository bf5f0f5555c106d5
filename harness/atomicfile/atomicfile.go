// Package atomicfile writes files so that a reader sees the old content or
// the new, never half of either: the data goes to a temporary file in the
// same folder, is synced, and is renamed over the target.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// WriteFile replaces path with data, creating folders as needed. Only a
// regular file (or a new path) is replaced: a device, a pipe or a socket
// is written directly, since renaming over it would replace the device
// with a file (/dev/full would become one), and a write error names it.
func WriteFile(path string, data []byte) error {
	return WriteFunc(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc is WriteFile for content that write produces as it goes, so it
// is never held whole: a write error (write's own, or the file's) leaves
// the target as it was and names it.
func WriteFunc(path string, write func(io.Writer) error) error {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		return writeDirect(path, write)
	}
	var b Batch
	if err := b.WriteFunc(path, write); err != nil {
		return err
	}
	return b.Commit()
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

// writeDirect writes to a path that is not a regular file.
func writeDirect(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if err := buffered(f, write); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// tempInfix marks the temporary files WriteFile and Batch make are
// named: "." + the target's name + ".tmp-" + a random number.
const tempInfix = ".tmp-"

// IsTemp tells whether a file name is one of this package's temporary
// files, which a process that was killed may leave behind.
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempInfix)
}

// Batch changes several files at once or not at all: Write stages each new
// content in a temporary file beside its target, Remove notes a file to
// delete, and Commit then renames and deletes, which cannot run out of
// space. Abort, or a failed Write, leaves every target as it was and
// deletes the temporary files.
type Batch struct {
	staged  []staged
	removes []string
}

type staged struct{ tmp, path string }

// Write stages data for path.
func (b *Batch) Write(path string, data []byte) error {
	return b.WriteFunc(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// buffered runs write on a buffer in front of f and flushes it.
func buffered(f *os.File, write func(io.Writer) error) error {
	bw := bufio.NewWriterSize(f, 64<<10)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteFunc stages for path what write writes.
func (b *Batch) WriteFunc(path string, write func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+tempInfix+"*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if err = buffered(tmp, write); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	b.staged = append(b.staged, staged{tmp.Name(), path})
	return nil
}

// Remove notes path for deletion at Commit; a path already gone is fine.
func (b *Batch) Remove(path string) { b.removes = append(b.removes, path) }

// Commit puts every staged file in place and deletes the noted ones.
func (b *Batch) Commit() error {
	for i, s := range b.staged {
		if err := os.Rename(s.tmp, s.path); err != nil {
			b.staged = b.staged[i:]
			b.Abort()
			return err
		}
	}
	b.staged = nil
	for _, p := range b.removes {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	b.removes = nil
	return nil
}

// Abort deletes the staged temporary files; no target changes.
func (b *Batch) Abort() {
	for _, s := range b.staged {
		_ = os.Remove(s.tmp)
	}
	b.staged, b.removes = nil, nil
}
