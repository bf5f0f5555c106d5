package wire

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/reference/jsonv"
)

// Matcher compares a request with the requests of a cassette. go-vcr's
// default matcher (in v3.2.0) looks at the method and URL only; this one
// also compares the body as JSON and the headers by name.
type Matcher struct {
	// Key is the API key handed to the implementation; it is redacted from
	// what the implementation sent before comparing.
	Key string
	// Ignore lists incidental request headers of the case's API (lower-case
	// path.Match patterns): neither recorded nor compared.
	Ignore []string
	// Identity lists the identity headers of the case's API: a difference
	// in one is a note, not a failure, unless StrictIdentity.
	Identity []IdentityHeader
	// StrictIdentity compares identity headers like any other.
	StrictIdentity bool
}

// Compare returns nil when got, whose body is body, is the request want
// describes, or every difference. The request is seen as a JSON object
// {method, path, headers, body}:
//
//   - path is the path and query; the scheme and host are the runner's;
//   - headers are compared by lower-case name. A header the cassette holds
//     must be sent with the same value (values joined with ", "), except a
//     credential (Redacted in the cassette), which only has to be there, and
//     a DrawnUUID (DrawnUUIDv7), which any version-4 (version-7) UUID
//     matches. A
//     header the cassette lacks must not be sent, except connection and
//     client headers (host, user-agent, accept-encoding, …) and the API's
//     incidental ones. A user-agent that is only the runtime's default
//     (runtimeUserAgents) counts as not sent;
//   - body is compared as JSON (key order ignored, numbers by value) when
//     both sides parse, as text otherwise; a zstd-encoded body is decoded
//     first (decodeBody).
//
// Identity headers that differ are left out (see Diff).
func (m Matcher) Compare(got *http.Request, body []byte, want cassette.Request) *compare.Mismatch {
	diffs, _ := m.Diff(got, body, want)
	return compare.NewMismatch(diffs)
}

// Diff lists how got differs from want, in document order (method, path,
// headers by name, body), split in two: the differences that fail, and
// those of identity headers, which do not (empty when StrictIdentity, which
// counts them with the rest).
func (m Matcher) Diff(got *http.Request, body []byte, want cassette.Request) (diffs, identity []compare.Diff) {
	all := compare.Diffs(m.wantTree(want), m.gotTree(got, body, want), compare.Rules{JSONTexts: RequestJSONTexts})
	if m.StrictIdentity {
		return all, nil
	}
	recorded := map[string]string{}
	for name, vs := range want.Headers {
		recorded[strings.ToLower(name)] = strings.Join(vs, ", ")
	}
	for _, d := range all {
		name, isHeader := strings.CutPrefix(d.Path, "/headers/")
		if isHeader && !strings.Contains(name, "/") {
			w, inCassette := recorded[name]
			if isIdentity(m.Identity, name, w, inCassette) {
				identity = append(identity, d)
				continue
			}
		}
		diffs = append(diffs, d)
	}
	return diffs, identity
}

// RequestJSONTexts are the strings of a request that hold JSON text, as
// paths in one request's tree: the arguments of the tool calls an
// assistant made, which the Chat Completions API and Mistral's take as
// JSON text in function.arguments, and the Responses APIs in a
// function_call item's arguments (wire.json-text).
var RequestJSONTexts = []compare.JSONText{
	{Path: "/body/messages/*/tool_calls/*/function/arguments"},
	{Path: "/body/input/*/arguments", Type: "function_call"},
}

// MatcherFunc adapts the matcher to go-vcr. Each call reads the request
// body and puts it back, so the request can be matched again.
func (m Matcher) MatcherFunc() cassette.MatcherFunc {
	return func(r *http.Request, i cassette.Request) bool {
		body, err := readDecodedBody(r, MaxRequestBytes)
		return err == nil && m.Compare(r, body, i) == nil
	}
}

// MaxRequestBytes bounds the body of one request to the loopback server:
// far above any real provider request, it keeps an implementation that
// sends without end from taking the runner's memory and time. A bigger
// body is not read; the request fails the case at once (answered 413).
const MaxRequestBytes = 64 << 20

// errBodyTooBig is a request body over limit bytes.
func errBodyTooBig(limit int64) error {
	if limit%(1<<20) == 0 {
		return fmt.Errorf("the request body is over the limit of %d MiB", limit>>20)
	}
	return fmt.Errorf("the request body is over the limit of %d bytes", limit)
}

