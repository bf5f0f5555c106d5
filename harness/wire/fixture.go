package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// Fixture serves wire cases. It implements run.Fixture: Setup starts a
// loopback server replaying the case's cassette and returns the input with
// baseUrl and apiKey; the check it returns stops the server and reports
// every difference of the requests, the requests the cassette did not
// expect or expected but never got, and notes on identity headers.
type Fixture struct {
	// Dialect is the Pi release line whose cassettes the fixture replays.
	Dialect dialect.Dialect
	// Cassettes, when it holds a case id, replaces that case's cassette
	// file: `piconform update --dry-run` replays what it recorded but did
	// not write.
	Cassettes map[string][]byte
	// Ignore returns the incidental request headers of a provider API
	// (lower-case path.Match patterns), which are not compared. Nil ignores
	// none.
	Ignore func(api string) []string
	// Identity returns the identity headers of a provider API: a
	// difference in one is a note unless StrictIdentity. Nil has none.
	Identity func(api string) []IdentityHeader
	// StrictIdentity compares identity headers (IdentityHeaders) exactly;
	// otherwise a difference in one is a note (--strict-identity).
	StrictIdentity bool
	// NoPause writes a split replay's pieces over a socket without the
	// pause that lets the client read each one alone: for tests whose
	// subjects need not see the split, only the bytes.
	NoPause bool
	// MaxRequestBytes bounds a request body; zero is MaxRequestBytes.
	// Tests lower it.
	MaxRequestBytes int64
}

// NewFixture returns a fixture that reads cassettes from the case's suite.
func NewFixture(ignore func(api string) []string, identity func(api string) []IdentityHeader) *Fixture {
	return &Fixture{Ignore: ignore, Identity: identity}
}

// Load returns the case's settings and its whole exchange as a go-vcr
// cassette: the requests from the cassette file, each answered by the case
// file's response at the same position. The file must hold exactly one
// request per response.
func (f *Fixture) Load(c *suite.Case) (Settings, *cassette.Cassette, error) {
	s, err := ParseCase(c)
	if err != nil {
		return s, nil, &suite.Error{File: c.File, CaseID: c.ID, Err: err}
	}
	data, ok := f.Cassettes[c.ID]
	if !ok {
		if data, err = c.ReadCassette(f.Dialect); err != nil {
			return s, nil, err
		}
	}
	// A dialect's Pi may send fewer requests than the case has responses
	// (one that throws before it sends, one that retries less), never more.
	cas, line, err := decodeCassetteOnce(data)
	if err == nil && len(cas.Interactions) > len(s.Responses) {
		err = &CassetteError{Line: line, Msg: fmt.Sprintf("%d request(s), but %s has only %d response(s); each request is answered by the response at its position (re-record with `piconform update`)",
			len(cas.Interactions), c.File, len(s.Responses))}
	}
	if err != nil {
		return s, nil, &suite.Error{File: c.CassetteFile(f.Dialect), CaseID: c.ID, Err: err}
	}
	for i := range cas.Interactions {
		cas.Interactions[i].Response = s.Responses[i].cassetteResponse()
	}
	return s, cas, nil
}

// decodedCassette is what decodeCassette made of a cassette file.
type decodedCassette struct {
	cas  *cassette.Cassette
	line int
	err  error
}

// decodedCassettes holds the cassettes decoded so far, by their text: a run
// reads each case's cassette twice, when it checks the files before it
// starts and when the case's server starts, and YAML is slow to read.
var decodedCassettes sync.Map // string → *decodedCassette

// decodeCassetteOnce is decodeCassette, remembered by the file's text. The
// cassette it returns is the caller's: its interactions are copies.
func decodeCassetteOnce(data []byte) (*cassette.Cassette, int, error) {
	d, ok := decodedCassettes.Load(string(data))
	if !ok {
		cas, line, err := decodeCassette(data)
		d, _ = decodedCassettes.LoadOrStore(string(data), &decodedCassette{cas, line, err})
	}
	dc := d.(*decodedCassette)
	if dc.err != nil {
		return nil, dc.line, dc.err
	}
	cas := cassette.New("")
	cas.File, cas.IsNew, cas.Version = "", false, dc.cas.Version
	for _, in := range dc.cas.Interactions {
		c := *in
		cas.Interactions = append(cas.Interactions, &c)
	}
	return cas, dc.line, nil
}

// Validate checks a case's wire members and its cassette as Load does,
// serving nothing: for checking every case when a suite loads.
func (f *Fixture) Validate(c *suite.Case) error {
	_, _, err := f.Load(c)
	return err
}

// cassetteResponse is the response as go-vcr holds one; a disconnect is
// the zero response (code 0), which no HTTP answer has.
func (r Response) cassetteResponse() cassette.Response {
	if r.Disconnect {
		return cassette.Response{}
	}
	h := http.Header{}
	for _, f := range r.Header {
		h.Add(f.Name, f.Value)
	}
	return cassette.Response{
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Status:        fmt.Sprintf("%d %s", r.Status, http.StatusText(r.Status)),
		Code:          r.Status,
		Headers:       h,
		Body:          string(r.Body),
		ContentLength: int64(len(r.Body)),
	}
}

