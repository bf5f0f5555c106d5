package jsonv_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
)

// writes records every Write it gets.
type writes struct {
	all   bytes.Buffer
	sizes []int
}

func (w *writes) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	return w.all.Write(p)
}

// TestWriteJSONIsAppendJSON: WriteJSON writes AppendJSON's bytes, in pieces
// of bounded size, for every fixture and golden and for a large array.
func TestWriteJSONIsAppendJSON(t *testing.T) {
	files, _ := filepath.Glob("../../golden/*/*.json")
	if len(files) == 0 {
		t.Fatal("no goldens found")
	}
	var big strings.Builder
	big.WriteString(`[`)
	for i := range 5000 {
		big.WriteString(`{"i":` + strings.Repeat("1", i%9+1) + `,"s":"` + strings.Repeat("\\ud83d a\\n", i%50) + `"},`)
	}
	big.WriteString(`"` + strings.Repeat("long", 20000) + `"]`)
	docs := map[string]string{"large array": big.String()}
	for _, f := range files {
		v, err := jsonv.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs[f] = string(v.AppendJSON(nil))
	}
	for name, doc := range docs {
		v, err := jsonv.ParseString(doc)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var w writes
		if err := v.WriteJSON(&w); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := v.AppendJSON(nil); !bytes.Equal(w.all.Bytes(), want) {
			t.Fatalf("%s: WriteJSON wrote\n%s\nAppendJSON appends\n%s", name, w.all.Bytes(), want)
		}
		for _, n := range w.sizes[:max(0, len(w.sizes)-1)] {
			if n > 100<<10 {
				t.Errorf("%s: a write of %d bytes; writes should stay near 32 KiB unless one string is longer", name, n)
			}
		}
	}
}

// failAfter fails every write after its first n.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errors.New("disk full")
	}
	f.n--
	return len(p), nil
}

// TestWriteJSONReportsWriteError: the writer's first error comes back.
func TestWriteJSONReportsWriteError(t *testing.T) {
	v, _ := jsonv.ParseString(`[` + strings.Repeat(`"`+strings.Repeat("x", 1000)+`",`, 200) + `1]`)
	for n := range 5 { // the value takes about seven writes
		if err := v.WriteJSON(&failAfter{n: n}); err == nil || err.Error() != "disk full" {
			t.Fatalf("failing after %d writes: got %v", n, err)
		}
	}
}
