package conformance_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/conformance"
)

// TestUserAgentOnTheWire: the user-agent Pi's request holds reaches the
// server as it is, an empty one too, and a request whose user-agent a
// caller's null removed holds none of its own: the server gets net/http's
// default, as it gets Node's from Pi (wire.request.runtime-user-agent).
func TestUserAgentOnTheWire(t *testing.T) {
	for _, tt := range []struct {
		name, header string
		want         []string // the User-Agent values the server got
	}{
		{"the SDK's", `{}`, []string{"Anthropic/JS 0.91.1"}},
		{"the caller's", `{"User-Agent":"mine/1"}`, []string{"mine/1"}},
		{"empty", `{"User-Agent":""}`, []string{""}},
		{"removed", `{"user-agent":null}`, []string{"Go-http-client/1.1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			var seen bool
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got, seen = r.Header.Values("User-Agent"), true
				w.WriteHeader(http.StatusBadRequest)
			}))
			defer srv.Close()
			in := `{"baseUrl":"` + srv.URL + `","apiKey":"k","model":` + model +
				`,"context":{"messages":[{"role":"user","content":"hi","timestamp":1}]},"options":{"maxRetries":0,"headers":` + tt.header + `}}`
			if _, err := conformance.Handle("wire", parse(t, in), opts); err != nil {
				t.Fatal(err)
			}
			if !seen {
				t.Fatal("no request reached the server")
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("User-Agent (-want +got):\n%s", diff)
			}
		})
	}
}
