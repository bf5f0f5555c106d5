package schemastest

import (
	"bytes"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/piconform/piconform/protocol"
	"github.com/piconform/piconform/reference/jsonv"
)

// TestProtocolFrames: every frame package protocol writes satisfies
// spec/schemas/protocol, as the frame of its direction.
func TestProtocolFrames(t *testing.T) {
	c := newCompiler(t)
	frame := compile(t, c, "protocol/frame.schema.json")
	fromRunner := compile(t, c, "protocol/frame.schema.json#/$defs/FromRunner")
	fromAdapter := compile(t, c, "protocol/frame.schema.json#/$defs/FromAdapter")
	input, err := jsonv.Parse([]byte(`{"text":"a\ud83d"}`))
	if err != nil {
		t.Fatal(err)
	}
	impl := protocol.Implementation{Name: "p", Version: "1", Language: "go", Kinds: []string{"sanitize"}, APIs: []string{}}
	for _, tc := range []struct {
		name   string
		frame  protocol.Frame
		runner bool
	}{
		{"hello", protocol.Hello(), true},
		{"run", protocol.Run(1, protocol.Case{ID: "sanitize/x", Kind: "sanitize", Input: input}), true},
		{"bye", protocol.Bye(), true},
		{"hello reply", protocol.HelloReply(impl), false},
		{"result", protocol.Reply(1, protocol.Result(input)), false},
		{"skip", protocol.Reply(1, protocol.Skip("no", "https://l")), false},
		{"error", protocol.Reply(1, protocol.Error("boom")), false},
	} {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(tc.frame.AppendLine(nil)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		dir := fromAdapter
		if tc.runner {
			dir = fromRunner
		}
		for _, s := range []*jsonschema.Schema{frame, dir} {
			if err := s.Validate(doc); err != nil {
				t.Errorf("%s: %s does not satisfy %s: %v", tc.name, tc.frame.AppendLine(nil), s.Location, err)
			}
		}
	}
}
