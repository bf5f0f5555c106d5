package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
	"gopkg.in/dnaeon/go-vcr.v3/recorder"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/jsonv"
)

// Subject runs a wire case's input, sending its requests with client.
type Subject func(ctx context.Context, input jsonv.Value, client *http.Client) (jsonv.Value, error)

// Record makes a case's cassette: a loopback server answers with the case's
// hand-built responses, in order, while subj (the Go reference) runs the
// case through go-vcr's recorder. Credentials and the responses are
// removed by the recorder's before-save hook (Scrubber), and the saved
// cassette is written again in the form DecodeCassette reads (see
// EncodeCassette): the requests only, a JSON body indented. The result is
// refused if it still holds the key or anything FindSecrets flags, or if
// the reference did not send one request per response. ignore lists the
// API's incidental headers, which are not kept.
//
// Record never writes into the suite: it returns the cassette's bytes.
func Record(ctx context.Context, c *suite.Case, subj Subject, ignore []string) ([]byte, error) {
	s, err := ParseCase(c)
	if err != nil {
		return nil, &suite.Error{File: c.File, CaseID: c.ID, Err: err}
	}
	srv, err := serveResponses(s.Responses)
	if err != nil {
		return nil, err
	}
	defer srv.Close()

	dir, err := os.MkdirTemp("", "piconform-record-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	name := filepath.Join(dir, "cassette")
	rec, err := recorder.NewWithOptions(&recorder.Options{
		CassetteName:       name,
		Mode:               recorder.ModeRecordOnly,
		RealTransport:      &http.Transport{Proxy: nil, DisableCompression: true},
		SkipRequestLatency: true,
	})
	if err != nil {
		return nil, err
	}
	rec.AddHook(Scrubber(s.Key, ignore, string(c.Input.AppendJSON(nil))), recorder.BeforeSaveHook)

	client := &http.Client{Transport: disconnecting{decoding{rec}}}
	if _, err := subj(ctx, PrepareInput(c.Input, srv.URL, s), client); err != nil {
		return nil, fmt.Errorf("recording %s: %w", c.ID, err)
	}
	if err := rec.Stop(); err != nil {
		return nil, fmt.Errorf("recording %s: %w", c.ID, err)
	}
	saved, err := cassette.Load(name)
	if err != nil {
		return nil, fmt.Errorf("recording %s: reading what go-vcr saved: %w", c.ID, err)
	}
	if n := len(saved.Interactions); n > len(s.Responses) {
		return nil, fmt.Errorf("recording %s: the reference sent %d request(s), but the case has only %d response(s); not saved", c.ID, n, len(s.Responses))
	}
	body, err := EncodeCassette(saved)
	if err != nil {
		return nil, fmt.Errorf("recording %s: %w", c.ID, err)
	}
	data := append([]byte(cassetteHeader(c)), body...)
	if s.Key != "" && bytes.Contains(data, []byte(s.Key)) {
		return nil, fmt.Errorf("recording %s: the cassette still holds the API key after scrubbing; not saved", c.ID)
	}
	if found := FindSecrets(data); len(found) > 0 {
		return nil, fmt.Errorf("recording %s: line %d of the cassette looks like a credential (%s); not saved", c.ID, found[0].Line, found[0].Why)
	}
	back, err := DecodeCassette(data)
	if err != nil {
		return nil, fmt.Errorf("recording %s: the cassette does not read back: %w", c.ID, err)
	}
	if d := compare.Diffs(CassetteValue(saved), CassetteValue(back), compare.Rules{}); len(d) > 0 {
		return nil, fmt.Errorf("recording %s: the cassette does not read back as recorded, at %s", c.ID, d[0].Path)
	}
	return data, nil
}

// cassetteHeader is the comment at the top of every recorded cassette.
func cassetteHeader(c *suite.Case) string {
	return strings.Join([]string{
		"# Cassette of " + c.ID + ", recorded by `piconform update` (go-vcr v3 format). Do not edit.",
		"# It holds the requests the Go reference sent (credentials redacted); the replay answers",
		"# interaction n with response n of fixtures/" + c.ID + ".json (member \"response\").",
		"",
	}, "\n")
}

// serveResponses starts a loopback server that answers the n-th request with
// the n-th response, and anything past them with 500. It never holds a
// response open for a case that aborts (Hold): go-vcr's recorder reads a
// body to its end before the reference sees it, and the reference aborts
// by counting its events, wherever the body ends.
func serveResponses(responses []Response) (*httptest.Server, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("starting the loopback server: %w", err)
	}
	var mu sync.Mutex
	next := 0
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := readBody(r, MaxRequestBytes); err != nil {
			http.Error(w, "piconform: "+err.Error(), http.StatusRequestEntityTooLarge)
			return
		}
		mu.Lock()
		i := next
		next++
		mu.Unlock()
		if i >= len(responses) {
			http.Error(w, fmt.Sprintf("piconform: request %d, but the case has %d response(s)", i+1, len(responses)), http.StatusInternalServerError)
			return
		}
		resp := responses[i]
		if resp.Disconnect {
			// Answered, so that go-vcr records the request; the client
			// (disconnecting) turns the answer into a connection error.
			w.Header().Set(disconnectHeader, "1")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		for _, h := range resp.Header {
			w.Header().Add(h.Name, h.Value)
		}
		w.WriteHeader(resp.Status)
		w.Write(resp.Body)
	}))
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	return srv, nil
}

// disconnectHeader marks the recording server's stand-in for a response
// that disconnects.
const disconnectHeader = "Piconform-Disconnect"

// errDisconnected is the connection error of a response that disconnects.
var errDisconnected = errors.New("piconform: the server closed the connection without answering")

// disconnecting is the recording client's transport: a response marked
// with disconnectHeader (recorded all the same) becomes a connection error.
type disconnecting struct{ next http.RoundTripper }

func (d disconnecting) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := d.next.RoundTrip(req)
	if err == nil && resp.Header.Get(disconnectHeader) != "" {
		resp.Body.Close()
		return nil, errDisconnected
	}
	return resp, err
}
