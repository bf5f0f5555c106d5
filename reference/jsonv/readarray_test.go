package jsonv_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
)

// readAll collects what ReadArray hands over.
func readAll(r io.Reader) ([]jsonv.Value, error) {
	var got []jsonv.Value
	err := jsonv.ReadArray(r, func(i int, v jsonv.Value) error {
		if i != len(got) {
			return errors.New("index out of order")
		}
		got = append(got, v)
		return nil
	})
	return got, err
}

// sameAsParse checks ReadArray against Parse on data, read whole (the end
// of the input told by a read of nothing, and with the last bytes) and a
// byte at a time: the same elements for an array, and, for any input that
// opens like an array, the same syntax error in every field.
func sameAsParse(t *testing.T, data []byte) {
	t.Helper()
	want, perr := jsonv.Parse(data)
	opensArray := bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("["))
	for name, r := range map[string]io.Reader{
		"whole":    bytes.NewReader(data),
		"with EOF": iotest.DataErrReader(bytes.NewReader(data)),
		"bytewise": iotest.OneByteReader(bytes.NewReader(data)),
	} {
		got, err := readAll(r)
		switch {
		case perr == nil && want.Kind() == jsonv.Array:
			if err != nil {
				t.Fatalf("%s: Parse reads %q but ReadArray says %v", name, data, err)
			}
			if !jsonv.Equal(jsonv.ArrayValue(got...), want) || !bytes.Equal(jsonv.ArrayValue(got...).AppendJSON(nil), want.AppendJSON(nil)) {
				t.Fatalf("%s: ReadArray of %q gives %s, Parse %s", name, data, jsonv.ArrayValue(got...).AppendJSON(nil), want.AppendJSON(nil))
			}
		case err == nil:
			t.Fatalf("%s: ReadArray reads %q, which Parse refuses or is no array (%v)", name, data, perr)
		case opensArray:
			var gotErr, wantErr *jsonv.SyntaxError
			if !errors.As(err, &gotErr) || !errors.As(perr, &wantErr) {
				t.Fatalf("%s: %q: errors %v and %v are not both syntax errors", name, data, err, perr)
			}
			if diff := cmp.Diff(wantErr, gotErr); diff != "" {
				t.Fatalf("%s: %q: ReadArray's error differs from Parse's (-Parse +ReadArray):\n%s", name, data, diff)
			}
		}
	}
}

func TestReadArrayMatchesParse(t *testing.T) {
	for _, s := range []string{
		`[]`, ` [ ] `, `[1]`, `[1,"a",null,true,false,{},[]]`, "[\n {\"a\": [1, {\"b\": \"\\\"]\"}]},\n \"x\\\\\" ,-0.5e3 ]\n",
		`["\ud83d", "\ud83d\ude00", "\u00e9t\u00e9", "é"]`, `[12345678901234567890,1e400]`, `[{"a":1,"a":2}]`,
		`[`, `[1`, `[1,`, `[1,]`, `[,1]`, `[1 2]`, `[1x]`, `["a" "b"]`, `[{"a":1]`, `[{"a":1`, `[[1}]`,
		`[]x`, `[] ]`, `["a\qb"]`, "[\"a\x01\"]", "[\n\n  {\"k\": tru}]", "[\"\xff\"]", `["unterminated`,
		`[` + strings.Repeat("[", 1100) + strings.Repeat("]", 1101), `["` + strings.Repeat("é\\n", 40000) + `", 1]`,
	} {
		sameAsParse(t, []byte(s))
	}
}

// TestReadArrayAcrossReads: elements longer than a read, and many of them,
// come out whole whatever the reads' sizes.
func TestReadArrayAcrossReads(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 3000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`{"role":"user","content":"` + strings.Repeat(`x\"y`, i%97) + `","n":` + strings.Repeat("9", i%30+1) + `}`)
	}
	b.WriteString("]")
	sameAsParse(t, []byte(b.String()))
	got, err := readAll(iotest.HalfReader(strings.NewReader(b.String())))
	if err != nil || len(got) != 3000 {
		t.Fatalf("half reads: %d elements, %v", len(got), err)
	}
}

// TestReadArrayStopsOnCallerError: each's error ends the read as it is.
func TestReadArrayStopsOnCallerError(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	err := jsonv.ReadArray(strings.NewReader(`[1,2,3]`), func(i int, v jsonv.Value) error {
		n++
		if i == 1 {
			return stop
		}
		return nil
	})
	if err != stop || n != 2 {
		t.Fatalf("got %v after %d elements, want the caller's error after 2", err, n)
	}
	readErr := errors.New("disk")
	if _, err := readAll(iotest.ErrReader(readErr)); err != readErr {
		t.Fatalf("a read error came back as %v", err)
	}
}

// FuzzReadArray: ReadArray agrees with Parse on every input.
func FuzzReadArray(f *testing.F) {
	jsonvtest.AddFiles(f, "../../fixtures/*/*.json", "../../golden/*/*.json")
	for _, s := range []string{`[1,"\\",{"a":[]}]`, `[1 2]`, `["\ud800"]`, `[{"a":1]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { sameAsParse(t, data) })
}