func (f *Fixture) identity(c *suite.Case) []IdentityHeader {
	if f.Identity == nil {
		return nil
	}
	return f.Identity(CaseAPI(c))
}

func (f *Fixture) ignore(c *suite.Case) []string {
	if f.Ignore == nil {
		return nil
	}
	return f.Ignore(CaseAPI(c))
}

// Setup implements run.Fixture. A request the server refuses unread (a
// body over the limit) stops the case at once: no answer can mend it.
func (f *Fixture) Setup(ctx context.Context, c *suite.Case, stop context.CancelCauseFunc) (jsonv.Value, func() error, error) {
	s, cas, err := f.Load(c)
	if err != nil {
		return jsonv.Value{}, nil, err
	}
	m := Matcher{Key: s.Key, Ignore: f.ignore(c), Identity: f.identity(c), StrictIdentity: f.StrictIdentity}
	r, err := Serve(ctx, cas, m, ReplayOptions{ChunkBytes: s.ChunkBytes, Hold: s.Abort, NoPause: f.NoPause, MaxRequestBytes: f.MaxRequestBytes, Stop: stop})
	if err != nil {
		return jsonv.Value{}, nil, err
	}
	return PrepareInput(c.Input, r.URL(), s), r.Finish, nil
}

// ReplayOptions configure a Replay.
type ReplayOptions struct {
	// ChunkBytes is Settings.ChunkBytes.
	ChunkBytes int
	// Hold (Settings.Abort) keeps each response open after its body until
	// the client goes (see Hold).
	Hold bool
	// NoPause is Fixture.NoPause.
	NoPause bool
	// MaxRequestBytes bounds a request body; zero is MaxRequestBytes.
	MaxRequestBytes int64
	// Stop, if set, is called with the problem when a request is refused
	// unread, to end the case without waiting for the implementation.
	Stop func(error)
}

// Replay is a loopback server replaying one cassette.
type Replay struct {
	srv     *http.Server
	url     string
	conns   sync.WaitGroup // the server's connections, until they close
	cas     *cassette.Cassette
	matcher Matcher
	opts    ReplayOptions
	pipes   *pipeListener // connections from InProcess

	mu   sync.Mutex
	n    int
	used []bool // by interaction
	err  RequestError

	once   sync.Once
	result error
}

// Serve starts a server on 127.0.0.1 that answers the n-th request with
// the n-th interaction of cas. Its requests' contexts end with ctx (the
// case's), so a response held open ends with the case.
func Serve(ctx context.Context, cas *cassette.Cassette, m Matcher, o ReplayOptions) (*Replay, error) {
	l, err := listenLoopback(ctx)
	if err != nil {
		return nil, fmt.Errorf("starting the loopback server: %w", err)
	}
	if o.MaxRequestBytes <= 0 {
		o.MaxRequestBytes = MaxRequestBytes
	}
	r := &Replay{cas: cas, matcher: m, opts: o, used: make([]bool, len(cas.Interactions)), pipes: newPipeListener(l.Addr()),
		url: "http://" + l.Addr().String()}
	r.srv = &http.Server{
		Handler:     http.HandlerFunc(r.serve),
		BaseContext: func(net.Listener) context.Context { return ctx },
		ConnState: func(_ net.Conn, st http.ConnState) {
			switch st {
			case http.StateNew:
				r.conns.Add(1)
			case http.StateHijacked, http.StateClosed:
				r.conns.Done()
			}
		},
		ErrorLog: log.New(io.Discard, "", 0), // a client that goes is no news
	}
	go r.srv.Serve(l)
	go r.srv.Serve(r.pipes)
	pipeListeners.Store(l.Addr().String(), r.pipes)
	return r, nil
}

// URL is the server's base URL, http://127.0.0.1:<port>.
func (r *Replay) URL() string { return r.url }

