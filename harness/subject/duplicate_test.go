package subject

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestProcessDuplicateKeys: an answer or a hello that names a key twice in
// one object is a protocol violation naming the JSON path of the object and
// the key, not an answer passed on with one of its members dropped.
func TestProcessDuplicateKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		command string
		start   bool   // the failure is at the start, in the hello
		want    string // in the failure's message
	}{
		{"output member", shAdapter(`printf '{"type":"result","seq":%s,"output":{"text":"ok","text":"forged"}}\n' "$seq"`), false,
			`/output: the key "text" is named twice`},
		{"deep in output", shAdapter(`printf '{"type":"result","seq":%s,"output":{"m":[{"a":1},{"role":"u","role":"a"}]}}\n' "$seq"`), false,
			`/output/m/1: the key "role" is named twice`},
		{"frame member", shAdapter(`printf '{"type":"skip","seq":%s,"reason":"a","type":"result","output":{}}\n' "$seq"`), false,
			`/: the key "type" is named twice`},
		{"hello", `read l; echo '{"type":"hello","protocol":1,"implementation":{"name":"x","name":"y","version":"1","language":"c","kinds":[]}}'; sleep 10`, true,
			`/implementation: the key "name" is named twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := &Process{Command: tt.command, StartTimeout: 10 * time.Second}
			defer p.Close()
			bounded(t, 20*time.Second, func() {
				_, err := p.Start(context.Background())
				if !tt.start {
					if err != nil {
						t.Fatal(err)
					}
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					defer cancel()
					_, err = p.Run(ctx, Case{ID: "sanitize/x", Kind: "sanitize", Input: parse(t, `{"text":"a"}`)})
				}
				if err == nil {
					t.Fatalf("no error, want a protocol violation saying %q", tt.want)
				}
				if f := AsFailure(err); f.Outcome != FailProtocol || !strings.Contains(f.Msg, tt.want) {
					t.Errorf("got %v, want a protocol violation saying %q", err, tt.want)
				}
			})
		})
	}
}