// readBody reads a request's body, at most limit bytes, and puts it back
// so the request can be read again.
func readBody(r *http.Request, limit int64) ([]byte, error) {
	if r.Body == nil {
		return nil, nil
	}
	if r.ContentLength > limit {
		return nil, errBodyTooBig(limit)
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if int64(len(b)) > limit {
		return nil, errBodyTooBig(limit)
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	return b, err
}

func (m Matcher) wantTree(want cassette.Request) jsonv.Value {
	headers := map[string]string{}
	for name, vs := range want.Headers {
		if m.compared(name) {
			headers[strings.ToLower(name)] = strings.Join(vs, ", ")
		}
	}
	return requestTree(want.Method, requestPath(want.URL), headers, bodyValue([]byte(want.Body)))
}

func (m Matcher) gotTree(got *http.Request, body []byte, want cassette.Request) jsonv.Value {
	wantHeaders := map[string]string{}
	for name, vs := range want.Headers {
		wantHeaders[strings.ToLower(name)] = strings.Join(vs, ", ")
	}
	headers := map[string]string{}
	for name, vs := range got.Header {
		lname := strings.ToLower(name)
		if !m.compared(lname) {
			continue
		}
		w, inCassette := wantHeaders[lname]
		switch {
		case !inCassette && matchesAny(clientHeaders, lname):
			continue
		case lname == "user-agent" && isRuntimeUserAgent(vs, w):
			continue
		case isCredential(lname, vs, m.Key) && (w == Redacted || !inCassette):
			headers[lname] = Redacted
		case len(vs) == 1 && isStandIn(w, vs[0]):
			headers[lname] = w
		default:
			headers[lname] = strings.Join(vs, ", ")
		}
	}
	p := redactKey(got.URL.RequestURI(), m.Key)
	if strings.HasPrefix(requestPath(want.URL), "//") {
		p = "//" + got.Host + p
	}
	b := bodyValue([]byte(redactKey(string(body), m.Key)))
	// Text is compared as text only when either side is not JSON.
	if wb := bodyValue([]byte(want.Body)); wb.Kind() == jsonv.String && b.Kind() != jsonv.String {
		b = jsonv.StringValue(redactKey(string(body), m.Key))
	}
	return requestTree(got.Method, p, headers, b)
}

// isStandIn tells whether got is a UUID drawn at random of the kind the
// stand-in want names.
func isStandIn(want, got string) bool {
	standIn, ok := drawnStandIn(got)
	return ok && standIn == want
}

// isRuntimeUserAgent tells whether the user-agent values vs are only the
// default of an HTTP client runtime, other than want, the recorded value
// (a caller may set "node" itself).
func isRuntimeUserAgent(vs []string, want string) bool {
	if len(vs) != 1 || vs[0] == want {
		return false
	}
	for _, p := range runtimeUserAgents {
		if globMatch(p, vs[0]) {
			return true
		}
	}
	return false
}

// compared tells whether a header takes part in the comparison at all.
func (m Matcher) compared(name string) bool {
	return !matchesAny(transportHeaders, name) && !matchesAny(m.Ignore, name)
}

func requestTree(method, path string, headers map[string]string, body jsonv.Value) jsonv.Value {
	names := make([]string, 0, len(headers))
	for n := range headers {
		names = append(names, n)
	}
	slices.Sort(names)
	hm := make([]jsonv.Member, len(names))
	for i, n := range names {
		hm[i] = jsonv.Member{Key: n, Value: jsonv.StringValue(headers[n])}
	}
	return jsonv.ObjectValue(
		jsonv.Member{Key: "method", Value: jsonv.StringValue(method)},
		jsonv.Member{Key: "path", Value: jsonv.StringValue(path)},
		jsonv.Member{Key: "headers", Value: jsonv.ObjectValue(hm...)},
		jsonv.Member{Key: "body", Value: body},
	)
}

// requestPath is the path and query of a recorded URL, which may be
// absolute (as go-vcr records it) or already cut to its path. A URL with a
// host and no scheme (//host/path, see Scrubber) keeps its host: the
// request must name it in its Host header.
func requestPath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	if u.Scheme == "" && u.Host != "" {
		return "//" + u.Host + u.RequestURI()
	}
	return u.RequestURI()
}

// bodyValue is the body as JSON when it parses, else as a string; an empty
// body is the empty string.
func bodyValue(b []byte) jsonv.Value {
	if len(bytes.TrimSpace(b)) > 0 {
		if v, err := jsonv.Parse(b); err == nil {
			return v
		}
	}
	return jsonv.StringValue(string(b))
}

// RequestError says how the requests an implementation sent differ from
// the cassette. It is what a wire case's check returns, even when only notes
// were found (Failed tells).
type RequestError struct {
	// Diffs is every difference of every request, each path under
	// /requests/<i>, i the 0-based index of the request in the cassette.
	Diffs []compare.Diff
	// Problems are requests with nothing to compare with: a request after
	// the recorded ones, a recorded request never sent. Each is also a
	// difference in Diffs, at /requests/<i>, so that an expected-failure
	// entry has to name it like any other.
	Problems []string
	// IdentityNotes are the identity headers that differ, for the report.
	IdentityNotes []string
}

// addCountDiff records request i as present on one side only: want is the
// recorded request ("METHOD path"), got the one sent; "" is absent.
func (e *RequestError) addCountDiff(i int, want, got string) {
	side := func(s string) jsonv.Value {
		if s == "" {
			return jsonv.Value{}
		}
		return jsonv.StringValue(s)
	}
	e.Diffs = append(e.Diffs, compare.Diff{Path: jsonv.Index("/requests", i), Want: side(want), Got: side(got)})
}

// Failed tells whether the case fails on the requests; a RequestError with
// notes only does not fail it.
func (e *RequestError) Failed() bool { return len(e.Diffs) > 0 || len(e.Problems) > 0 }

// Notes are observations that are not failures.
func (e *RequestError) Notes() []string { return e.IdentityNotes }

func (e *RequestError) Error() string {
	var parts []string
	if m := compare.NewMismatch(e.Diffs); m != nil {
		parts = append(parts, "the request differs from the cassette at "+m.Error())
	}
	parts = append(parts, e.Problems...)
	if len(parts) == 0 {
		n := len(e.IdentityNotes)
		return fmt.Sprintf("the requests match the cassette (%d identity %s differ)", n, plural(n, "header", "headers"))
	}
	return strings.Join(parts, "; ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Unwrap gives the request differences as a *compare.Mismatch.
func (e *RequestError) Unwrap() error {
	if m := compare.NewMismatch(e.Diffs); m != nil {
		return m
	}
	return nil
}

// identityNote words an identity header that differs.
func identityNote(d compare.Diff) string {
	return fmt.Sprintf("%s: want %s, got %s (identity header: not compared without --strict-identity)",
		d.Path, compare.Render(d.Want), compare.Render(d.Got))
}
