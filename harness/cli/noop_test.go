package cli_test

// The no-op adapter of BenchmarkRunnerAllIn computes nothing. Before the
// run, noopAnswers writes what each case wants (its golden output, and for
// a wire case the requests of its cassette); the adapter hands that back,
// sending a wire case's requests to the case's server first, so every case
// passes and the runner does all it does for a passing case: the frames,
// the replay servers, the comparison with the golden.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/harness/wire"
	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// noopAnswers is what the no-op adapter answers for each case of cases that
// holds in dialect d, one JSON object a line: {"id", "output", and for a
// wire case "requests": [{"method", "url", "headers", "body"}]}.
func noopAnswers(cases []*suite.Case, d dialect.Dialect) ([]byte, error) {
	var out []byte
	for _, c := range cases {
		if !c.HoldsIn(d) {
			continue
		}
		golden, err := c.ReadGolden(d)
		if err != nil {
			return nil, err
		}
		want, _, err := compare.SplitGolden(golden)
		if err != nil {
			return nil, err
		}
		members := []jsonv.Member{{Key: "id", Value: jsonv.StringValue(c.ID)}, {Key: "output", Value: want}}
		if c.Kind == wire.Kind {
			data, err := c.ReadCassette(d)
			if err != nil {
				return nil, err
			}
			cas, err := wire.DecodeCassette(data)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", c.CassetteFile(d), err)
			}
			var reqs []jsonv.Value
			for _, in := range cas.Interactions {
				var headers []jsonv.Member
				for name, vs := range in.Request.Headers {
					for _, v := range vs {
						headers = append(headers, jsonv.Member{Key: name, Value: jsonv.StringValue(v)})
					}
				}
				reqs = append(reqs, jsonv.ObjectValue(
					jsonv.Member{Key: "method", Value: jsonv.StringValue(in.Request.Method)},
					jsonv.Member{Key: "url", Value: jsonv.StringValue(in.Request.URL)},
					jsonv.Member{Key: "headers", Value: jsonv.ObjectValue(headers...)},
					jsonv.Member{Key: "body", Value: jsonv.StringValue(in.Request.Body)},
				))
			}
			members = append(members, jsonv.Member{Key: "requests", Value: jsonv.ArrayValue(reqs...)})
		}
		out = append(jsonv.ObjectValue(members...).AppendJSON(out), '\n')
	}
	return out, nil
}

