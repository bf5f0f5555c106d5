// Package wire is the harness side of wire cases: one provider request and
// its streamed answer, checked against a recorded HTTP exchange (a go-vcr
// cassette).
//
// For each case the runner serves the case's cassette on a loopback port
// (127.0.0.1 only) and hands the implementation that server's URL as
// baseUrl, with a fake API key. The implementation makes its real HTTP
// call; the server compares the request with the cassette's (method, path,
// headers by name, body as JSON; identity headers only under
// --strict-identity) and answers with the case file's response at the same
// position, split into small writes if the case asks for it. A request that
// differs gets the response too, so that the answer is compared as well. The
// implementation answers with
// the AssistantMessage and its events, which the runner compares with the
// golden.
//
// Cassettes are made by Record: it serves the hand-built response written
// in the case file, runs the Go reference through go-vcr's recorder, and
// scrubs credentials in the recorder's before-save hook, so a key never
// reaches a file. A cassette keeps the requests only (see EncodeCassette). Nothing here knows a particular provider API: what is
// specific to one lives in reference/provider/<api>.
package wire

import (
	"net/http"
	"path"
	"regexp"
	"strings"

	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/jsonv"
)

// Kind is the case kind this package serves.
const Kind = "wire"

// FakeAPIKey is the key the runner passes when a case does not choose one.
// It looks like a key on purpose: if scrubbing ever failed, the secret scan
// would catch it.
const FakeAPIKey = "sk-piconform-fake-key"

// DrawnUUID stands in a cassette for a header value the client drew at
// random, a version-4 UUID the case did not give (codex's request id for
// a WebSocket without a sessionId, Pi 0.80). A request matches it with any
// version-4 UUID. DrawnUUIDv7 is the same for a version-7 UUID (Pi 1.6
// draws those).
const (
	DrawnUUID   = "00000000-0000-4000-8000-000000000000"
	DrawnUUIDv7 = "00000000-0000-7000-8000-000000000000"
)

