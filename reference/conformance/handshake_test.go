package conformance_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/provider/stream"
)

// TestWebSocketHandshake: a codex call without transport "sse" opens with
// a WebSocket handshake. A refusal falls back to the POST; a server that
// switches protocols starts a conversation the reference does not model.
func TestWebSocketHandshake(t *testing.T) {
	const key = "x.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYSJ9fQ.y"
	const codex = `{"id":"gpt-5.1-codex","name":"c","api":"openai-codex-responses","provider":"openai-codex","reasoning":true,"input":["text"],"cost":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0},"contextWindow":1000,"maxTokens":100}`
	for _, tt := range []struct {
		name   string
		status int
	}{
		{"refused", http.StatusNotFound},
		{"accepted", http.StatusSwitchingProtocols},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var seen []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				seen = append(seen, r.Method+" "+r.Header.Get("Upgrade")+" "+r.Header.Get("Sec-WebSocket-Version"))
				if r.Method == http.MethodGet {
					if tt.status == http.StatusSwitchingProtocols {
						conn, buf, _ := http.NewResponseController(w).Hijack()
						buf.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
						buf.Flush()
						conn.Close()
						return
					}
					w.WriteHeader(tt.status)
					return
				}
				w.WriteHeader(http.StatusInternalServerError)
			}))
			defer srv.Close()
			in := `{"baseUrl":"` + srv.URL + `","apiKey":"` + key + `","model":` + codex + `,"context":{"messages":[{"role":"user","content":"hi","timestamp":1}]}}`
			out, err := conformance.Handle("wire", parse(t, in), opts)
			if tt.status == http.StatusSwitchingProtocols {
				if !errors.Is(err, stream.ErrOutsideModel) || len(seen) != 1 {
					t.Fatalf("err %v after %q, want ErrOutsideModel after the handshake alone", err, seen)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{"GET websocket 13", "POST  "}; len(seen) != 2 || seen[0] != want[0] || seen[1] != want[1] {
				t.Errorf("requests %q, want %q", seen, want)
			}
			msg, _ := out.Get("message")
			d, _ := msg.Get("diagnostics")
			if len(d.Elems()) != 1 {
				t.Fatalf("diagnostics %s, want one", d.AppendJSON(nil))
			}
			if typ, _ := d.Elems()[0].Get("type"); typ.Str() != "provider_transport_failure" {
				t.Errorf("diagnostics %s", d.AppendJSON(nil))
			}
		})
	}
}
