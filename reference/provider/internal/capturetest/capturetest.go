// Package capturetest replays what testdata/capture.mjs recorded from real
// Pi in each provider package: the requests Pi sent and the messages and
// events it made of the responses it was served.
package capturetest

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// Clock is the fixed clock the captures ran with.
var Clock transform.Clock = func() jsonv.Value { return jsonv.NumberValue("1700000000000") }

// Case is one captured case: what Pi was given and what it did.
type Case[O any] struct {
	Name    string
	Model   *ai.Model
	Context *ai.Context
	Options O
	// Want is what Pi did; WantErr is set when it failed before sending.
	Want    jsonv.Value
	WantErr *string
	// Status, ContentType and Body are the response served to Pi (stream
	// captures only). Status defaults to 200, ContentType to "".
	Status      int
	ContentType string
	Body        []byte
	// Header holds the extra response headers the case served, if any.
	Header http.Header
}

// Sent is a built request in the terms the captures record it.
type Sent struct {
	Method, URL string
	Header      http.Header
	Body        jsonv.Value
}

// Provider is what the replays need of a provider package whose options
// are O and whose built requests are R.
type Provider[O, R any] struct {
	DecodeOptions func(v jsonv.Value, ptr string) (O, error)
	BuildRequest  func(model *ai.Model, ctx *ai.Context, opts O, now transform.Clock) (R, error)
	// Sent is the built request as the captures record it.
	Sent func(req R) Sent
	// RequestError is the message of the package's RequestError; ok is
	// false for any other error (see ErrorMessage).
	RequestError func(err error) (msg string, ok bool)
	Failure      func(model *ai.Model, msg string, now transform.Clock) (*ai.AssistantMessage, []stream.Event)
	// ParseResponse parses a response to req with the case's status.
	ParseResponse func(req R, c Case[O], body io.Reader) (*ai.AssistantMessage, []stream.Event, error)
	// Quirks names captured streams whose events Pi itself emits out of
	// grammar (see stream.Validate).
	Quirks map[string]bool
	// Redact, when set, rewrites both sides before they are compared:
	// for values Pi makes differently on each run.
	Redact func(jsonv.Value) jsonv.Value
	// ShortCase is the one case cut at every offset under -short; with ""
	// every case is.
	ShortCase string
	// WholeReadOnly reports a 2xx case that Pi reads differently when the
	// body is split, so it is left out of the split checks.
	WholeReadOnly func(name string) bool
}

// Cases reads file and decodes its cases.
func (p Provider[O, R]) Cases(t *testing.T, file string) []Case[O] {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	var out []Case[O]
	for i, c := range v.Elems() {
		out = append(out, p.decode(t, c, jsonv.Index("", i)))
	}
	return out
}

func (p Provider[O, R]) decode(t *testing.T, c jsonv.Value, ptr string) Case[O] {
	t.Helper()
	f := jsonv.ReadFields(c, ptr)
	rc := Case[O]{Name: f.String("name"), Status: 200}
	model, ctx, opts, want := f.Object("model"), f.Object("context"), f.Object("options"), f.Object("want")
	resp := f.OptObject("response")
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	var err error
	if rc.Model, err = ai.DecodeModel(model, f.At("model")); err != nil {
		t.Fatal(err)
	}
	if rc.Context, err = ai.DecodeContext(ctx, f.At("context")); err != nil {
		t.Fatal(err)
	}
	if rc.Options, err = p.DecodeOptions(opts, f.At("options")); err != nil {
		t.Fatal(err)
	}
	if e, ok := want.Get("error"); ok {
		s := e.Str()
		rc.WantErr = &s
	}
	rc.Want = want
	if resp.IsAbsent() {
		return rc
	}
	rf := jsonv.ReadFields(resp, f.At("response"))
	if s := rf.OptNumber("status"); !s.IsAbsent() {
		n, _ := s.Float64()
		rc.Status = int(n)
	}
	if ct := rf.OptString("contentType"); ct != nil {
		rc.ContentType = *ct
	}
	for _, m := range rf.OptObject("headers").Members() {
		if rc.Header == nil {
			rc.Header = http.Header{}
		}
		rc.Header.Set(m.Key, m.Value.Str())
	}
	switch {
	case rf.OptString("sse") != nil:
		rc.Body = []byte(*rf.OptString("sse"))
	case rf.OptString("body") != nil:
		rc.Body = []byte(*rf.OptString("body"))
	case rf.OptString("base64") != nil:
		b, err := base64.StdEncoding.DecodeString(*rf.OptString("base64"))
		if err != nil {
			t.Fatal(err)
		}
		rc.Body = b
	}
	return rc
}

// CheckRequests replays file (testdata/requests.json): each context and
// option set went through real Pi against a loopback server, and the
// request it sent (or the error it failed with) was recorded.
func (p Provider[O, R]) CheckRequests(t *testing.T, file string) {
	for _, c := range p.Cases(t, file) {
		t.Run(c.Name, func(t *testing.T) {
			built, err := p.BuildRequest(c.Model, c.Context, c.Options, Clock)
			if c.WantErr != nil {
				msg, ok := p.RequestError(err)
				if !ok || msg != *c.WantErr {
					t.Fatalf("BuildRequest error = %v, want RequestError %q", err, *c.WantErr)
				}
				out, events := p.Failure(c.Model, msg, Clock)
				if len(events) != 1 || events[0].Message != out || *out.ErrorMessage != *c.WantErr {
					t.Errorf("Failure gave %v", events)
				}
				return
			}
			if err != nil {
				t.Fatalf("BuildRequest: %v", err)
			}
			req := p.Sent(built)
			f := jsonv.ReadFields(c.Want, "/want")
			method, url, body := f.String("method"), f.String("url"), f.String("body")
			headers := f.Object("headers")
			if err := f.Err(); err != nil {
				t.Fatal(err)
			}
			if req.Method != method || req.URL != url {
				t.Errorf("request line = %s %s, want %s %s", req.Method, req.URL, method, url)
			}
			if got := string(req.Body.AppendJSON(nil)); got != body {
				t.Errorf("body\n got %s\nwant %s", got, body)
			}
			want := http.Header{}
			for _, m := range headers.Members() {
				want.Set(m.Key, m.Value.Str())
			}
			for _, k := range unionKeys(req.Header, want) {
				if g, w := req.Header.Values(k), want.Values(k); !slices.Equal(g, w) {
					t.Errorf("header %s = %q, want %q", k, g, w)
				}
			}
		})
	}
}