var uuidV4V7 = regexp.MustCompile(`^(?i)[0-9a-f]{8}-[0-9a-f]{4}-([47])[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// drawnStandIn is the stand-in of s when s is a version-4 or version-7
// UUID: DrawnUUID or DrawnUUIDv7.
func drawnStandIn(s string) (string, bool) {
	m := uuidV4V7.FindStringSubmatch(s)
	switch {
	case m == nil:
		return "", false
	case m[1] == "7":
		return DrawnUUIDv7, true
	}
	return DrawnUUID, true
}

// Redacted replaces a credential in a cassette. A cassette header with this
// value must be present in the request; its value is not compared.
const Redacted = "[redacted]"

// Settings are the wire members of a case file.
type Settings struct {
	// Responses are the hand-built answers, one per expected request, in
	// order ("response" in the case file: one object or an array).
	Responses []Response
	// ChunkBytes, when positive, makes the replay write the body in pieces
	// of that many bytes, flushing and pausing after each, so that an
	// implementation reads events torn across reads. Zero writes one piece
	// per event (per blank line). ("replay": {"chunkBytes": n})
	ChunkBytes int
	// Key is the API key passed to the implementation: the case input's
	// apiKey when it has one (a fake chosen for what it looks like, such as
	// an OAuth-style token), else FakeAPIKey.
	Key string
	// NoKey is set when the case input's apiKey is null: the implementation
	// gets no apiKey at all (a case about a missing key).
	NoKey bool
	// Abort is set when the case input has "abort": the implementation
	// aborts its request after its AbortAfter-th event, so the server holds
	// the connection open after the last response's body instead of ending
	// it, until the client goes (see Hold).
	Abort      bool
	AbortAfter int
	// OwnBaseURL is set when the case input has its own baseUrl: the
	// implementation calls that URL as it is and connects to the loopback
	// server whatever host it names (connectTo in the input).
	OwnBaseURL bool
}

// Response is one hand-built HTTP response.
type Response struct {
	// Disconnect answers nothing: the server closes the connection once the
	// request has arrived, a connection error to the client
	// ("disconnect": true in the case file).
	Disconnect bool
	Status     int
	// Header holds the response headers, in the order the case wrote them.
	Header []HeaderField
	Body   []byte
}

// HeaderField is one header line.
type HeaderField struct{ Name, Value string }

// ParseCase reads the wire members of a case. Errors name the JSON Pointer
// inside the case file.
func ParseCase(c *suite.Case) (Settings, error) {
	s := Settings{Key: FakeAPIKey}
	if k, ok := c.Input.Get("apiKey"); ok {
		switch k.Kind() {
		case jsonv.String:
			s.Key = k.Str()
		case jsonv.Null:
			s.Key, s.NoKey = "", true
		default:
			return s, jsonv.Errorf("/input/apiKey", "want a string or null, got %s", k.Kind())
		}
	}
	if err := parseAbort(c, &s); err != nil {
		return s, err
	}
	if b, ok := c.Input.Get("baseUrl"); ok {
		if b.Kind() != jsonv.String {
			return s, jsonv.Errorf("/input/baseUrl", "want a string, got %s", b.Kind())
		}
		s.OwnBaseURL = true
	}
	if resp, ok := c.Raw.Get("response"); ok {
		elems, ptr := []jsonv.Value{resp}, "/response"
		if resp.Kind() == jsonv.Array {
			elems = resp.Elems()
		}
		for i, e := range elems {
			p := ptr
			if resp.Kind() == jsonv.Array {
				p = jsonv.Index(ptr, i)
			}
			r, err := parseResponse(e, p)
			if err != nil {
				return s, err
			}
			s.Responses = append(s.Responses, r)
		}
	}
	if replay, ok := c.Raw.Get("replay"); ok {
		f := jsonv.ReadFields(replay, "/replay")
		n := f.OptNumber("chunkBytes")
		if rest := f.Rest(); len(rest) > 0 && f.Err() == nil {
			return s, jsonv.Errorf(f.At(rest[0].Key), "unknown member")
		}
		if err := f.Err(); err != nil {
			return s, err
		}
		if !n.IsAbsent() {
			v, _ := n.Float64()
			if v < 1 || v != float64(int(v)) {
				return s, jsonv.Errorf("/replay/chunkBytes", "want a positive integer, got %s", n)
			}
			s.ChunkBytes = int(v)
		}
	}
	return s, nil
}

func parseResponse(v jsonv.Value, ptr string) (Response, error) {
	f := jsonv.ReadFields(v, ptr)
	if d, ok := v.Get("disconnect"); ok {
		if d.Kind() != jsonv.Bool || !d.Bool() {
			return Response{}, jsonv.Errorf(jsonv.Child(ptr, "disconnect"), "want true, got %s", d.AppendJSON(nil))
		}
		if len(v.Members()) > 1 {
			return Response{}, jsonv.Errorf(ptr, "a response that disconnects has no other member")
		}
		return Response{Disconnect: true}, nil
	}
	status := f.OptNumber("status")
	headers := f.OptObject("headers")
	events, hasEvents := f.OptArray("events")
	body := f.OptString("body")
	encoding := f.OptString("encoding")
	if rest := f.Rest(); len(rest) > 0 && f.Err() == nil {
		return Response{}, jsonv.Errorf(f.At(rest[0].Key), "unknown member")
	}
	if err := f.Err(); err != nil {
		return Response{}, err
	}
	r := Response{Status: http.StatusOK}
	if !status.IsAbsent() {
		n, _ := status.Float64()
		if n < 100 || n > 599 || n != float64(int(n)) {
			return Response{}, jsonv.Errorf(f.At("status"), "want an HTTP status code, got %s", status)
		}
		r.Status = int(n)
	}
	hasType := false
	for _, m := range headers.Members() {
		if m.Value.Kind() != jsonv.String {
			return Response{}, jsonv.Errorf(jsonv.Child(f.At("headers"), m.Key), "want a string, got %s", m.Value.Kind())
		}
		r.Header = append(r.Header, HeaderField{m.Key, m.Value.Str()})
		hasType = hasType || strings.EqualFold(m.Key, "content-type")
	}
	render, contentType := renderEvent, "text/event-stream"
	if encoding != nil {
		// The encodings other than server-sent events are provider formats;
		// conformance knows them.
		enc, ok := conformance.ResponseEncodingNamed(*encoding)
		if !ok {
			return Response{}, jsonv.Errorf(f.At("encoding"), "want one of %q, got %q", conformance.ResponseEncodingNames(), *encoding)
		}
		render, contentType = enc.Event, enc.ContentType
		if !hasEvents {
			return Response{}, jsonv.Errorf(f.At("encoding"), "an encoding needs events")
		}
	}
	switch {
	case hasEvents && body != nil:
		return Response{}, jsonv.Errorf(ptr, "a response has events or a body, not both")
	case hasEvents:
		var b []byte
		for i, e := range events {
			ev, err := render(e, jsonv.Index(f.At("events"), i))
			if err != nil {
				return Response{}, err
			}
			b = append(b, ev...)
		}
		r.Body = b
		if !hasType {
			r.Header = append(r.Header, HeaderField{"Content-Type", contentType})
		}
	case body != nil:
		r.Body = []byte(*body)
		if !hasType {
			typ := "text/plain; charset=utf-8"
			if _, err := jsonv.Parse(r.Body); err == nil {
				typ = "application/json"
			}
			r.Header = append(r.Header, HeaderField{"Content-Type", typ})
		}
	}
	return r, nil
}

// renderEvent writes one server-sent event: an "event:" line when the event
// is named, a "data:" line per line of data (JSON data is written compact,
// a string as it is), and a blank line.
func renderEvent(v jsonv.Value, ptr string) ([]byte, error) {
	f := jsonv.ReadFields(v, ptr)
	name := f.OptString("event")
	data := f.Any("data")
	if rest := f.Rest(); len(rest) > 0 && f.Err() == nil {
		return nil, jsonv.Errorf(f.At(rest[0].Key), "unknown member")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	var b []byte
	if name != nil {
		b = append(b, "event: "+*name+"\n"...)
	}
	switch data.Kind() {
	case jsonv.Absent:
	case jsonv.String:
		for _, line := range strings.Split(data.Str(), "\n") {
			b = append(b, "data: "+line+"\n"...)
		}
	default:
		b = append(data.AppendJSON(append(b, "data: "...)), '\n')
	}
	if len(b) == 0 {
		return nil, jsonv.Errorf(ptr, "an event needs an event name or data")
	}
	return append(b, '\n'), nil
}

// parseAbort reads the case input's "abort" (conformance.ReadAbort).
func parseAbort(c *suite.Case, s *Settings) error {
	a, ok := c.Input.Get("abort")
	if !ok {
		return nil
	}
	n, err := conformance.ReadAbort(a, "/input/abort")
	s.Abort, s.AbortAfter = err == nil, n
	return err
}

// PrepareInput is the input sent to the implementation: the case's input
// with baseUrl (the loopback server) and apiKey in front (no apiKey when
// s.NoKey). A case with its own baseUrl keeps it, and connectTo names the
// loopback server's host and port instead.
func PrepareInput(input jsonv.Value, baseURL string, s Settings) jsonv.Value {
	members := []jsonv.Member{{Key: "baseUrl", Value: jsonv.StringValue(baseURL)}}
	if s.OwnBaseURL {
		own, _ := input.Get("baseUrl")
		members = []jsonv.Member{
			{Key: "baseUrl", Value: own},
			{Key: "connectTo", Value: jsonv.StringValue(strings.TrimPrefix(baseURL, "http://"))},
		}
	}
	if !s.NoKey {
		members = append(members, jsonv.Member{Key: "apiKey", Value: jsonv.StringValue(s.Key)})
	}
	for _, m := range input.Members() {
		if m.Key != "baseUrl" && m.Key != "apiKey" && m.Key != "connectTo" {
			members = append(members, m)
		}
	}
	return jsonv.ObjectValue(members...)
}

// CaseAPI is the provider API a wire case drives, from its model.
func CaseAPI(c *suite.Case) string {
	model, _ := c.Input.Get("model")
	api, _ := model.Get("api")
	return api.Str()
}

// Header classes. Names are lower case; entries may be path.Match patterns.
var (
	// transportHeaders belong to the HTTP connection, not to the request a
	// translation makes: never recorded, never compared.
	transportHeaders = []string{
		"host", "connection", "content-length", "accept-encoding", "transfer-encoding", "te",
		"keep-alive", "proxy-connection", "upgrade", "trailer",
		// A WebSocket handshake's own (RFC 6455), which the client sets.
		"sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions",
	}
	// clientHeaders are added by HTTP clients on their own (fetch adds
	// accept-language and sec-fetch-mode, most clients a user-agent). They
	// are compared when the cassette has them, and allowed when it has not.
	// Node's WebSocket client also sends pragma and cache-control.
	clientHeaders = []string{"user-agent", "accept-language", "sec-fetch-*", "pragma", "cache-control"}
	// runtimeUserAgents are the user-agents an HTTP client runtime sends
	// when the request it is given has none: Node's fetch, Go's net/http
	// (globMatch patterns). Such a user-agent names the runtime, not the
	// implementation, and counts as not sent
	// (spec/wire.md, wire.request.runtime-user-agent).
	runtimeUserAgents = []string{"node", "Go-http-client/*"}
	// authHeaders carry credentials: recorded as Redacted, checked for
	// presence only.
	authHeaders = []string{
		"authorization", "proxy-authorization", "x-api-key", "api-key", "x-goog-api-key",
		"cf-aig-authorization", "x-amz-security-token",
	}
)

func matchesAny(patterns []string, name string) bool {
	name = strings.ToLower(name)
	for _, p := range patterns {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// isCredential tells whether a header carries a credential: by its name, or
// because its value holds the key the runner handed out.
func isCredential(name string, values []string, key string) bool {
	if matchesAny(authHeaders, name) {
		return true
	}
	if key == "" {
		return false
	}
	for _, v := range values {
		if strings.Contains(v, key) {
			return true
		}
	}
	return false
}

// redactKey replaces every occurrence of key in s.
func redactKey(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, Redacted)
}
