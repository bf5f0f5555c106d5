package matrix_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/harness/matrix"
)

// TestMergeFilesRendersAsMerge: a matrix merged from files as they are read
// (failures read again when shown) renders byte for byte as one merged from
// reports read whole.
func TestMergeFilesRendersAsMerge(t *testing.T) {
	for _, files := range [][]string{
		{"reference.jsonl"},
		{"reference.jsonl", "port.jsonl", "shards/1of2.jsonl", "shards/2of2.jsonl"},
		{"hostile-name.jsonl", "port.jsonl"},
	} {
		t.Run(strings.Join(files, "+"), func(t *testing.T) {
			whole := merge(t, files...)
			var paths []string
			for _, f := range files {
				paths = append(paths, filepath.Join("testdata", f))
			}
			streamed, err := matrix.MergeFiles(paths)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(matrix.Markdown(whole)), string(matrix.Markdown(streamed))); diff != "" {
				t.Errorf("Markdown (-whole +streamed):\n%s", diff)
			}
			a, err := matrix.HTML(whole)
			if err != nil {
				t.Fatal(err)
			}
			b, err := matrix.HTML(streamed)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(a), string(b)); diff != "" {
				t.Errorf("HTML (-whole +streamed):\n%s", diff)
			}
			if err := streamed.ReadError(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestMergeFilesErrors: MergeFiles refuses what ReadFile and Merge refuse,
// with the same errors.
func TestMergeFilesErrors(t *testing.T) {
	tests := []struct {
		files []string
		want  string
	}{
		{[]string{"bad/dupcase.jsonl"}, "testdata/bad/dupcase.jsonl:3: case convert/order is also on line 2"},
		{[]string{"bad/count.jsonl"}, "testdata/bad/count.jsonl:1: the header announces 2 cases but the report has 1"},
		{[]string{"shards/1of2.jsonl", "shards/conflict.jsonl"}, "testdata/shards/conflict.jsonl:2: case convert/order is pass here but fail in testdata/shards/1of2.jsonl:3, " +
			"a report of the same implementation and version (go-pi 0.4.0); shards of one run must agree"},
	}
	for _, tt := range tests {
		var paths []string
		for _, f := range tt.files {
			paths = append(paths, filepath.Join("testdata", f))
		}
		_, err := matrix.MergeFiles(paths)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("MergeFiles(%v) (-want +got):\n%s", tt.files, diff)
		}
	}
}

// TestReportChangedOnDisk: a report rewritten between merging and
// rendering is not shown as if it said what it said before: the rendering
// says the details are not shown, and ReadError names the file.
func TestReportChangedOnDisk(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "port.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "port.jsonl")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := matrix.MergeFiles([]string{p})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(data), "exit code 1", "exit code 2")), 0o644); err != nil {
		t.Fatal(err)
	}
	md := string(matrix.Markdown(m))
	if strings.Contains(md, "exit code") || !strings.Contains(md, "not shown") {
		t.Errorf("the Markdown shows a changed report's details, or does not say they are not shown:\n%s", md)
	}
	if err := m.ReadError(); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("ReadError() = %v, want it to name %s", err, p)
	}
}

// TestReadLongLine: a line over MaxLineBytes is an error naming file and
// line; one just under it reads.
func TestReadLongLine(t *testing.T) {
	head := `{"type":"header","schema":1,"piconform":"x","implementation":{"name":"n"},"cases":1}` + "\n"
	caseLine := func(msgLen int) string {
		return `{"type":"case","id":"a/b","kind":"a","outcome":"error","message":"` + strings.Repeat("x", msgLen) + `"}` + "\n"
	}
	prefix := len(caseLine(0))
	ok := head + caseLine(matrix.MaxLineBytes-prefix) + `{"type":"footer"}` + "\n"
	if _, err := matrix.Read("ok.jsonl", strings.NewReader(ok)); err != nil {
		t.Errorf("a line of exactly %d bytes: %v", matrix.MaxLineBytes, err)
	}
	long := head + caseLine(matrix.MaxLineBytes-prefix+1) + `{"type":"footer"}` + "\n"
	_, err := matrix.Read("long.jsonl", strings.NewReader(long))
	if want := "long.jsonl:2: a line longer than 4 MiB: not a line piconform writes"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}
