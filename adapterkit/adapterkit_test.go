package adapterkit_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/adapterkit"
	"github.com/piconform/piconform/protocol"
	"github.com/piconform/piconform/reference/jsonv"
)

// echo returns its input: what the kit reads must come back byte for byte.
func echo(_ context.Context, input jsonv.Value) (jsonv.Value, error) { return input, nil }

var testAdapter = adapterkit.Adapter{
	Name: "test-port", Version: "0.1.0", Language: "go",
	Kinds: map[string]adapterkit.KindFunc{
		"echo": echo,
		"text": func(_ context.Context, input jsonv.Value) (jsonv.Value, error) {
			f := jsonv.ReadFields(input, "")
			text := f.String("text")
			if err := f.Err(); err != nil {
				return jsonv.Value{}, err
			}
			return jsonv.ObjectValue(jsonv.Member{Key: "text", Value: jsonv.StringValue(strings.ToUpper(text))}), nil
		},
		"skip": func(context.Context, jsonv.Value) (jsonv.Value, error) {
			return jsonv.Value{}, adapterkit.Skip("later", "https://l")
		},
		"wrapped": func(context.Context, jsonv.Value) (jsonv.Value, error) {
			return jsonv.Value{}, fmt.Errorf("wrapped: %w", adapterkit.Skip("later"))
		},
		"fail": func(context.Context, jsonv.Value) (jsonv.Value, error) {
			return jsonv.Value{}, errors.New("TypeError: boom")
		},
		"array":   func(context.Context, jsonv.Value) (jsonv.Value, error) { return jsonv.ArrayValue(), nil },
		"nothing": func(context.Context, jsonv.Value) (jsonv.Value, error) { return jsonv.Value{}, nil },
		"nil":     nil,
	},
}

func serve(t *testing.T, a adapterkit.Adapter, lines ...string) ([]string, error) {
	t.Helper()
	var out strings.Builder
	err := adapterkit.Serve(strings.NewReader(strings.Join(lines, "\n")+"\n"), &out, a)
	got := strings.Split(out.String(), "\n")
	if got[len(got)-1] != "" {
		t.Errorf("output does not end in a newline: %q", out.String())
	}
	return got[:len(got)-1], err
}

func run(seq int, kind, input string) string {
	return fmt.Sprintf(`{"type":"run","seq":%d,"case":{"id":"k/x","kind":%q,"input":%s}}`, seq, kind, input)
}

