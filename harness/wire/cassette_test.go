package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"gopkg.in/yaml.v3"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// TestBrokenCassettes: each file under testdata/cassettes is the cassette
// of the echo case (one response) and is refused when the case loads, with
// an error naming the cassette file and the line.
func TestBrokenCassettes(t *testing.T) {
	for _, tc := range []struct {
		file string
		line int
		want string
	}{
		{"empty.yaml", 1, "empty cassette"},
		{"comment-only.yaml", 1, "empty cassette"},
		{"version-only.yaml", 1, `no "interactions"`},
		{"two-requests.yaml", 2, "2 request(s), but fixtures/wire/echo.json has only 1 response(s)"},
		{"version-3.yaml", 1, "version 3, want 2"},
		{"not-yaml.yaml", 2, "not a cassette"},
		{"a-list.yaml", 1, "want a mapping"},
		{"interactions-not-a-list.yaml", 3, `"interactions" is not a list`},
		{"code-0.yaml", 7, "interaction 0 holds a response"},
		{"code-999.yaml", 7, "interaction 0 holds a response"},
		{"id-out-of-order.yaml", 3, "has id 1"},
		{"no-method.yaml", 5, "want an HTTP method"},
		{"url-not-a-path.yaml", 6, "want a url path"},
		{"unknown-member.yaml", 7, `unknown member "content_length"`},
		{"header-not-a-list.yaml", 8, "want a list of values"},
		{"no-request.yaml", 3, `no "request"`},
		{"duplicate-key.yaml", 2, `"version" twice`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "cassettes", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			c := loadCase(t, caseFile, fstest.MapFS{suite.CassetteDir + "/wire/echo.yaml": {Data: data}})
			_, _, err = NewFixture(nil, nil).Load(c)
			var se *suite.Error
			var ce *CassetteError
			if !errors.As(err, &se) || !errors.As(err, &ce) {
				t.Fatalf("Load = %v, want a suite.Error with a CassetteError", err)
			}
			if se.File != c.CassetteFile(dialect.V0_80) || se.CaseID != c.ID {
				t.Errorf("names %s (case %s), want %s (case %s)", se.File, se.CaseID, c.CassetteFile(dialect.V0_80), c.ID)
			}
			msg := err.Error()
			if ce.Line != tc.line || !strings.Contains(msg, fmt.Sprintf("line %d: ", tc.line)) || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q (line %d), want line %d and %q", msg, ce.Line, tc.line, tc.want)
			}
		})
	}
}

// A case that sends nothing has a cassette with an empty list; so may a
// case with responses, for a dialect whose Pi throws before it sends.
func TestCassetteWithoutRequests(t *testing.T) {
	head, _, _ := strings.Cut(caseFile, `,
  "response"`)
	empty := fstest.MapFS{suite.CassetteDir + "/wire/echo.yaml": {Data: []byte("version: 2\ninteractions: []\n")}}
	for name, file := range map[string]string{"no response": head + "\n}", "a response": caseFile} {
		c := loadCase(t, file, empty)
		_, cas, err := NewFixture(nil, nil).Load(c)
		if err != nil || len(cas.Interactions) != 0 {
			t.Errorf("%s: Load = %v, %v", name, cas, err)
		}
	}
}

// The fixture answers each recorded request with the case's response at
// its position; the file holds none.
func TestLoadFillsTheResponsesFromTheCase(t *testing.T) {
	c := loadCase(t, caseFile, nil)
	s, cas, err := (&Fixture{Cassettes: map[string][]byte{c.ID: record(t, c)}}).Load(c)
	if err != nil {
		t.Fatal(err)
	}
	r := cas.Interactions[0].Response
	if r.Code != 200 || r.Body != string(s.Responses[0].Body) || r.Headers.Get("X-Trace") != "t1" || r.Headers.Get("Content-Type") != "text/event-stream" {
		t.Errorf("response %+v", r)
	}
}

