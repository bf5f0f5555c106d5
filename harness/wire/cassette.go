package wire

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf16"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
	"gopkg.in/dnaeon/go-vcr.v3/recorder"
	"gopkg.in/yaml.v3"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/secret"
	"github.com/piconform/piconform/reference/jsonv"
)

// A cassette file holds each thing once: the requests the Go reference
// sent, and nothing the case file already says. It is go-vcr's cassette
// format (version 2) with only these members:
//
//	version: 2
//	interactions:
//	  - id: 0
//	    request:
//	      method: POST
//	      url: /v1/messages
//	      headers: {Name: [value, …]}
//	      body: |
//	        {
//	          "model": "…"
//	        }
//
// The body of a JSON request is written as indented JSON in a YAML block,
// so that a change shows line by line; the matcher compares bodies as JSON,
// so the layout carries no meaning. An interaction holds no response: the
// n-th interaction is answered with the n-th response of the case file
// ("response"), which the fixture puts into the cassette when it loads it
// (see Fixture.Load). Every other member of go-vcr's format (protocol,
// lengths, host, timings) is connection detail and is not kept.

// CassetteError is a malformed cassette, with the line it was found at
// (0 when no line applies).
type CassetteError struct {
	Line int
	Msg  string
}

func (e *CassetteError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

func cassErr(n *yaml.Node, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &CassetteError{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// DecodeCassette reads a cassette file and checks that it has the form
// above: a version 2, an interactions list (possibly empty, for a case
// that sends nothing), each with its id (its position) and a request with
// a method and a URL path, and no response. It reads from memory so that
// cassettes embedded in the binary work too. The responses of the result
// are empty until Fixture.Load fills them from the case.
func DecodeCassette(data []byte) (*cassette.Cassette, error) {
	c, _, err := decodeCassette(data)
	return c, err
}

// decodeCassette is DecodeCassette, also returning the line of the
// interactions list.
func decodeCassette(data []byte) (*cassette.Cassette, int, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, 0, yamlError(err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, 0, &CassetteError{Line: 1, Msg: "empty cassette: want \"version: 2\" and \"interactions\""}
	}
	root := doc.Content[0]
	members, err := mapping(root, "the cassette", "version", "interactions")
	if err != nil {
		return nil, 0, err
	}
	v, ok := members["version"]
	if !ok {
		return nil, 0, cassErr(root, "no \"version\": want version %d", cassette.CassetteFormatV2)
	}
	if v.Kind != yaml.ScalarNode || v.Value != fmt.Sprint(cassette.CassetteFormatV2) {
		return nil, 0, cassErr(v, "cassette format version %s, want %d", v.Value, cassette.CassetteFormatV2)
	}
	list, ok := members["interactions"]
	if !ok {
		return nil, 0, cassErr(root, "no \"interactions\": a cassette lists its requests (\"interactions: []\" when the case sends none)")
	}
	if list.Kind != yaml.SequenceNode {
		return nil, 0, cassErr(list, "\"interactions\" is not a list")
	}
	for i, in := range list.Content {
		if err := checkInteraction(in, i); err != nil {
			return nil, 0, err
		}
	}
	c := cassette.New("")
	c.File, c.IsNew = "", false
	if err := root.Decode(c); err != nil {
		return nil, 0, yamlError(err)
	}
	key, _ := findKey(root, "interactions")
	return c, key.Line, nil
}

func checkInteraction(n *yaml.Node, i int) error {
	where := fmt.Sprintf("interaction %d", i)
	if r, ok := findKey(n, "response"); ok {
		return cassErr(r, "%s holds a response; a cassette holds requests only, and the replay answers with the case file's \"response\" (re-record with `piconform update`)", where)
	}
	m, err := mapping(n, where, "id", "request")
	if err != nil {
		return err
	}
	id, ok := m["id"]
	if !ok {
		return cassErr(n, "%s has no \"id\"", where)
	}
	if id.Kind != yaml.ScalarNode || id.Value != fmt.Sprint(i) {
		return cassErr(id, "%s has id %s; ids count from 0 in order", where, id.Value)
	}
	req, ok := m["request"]
	if !ok {
		return cassErr(n, "%s has no \"request\"", where)
	}
	rm, err := mapping(req, where+" request", "method", "url", "headers", "body")
	if err != nil {
		return err
	}
	method, ok := rm["method"]
	if !ok || method.Kind != yaml.ScalarNode || !validMethod(method.Value) {
		return cassErr(orNode(method, req), "%s request: want an HTTP method such as POST", where)
	}
	u, ok := rm["url"]
	if !ok || u.Kind != yaml.ScalarNode || !strings.HasPrefix(u.Value, "/") {
		return cassErr(orNode(u, req), "%s request: want a url path starting with \"/\"", where)
	}
	if _, err := url.ParseRequestURI(u.Value); err != nil {
		return cassErr(u, "%s request url: %v", where, err)
	}
	if h, ok := rm["headers"]; ok {
		if h.Kind != yaml.MappingNode {
			return cassErr(h, "%s request headers: want a mapping of names to lists of values", where)
		}
		for j := 0; j+1 < len(h.Content); j += 2 {
			vs := h.Content[j+1]
			if vs.Kind != yaml.SequenceNode {
				return cassErr(vs, "%s request header %s: want a list of values", where, h.Content[j].Value)
			}
			for _, s := range vs.Content {
				if s.Kind != yaml.ScalarNode {
					return cassErr(s, "%s request header %s: want a string", where, h.Content[j].Value)
				}
			}
		}
	}
	if b, ok := rm["body"]; ok && b.Kind != yaml.ScalarNode {
		return cassErr(b, "%s request body: want a string", where)
	}
	return nil
}

// mapping returns the members of a YAML mapping that are allowed; any
// other member is an error.
func mapping(n *yaml.Node, what string, allowed ...string) (map[string]*yaml.Node, error) {
	if n.Kind != yaml.MappingNode {
		return nil, cassErr(n, "%s: want a mapping", what)
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		found := false
		for _, a := range allowed {
			found = found || k.Value == a
		}
		if !found {
			return nil, cassErr(k, "%s: unknown member %q (a cassette holds only %s)", what, k.Value, strings.Join(allowed, ", "))
		}
		if _, dup := out[k.Value]; dup {
			return nil, cassErr(k, "%s: %q twice", what, k.Value)
		}
		out[k.Value] = n.Content[i+1]
	}
	return out, nil
}

func findKey(n *yaml.Node, key string) (*yaml.Node, bool) {
	if n.Kind != yaml.MappingNode {
		return nil, false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i], true
		}
	}
	return nil, false
}

func orNode(n, parent *yaml.Node) *yaml.Node {
	if n != nil {
		return n
	}
	return parent
}

func validMethod(m string) bool {
	if m == "" {
		return false
	}
	for _, r := range m {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// yamlLine finds "line N:" in yaml.v3's messages.
var yamlLine = regexp.MustCompile(`line (\d+): `)

// yamlError turns a yaml.v3 error into a CassetteError with its line.
func yamlError(err error) error {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	line := 0
	if m := yamlLine.FindStringSubmatchIndex(msg); m != nil {
		fmt.Sscan(msg[m[2]:m[3]], &line)
		msg = msg[:m[0]] + msg[m[1]:]
	}
	return &CassetteError{Line: line, Msg: "not a cassette: " + msg}
}

// fileCassette is the form a cassette is written in: go-vcr's member names,
// only the members that say something.
type fileCassette struct {
	Version      int               `yaml:"version"`
	Interactions []fileInteraction `yaml:"interactions"`
}

type fileInteraction struct {
	ID      int         `yaml:"id"`
	Request fileRequest `yaml:"request"`
}

type fileRequest struct {
	Method  string      `yaml:"method"`
	URL     string      `yaml:"url"`
	Headers http.Header `yaml:"headers,omitempty"`
	Body    string      `yaml:"body,omitempty"`
}

// EncodeCassette writes the requests of a cassette in the form above. Its
// responses are not written.
func EncodeCassette(c *cassette.Cassette) ([]byte, error) {
	f := fileCassette{Version: cassette.CassetteFormatV2, Interactions: []fileInteraction{}}
	for i, in := range c.Interactions {
		r := in.Request
		var h http.Header
		if len(r.Headers) > 0 {
			h = r.Headers
		}
		f.Interactions = append(f.Interactions, fileInteraction{ID: i, Request: fileRequest{
			Method: r.Method, URL: r.URL, Headers: h, Body: readableBody(r.Body),
		}})
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// readableBody is a JSON body indented, one member a line, when YAML keeps
// that text exactly in a block; any other body as it is.
func readableBody(body string) string {
	v, err := jsonv.Parse([]byte(body))
	if err != nil || len(strings.TrimSpace(body)) == 0 {
		return body
	}
	pretty := blockSafe(string(v.AppendIndent(nil))) + "\n"
	if back, err := jsonv.Parse([]byte(pretty)); err != nil || !jsonv.Equal(back, v) {
		return body
	}
	// A string YAML cannot hold in a block (an unusual line break, a
	// character it escapes) would be written quoted on one line after all:
	// then the compact body is as readable and shorter.
	out, err := yaml.Marshal(map[string]string{"b": pretty})
	if err != nil || !bytes.HasPrefix(out, []byte("b: |")) {
		return body
	}
	var back map[string]string
	if yaml.Unmarshal(out, &back) != nil || back["b"] != pretty {
		return body
	}
	return pretty
}

// blockSafe escapes, JSON's way (\uXXXX), the characters YAML will not
// print in a block: those outside the Basic Multilingual Plane (as a
// surrogate pair), DEL and the C1 controls, the line and paragraph
// separators, the byte-order mark and the non-characters U+FFFE, U+FFFF.
// In JSON text they can only stand inside strings, where the escape means
// the same.
func blockSafe(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 0x10000:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, "\\u%04x\\u%04x", hi, lo)
		case r == 0x7f, r >= 0x80 && r < 0xa0, r == 0x2028, r == 0x2029, r == 0xfeff, r == 0xfffe, r == 0xffff:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Scrubber is the before-save hook of a recording: it removes what must not
// be stored and what the case file already holds.
//
//   - Credentials (headers named like one, or holding key) become Redacted;
//     key is also redacted from the URL and the body.
//   - The request keeps its path and query only: the host and port were the
//     recording's loopback server. When the request named another host
//     (the Host header of a case with its own baseUrl), the URL keeps that
//     host without a scheme: //host/path.
//   - A header value that is a version-4 or version-7 UUID the case input
//     (given, its JSON text) does not hold was drawn at random: it becomes
//     DrawnUUID or DrawnUUIDv7.
//   - Connection headers and the API's incidental headers (ignore) go.
//   - Headers are kept as net/http writes them: an empty canonical
//     User-Agent is not written (the reference then holds the empty value
//     under "user-agent", which is), and names are canonical.
//   - The response goes: it is the case file's hand-built response, and the
//     replay takes it from there.
//
// It runs in recorder.BeforeSaveHook, never after capture, so what the
// recorder replays in the same run is untouched and only the file is clean.
func Scrubber(key string, ignore []string, given string) recorder.HookFunc {
	return func(i *cassette.Interaction) error {
		req := &i.Request
		if u, err := url.Parse(req.URL); err == nil {
			target := u.RequestURI()
			if req.Host != "" && req.Host != u.Host {
				// The reference called another host over the loopback
				// connection (a case with its own baseUrl): that host is
				// part of the request; the scheme was never seen.
				target = "//" + req.Host + target
			}
			req.URL = redactKey(target, key)
		} else {
			return fmt.Errorf("recorded URL %q: %w", req.URL, err)
		}
		req.Host, req.RemoteAddr, req.RequestURI = "", "", ""
		req.Body = redactKey(req.Body, key)
		req.Form = nil
		h := http.Header{}
		for name, vs := range req.Headers {
			canonical := http.CanonicalHeaderKey(name)
			switch {
			case matchesAny(transportHeaders, name) || matchesAny(ignore, name):
			case name == "User-Agent" && len(vs) == 1 && vs[0] == "":
			case isCredential(name, vs, key):
				h[canonical] = []string{Redacted}
			case len(vs) == 1 && isDrawn(vs[0], given):
				standIn, _ := drawnStandIn(vs[0])
				h[canonical] = []string{standIn}
			default:
				h[canonical] = append(h[canonical], vs...)
			}
		}
		req.Headers = h
		i.Response = cassette.Response{}
		return nil
	}
}

// isDrawn tells whether a header value v is a UUID the client drew: one
// the case input (given) does not hold.
func isDrawn(v, given string) bool {
	_, ok := drawnStandIn(v)
	return ok && !strings.Contains(given, v)
}

// Finding is something in a file that looks like a credential.
type Finding struct {
	Line int
	Text string
	Why  string
}

// scanText lists the secrets in one piece of text, at line.
func scanText(text string, line int) []Finding {
	var out []Finding
	for _, f := range secret.Find(text) {
		out = append(out, Finding{Line: line, Text: f.Text, Why: f.Why})
	}
	return out
}

// headerKey reads a YAML mapping key naming a header (optionally quoted):
// its indent, its name and the rest of the line after the colon. Written
// out rather than as a regular expression, so a very long line costs one
// pass.
func headerKey(line string) (indent int, name, rest string, ok bool) {
	indent = len(line) - len(strings.TrimLeft(line, " \t"))
	s := line[indent:]
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		s = s[1:]
	}
	end := 0
	for end < len(s) && (s[end] == '-' || 'a' <= s[end]|0x20 && s[end]|0x20 <= 'z' || '0' <= s[end] && s[end] <= '9') {
		end++
	}
	name, s = s[:end], s[end:]
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		s = s[1:]
	}
	if name == "" || s == "" || s[0] != ':' {
		return 0, "", "", false
	}
	return indent, name, strings.TrimSpace(s[1:]), true
}

// listItem reads a YAML sequence item: its indent and its value.
func listItem(line string) (indent int, value string, ok bool) {
	indent = len(line) - len(strings.TrimLeft(line, " \t"))
	value, ok = strings.CutPrefix(line[indent:], "-")
	return indent, strings.TrimSpace(value), ok
}

// FindSecrets lists the lines of a cassette that look like they hold a
// credential: key-like strings anywhere (package secret: sk-ant-…, sk-…,
// sk_live_…, ghp_…, github_pat_…, Bearer …, Basic …, user:password@ in a
// URL, PEM private keys, AIza…, ya29.…, xoxb-…, hf_…, JWTs, AWS access key
// ids and secret access keys, SigV4 signatures), and a credential header (x-api-key,
// authorization, …) whose value is anything but Redacted. It reads every
// line, however long, and also the text YAML's escapes and a JSON body's
// escapes spell ("\x73k-ant-…", "\u0073k-…"), each at the line it starts on.
func FindSecrets(data []byte) []Finding {
	var out []Finding
	inAuth, authIndent := false, 0
	n := 0
	for raw := range bytes.Lines(data) {
		n++
		line := strings.TrimRight(string(raw), "\r\n")
		out = append(out, scanText(line, n)...)
		if indent, name, rest, ok := headerKey(line); ok {
			inAuth = false
			if matchesAny(authHeaders, name) {
				if v := unquote(rest); v != "" && v != Redacted && v != "[]" {
					out = append(out, Finding{Line: n, Text: name + ": " + v, Why: "a credential header's value"})
				}
				inAuth, authIndent = rest == "", indent
			}
			continue
		}
		if inAuth {
			if indent, value, ok := listItem(line); ok && indent >= authIndent {
				if v := unquote(value); v != Redacted {
					out = append(out, Finding{Line: n, Text: v, Why: "a credential header's value"})
				}
				continue
			}
			inAuth = false
		}
	}
	return append(out, findDecoded(data, out)...)
}

// findDecoded scans what the YAML's scalars say once unescaped, and the
// strings of those that are JSON, for secrets the raw lines hide; seen are
// the findings already made, which are not repeated.
func findDecoded(data []byte, seen []Finding) []Finding {
	if !bytes.ContainsRune(data, '\\') {
		return nil // no escape: the lines say what the scalars say
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil {
		return nil
	}
	var out []Finding
	add := func(fs []Finding) {
		for _, f := range fs {
			if !slices.ContainsFunc(seen, func(s Finding) bool { return s.Line == f.Line && s.Why == f.Why }) {
				seen = append(seen, f)
				out = append(out, f)
			}
		}
	}
	lines := yamlLines(data)
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode {
			line := lines[min(n.Line, len(lines)-1)]
			add(scanText(n.Value, line))
			if v, err := jsonv.Parse([]byte(n.Value)); err == nil {
				v.EachString(func(s string) { add(scanText(s, line)) })
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
	return out
}

// yamlLines maps a line number the YAML parser gives to the file's line
// (counted by "\n", as FindSecrets counts them): the parser also breaks
// lines at a lone "\r", NEL, LS and PS.
func yamlLines(data []byte) []int {
	lines := []int{1, 1} // the parser counts from 1
	line := 1
	for i := 0; i < len(data); i++ {
		switch {
		case data[i] == '\n':
			line++
			lines = append(lines, line)
		case data[i] == '\r' && (i+1 == len(data) || data[i+1] != '\n'),
			bytes.HasPrefix(data[i:], []byte("\u0085")), bytes.HasPrefix(data[i:], []byte("\u2028")), bytes.HasPrefix(data[i:], []byte("\u2029")):
			lines = append(lines, line)
		}
	}
	return lines
}

func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// CassetteValue is the requests of a cassette as one JSON document,
// {"requests": [{"method", "path", "headers", "body"}, …]}: header names in
// lower case with their values joined by ", ", a JSON body as JSON and any
// other body as a string. It is what a cassette says, whatever its layout.
func CassetteValue(c *cassette.Cassette) jsonv.Value {
	reqs := make([]jsonv.Value, 0, len(c.Interactions))
	for _, in := range c.Interactions {
		r := in.Request
		joined := map[string][]string{}
		for name, vs := range r.Headers {
			l := strings.ToLower(name)
			joined[l] = append(joined[l], vs...)
		}
		headers := make(map[string]string, len(joined))
		for n, vs := range joined {
			headers[n] = strings.Join(vs, ", ")
		}
		reqs = append(reqs, requestTree(r.Method, requestPath(r.URL), headers, bodyValue([]byte(r.Body))))
	}
	return jsonv.ObjectValue(jsonv.Member{Key: "requests", Value: jsonv.ArrayValue(reqs...)})
}

// CompareCassettes lists what two versions of a cassette file say
// differently (compare.Diffs over CassetteValue: Want is the old value, Got
// the new one), and describes it for
// people: the first path, then one line per change (at most 20, then a
// count), each with the old and the new value. The old file may be of an
// earlier form.
func CompareCassettes(old, new []byte) ([]compare.Diff, string) {
	before, err := ReadCassetteLoosely(old)
	if err != nil {
		return nil, fmt.Sprintf("(the old cassette does not read: %v)", err)
	}
	after, err := ReadCassetteLoosely(new)
	if err != nil {
		return nil, fmt.Sprintf("(the new cassette does not read: %v)", err)
	}
	changes := compare.Diffs(CassetteValue(before), CassetteValue(after), compare.Rules{})
	if len(changes) == 0 {
		return nil, "(layout only: the requests say the same)"
	}
	const maxListed = 20
	var b strings.Builder
	b.WriteString("at " + changes[0].Path)
	for i, c := range changes {
		if i == maxListed {
			fmt.Fprintf(&b, "\n         … and %d more", len(changes)-maxListed)
			break
		}
		fmt.Fprintf(&b, "\n         %s: %s → %s", c.Path, showValue(c.Want), showValue(c.Got))
	}
	return changes, b.String()
}

// showValue is a value as compact JSON, cut after 160 characters, or
// "absent".
func showValue(v jsonv.Value) string {
	if v.IsAbsent() {
		return "absent"
	}
	if r := []rune(string(v.AppendJSON(nil))); len(r) > 160 {
		return string(r[:160]) + "…"
	}
	return string(v.AppendJSON(nil))
}

// ReadCassetteLoosely reads any go-vcr cassette, also one in a form
// DecodeCassette refuses (such as one written before the current form),
// for comparing what it says with a new recording.
func ReadCassetteLoosely(data []byte) (*cassette.Cassette, error) {
	c := cassette.New("")
	if err := yaml.Unmarshal(data, c); err != nil {
		return nil, yamlError(err)
	}
	return c, nil
}
