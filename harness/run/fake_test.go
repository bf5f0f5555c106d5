package run_test

// Fake implementations for the runner's tests, by the self-re-exec trick of
// protobuf-go's conformance tests: when PICONFORM_FAKE_IMPL is set, this test
// binary is not a test binary but an adapter that speaks the subprocess
// protocol with the behaviour the variable names, and exits.
//
// A behaviour is NAME or NAME:CASE-ID. With a case id, the misbehaviour
// applies to that case only and every other case is answered correctly; with
// none, it applies to every case.

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/piconform/piconform/protocol"
	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/jsonv"
)

const fakeEnv = "PICONFORM_FAKE_IMPL"

func TestMain(m *testing.M) {
	if b := os.Getenv(fakeEnv); b != "" {
		os.Exit(fakeAdapter(b))
	}
	// The runner's tests mostly wait on their fake adapters' deadlines, not
	// on the CPU: let more of them wait at once than there are cores,
	// unless -parallel says otherwise.
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", "8")
	}
	os.Exit(m.Run())
}

// fakeCommand is the --impl command that runs this test binary as the fake
// adapter with behaviour b, quoted for sh -c.
func fakeCommand(t testing.TB, b string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fakeEnv + "=" + shellQuote(b) + " " + shellQuote(exe)
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func str(s string) jsonv.Value { return jsonv.StringValue(s) }

func obj(kv ...any) jsonv.Value {
	var ms []jsonv.Member
	for i := 0; i < len(kv); i += 2 {
		ms = append(ms, jsonv.Member{Key: kv[i].(string), Value: kv[i+1].(jsonv.Value)})
	}
	return jsonv.ObjectValue(ms...)
}

func strs(ss ...string) jsonv.Value {
	vs := make([]jsonv.Value, len(ss))
	for i, s := range ss {
		vs[i] = str(s)
	}
	return jsonv.ArrayValue(vs...)
}

func fakeAdapter(behaviour string) int {
	name, target, _ := strings.Cut(behaviour, ":")
	out := os.Stdout // unbuffered: every write reaches the runner at once
	write := func(v jsonv.Value) { _, _ = out.Write(append(v.AppendJSON(nil), '\n')) }
	logf := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "fake %s: "+format+"\n", append([]any{behaviour}, args...)...)
	}

	switch name {
	case "crash-start":
		logf("exiting before hello")
		return 3
	case "hang-start":
		time.Sleep(time.Hour)
		return 0
	case "slow-start":
		time.Sleep(1500 * time.Millisecond)
	case "hang-first-start":
		// target is a file: the first process creates it and hangs before
		// hello; the others find it and behave.
		if f, err := os.OpenFile(target, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); err == nil {
			f.Close()
			time.Sleep(time.Hour)
			return 0
		}
		target = ""
	case "garbage-hello":
		fmt.Fprintln(out, "Welcome to my adapter!")
		time.Sleep(time.Hour)
		return 0
	}

	loaded := map[string]bool{} // for slow-first-answer
	in := bufio.NewReader(os.Stdin)
	for {
		data, err := in.ReadBytes('\n')
		if err != nil {
			return 0 // the runner closed stdin
		}
		frame, err := jsonv.Parse(data)
		if err != nil {
			logf("bad frame: %v", err)
			return 2
		}
		typ, _ := frame.Get("type")
		switch typ.Str() {
		case "bye":
			return 0
		case "hello":
			kinds := strs(conformance.Kinds()...)
			proto := "1"
			switch name {
			case "no-kinds":
				kinds = strs()
			case "sanitize-only":
				kinds = strs("sanitize")
			case "bad-protocol":
				proto = "2"
			}
			write(obj("type", str("hello"), "protocol", jsonv.NumberValue(proto),
				"implementation", obj("name", str("fake-"+name), "version", str("0.0.1"), "language", str("go"),
					"kinds", kinds, "apis", strs(conformance.APIs()...))))
			if name == "deaf" {
				time.Sleep(time.Hour) // never reads another byte
			}
			continue
		case "run":
		default:
			logf("unknown frame %s", data)
			return 2
		}
		seq, _ := frame.Get("seq")
		c, _ := frame.Get("case")
		idV, _ := c.Get("id")
		kindV, _ := c.Get("kind")
		input, _ := c.Get("input")
		id := idV.Str()
		if target != "" && target != id {
			answer(write, seq, kindV.Str(), input)
			continue
		}
		switch name {
		case "crash", "crash-always":
			logf("crashing on %s", id)
			return 3
		case "hang":
			time.Sleep(time.Hour)
		case "garbage":
			fmt.Fprintln(out, "panic: runtime error: index out of range [3] with length 3")
		case "not-object":
			fmt.Fprintln(out, `["type","result"]`)
		case "wrong-seq":
			n, _ := strconv.ParseInt(seq.Literal(), 10, 64)
			write(obj("type", str("result"), "seq", jsonv.NumberValue(strconv.FormatInt(n+1, 10)), "output", obj("text", str(""))))
		case "no-output":
			write(obj("type", str("result"), "seq", seq))
		case "bad-type":
			write(obj("type", str("log"), "seq", seq, "message", str("working on it")))
		case "flood":
			// One line longer than subject.MaxFrameBytes, then silence.
			chunk := bytes.Repeat([]byte("x"), 1<<20)
			for range 17 {
				if _, err := out.Write(chunk); err != nil {
					return 4
				}
			}
			fmt.Fprintln(out)
			time.Sleep(time.Hour)
		case "flood-forever":
			// An endless line with no newline.
			chunk := bytes.Repeat([]byte("y"), 64<<10)
			for {
				if _, err := out.Write(chunk); err != nil {
					return 4
				}
			}
		case "flood-lines":
			// Endless small frames that are valid JSON but not an answer.
			line := []byte(`{"type":"progress","seq":` + seq.Literal() + `,"percent":50}` + "\n")
			lines := bytes.Repeat(line, 1000)
			for {
				if _, err := out.Write(lines); err != nil {
					return 4
				}
			}
		case "stderr":
			chunk := bytes.Repeat([]byte("noise on stderr\n"), 1<<16) // 1 MiB
			if _, err := os.Stderr.Write(chunk); err != nil {
				return 4
			}
			answer(write, seq, kindV.Str(), input)
		case "skip":
			write(obj("type", str("skip"), "seq", seq, "reason", str("not implemented yet"), "link", str("https://example.com/issue/1")))
		case "error", "error-all":
			write(obj("type", str("error"), "seq", seq, "message", str("TypeError: cannot read properties of undefined")))
		case "slow-first-answer":
			// Loads a kind's code on first use, slowly.
			if !loaded[kindV.Str()] {
				time.Sleep(1500 * time.Millisecond)
				loaded[kindV.Str()] = true
			}
			answer(write, seq, kindV.Str(), input)
		case "slow-answer":
			// An adapter that waits (on a provider, say) rather than computes:
			// with N processes a run should take about 1/N of the time.
			time.Sleep(20 * time.Millisecond)
			answer(write, seq, kindV.Str(), input)
		case "wrong-output":
			write(obj("type", str("result"), "seq", seq, "output", obj("text", str("not what Pi says"))))
		case "own-client":
			// A port with its own HTTP client: Pi's requests and answers,
			// but not the JS SDKs' user-agent and accept.
			answerWith(write, seq, kindV.Str(), input, ownClient)
		case "wrong-wire":
			// A wrong request body and a wrong answer, in one case.
			out, err := handle(kindV.Str(), input, &http.Client{Transport: extraBodyMember{}})
			if err != nil {
				write(obj("type", str("error"), "seq", seq, "message", str(err.Error())))
				continue
			}
			write(obj("type", str("result"), "seq", seq, "output", withModel(out, "not-the-model")))
		case "wrong-wire-then-error":
			// A wrong request body, then an error frame instead of an answer.
			_, _ = handle(kindV.Str(), input, &http.Client{Transport: extraBodyMember{}})
			write(obj("type", str("error"), "seq", seq, "message", str("TypeError: reading the stream")))
		case "big-body", "big-body-streamed":
			// A request body over the test's 1 MiB limit to the case's
			// server, announced or streamed, then silence.
			base, _ := input.Get("baseUrl")
			req, err := http.NewRequest("POST", base.Str()+"/big", io.LimitReader(zeroReader{}, 1<<20+1))
			if err != nil {
				logf("%v", err)
				return 2
			}
			if name == "big-body" {
				req.ContentLength = 1<<20 + 1
			}
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
			time.Sleep(time.Hour)
		case "twice":
			answer(write, seq, kindV.Str(), input)
			answer(write, seq, kindV.Str(), input)
		default: // ok, no-kinds, sanitize-only, and anything else
			answer(write, seq, kindV.Str(), input)
		}
	}
}

