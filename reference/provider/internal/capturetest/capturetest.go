// Package capturetest replays what testdata/capture.mjs recorded from real
// Pi in each provider package: the requests Pi sent and the messages and
// events it made of the responses it was served.
package capturetest

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// Clock is the fixed clock the captures ran with.
var Clock transform.Clock = func() jsonv.Value { return jsonv.NumberValue("1700000000000") }

// Case is one captured case: what Pi was given and what it did.
type Case struct {
	Name    string
	Model   *ai.Model
	Context *ai.Context
	Options provider.Options
	// Want is what Pi did; WantErr is set when it failed before sending.
	Want    jsonv.Value
	WantErr *string
	// Status, ContentType and Body are the response served to Pi (stream
	// captures only). Status defaults to 200, ContentType to
	// "text/event-stream".
	Status      int
	ContentType string
	Body        []byte
	// Header holds the extra response headers the case served, if any.
	Header http.Header
}

// Response is the case's response as Go receives it, with body as its
// body. The capture server sent Node's reason phrases, which are Go's.
func (c Case) Response(body io.Reader) *http.Response {
	h := c.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Set("Content-Type", cmp.Or(c.ContentType, h.Get("Content-Type"), "text/event-stream"))
	return &http.Response{
		StatusCode: c.Status, Status: fmt.Sprintf("%d %s", c.Status, http.StatusText(c.Status)),
		Header: h, Body: io.NopCloser(body),
	}
}

// Captures replays a provider package's captures through its driver.
type Captures struct {
	Driver provider.Driver
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
	// DropIncidental leaves the driver's IncidentalHeaders out of a built
	// request before it is compared: the captures did not record them.
	DropIncidental bool
	// Edges, when its Parse is set, are checked beside the captures.
	Edges StreamEdges
}

// Cases reads file and decodes its cases.
func (p Captures) Cases(t *testing.T, file string) []Case {
	t.Helper()
	v, err := jsonv.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []Case
	for i, c := range v.Elems() {
		out = append(out, p.decode(t, c, jsonv.Index("", i)))
	}
	return out
}

