package protocol_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/protocol"
)

// TestDuplicateKey: a key named twice in one object, at any depth, is
// reported at that object's JSON Pointer (escaped as RFC 6901 wants), the
// first in document order; a frame that names each key once passes.
func TestDuplicateKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, json string
		want       string // the error, "" for none
	}{
		{"none", `{"type":"result","seq":1,"output":{"a":1,"b":[{"a":2},{"a":3}]}}`, ""},
		{"same key in sibling objects", `{"x":{"k":1},"y":{"k":2}}`, ""},
		{"top level", `{"type":"result","seq":1,"type":"skip"}`, `/: the key "type" is named twice in one object: each key must be named once`},
		{"in output", `{"type":"result","seq":1,"output":{"role":"user","role":"assistant"}}`, `/output: the key "role" is named twice in one object: each key must be named once`},
		{"in an array", `{"output":{"messages":[{"a":1},{"b":1,"c":2,"b":3}]}}`, `/output/messages/1: the key "b" is named twice in one object: each key must be named once`},
		{"escaped pointer", `{"output":{"a/b":{"~x":{"k":1,"k":1}}}}`, `/output/a~1b/~0x: the key "k" is named twice in one object: each key must be named once`},
		{"spelled differently", `{"output":{"k":1,"\u006b":2}}`, `/output: the key "k" is named twice in one object: each key must be named once`},
		{"many members", `{"output":{"a":0,"b":0,"c":0,"d":0,"e":0,"f":0,"g":0,"h":0,"i":0,"j":0,"e":1}}`, `/output: the key "e" is named twice in one object: each key must be named once`},
		{"the first in document order", `{"a":{"x":1,"x":2},"b":{"y":1,"y":2}}`, `/a: the key "x" is named twice in one object: each key must be named once`},
		{"a control character in the key", `{"output":{"\u001b[2J":1,"\u001b[2J":2}}`, `/output: the key "\x1b[2J" is named twice in one object: each key must be named once`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if err := protocol.DuplicateKey(parse(t, tt.json), ""); err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("DuplicateKey(%s) (-want +got):\n%s", tt.json, diff)
			}
		})
	}
}