func unionKeys(a, b http.Header) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// ParseFunc parses one response body.
type ParseFunc func(body io.Reader) (*ai.AssistantMessage, []stream.Event, error)

// open builds c's request once, for all the parses of its response.
func (p Provider[O, R]) open(t *testing.T, c Case[O]) ParseFunc {
	t.Helper()
	req, err := p.BuildRequest(c.Model, c.Context, c.Options, Clock)
	if err != nil {
		t.Fatal(err)
	}
	return func(body io.Reader) (*ai.AssistantMessage, []stream.Event, error) {
		return p.ParseResponse(req, c, body)
	}
}

// ErrorMessage is a Provider.RequestError for a package whose request
// error type is E.
func ErrorMessage[E error](err error) (string, bool) {
	var e E
	if errors.As(err, &e) {
		return e.Error(), true
	}
	return "", false
}

func (p Provider[O, R]) redact(v jsonv.Value) jsonv.Value {
	if p.Redact == nil {
		return v
	}
	return p.Redact(v)
}

// CheckStreams replays file (testdata/streams.json): each body was fed to
// real Pi by a loopback server, and its final message and events were
// recorded.
func (p Provider[O, R]) CheckStreams(t *testing.T, file string) {
	for _, c := range p.Cases(t, file) {
		parse := p.open(t, c)
		t.Run(c.Name, func(t *testing.T) {
			msg, events, err := parse(bytes.NewReader(c.Body))
			if err != nil {
				t.Fatalf("ParseResponse: %v", err)
			}
			p.checkAgainstPi(t, c.Want, msg, events)
			if err := stream.Validate(events); (err != nil) != p.Quirks[c.Name] {
				t.Errorf("Validate = %v", err)
			}
		})
	}
}

func (p Provider[O, R]) checkAgainstPi(t *testing.T, want jsonv.Value, msg *ai.AssistantMessage, events []stream.Event) {
	t.Helper()
	wantMsg, _ := want.Get("message")
	wantEvents, _ := want.Get("events")
	wantMsg, wantEvents = p.redact(wantMsg), p.redact(wantEvents)
	if got := p.redact(msg.JSON()); !jsonv.Equal(got, wantMsg) {
		t.Errorf("message\n got %s\nwant %s", got, wantMsg)
	}
	if got := p.redact(stream.EventsJSON(events)); !jsonv.Equal(got, wantEvents) {
		for j := 0; j < max(len(events), len(wantEvents.Elems())); j++ {
			var g, w jsonv.Value
			if j < len(events) {
				g = p.redact(events[j].JSON())
			}
			if j < len(wantEvents.Elems()) {
				w = wantEvents.Elems()[j]
			}
			if !jsonv.Equal(g, w) {
				t.Errorf("event %d\n got %s\nwant %s", j, g, w)
			}
		}
	}
	// The captured events decode into the same Go events.
	decoded, err := stream.DecodeEvents(wantEvents, "/events")
	if err != nil && strings.HasSuffix(err.Error(), "arguments: want object, got null") {
		// Pi makes arguments null from the partial JSON "null", which the
		// ai package's decoder does not accept yet.
		t.Logf("DecodeEvents: %v", err)
		return
	}
	if err != nil {
		t.Fatalf("DecodeEvents: %v", err)
	}
	if !jsonv.Equal(stream.EventsJSON(decoded), wantEvents) {
		t.Errorf("DecodeEvents does not round-trip")
	}
}

// CheckSplits cuts every captured 2xx body of file into two reads at
// every offset, and also reads it one byte at a time: the result must not
// change.
func (p Provider[O, R]) CheckSplits(t *testing.T, file string) {
	for _, c := range p.Cases(t, file) {
		if c.Status != 200 || (p.WholeReadOnly != nil && p.WholeReadOnly(c.Name)) {
			continue
		}
		parse := p.open(t, c)
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			// The final message rides along as the message of a done event.
			result := func(r io.Reader) (jsonv.Value, error) {
				msg, events, err := parse(r)
				return p.redact(stream.EventsJSON(append(events, stream.Event{Type: stream.TypeDone, Message: msg}))), err
			}
			want, _ := result(bytes.NewReader(c.Body))
			check := func(how string, r io.Reader) {
				got, err := result(r)
				if err != nil {
					t.Fatalf("%s: %v", how, err)
				}
				if !jsonv.Equal(got, want) {
					t.Fatalf("%s: result differs\n got %s\nwant %s", how, got, want)
				}
			}
			for cut := 0; cut <= len(c.Body); cut++ {
				if testing.Short() && p.ShortCase != "" && c.Name != p.ShortCase {
					break
				}
				check("cut at "+strconv.Itoa(cut), io.MultiReader(bytes.NewReader(c.Body[:cut]), bytes.NewReader(c.Body[cut:])))
			}
			check("one byte at a time", iotest.OneByteReader(bytes.NewReader(c.Body)))
		})
	}
}