func (r *Replay) serve(w http.ResponseWriter, req *http.Request) {
	body, err := readDecodedBody(req, r.opts.MaxRequestBytes)
	r.mu.Lock()
	r.n++
	n := r.n
	if err != nil {
		// Not read further, not matched: the case fails on it now, and the
		// connection closes.
		problem := fmt.Sprintf("request %d (%s %s): %v", n, req.Method, req.URL.RequestURI(), err)
		r.err.Problems = append(r.err.Problems, problem)
		// It was sent, so it is not also "never sent": its body differs.
		var want jsonv.Value
		if i := n - 1; i < len(r.cas.Interactions) {
			r.used[i] = true
			want = bodyValue([]byte(r.cas.Interactions[i].Request.Body))
		}
		r.err.Diffs = append(r.err.Diffs, compare.Diff{Path: jsonv.Index("/requests", n-1) + "/body", Want: want, Got: jsonv.StringValue(err.Error())})
		r.mu.Unlock()
		if r.opts.Stop != nil {
			r.opts.Stop(errors.New(problem))
		}
		w.Header().Set("Connection", "close")
		http.Error(w, "piconform: "+err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	// Interactions are served in order: the n-th request is compared with
	// the n-th recorded one and gets its response even when it differs, so
	// that the answer is checked too.
	i := n - 1
	if i >= len(r.cas.Interactions) {
		r.err.Problems = append(r.err.Problems, fmt.Sprintf("request %d (%s %s) not expected: the cassette holds %d request(s)",
			n, req.Method, req.URL.RequestURI(), len(r.cas.Interactions)))
		r.err.addCountDiff(i, "", req.Method+" "+req.URL.RequestURI())
		r.mu.Unlock()
		mismatchResponse(w, r.err.Problems[len(r.err.Problems)-1])
		return
	}
	diffs, identity := r.matcher.Diff(req, body, r.cas.Interactions[i].Request)
	r.used[i] = true
	prefix := jsonv.Index("/requests", i)
	for _, d := range diffs {
		d.Path = prefix + d.Path
		r.err.Diffs = append(r.err.Diffs, d)
	}
	for _, d := range identity {
		d.Path = prefix + d.Path
		r.err.IdentityNotes = append(r.err.IdentityNotes, identityNote(d))
	}
	resp := r.cas.Interactions[i].Response
	r.mu.Unlock()
	if resp.Code == 0 {
		disconnect(w)
		return
	}
	writeResponse(w, resp, r.opts.ChunkBytes, !r.opts.NoPause && !isPipe(req))
	if r.opts.Hold {
		Hold(req)
	}
}

// Hold keeps a response open after its body until the client closes the
// connection (or the server stops): the server of a case that aborts, so
// that the implementation reads every event the body holds and is then
// waiting for more when it aborts. A client that goes early, before or
// while the body is written, only ends the wait sooner.
func Hold(req *http.Request) { <-req.Context().Done() }

// disconnect closes the connection of w without answering.
func disconnect(w http.ResponseWriter) {
	if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
		conn.Close()
		return
	}
	panic(http.ErrAbortHandler) // the server closes the connection
}

// mismatchResponse answers a request past the recorded ones, which has no
// response to replay. The case fails on the request whatever the
// implementation makes of this answer.
func mismatchResponse(w http.ResponseWriter, problem string) {
	msg := jsonv.StringValue("piconform: " + problem)
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

// responseTransportHeaders belong to the connection at hand; the server
// sets them, never the replay.
var responseTransportHeaders = []string{"date", "content-length", "transfer-encoding", "connection", "keep-alive"}

// writeResponse replays a response: its status and headers, then the body
// in pieces (see Settings.ChunkBytes), flushing after each. Without a piece
// size a body in a framed response encoding (conformance.ResponseEncodingOf)
// goes out one frame per write. Over a socket, pause gives the client time
// to read a piece before the next one joins it; a pipe (InProcess) needs
// no pause, as its write waits for the read.
func writeResponse(w http.ResponseWriter, resp cassette.Response, chunk int, pause bool) {
	for name, vs := range resp.Headers {
		if !matchesAny(responseTransportHeaders, name) {
			w.Header()[name] = vs
		}
	}
	pieces := Pieces([]byte(resp.Body), chunk)
	if enc, ok := conformance.ResponseEncodingOf(http.Header(resp.Headers).Get("Content-Type")); ok && chunk <= 0 {
		pieces = enc.Frames([]byte(resp.Body))
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
		if chunk > 0 && pause {
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

// Finish stops the server and returns what the requests did: nil when
// they match the cassette exactly, else a *RequestError with every
// difference, the requests that came with nothing to compare with, the
// recorded ones that never came, and the identity headers that differ
// (notes; RequestError.Failed tells whether it fails the case). It may be
// called more than once; later calls return the first result.
func (r *Replay) Finish() error {
	r.once.Do(func() {
		pipeListeners.Delete(r.pipes.addr.String())
		r.pipes.Close()
		r.srv.Close() // every connection too, which ends the answers held open
		r.conns.Wait()
		inProcessTransport.CloseIdleConnections()
		r.mu.Lock()
		defer r.mu.Unlock()
		var missing []string
		for i, inter := range r.cas.Interactions {
			if !r.used[i] {
				missing = append(missing, fmt.Sprintf("%s %s", inter.Request.Method, requestPath(inter.Request.URL)))
				r.err.addCountDiff(i, missing[len(missing)-1], "")
			}
		}
		if len(missing) > 0 {
			r.err.Problems = append(r.err.Problems, fmt.Sprintf("the implementation sent %d request(s); the cassette expects %d: never sent: %s",
				r.n, len(r.cas.Interactions), strings.Join(missing, ", ")))
		}
		if r.err.Failed() || len(r.err.IdentityNotes) > 0 {
			e := r.err
			r.result = &e
		}
	})
	return r.result
}
