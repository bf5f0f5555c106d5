package wire

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/jsonv"
)

// Fixture serves wire cases. It implements run.Fixture: Setup starts a
// loopback server replaying the case's cassette and returns the input with
// baseUrl and apiKey; the check it returns stops the server and reports the
// first request that did not match, or a request the cassette expected but
// never got.
type Fixture struct {
	// Cassettes, when it holds a case id, replaces that case's cassette
	// file: `piconform update --dry-run` replays what it recorded but did
	// not write.
	Cassettes map[string][]byte
	// Ignore returns the incidental request headers of a provider API
	// (lower-case path.Match patterns), which are not compared. Nil ignores
	// none.
	Ignore func(api string) []string
}

// NewFixture returns a fixture that reads cassettes from the case's suite.
func NewFixture(ignore func(api string) []string) *Fixture {
	return &Fixture{Ignore: ignore}
}

// Load returns the case's settings and cassette.
func (f *Fixture) Load(c *suite.Case) (Settings, *cassette.Cassette, error) {
	s, err := ParseCase(c)
	if err != nil {
		return s, nil, &suite.Error{File: c.File, CaseID: c.ID, Err: err}
	}
	data, ok := f.Cassettes[c.ID]
	if !ok {
		if data, err = c.ReadCassette(); err != nil {
			return s, nil, err
		}
	}
	cas, err := DecodeCassette(data)
	if err != nil {
		return s, nil, &suite.Error{File: c.CassetteFile(), CaseID: c.ID, Err: err}
	}
	return s, cas, nil
}

func (f *Fixture) ignore(c *suite.Case) []string {
	if f.Ignore == nil {
		return nil
	}
	return f.Ignore(CaseAPI(c))
}

// Setup implements run.Fixture.
func (f *Fixture) Setup(_ context.Context, c *suite.Case) (jsonv.Value, func() error, error) {
	s, cas, err := f.Load(c)
	if err != nil {
		return jsonv.Value{}, nil, err
	}
	r, err := Serve(cas, Matcher{Key: s.Key, Ignore: f.ignore(c)}, s.ChunkBytes)
	if err != nil {
		return jsonv.Value{}, nil, err
	}
	return PrepareInput(c.Input, r.URL(), s), r.Finish, nil
}

// Replay is a loopback server replaying one cassette.
type Replay struct {
	srv     *httptest.Server
	cas     *cassette.Cassette
	matcher Matcher
	chunk   int

	mu   sync.Mutex
	n    int
	errs []error

	once   sync.Once
	result error
}

// Serve starts a server on 127.0.0.1 that answers each request with the
// first unused interaction of cas that matches it. chunk is
// Settings.ChunkBytes.
func Serve(cas *cassette.Cassette, m Matcher, chunk int) (*Replay, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("starting the loopback server: %w", err)
	}
	r := &Replay{cas: cas, matcher: m, chunk: chunk}
	r.srv = httptest.NewUnstartedServer(http.HandlerFunc(r.serve))
	r.srv.Listener.Close()
	r.srv.Listener = l
	r.srv.Start()
	return r, nil
}

// URL is the server's base URL, http://127.0.0.1:<port>.
func (r *Replay) URL() string { return r.srv.URL }

func (r *Replay) serve(w http.ResponseWriter, req *http.Request) {
	body := readBody(req)
	r.mu.Lock()
	r.n++
	n := r.n
	var nearest *compare.Mismatch
	r.cas.Matcher = func(got *http.Request, want cassette.Request) bool {
		m := r.matcher.Compare(got, body, want)
		if m != nil && nearest == nil {
			nearest = m // the first request not yet used is the one expected next
		}
		return m == nil
	}
	inter, err := r.cas.GetInteraction(req)
	if err != nil {
		e := &RequestError{N: n, Method: req.Method, Path: req.URL.RequestURI(), Mismatch: nearest}
		if nearest == nil {
			e.Msg = fmt.Sprintf("not expected: the cassette holds %d request(s)", len(r.cas.Interactions))
		}
		r.errs = append(r.errs, e)
		r.mu.Unlock()
		mismatchResponse(w, e)
		return
	}
	r.mu.Unlock()
	writeResponse(w, inter.Response, r.chunk)
}

// mismatchResponse answers a request the cassette does not hold. The case
// fails on the request whatever the implementation makes of this answer.
func mismatchResponse(w http.ResponseWriter, e error) {
	msg := jsonv.StringValue("piconform: " + e.Error())
	body := jsonv.ObjectValue(
		jsonv.Member{Key: "type", Value: jsonv.StringValue("error")},
		jsonv.Member{Key: "error", Value: jsonv.ObjectValue(
			jsonv.Member{Key: "type", Value: jsonv.StringValue("piconform_request_mismatch")},
			jsonv.Member{Key: "message", Value: msg},
		)},
	)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	w.Write(body.AppendJSON(nil))
}

// writeResponse replays a recorded response: its status and headers, then
// the body in pieces (see Settings.ChunkBytes), flushing after each. An
// event-stream body stored in its readable form goes out as binary frames,
// one per piece unless the case asks for pieces of a size.
func writeResponse(w http.ResponseWriter, resp cassette.Response, chunk int) {
	for name, vs := range resp.Headers {
		if !matchesAny(responseTransportHeaders, name) {
			w.Header()[name] = vs
		}
	}
	pieces := Pieces([]byte(resp.Body), chunk)
	if frames, ok, err := eventStreamFrames(resp.Body); ok {
		if err != nil {
			// The cassette is broken; say so instead of replaying half of it.
			http.Error(w, "piconform: "+err.Error(), http.StatusInternalServerError)
			return
		}
		pieces = frames // one frame per write
		if chunk > 0 {
			pieces = Pieces(bytes.Join(frames, nil), chunk)
		}
	}
	w.WriteHeader(resp.Code)
	flusher, _ := w.(http.Flusher)
	for _, piece := range pieces {
		if _, err := w.Write(piece); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
		if chunk > 0 {
			time.Sleep(time.Millisecond)
		}
	}
}

// Pieces cuts a body for replay: every chunk bytes when chunk is positive,
// else after each blank line (one server-sent event per piece).
func Pieces(body []byte, chunk int) [][]byte {
	var out [][]byte
	if chunk > 0 {
		for len(body) > chunk {
			out = append(out, body[:chunk])
			body = body[chunk:]
		}
		if len(body) > 0 {
			out = append(out, body)
		}
		return out
	}
	for len(body) > 0 {
		i := bytes.Index(body, []byte("\n\n"))
		if i < 0 {
			out = append(out, body)
			break
		}
		out = append(out, body[:i+2])
		body = body[i+2:]
	}
	return out
}

// Finish stops the server and returns the first request that did not
// match, or says which recorded requests never came. It may be called more
// than once; later calls return the first result.
func (r *Replay) Finish() error {
	r.once.Do(func() {
		r.srv.CloseClientConnections()
		r.srv.Close()
		r.mu.Lock()
		defer r.mu.Unlock()
		if len(r.errs) > 0 {
			r.result = r.errs[0]
			return
		}
		var missing []string
		for _, i := range r.cas.Interactions {
			if !i.WasReplayed() {
				missing = append(missing, fmt.Sprintf("%s %s", i.Request.Method, requestPath(i.Request.URL)))
			}
		}
		if len(missing) > 0 {
			r.result = fmt.Errorf("the implementation sent %d request(s); the cassette expects %d: never sent: %s",
				r.n, len(r.cas.Interactions), strings.Join(missing, ", "))
		}
	})
	return r.result
}