func TestServe(t *testing.T) {
	got, err := serve(t, testAdapter,
		`{"type":"hello","protocol":1}`,
		run(1, "echo", `{"text":"a\ud83d","n":1.50,"big":1e400,"k":[true,null]}`),
		run(2, "text", `{"text":"hi"}`),
		run(3, "text", `{"text":1}`),
		run(4, "text", `[]`),
		run(5, "skip", `{}`),
		run(6, "wrapped", `{}`),
		run(7, "fail", `{}`),
		run(8, "array", `{}`),
		run(9, "nothing", `{}`),
		run(10, "nil", `{}`),
		run(11, "video", `{}`),
		`{"type":"run","seq":12,"case":{"kind":"echo","input":{}}}`,
		"",
		`{"type":"bye"}`,
		run(13, "echo", `{}`),
	)
	if err != nil {
		t.Fatalf("Serve: %v", err)
	}
	want := []string{
		`{"type":"hello","protocol":1,"implementation":{"name":"test-port","version":"0.1.0","language":"go","kinds":["array","echo","fail","nothing","skip","text","wrapped"],"apis":[]}}`,
		`{"type":"result","seq":1,"output":{"text":"a\ud83d","n":1.50,"big":1e400,"k":[true,null]}}`,
		`{"type":"result","seq":2,"output":{"text":"HI"}}`,
		`{"type":"error","seq":3,"message":"/input/text: want string, got number"}`,
		`{"type":"error","seq":4,"message":"/input: want an object, got array"}`,
		`{"type":"skip","seq":5,"reason":"later","link":"https://l"}`,
		`{"type":"skip","seq":6,"reason":"later"}`,
		`{"type":"error","seq":7,"message":"TypeError: boom"}`,
		`{"type":"error","seq":8,"message":"adapterkit: the array function returned array, not a JSON object"}`,
		`{"type":"error","seq":9,"message":"adapterkit: the nothing function returned nothing, not a JSON object"}`,
		`{"type":"skip","seq":10,"reason":"unsupported case kind \"nil\""}`,
		`{"type":"skip","seq":11,"reason":"unsupported case kind \"video\""}`,
		`{"type":"error","seq":12,"message":"adapterkit: malformed run frame: /case/id: missing required string"}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("frames (-want +got):\n%s", diff)
	}
}

func TestServeAPIsAndHomepage(t *testing.T) {
	a := adapterkit.Adapter{Name: "n", Version: "v", Language: "rust", Homepage: "https://h", APIs: []string{"anthropic-messages"}}
	got, err := serve(t, a, `{"type":"hello","protocol":1}`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`{"type":"hello","protocol":1,"implementation":{"name":"n","version":"v","language":"rust","homepage":"https://h","kinds":[],"apis":["anthropic-messages"]}}`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hello (-want +got):\n%s", diff)
	}
}

// TestServeBrokenFraming: when the runner's frames make no sense the kit
// stops with an error, since no answer could be matched to them.
func TestServeBrokenFraming(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`nope`, "adapterkit: reading a frame: line 1 column 1"},
		{`{"type":"hello"}`, "adapterkit: reading a frame: /protocol: missing required number"},
		{`{"type":"run","case":{"id":"a/b","kind":"echo","input":{}}}`, "adapterkit: reading a frame: /seq: missing required number"},
		{`{"type":"error","seq":1,"message":"x"}`, "adapterkit: unexpected error frame from the runner"},
		{`{"type":"progress"}`, `adapterkit: reading a frame: /type: unknown frame type "progress"`},
	} {
		got, err := serve(t, testAdapter, tc.in)
		if err == nil || err.Error() != tc.want && !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: Serve error %v, want %s", tc.in, err, tc.want)
		}
		if len(got) != 0 {
			t.Errorf("%s: answered %q", tc.in, got)
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestServeWriteError(t *testing.T) {
	err := adapterkit.Serve(strings.NewReader(`{"type":"hello","protocol":1}`+"\n"), failingWriter{}, testAdapter)
	if err == nil || !strings.Contains(err.Error(), "broken pipe") {
		t.Errorf("Serve = %v, want the write error", err)
	}
}

// TestServeAnswersAtOnce: each answer reaches the runner before the kit
// reads the next frame, so a runner waiting for it does not deadlock.
func TestServeAnswersAtOnce(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- adapterkit.Serve(inR, outW, testAdapter)
		outW.Close()
	}()
	answers := bufio.NewScanner(outR)
	for i, frame := range []string{`{"type":"hello","protocol":1}`, run(1, "echo", `{}`)} {
		if _, err := io.WriteString(inW, frame+"\n"); err != nil {
			t.Fatal(err)
		}
		if !answers.Scan() {
			t.Fatalf("no answer to frame %d: %v", i, answers.Err())
		}
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}

func TestServeContext(t *testing.T) {
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "from the caller")
	a := adapterkit.Adapter{Name: "n", Kinds: map[string]adapterkit.KindFunc{
		"ctx": func(ctx context.Context, _ jsonv.Value) (jsonv.Value, error) {
			v, _ := ctx.Value(key{}).(string)
			return jsonv.ObjectValue(jsonv.Member{Key: "v", Value: jsonv.StringValue(v)}), nil
		},
	}}
	var out strings.Builder
	if err := adapterkit.ServeContext(ctx, strings.NewReader(run(1, "ctx", `{}`)), &out, a); err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"result","seq":1,"output":{"v":"from the caller"}}` + "\n"; out.String() != want {
		t.Errorf("got %s, want %s", out.String(), want)
	}
}

func TestAnswer(t *testing.T) {
	in, err := jsonv.Parse([]byte(`{"text":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	got := testAdapter.Answer(context.Background(), protocol.Case{ID: "k/x", Kind: "text", Input: in})
	if got.Type != protocol.TypeResult || got.Output.String() != `{"text":"X"}` {
		t.Errorf("Answer = %+v", got)
	}
	// A NaN the function computed is null in process, as it is in JSON.
	nanAdapter := adapterkit.Adapter{Kinds: map[string]adapterkit.KindFunc{"nan": func(context.Context, jsonv.Value) (jsonv.Value, error) {
		return jsonv.ObjectValue(jsonv.Member{Key: "n", Value: jsonv.JSNumberValue(math.NaN())}), nil
	}}}
	nan := nanAdapter.Answer(context.Background(), protocol.Case{ID: "k/n", Kind: "nan", Input: in})
	if n, _ := nan.Output.Get("n"); n.Kind() != jsonv.Null {
		t.Errorf("Answer of a NaN = %s, want null", n.Kind())
	}
	if err := adapterkit.Skip("r"); err.Error() != "skip: r" {
		t.Errorf("Skip error text %q", err.Error())
	}
}