func (p Captures) decode(t *testing.T, c jsonv.Value, ptr string) Case {
	t.Helper()
	f := jsonv.ReadFields(c, ptr)
	rc := Case{Name: f.String("name"), Status: 200}
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
	if rc.Options, err = p.Driver.DecodeOptions(opts, f.At("options")); err != nil {
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

// Check runs every replay of the package's captures:
// testdata/requests.json (CheckRequests) and testdata/streams.json
// (CheckStreams, CheckSplits), then checks the Edges.
func (p Captures) Check(t *testing.T) {
	t.Run("requests", func(t *testing.T) { p.CheckRequests(t, "testdata/requests.json") })
	t.Run("streams", func(t *testing.T) { p.CheckStreams(t, "testdata/streams.json") })
	t.Run("splits", func(t *testing.T) { p.CheckSplits(t, "testdata/streams.json") })
	if p.Edges.Parse != nil {
		t.Run("edges", func(t *testing.T) { p.Edges.check(t, p.Driver.API) })
	}
}

// CheckRequests replays file (testdata/requests.json): each context and
// option set went through real Pi against a loopback server, and the
// request it sent (or the error it failed with) was recorded.
func (p Captures) CheckRequests(t *testing.T, file string) {
	for _, c := range p.Cases(t, file) {
		t.Run(c.Name, func(t *testing.T) {
			built, err := BuildRequest(t, p.Driver, c.Model, c.Context, c.Options, Clock)
			if c.WantErr != nil {
				msg, ok := provider.Refusal(err)
				if !ok || msg != *c.WantErr {
					t.Fatalf("BuildRequest error = %v, want RequestError %q", err, *c.WantErr)
				}
				out, events := p.Driver.Failure(c.Model, msg, Clock)
				if len(events) != 1 || events[0].Message != out || *out.ErrorMessage != *c.WantErr {
					t.Errorf("Failure gave %v", events)
				}
				return
			}
			if err != nil {
				t.Fatalf("BuildRequest: %v", err)
			}
			req := built.Request
			if p.DropIncidental {
				req.Header = withoutIncidental(req.Header, p.Driver.IncidentalHeaders)
			}
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

// withoutIncidental is h without the headers patterns match.
func withoutIncidental(h http.Header, patterns []string) http.Header {
	out := h.Clone()
	for k := range out {
		for _, pat := range patterns {
			if ok, _ := path.Match(pat, strings.ToLower(k)); ok {
				out.Del(k)
			}
		}
	}
	return out
}

// ParseFunc parses one response body.
type ParseFunc func(body io.Reader) (*ai.AssistantMessage, []stream.Event, error)

// open builds c's request once, for all the parses of its response.
func (p Captures) open(t *testing.T, c Case) ParseFunc {
	t.Helper()
	call, err := BuildRequest(t, p.Driver, c.Model, c.Context, c.Options, Clock)
	if err != nil {
		t.Fatal(err)
	}
	return func(body io.Reader) (*ai.AssistantMessage, []stream.Event, error) {
		return call.Read(c.Response(body))
	}
}

func (p Captures) redact(v jsonv.Value) jsonv.Value {
	if p.Redact == nil {
		return v
	}
	return p.Redact(v)
}

// CheckStreams replays file (testdata/streams.json): each body was fed to
// real Pi by a loopback server, and its final message and events were
// recorded.
func (p Captures) CheckStreams(t *testing.T, file string) {
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

func (p Captures) checkAgainstPi(t *testing.T, want jsonv.Value, msg *ai.AssistantMessage, events []stream.Event) {
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
// the offsets where a reader keeps state across reads (see cuts), and also
// reads it one byte at a time: the result must not
// change.
func (p Captures) CheckSplits(t *testing.T, file string) {
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
			for _, cut := range cuts(c.Body) {
				if testing.Short() && p.ShortCase != "" && c.Name != p.ShortCase {
					break
				}
				check("cut at "+strconv.Itoa(cut), io.MultiReader(bytes.NewReader(c.Body[:cut]), bytes.NewReader(c.Body[cut:])))
			}
			check("one byte at a time", iotest.OneByteReader(bytes.NewReader(c.Body)))
		})
	}
}

// CheckURLs replays file (testdata/urls.json): base URLs that lead to the
// provider's own hosts, resolved by real Pi with fetch replaced, so they
// were never called. Each case wants the url Pi built or the error it
// failed with.
func (p Captures) CheckURLs(t *testing.T, file string) {
	for _, c := range p.Cases(t, file) {
		t.Run(c.Name, func(t *testing.T) {
			call, err := BuildRequest(t, p.Driver, c.Model, c.Context, c.Options, Clock)
			if c.WantErr != nil {
				if msg, ok := provider.Refusal(err); !ok || msg != *c.WantErr {
					t.Fatalf("error = %v, want %q", err, *c.WantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if u, _ := c.Want.Get("url"); call.URL != u.Str() {
				t.Errorf("URL = %s, want %s", call.URL, u.Str())
			}
		})
	}
}

// generatedID matches a tool-call id Pi made up, "<name>_<Date.now()>_<n>":
// n counts the ids the process made before, so it is compared as a
// pattern.
var generatedID = regexp.MustCompile(`_1700000000000_\d+"`)

// GenAI replays the captures of an API whose answers Pi reads with the
// Google GenAI code (google-generative-ai, google-vertex) through d, and
// checks its edges.
func GenAI(d provider.Driver, edges StreamEdges) Captures {
	return Captures{
		Driver:         d,
		Edges:          edges,
		DropIncidental: true,
		// Tool-call ids Pi made up count the ids the process made before.
		Redact: RedactGeneratedIDs,
		// A 2xx body that is a JSON error object is recognised only when
		// it arrives in one read, in Pi as here.
		WholeReadOnly: func(name string) bool { return strings.HasPrefix(name, "JSON error body in a 200") },
	}
}

// RedactGeneratedIDs is a Captures.Redact for APIs whose tool-call ids Pi
// makes up: it leaves their counter out.
func RedactGeneratedIDs(v jsonv.Value) jsonv.Value {
	out, err := jsonv.Parse(generatedID.ReplaceAll(v.AppendJSON(nil), []byte(`_1700000000000_N"`)))
	if err != nil {
		panic(err)
	}
	return out
}

// cuts returns the offsets of body worth cutting at: the first and last
// bytes (a frame's prelude or length, the last event without its line
// break), both sides of every line break and of every byte of a multi-byte
// character, and every 16th offset for the rest. Cutting at every offset
// made the test quadratic in the body's length for no more coverage: a
// reader's state between two reads depends only on what the cut separates.
func cuts(body []byte) []int {
	const edge, stride = 32, 16
	near := func(i int) bool {
		return i >= 0 && i < len(body) && (body[i] == '\n' || body[i] == '\r' || body[i] >= 0x80)
	}
	var out []int
	for cut := 0; cut <= len(body); cut++ {
		if cut < edge || len(body)-cut < edge || cut%stride == 0 || near(cut-1) || near(cut) {
			out = append(out, cut)
		}
	}
	return out
}