// answer replies as the reference does, with the goldens' clock.
func answer(write func(jsonv.Value), seq jsonv.Value, kind string, input jsonv.Value) {
	answerWith(write, seq, kind, input, nil)
}

// referenceOptions are the reference's options with the goldens' clock.
func referenceOptions(client *http.Client) conformance.Options {
	return conformance.Options{Now: func() jsonv.Value { return jsonv.NumberValue("1767225600000") }, HTTPClient: client}
}

func handle(kind string, input jsonv.Value, client *http.Client) (jsonv.Value, error) {
	return conformance.Handle(kind, input, referenceOptions(client))
}

// ownClient sends requests as a Go port would: its own user-agent where the
// JS SDK would name itself (a user-agent Pi or the caller chose stays), and
// no accept.
var ownClient = &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if ua := r.Header.Get("User-Agent"); strings.Contains(ua, "/JS ") || strings.HasPrefix(ua, "mistral-client-typescript/") {
		r.Header.Set("User-Agent", "fake-go-port/0.0.1")
	}
	r.Header.Del("Accept")
	return http.DefaultTransport.RoundTrip(r)
})}

// zeroReader reads zero bytes without end.
type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// extraBodyMember adds a member to a JSON request body.
type extraBodyMember struct{}

func (extraBodyMember) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if r.Body != nil {
		b, _ := io.ReadAll(r.Body)
		if v, err := jsonv.Parse(b); err == nil && v.Kind() == jsonv.Object {
			v = jsonv.ObjectValue(append(v.Members(), jsonv.Member{Key: "fake_extra", Value: jsonv.BoolValue(true)})...)
			b = v.AppendJSON(nil)
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
	}
	return http.DefaultTransport.RoundTrip(r)
}

// withModel changes the model of a wire output's final message.
func withModel(out jsonv.Value, model string) jsonv.Value {
	var ms []jsonv.Member
	for _, m := range out.Members() {
		if m.Key == "message" && m.Value.Kind() == jsonv.Object {
			var mm []jsonv.Member
			for _, f := range m.Value.Members() {
				if f.Key == "model" {
					f.Value = str(model)
				}
				mm = append(mm, f)
			}
			m.Value = jsonv.ObjectValue(mm...)
		}
		ms = append(ms, m)
	}
	return jsonv.ObjectValue(ms...)
}

// answerWith replies as the reference does, sending wire requests through client.
func answerWith(write func(jsonv.Value), seq jsonv.Value, kind string, input jsonv.Value, client *http.Client) {
	n, _ := seq.Float64()
	a := conformance.Answer(context.Background(), protocol.Case{Kind: kind, Input: input}, referenceOptions(client))
	write(protocol.Reply(int64(n), a).Value())
}