// serveNoop is the no-op adapter: it reads frames from in and answers on out,
// with the answers (noopAnswers' lines) for the cases they name. With skip set
// it answers every case with a skip instead, the least an adapter can
// answer. It returns at bye or at the end of in.
func serveNoop(in io.Reader, out io.Writer, answers []byte, skip bool) error {
	byID := map[string][]byte{}
	for line := range bytes.Lines(answers) {
		// The id is the first member: {"id":"…",
		if end := bytes.IndexByte(line[7:], '"'); end >= 0 {
			byID[string(line[7:7+end])] = line
		}
	}
	r := bufio.NewReaderSize(in, 1<<20)
	w := bufio.NewWriter(out)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		frame, err := jsonv.Parse(line)
		if err != nil {
			return err
		}
		typ, _ := frame.Get("type")
		switch typ.Str() {
		case "hello":
			w.WriteString(noopHello)
		case "run":
			seq, _ := frame.Get("seq")
			c, _ := frame.Get("case")
			id, _ := c.Get("id")
			input, _ := c.Get("input")
			answer, ok := byID[id.Str()]
			switch {
			case skip:
				fmt.Fprintf(w, `{"type":"skip","seq":%s,"reason":"no-op"}`+"\n", seq.Literal())
			case !ok:
				fmt.Fprintf(w, `{"type":"error","seq":%s,"message":"no answer for this case"}`+"\n", seq.Literal())
			default:
				a, err := jsonv.Parse(answer)
				if err != nil {
					return err
				}
				if reqs, ok := a.Get("requests"); ok {
					send(input, reqs.Elems())
				}
				output, _ := a.Get("output")
				w.WriteString(`{"type":"result","seq":` + seq.Literal() + `,"output":`)
				w.Write(output.AppendJSON(nil))
				w.WriteString("}\n")
			}
		default:
			return w.Flush()
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
}

// hello names every kind and API, so that the runner sends every case.
var noopHello = func() string {
	strs := func(ss []string) jsonv.Value {
		var vs []jsonv.Value
		for _, s := range ss {
			vs = append(vs, jsonv.StringValue(s))
		}
		return jsonv.ArrayValue(vs...)
	}
	impl := jsonv.ObjectValue(
		jsonv.Member{Key: "name", Value: jsonv.StringValue("no-op")},
		jsonv.Member{Key: "version", Value: jsonv.StringValue("0")},
		jsonv.Member{Key: "language", Value: jsonv.StringValue("go")},
		jsonv.Member{Key: "kinds", Value: strs([]string{"convert", "normalize", "cost", "sanitize", "pipeline", "session", wire.Kind})},
		jsonv.Member{Key: "apis", Value: strs(conformance.APIs())},
		jsonv.Member{Key: "dialects", Value: strs(dialect.Names())},
	)
	return jsonv.ObjectValue(
		jsonv.Member{Key: "type", Value: jsonv.StringValue("hello")},
		jsonv.Member{Key: "protocol", Value: jsonv.NumberValue("1")},
		jsonv.Member{Key: "implementation", Value: impl},
	).String() + "\n"
}()

// send makes a wire case's requests, as its cassette holds them, to the
// case's server: the key where the cassette has it redacted, the recorded
// host over a connection to connectTo for a case with its own base URL.
// Each request goes on a connection of its own, written and read with
// net/http's wire format alone (Request.Write, ReadResponse), which is
// cheaper than a client with its pool of connections. A case that aborts
// has its last answer's headers read and the connection closed, as an
// aborting client does; a connection the server drops is a request
// answered. Errors are the case's to find.
func send(input jsonv.Value, reqs []jsonv.Value) {
	key, base, connectTo := "", "", ""
	if k, ok := input.Get("apiKey"); ok {
		key = k.Str()
	}
	if b, ok := input.Get("baseUrl"); ok {
		base = b.Str()
	}
	if c, ok := input.Get("connectTo"); ok {
		connectTo = c.Str()
	}
	_, aborts := input.Get("abort")
	for i, r := range reqs {
		method, _ := r.Get("method")
		target, _ := r.Get("url")
		body, _ := r.Get("body")
		headers, _ := r.Get("headers")
		u := base + strings.ReplaceAll(target.Str(), wire.Redacted, key)
		host := ""
		if rest, ok := strings.CutPrefix(target.Str(), "//"); ok {
			host, _, _ = strings.Cut(rest, "/")
			u = "http://" + rest
		}
		payload := []byte(strings.ReplaceAll(body.Str(), wire.Redacted, key))
		if zstdBody(headers) {
			payload = zstdEncoder.EncodeAll(payload, nil) // the cassette holds it decoded
		}
		req, err := http.NewRequest(method.Str(), u, bytes.NewReader(payload))
		if err != nil {
			continue
		}
		if host != "" {
			req.Host = host
		}
		for _, h := range headers.Members() {
			name, v := h.Key, strings.ReplaceAll(h.Value.Str(), wire.Redacted, key)
			if name == "User-Agent" && v == "" {
				// net/http writes no User-Agent set empty (and its own when
				// there is none), but a name that is not canonical as it is.
				req.Header[name], name = []string{""}, "user-agent"
			}
			req.Header[name] = append(req.Header[name], v)
		}
		addr := connectTo
		if addr == "" {
			addr = req.URL.Host
		}
		roundTrip(addr, req, aborts && i == len(reqs)-1)
	}
}

// roundTrip sends req on a new connection to addr and reads the answer, its
// head only when headOnly.
func roundTrip(addr string, req *http.Request, headOnly bool) {
	conn, err := net.DialTimeout("tcp", addr, 30*time.Second)
	if err != nil {
		return
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	w := bufio.NewWriter(conn)
	if req.Write(w) != nil || w.Flush() != nil {
		return
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		return
	}
	if !headOnly { // else the connection closes unread (Body.Close would read on)
		_, _ = io.Copy(io.Discard, resp.Body)
	}
}

// zstdBody tells whether recorded headers say the body goes zstd-encoded.
func zstdBody(headers jsonv.Value) bool {
	for _, h := range headers.Members() {
		if strings.EqualFold(h.Key, "Content-Encoding") && strings.EqualFold(h.Value.Str(), "zstd") {
			return true
		}
	}
	return false
}

var zstdEncoder, _ = zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