func TestCassetteDiffNamesRequestPaths(t *testing.T) {
	const before = "version: 2\ninteractions:\n  - id: 0\n    request:\n      method: POST\n      url: /v1/say\n" +
		"      headers:\n        X-A: ['1']\n      body: '{\"messages\":[{\"content\":\"a\"},{\"content\":\"b\"}],\"n\":1}'\n"
	const after = "version: 2\ninteractions:\n  - id: 0\n    request:\n      method: POST\n      url: /v1/say\n" +
		"      headers:\n        X-B: ['2']\n      body: |\n        {\n          \"messages\": [{\"content\": \"a\"}, {\"content\": \"c\"}],\n          \"n\": 1.0\n        }\n"
	a, err := ReadCassetteLoosely([]byte(before))
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadCassetteLoosely([]byte(after))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range compare.Diffs(CassetteValue(a), CassetteValue(b), compare.Rules{}) {
		show := func(v jsonv.Value) string {
			if v.IsAbsent() {
				return "absent"
			}
			return v.String()
		}
		got = append(got, fmt.Sprintf("%s: %s -> %s", d.Path, show(d.Want), show(d.Got)))
	}
	want := []string{
		`/requests/0/headers/x-a: "1" -> absent`,
		`/requests/0/headers/x-b: absent -> "2"`,
		`/requests/0/body/messages/1/content: "b" -> "c"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diff:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// What `update --dry-run` prints.
	changes, where := CompareCassettes([]byte(before), []byte(after))
	if len(changes) != 3 || !strings.HasPrefix(where, "at /requests/0/headers/x-a\n") || !strings.Contains(where, `/requests/0/body/messages/1/content: "b" → "c"`) {
		t.Errorf("CompareCassettes: %d changes, %q", len(changes), where)
	}
	relaid := strings.Replace(before, "X-A: ['1']", "X-A:\n          - \"1\"", 1)
	if changes, where := CompareCassettes([]byte(before), []byte(relaid)); len(changes) != 0 || !strings.Contains(where, "layout only") {
		t.Errorf("layout change: %v, %q", changes, where)
	}
}

// FuzzDecodeCassette: whatever the bytes, decoding returns a cassette or a
// CassetteError, and never panics.
func FuzzDecodeCassette(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "cassettes", "*.yaml"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("version: 2\ninteractions:\n  - id: 0\n    request:\n      method: GET\n      url: /x\n      body: |\n        {}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeCassette(data)
		var ce *CassetteError
		if err != nil && !errors.As(err, &ce) {
			t.Fatalf("error %T %v is not a CassetteError", err, err)
		}
		if err == nil && c == nil {
			t.Fatal("no cassette and no error")
		}
	})
}

// A JSON body is written as an indented block even when it holds
// characters YAML does not print in a block; it means the same JSON.
func TestReadableBody(t *testing.T) {
	for _, body := range []string{
		`{"text":"smile 😀, lone \udc00, nel ` + "\u0085" + `, sep ` + "\u2028" + `, bom ` + "\ufeff" + `","n":1.50}`,
		`{"a":[1,2,{"b":null}],"t":"tab\tquote\"back\\"}`,
	} {
		got := readableBody(body)
		if !strings.HasPrefix(got, "{\n  ") {
			t.Errorf("%q: not indented: %q", body, got)
		}
		out, err := yaml.Marshal(map[string]string{"body": got})
		if err != nil || !bytes.HasPrefix(out, []byte("body: |")) {
			t.Errorf("%q: YAML %q, %v", body, out, err)
		}
		want, _ := jsonv.Parse([]byte(body))
		back, err := jsonv.Parse([]byte(got))
		if err != nil || !jsonv.Equal(want, back) {
			t.Errorf("%q: reads back as %s (%v)", body, back, err)
		}
	}
	for _, body := range []string{"", "plain text", `{"cut":`} {
		if got := readableBody(body); got != body {
			t.Errorf("%q written as %q", body, got)
		}
	}
}

// The secret scan reads the cassette form: a credential header in it, and
// a key on a line of an indented JSON body.
func TestFindSecretsInTheCassetteForm(t *testing.T) {
	c := loadCase(t, caseFile, nil)
	data := record(t, c)
	if f := FindSecrets(data); len(f) > 0 {
		t.Fatalf("clean cassette: %v", f)
	}
	leaky := strings.Replace(string(data), "'[redacted]'", "sk-live-value-1234", 1)
	if f := FindSecrets([]byte(leaky)); len(f) == 0 {
		t.Errorf("a credential header in the cassette form is not found:\n%s", leaky)
	}
	leak := func(r *http.Request) {
		r.Body = io.NopCloser(strings.NewReader(`{"say":"hello","n":1,"note":"sk-ant-api03-leakedvalue"}`))
		r.ContentLength = -1
	}
	_, err := Record(context.Background(), c, echoSubject(leak), echoIgnore)
	if err == nil || !strings.Contains(err.Error(), "line 21 of the cassette looks like a credential") {
		t.Errorf("Record of a body with a key = %v", err)
	}
}
