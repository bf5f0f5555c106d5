package wire

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// zeros reads n zero bytes without holding them.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n <= 0 {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), z.n)]
	clear(p)
	z.n -= int64(len(p))
	return len(p), nil
}

// TestRequestBodyCap: the loopback server reads at most MaxRequestBytes of
// a request body. A bigger one, announced or streamed, is answered 413 at
// once, and the case fails on it.
func TestRequestBodyCap(t *testing.T) {
	defer func(l int64) { requestLimit = l }(requestLimit)
	requestLimit = 1 << 20 // small, so the test sends little
	tests := []struct {
		name   string
		size   int64
		length int64 // Content-Length sent; -1 streams the body chunked
		status int
	}{
		{"announced over the limit", 1<<20 + 1, 1<<20 + 1, http.StatusRequestEntityTooLarge},
		{"announced far over the limit", 1 << 40, 1 << 40, http.StatusRequestEntityTooLarge},
		{"streamed over the limit", 1<<20 + 1, -1, http.StatusRequestEntityTooLarge},
		{"small", 10, 10, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cas := &cassette.Cassette{Interactions: []*cassette.Interaction{{
				Request:  cassette.Request{Method: "POST", URL: "/v1/say"},
				Response: cassette.Response{Code: http.StatusOK, Body: "ok"},
			}}}
			r, err := Serve(cas, Matcher{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Finish()
			req, _ := http.NewRequest("POST", r.URL()+"/v1/say", &zeros{tt.size})
			req.ContentLength = tt.length
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				// The server may close the connection before the client has
				// sent everything: that refuses the body too.
				if tt.status == http.StatusOK {
					t.Fatal(err)
				}
			} else {
				resp.Body.Close()
				if resp.StatusCode != tt.status {
					t.Errorf("status %d, want %d", resp.StatusCode, tt.status)
				}
			}
			err = r.Finish()
			if tt.status != http.StatusOK && (err == nil || !strings.Contains(err.Error(), "over the limit of 1 MiB")) {
				t.Errorf("Finish = %v, want the limit named", err)
			}
		})
	}
}
