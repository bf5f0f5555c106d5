package protocol_test

import (
	"testing"

	"github.com/piconform/piconform/protocol"
)

// FuzzDecode: no line makes Decode panic, and a frame it accepts encodes to
// a line that decodes to the same frame.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"type":"hello","protocol":1}`,
		`{"type":"hello","protocol":1,"implementation":{"name":"x","version":"1","kinds":["a"],"apis":[]}}`,
		`{"type":"run","seq":1,"case":{"id":"a/b","kind":"k","input":{"t":"\ud83d","n":1e400}}}`,
		`{"type":"result","seq":2,"output":{}}`,
		`{"type":"skip","seq":3,"reason":"r","link":"l"}`,
		`{"type":"error","seq":4,"message":"m"}`,
		`{"type":"bye"}`,
		`{"type":"run","seq":1e308}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		fr, err := protocol.Decode(line)
		if err != nil {
			return
		}
		enc := fr.AppendLine(nil)
		back, err := protocol.Decode(enc)
		if err != nil {
			t.Fatalf("%s encodes as %s, which does not decode: %v", line, enc, err)
		}
		if again := back.AppendLine(nil); string(again) != string(enc) {
			t.Fatalf("%s: encoding is not stable:\n%s\n%s", line, enc, again)
		}
	})
}
