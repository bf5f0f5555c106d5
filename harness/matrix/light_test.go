package matrix

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// lightLines are lines a merge must read as Unmarshal reads them into line.
var lightLines = []string{
	`{"type":"header","schema":1,"piconform":"0.3.0","implementation":{"name":"n","version":"1","language":"go"},"dialect":"1.6","profile":"typed","started":"2026-01-01T00:00:00Z","cases":2}`,
	`{"type":"case","id":"wire/a","kind":"wire","rules":["wire.request.body","wire.stream.text"],"outcome":"pass","duration_ms":3}`,
	`{"type":"case","id":"wire/b","kind":"wire","rules":[],"outcome":"fail","expected_failure":true,"message":"m\u00e9","path":"/x","diffs":[{"path":"/a","want":1,"got":{"b":[null]}},{"path":"/b"}],"diffs_omitted":4}`,
	`{"type":"footer","counts":{"pass":1}}`,
	`{"type":"case","id":"a/b","message":null,"path":null,"diffs":null}`,
	`{"type":"case","id":"a/b","MESSAGE":"x","Path":"/y","DIFFS":[{"PATH":"/z"}]}`,
	// The fast reading's edges.
	` { "type" : "case" , "id" : "a/b" , "kind":"a", "rules" : [ "x.y" , "z" ] , "outcome":"pass", "n": -0.5e+3, "t": true, "f": false, "z": null, "": "" } `,
	`{"type":"case","id":"a/b","kind":"a","rules":[],"outcome":"skip","expected_failure":false,"diffs_omitted":0,"schema":-0}`,
	`{"type":"header","schema":1,"cases":9223372036854775807,"started":"x\u0041","piconform":"v"}`,
	`{"type":"case","id":"a/\"b","kind":"a"}`,
	`{"type":"case","id":"a/é","kind":"a"}`,
	"{\"type\":\"case\",\"id\":\"a/\x7f\",\"kind\":\"a\"}",
	"{\"type\":\"case\",\"id\":\"a/\tb\",\"kind\":\"a\"}",
	`{"type":"case","x":truex}`,
	`{"type":"case","x":nul}`,
	`{"type":"case","x":01}`,
	`{"type":"case","x":1.}`,
	`{"type":"case","x":-}`,
	`{"type":"case","x":1e}`,
	`{"type":"case","x":[1]}`,
	`{"type":"case","x":{}}`,
	`{"type":"case","expected_failure":"true"}`,
	`{"type":"case","rules":["a" "b"]}`,
	`{"type":"case","rules":["a",]}`,
	`{"type":"case","type":"case"}`,
	`{"type":"case","Kind":"a"}`,
	`{"type":"case",}`,
	`{"type":"case"`,
	`{}`, ` {} `, `{"a":1}{}`,
	`{"type":"header","schema":1e0}`,
	`{"type":"header","cases":9223372036854775808}`,
	// What Unmarshal refuses, or diffsOf: the same error.
	`{"type":"case","message":5}`,
	`{"type":"case","message":5,"message":"x"}`,
	`{"type":"case","message":"x","Message":[1]}`,
	`{"type":"case","path":{}}`,
	`{"type":"case","path":"/a","path":true}`,
	`{"type":"case","id":"a/b","diffs":[{"want":1}]}`,
	`{"type":"case","id":"a/b","diffs":[{"path":null}]}`,
	`{"type":"case","id":"a/b","diffs":[null]}`,
	`{"type":"case","diffs":[5]}`,
	`{"type":"case","diffs":{}}`,
	`{"type":"case","diffs":[{"path":3}]}`,
	`{"type":"case","diffs":[{"path":"/a","want":}]}`,
	`{"type":"case","id":7}`,
	`{"type":"header","cases":1.5}`,
	`[1]`, `"x"`, `{"type":`, `{"type":"case"} x`,
}

// checkLight: a merge's reading of a line gives what Unmarshal into line
// and diffsOf give, without the message and the differences, or the same
// error.
func checkLight(t *testing.T, text []byte) {
	t.Helper()
	got, gotErr := decodeLine(text, true)
	var want line
	err := json.Unmarshal(text, &want)
	if err == nil {
		_, err = diffsOf(want)
		if _, gotDiffErr := diffsOf(got); gotErr == nil {
			gotErr = gotDiffErr
		}
	}
	if fmt.Sprint(gotErr) != fmt.Sprint(err) {
		t.Fatalf("%s: error %v, want %v", text, gotErr, err)
	}
	if err != nil {
		return
	}
	want.Message, want.Path, want.Diffs = "", "", nil
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s (-Unmarshal +light):\n%s", text, diff)
	}
}

func TestLightReading(t *testing.T) {
	for _, l := range lightLines {
		checkLight(t, []byte(l))
	}
	files, _ := filepath.Glob("testdata/*.jsonl")
	bad, _ := filepath.Glob("testdata/bad/*")
	for _, f := range append(files, bad...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(l)) > 0 {
				checkLight(t, bytes.TrimSpace(l))
			}
		}
	}
}

func FuzzLightReading(f *testing.F) {
	for _, l := range lightLines {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, text []byte) { checkLight(t, text) })
}

// TestFastLineReadsCaseLines: the case lines piconform writes for a
// passing case take the fast reading.
func TestFastLineReadsCaseLines(t *testing.T) {
	for _, text := range []string{lightLines[1], lightLines[6], lightLines[7]} {
		var l line
		if !fastLine([]byte(text), &l) {
			t.Errorf("fastLine leaves %s to Unmarshal", text)
		}
	}
}
