package subject_test

// The reference has one face: the in-process subject and `piconform serve`
// (conformance.Serve, run here as a child process by re-executing this test
// binary) give the same answer to every case of the suite and to broken
// inputs.

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform"
	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/golden"
	"github.com/piconform/piconform/harness/kinds"
	"github.com/piconform/piconform/harness/subject"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/harness/wire"
	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

const serveEnv = "PICONFORM_TEST_SERVE_REFERENCE"

func TestMain(m *testing.M) {
	if b := os.Getenv(faultEnv); b != "" {
		os.Exit(fault(b))
	}
	if os.Getenv(serveEnv) != "" {
		// This binary is now `piconform serve` with the goldens' clock.
		if err := conformance.Serve(os.Stdin, os.Stdout, "devel", conformance.Options{Now: golden.Clock}); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func servedReference(t *testing.T) *subject.Process {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &subject.Process{Command: serveEnv + "=1 '" + strings.ReplaceAll(exe, "'", `'\''`) + "'", Log: os.Stderr, StartTimeout: 30 * time.Second}
	t.Cleanup(func() { p.Close() })
	return p
}

// face is an answer in a form cmp can diff.
type face struct {
	Type, Output, Reason, Link, Message string
}

func faceOf(r subject.Reply) face {
	f := face{Type: r.Type, Reason: r.Reason, Link: r.Link, Message: r.Message}
	if !r.Output.IsAbsent() {
		f.Output = r.Output.String()
	}
	return f
}

func TestReferenceHasOneFace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	inProcess := &subject.Reference{Options: conformance.Options{Now: golden.Clock, HTTPClient: wire.InProcess}}
	served := servedReference(t)

	implIn, err := inProcess.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	implServed, err := served.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(implIn, implServed); diff != "" {
		t.Errorf("hello differs (-in process +served):\n%s", diff)
	}

	s, err := kinds.Load("builtin", piconform.Builtin(), "")
	if err != nil {
		t.Fatal(err)
	}
	// answer runs c in dialect d on subj, with a fresh fixture (a wire
	// case's loopback server) for each face.
	answer := func(t *testing.T, subj subject.Subject, c *suite.Case, d dialect.Dialect) subject.Reply {
		t.Helper()
		fixtures := golden.Fixtures(d)
		fixtures[wire.Kind].(*wire.Fixture).NoPause = true // both faces get the same bytes; splits are not the question
		input, check := c.Input, func() error { return nil }
		if fx := fixtures[c.Kind]; fx != nil {
			if input, check, err = fx.Setup(ctx, c, func(error) {}); err != nil { // a refused request fails the check
				t.Fatal(err)
			}
		}
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		r, err := subj.Run(cctx, subject.Case{ID: c.ID, Kind: c.Kind, Input: input, Dialect: d.String()})
		if err != nil {
			t.Fatalf("%T: %v", subj, err)
		}
		if err := check(); err != nil {
			t.Errorf("%T: %v", subj, err)
		}
		return r
	}
	results, runs := 0, 0
	for _, d := range dialect.All() {
		for _, c := range s.Cases {
			if !c.HoldsIn(d) {
				continue
			}
			runs++
			t.Run(d.String()+"/"+c.ID, func(t *testing.T) {
				in, out := answer(t, inProcess, c, d), answer(t, served, c, d)
				// The outputs compare as goldens do: a wall-clock time
				// (1.6's durationMs) is the same only by type.
				if m := compare.Compare(in.Output, out.Output, c.Redactions); m != nil {
					t.Errorf("outputs differ (-in process +served): %v\n%s", m, m.Diff)
				}
				in.Output, out.Output = jsonv.Value{}, jsonv.Value{}
				if diff := cmp.Diff(faceOf(in), faceOf(out)); diff != "" {
					t.Errorf("answers differ (-in process +served):\n%s", diff)
				}
				if in.Type == subject.ReplyResult {
					results++
				}
			})
		}
	}
	if results < runs || results < 600 {
		t.Errorf("%d of %d runs gave a result", results, runs)
	}

	// Broken inputs: the same skip, the same error (input errors at /input)
	// or the same expected failure.
	model := `{"id":"m","name":"m","api":"API","provider":"p","baseUrl":"https://x","reasoning":false,"input":["text"],` +
		`"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":1,"maxTokens":1}`
	for _, tc := range []struct {
		name, kind, input string
		want              face // Message is a prefix
	}{
		{"unknown kind", "video", `{}`, face{Type: "skip", Reason: `unsupported case kind "video"`}},
		{"unknown api", "wire", `{"baseUrl":"http://127.0.0.1:1","model":` + strings.Replace(model, "API", "nope", 1) + `,"context":{"messages":[]}}`,
			face{Type: "skip", Reason: `unsupported API "nope"`}},
		{"not an object", "convert", `null`, face{Type: "error", Message: "/input: want an object, got null"}},
		{"missing member", "pipeline", `{"systemPrompt":"","messages":"x"}`, face{Type: "error", Message: "/input/messages: want an array of messages, got string"}},
		{"deep", "normalize", `{"messages":[],"model":` + strings.Replace(model, "API", "x", 1) + `,"toolCallIdNormalizer":{"replace":"a","with":"","maxLength":"3"}}`,
			face{Type: "error", Message: "/input/toolCallIdNormalizer/maxLength: want number, got string"}},
		{"expected failure", "convert", `{"messages":[{"role":"user","content":"a"},null]}`,
			face{Type: "result", Output: `{"throws":{"category":"type-error","message":"Cannot read properties of null (reading 'role')"}}`}},
		{"bad regexp", "normalize", `{"messages":[],"model":` + strings.Replace(model, "API", "x", 1) + `,"toolCallIdNormalizer":{"replace":"(","with":""}}`,
			face{Type: "error", Message: "/input/toolCallIdNormalizer/replace: "}},
		{"pipeline", "pipeline", `{"systemPrompt":"","messages":[{"role":"user","content":"a"}],"transform":{"keepLast":-1}}`,
			face{Type: "error", Message: "/input/transform/keepLast: want a non-negative integer, got -1"}},
		{"loop throws", "pipeline", `{"systemPrompt":"","messages":[]}`, face{Type: "result", Output: `{"error":"Cannot continue: no messages in context"}`}},
		{"wire model", "wire", `{"baseUrl":"http://127.0.0.1:1","model":{},"context":{"messages":[]}}`, face{Type: "error", Message: "/input/model/"}},
	} {
		t.Run("broken/"+tc.name, func(t *testing.T) {
			input, err := jsonv.Parse([]byte(tc.input))
			if err != nil {
				t.Fatal(err)
			}
			c := subject.Case{ID: "broken/x", Kind: tc.kind, Input: input}
			rIn, err := inProcess.Run(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			rServed, err := served.Run(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			in, out := faceOf(rIn), faceOf(rServed)
			if diff := cmp.Diff(in, out); diff != "" {
				t.Errorf("answers differ (-in process +served):\n%s", diff)
			}
			got := in
			if strings.HasPrefix(got.Message, tc.want.Message) {
				got.Message = tc.want.Message
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
}
