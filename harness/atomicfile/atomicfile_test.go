package atomicfile_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/piconform/piconform/harness/atomicfile"
)

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "golden", "sanitize", "a.json")

	// Creates the file and its folders.
	if err := atomicfile.WriteFile(p, []byte("one\n")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "one\n" {
		t.Errorf("content %q", got)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}

	// Replaces it, shorter content included.
	if err := atomicfile.WriteFile(p, []byte("2")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "2" {
		t.Errorf("content %q", got)
	}
	// Empty content.
	if err := atomicfile.WriteFile(p, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(p); err != nil || len(got) != 0 {
		t.Errorf("content %q, %v", got, err)
	}
	// No temporary file is left behind.
	if names := entries(t, filepath.Dir(p)); len(names) != 1 || names[0] != "a.json" {
		t.Errorf("the folder holds %v", names)
	}
}

// TestWriteFileReplacesAtomically: a reader never sees a partial file while
// writers replace it.
func TestWriteFileReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "report.jsonl")
	contents := [][]byte{bytes.Repeat([]byte("a"), 1<<16), bytes.Repeat([]byte("b"), 1<<17)}
	if err := atomicfile.WriteFile(p, contents[0]); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			got, err := os.ReadFile(p)
			if err != nil {
				t.Errorf("read: %v", err)
				return
			}
			if !bytes.Equal(got, contents[0]) && !bytes.Equal(got, contents[1]) {
				t.Errorf("a reader saw %d bytes, neither version", len(got))
				return
			}
		}
	}()
	for i := range 40 {
		if err := atomicfile.WriteFile(p, contents[i%2]); err != nil {
			t.Error(err)
			break
		}
	}
	close(stop)
	wg.Wait()
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("the folder holds %v", names)
	}
}

func TestWriteFileFailures(t *testing.T) {
	dir := t.TempDir()
	// The parent is a file: no folder can be made.
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.WriteFile(filepath.Join(file, "a.json"), []byte("y")); err == nil {
		t.Error("writing under a file: no error")
	}
	// The target is a folder: the rename fails, and the temporary file goes.
	target := filepath.Join(dir, "target")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "inside"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.WriteFile(target, []byte("y")); err == nil {
		t.Error("replacing a folder: no error")
	}
	if names := entries(t, dir); fmt.Sprint(names) != "[file target]" {
		t.Errorf("left behind: %v", names)
	}
}

func TestWriteFileReadOnlyFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes to read-only folders")
	}
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "a.json")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if err := atomicfile.WriteFile(p, []byte("new")); err == nil {
		t.Fatal("writing in a read-only folder: no error")
	}
	if got, _ := os.ReadFile(p); string(got) != "old" {
		t.Errorf("the old content changed to %q", got)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("the folder holds %v", names)
	}
}

// A device or a pipe is written directly, never replaced by a file; a
// write error names it.
func TestWriteFileDevices(t *testing.T) {
	if err := atomicfile.WriteFile(os.DevNull, []byte("x")); err != nil {
		t.Errorf("%s: %v", os.DevNull, err)
	}
	if st, err := os.Stat(os.DevNull); err != nil || st.Mode().IsRegular() {
		t.Fatalf("%s became a regular file", os.DevNull)
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		err := atomicfile.WriteFile("/dev/full", []byte("x"))
		if err == nil || !strings.Contains(err.Error(), "/dev/full") {
			t.Errorf("/dev/full: %v, want an error naming it", err)
		}
		if st, err := os.Stat("/dev/full"); err != nil || st.Mode().IsRegular() {
			t.Fatal("/dev/full became a regular file")
		}
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	got := make(chan []byte)
	go func() {
		data, _ := os.ReadFile(fifo)
		got <- data
	}()
	if err := atomicfile.WriteFile(fifo, []byte("through the pipe")); err != nil {
		t.Fatal(err)
	}
	if data := <-got; string(data) != "through the pipe" {
		t.Errorf("the reader got %q", data)
	}
}

func TestBatch(t *testing.T) {
	dir := t.TempDir()
	a, b, gone := filepath.Join(dir, "a.json"), filepath.Join(dir, "sub", "b.json"), filepath.Join(dir, "gone.json")
	for _, p := range []string{a, gone} {
		if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stage := func() *atomicfile.Batch {
		var batch atomicfile.Batch
		for _, p := range []string{a, b} {
			if err := batch.Write(p, []byte("new")); err != nil {
				t.Fatal(err)
			}
		}
		batch.Remove(gone)
		return &batch
	}

	// Aborted: nothing changes and no temporary file stays.
	stage().Abort()
	if data, _ := os.ReadFile(a); string(data) != "old" {
		t.Errorf("a after Abort: %q", data)
	}
	if _, err := os.Stat(b); err == nil {
		t.Error("b written before Commit")
	}
	for _, d := range []string{dir, filepath.Join(dir, "sub")} {
		for _, name := range entries(t, d) {
			if atomicfile.IsTemp(name) {
				t.Errorf("left behind: %s", name)
			}
		}
	}

	// A Write that fails leaves no temporary file of its own.
	var failing atomicfile.Batch
	if err := failing.Write(filepath.Join(a, "under-a-file.json"), []byte("x")); err == nil {
		t.Error("Write under a file succeeded")
	}
	failing.Abort()

	// Committed: every change lands.
	if err := stage().Commit(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{a, b} {
		if data, _ := os.ReadFile(p); string(data) != "new" {
			t.Errorf("%s after Commit: %q", p, data)
		}
	}
	if _, err := os.Stat(gone); err == nil {
		t.Error("gone.json kept after Commit")
	}
	if names := entries(t, dir); slices.ContainsFunc(names, atomicfile.IsTemp) {
		t.Errorf("temporary files after Commit: %v", names)
	}
}

func TestIsTemp(t *testing.T) {
	for name, want := range map[string]bool{".a.json.tmp-123": true, "a.json": false, ".hidden": false, "a.json.tmp-1": false} {
		if got := atomicfile.IsTemp(name); got != want {
			t.Errorf("IsTemp(%q) = %v", name, got)
		}
	}
}
