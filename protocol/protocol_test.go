package protocol_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/protocol"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
)

// parse parses JSON text a test wrote, or fails the test.
var parse = jsonvtest.Parse

// TestFrames: each frame encodes to the line spec/PROTOCOL.md shows, and
// that line decodes back to the same bytes: lone surrogates and number
// literals survive both ways.
func TestFrames(t *testing.T) {
	input := parse(t, `{"text":"a\ud83d","n":1.50,"big":1e400,"nl":"a\nb"}`)
	for _, tc := range []struct {
		name  string
		frame protocol.Frame
		line  string
	}{
		{"hello", protocol.Hello(), `{"type":"hello","protocol":1}`},
		{"hello reply", protocol.HelloReply(protocol.Implementation{Name: "p", Version: "1", Language: "go", Homepage: "https://h", Kinds: []string{"cost", "sanitize"}, APIs: []string{"anthropic-messages"}}),
			`{"type":"hello","protocol":1,"implementation":{"name":"p","version":"1","language":"go","homepage":"https://h","kinds":["cost","sanitize"],"apis":["anthropic-messages"]}}`},
		{"hello reply, no apis", protocol.HelloReply(protocol.Implementation{Name: "p", Version: "1", Language: "go", Kinds: []string{}, APIs: []string{}}),
			`{"type":"hello","protocol":1,"implementation":{"name":"p","version":"1","language":"go","kinds":[],"apis":[]}}`},
		{"run", protocol.Run(7, protocol.Case{ID: "sanitize/x", Kind: "sanitize", Input: input}),
			`{"type":"run","seq":7,"case":{"id":"sanitize/x","kind":"sanitize","input":{"text":"a\ud83d","n":1.50,"big":1e400,"nl":"a\nb"}}}`},
		{"result", protocol.Reply(7, protocol.Result(input)),
			`{"type":"result","seq":7,"output":{"text":"a\ud83d","n":1.50,"big":1e400,"nl":"a\nb"}}`},
		{"skip", protocol.Reply(8, protocol.Skip("images are not implemented", "https://l")),
			`{"type":"skip","seq":8,"reason":"images are not implemented","link":"https://l"}`},
		{"skip without link", protocol.Reply(8, protocol.Skip("no", "")), `{"type":"skip","seq":8,"reason":"no"}`},
		{"error", protocol.Reply(9, protocol.Error("TypeError: x\ny")), `{"type":"error","seq":9,"message":"TypeError: x\ny"}`},
		{"bye", protocol.Bye(), `{"type":"bye"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := string(tc.frame.AppendLine(nil))
			if line != tc.line+"\n" {
				t.Errorf("encoded:\n got %s\nwant %s", line, tc.line)
			}
			back, err := protocol.Decode([]byte(tc.line))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if again := string(back.AppendLine(nil)); again != tc.line+"\n" {
				t.Errorf("decoded and encoded again:\n got %s\nwant %s", again, tc.line)
			}
			if back.Type != tc.frame.Type || back.Seq != tc.frame.Seq || back.Case.ID != tc.frame.Case.ID ||
				back.Answer.Type != tc.frame.Answer.Type || back.Answer.Link != tc.frame.Answer.Link {
				t.Errorf("decoded %+v, want %+v", back, tc.frame)
			}
			if (back.Implementation == nil) != (tc.frame.Implementation == nil) ||
				back.Implementation != nil && !cmp.Equal(*back.Implementation, *tc.frame.Implementation) {
				t.Errorf("implementation %+v, want %+v", back.Implementation, tc.frame.Implementation)
			}
		})
	}
}

// TestDecodeLenient: what a JSON library may write differently still reads.
func TestDecodeLenient(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`{"type":"result","seq":7.0,"output":{}}`, `{"type":"result","seq":7,"output":{}}`},
		{`{"type":"result","seq":7e0,"output":{},"extra":1}`, `{"type":"result","seq":7,"output":{}}`},
		{` {"output":{"a":1},"seq":3,"type":"result"} `, `{"type":"result","seq":3,"output":{"a":1}}`},
		{`{"type":"hello","protocol":1,"implementation":{"name":"x","version":"1","kinds":["sanitize"]}}`,
			`{"type":"hello","protocol":1,"implementation":{"name":"x","version":"1","language":"","kinds":["sanitize"],"apis":[]}}`},
		{`{"type":"hello","protocol":2}`, `{"type":"hello","protocol":2}`},
		// The input's shape is the kind's to judge.
		{`{"type":"run","seq":1,"case":{"id":"a/b","kind":"k","input":[1]}}`, `{"type":"run","seq":1,"case":{"id":"a/b","kind":"k","input":[1]}}`},
	} {
		f, err := protocol.Decode([]byte(tc.line))
		if err != nil {
			t.Errorf("Decode(%s): %v", tc.line, err)
			continue
		}
		if got := strings.TrimSuffix(string(f.AppendLine(nil)), "\n"); got != tc.want {
			t.Errorf("Decode(%s) encodes as\n %s\nwant %s", tc.line, got, tc.want)
		}
	}
}

// TestDecodeErrors: a frame of the wrong shape is a path error naming the
// member; a run frame with a usable seq keeps it, so it can be answered.
func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		line, want string
		seq        int64
	}{
		{`not json`, "line 1 column 1", 0},
		{`[]`, "/: want an object, got array", 0},
		{`{}`, "/type: missing required string", 0},
		{`{"type":"ping"}`, `/type: unknown frame type "ping"`, 0},
		{`{"type":"hello"}`, "/protocol: missing required number", 0},
		{`{"type":"hello","protocol":"1"}`, "/protocol: want number, got string", 0},
		{`{"type":"hello","protocol":1,"implementation":{"version":"1","kinds":[]}}`, "/implementation/name: missing required string", 0},
		{`{"type":"hello","protocol":1,"implementation":{"name":"","version":"1","kinds":[]}}`, "/implementation/name: want a non-empty string", 0},
		{`{"type":"hello","protocol":1,"implementation":{"name":"x","version":"1"}}`, "/implementation/kinds: missing required array", 0},
		{`{"type":"hello","protocol":1,"implementation":{"name":"x","version":"1","kinds":[1]}}`, "/implementation/kinds/0: want a string, got number", 0},
		{`{"type":"hello","protocol":1,"implementation":{"name":"x","version":"1","kinds":[],"apis":[null]}}`, "/implementation/apis/0: want a string, got null", 0},
		{`{"type":"run","case":{}}`, "/seq: missing required number", 0},
		{`{"type":"run","seq":0,"case":{}}`, "/seq: want a positive integer, got 0", 0},
		{`{"type":"run","seq":1.5,"case":{}}`, "/seq: want a positive integer, got 1.5", 0},
		{`{"type":"run","seq":-1,"case":{}}`, "/seq: want a positive integer, got -1", 0},
		{`{"type":"run","seq":1e300,"case":{}}`, "/seq: want a positive integer, got 1e300", 0},
		{`{"type":"run","seq":4}`, "/case: missing required object", 4},
		{`{"type":"run","seq":4,"case":{"kind":"k","input":{}}}`, "/case/id: missing required string", 4},
		{`{"type":"run","seq":4,"case":{"id":"a/b","input":{}}}`, "/case/kind: missing required string", 4},
		{`{"type":"result","seq":2}`, "/output: missing required object", 2},
		{`{"type":"result","seq":2,"output":[]}`, "/output: want object, got array", 2},
		{`{"type":"skip","seq":2}`, "/reason: missing required string", 2},
		{`{"type":"skip","seq":2,"reason":"r","link":1}`, "/link: want string, got number", 2},
		{`{"type":"error","seq":2,"message":null}`, "/message: want string, got null", 2},
	} {
		f, err := protocol.Decode([]byte(tc.line))
		if err == nil {
			t.Errorf("Decode(%s): no error", tc.line)
			continue
		}
		if !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Decode(%s):\n got %v\nwant %s", tc.line, err, tc.want)
		}
		var pe *jsonv.PathError
		var se *jsonv.SyntaxError
		if !errors.As(err, &pe) && !errors.As(err, &se) {
			t.Errorf("Decode(%s): error %T is neither a path nor a syntax error", tc.line, err)
		}
		if f.Seq != tc.seq {
			t.Errorf("Decode(%s): seq %d, want %d", tc.line, f.Seq, tc.seq)
		}
	}
}

func TestInputError(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{jsonv.Errorf("", "want an object, got null"), "/input: want an object, got null"},
		{jsonv.Errorf("/messages/0/role", "missing required string"), "/input/messages/0/role: missing required string"},
		{errors.New("TypeError: boom"), "TypeError: boom"},
	} {
		if got := protocol.InputError(tc.err); got != tc.want {
			t.Errorf("InputError(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

func TestImplementationSupports(t *testing.T) {
	impl := protocol.Implementation{Kinds: []string{"cost"}, APIs: []string{"anthropic-messages"}}
	if !impl.Supports("cost") || impl.Supports("wire") || !impl.SupportsAPI("anthropic-messages") || impl.SupportsAPI("google") {
		t.Errorf("Supports/SupportsAPI wrong for %+v", impl)
	}
}
