package conformance_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/stream"
)

// TestWireRetriesWaitThroughOptions: the reference sends a failed request
// again as the API's client does, stamps each attempt, and waits what the
// policy says through Options.Wait, so nothing here sleeps.
func TestWireRetriesWaitThroughOptions(t *testing.T) {
	var mu sync.Mutex
	var counts []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		counts = append(counts, r.Header.Get("X-Stainless-Retry-Count"))
		n := len(counts)
		mu.Unlock()
		switch n {
		case 1:
			w.Header().Set("retry-after-ms", "250")
			w.WriteHeader(http.StatusTooManyRequests)
		case 2:
			w.Header().Set("retry-after", "7")
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte("last"))
		}
	}))
	defer srv.Close()
	var waits []time.Duration
	o := opts
	o.Wait = func(_ context.Context, d time.Duration) error {
		waits = append(waits, d)
		return nil
	}
	in := `{"baseUrl":"` + srv.URL + `","apiKey":"k","model":` + model + `,"context":{"messages":[{"role":"user","content":"hi","timestamp":1}]},"options":{"maxRetries":2}}`
	out, err := conformance.Handle("wire", parse(t, in), o)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"0", "1", "2"}; !slices.Equal(counts, want) {
		t.Errorf("x-stainless-retry-count of the attempts %q, want %q", counts, want)
	}
	if want := []time.Duration{250 * time.Millisecond, 7 * time.Second}; !slices.Equal(waits, want) {
		t.Errorf("waits %v, want %v", waits, want)
	}
	msg, _ := out.Get("message")
	if e, _ := msg.Get("errorMessage"); !strings.Contains(e.Str(), "last") {
		t.Errorf("errorMessage %q, want the last answer's", e.Str())
	}
}

// TestWireRetriesWithoutEnd: where Pi's client would repeat a request as
// long as the server fails (maxRetries 1e400, an infinity), a server that
// always fails leaves Pi without an answer, which the reference reports as
// not modelled once it has made provider.RetriesCap repeats.
func TestWireRetriesWithoutEnd(t *testing.T) {
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		mu.Unlock()
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer srv.Close()
	in := `{"baseUrl":"` + srv.URL + `","apiKey":"k","model":` + model + `,"context":{"messages":[{"role":"user","content":"hi","timestamp":1}]},"options":{"maxRetries":1e400}}`
	_, err := conformance.Handle("wire", parse(t, in), opts)
	if !errors.Is(err, stream.ErrOutsideModel) {
		t.Errorf("error %v, want stream.ErrOutsideModel", err)
	}
	if want := provider.RetriesCap + 1; n != want {
		t.Errorf("%d attempts, want %d", n, want)
	}
}

func TestSleepEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := conformance.Sleep(ctx, time.Hour); err != context.Canceled {
		t.Errorf("Sleep = %v, want %v", err, context.Canceled)
	}
}
