package subject

import (
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
)

func collect(t *testing.T, r io.Reader) []line {
	t.Helper()
	ch := make(chan line, 1)
	go readLines(r, ch, nil)
	var out []line
	timeout := time.After(10 * time.Second)
	for {
		select {
		case l, ok := <-ch:
			if !ok {
				return out
			}
			out = append(out, l)
		case <-timeout:
			t.Fatal("readLines did not finish")
		}
	}
}

func TestReadLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string // data, or "ERR:" + error
	}{
		{"", []string{"ERR:EOF"}},
		{"a\nb\n", []string{"a\n", "b\n", "ERR:EOF"}},
		{"a\n\n  \r\n\tb\n", []string{"a\n", "\tb\n", "ERR:EOF"}},
		{"a\nlast", []string{"a\n", "last", "ERR:EOF"}},
		{"a\n   ", []string{"a\n", "ERR:EOF"}},
	}
	for _, tt := range tests {
		var got []string
		for _, l := range collect(t, strings.NewReader(tt.in)) {
			if l.err != nil {
				got = append(got, "ERR:"+l.err.Error())
			} else {
				got = append(got, string(l.data))
			}
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("readLines(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// countingReader counts what was read from it, to see that readLines drains
// a flood instead of leaving the writer blocked.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestReadLinesFrameLimit(t *testing.T) {
	t.Parallel()
	// A line of exactly MaxFrameBytes, newline included, is fine.
	exact := append(bytes.Repeat([]byte("x"), MaxFrameBytes-1), '\n')
	ls := collect(t, bytes.NewReader(exact))
	if len(ls) != 2 || len(ls[0].data) != MaxFrameBytes || !errors.Is(ls[1].err, io.EOF) {
		t.Fatalf("a line of MaxFrameBytes: got %d lines, first %d bytes", len(ls), len(ls[0].data))
	}
	exact = nil

	// One byte more is a protocol error, and the rest is drained.
	long := append(bytes.Repeat([]byte("y"), MaxFrameBytes), '\n')
	rest := []byte(`{"type":"result"}` + "\n" + strings.Repeat("more\n", 1000))
	cr := &countingReader{r: io.MultiReader(bytes.NewReader(long), bytes.NewReader(rest))}
	ls = collect(t, cr)
	if len(ls) != 1 || !errors.Is(ls[0].err, errFrameTooLong) {
		t.Fatalf("an over-long line: got %+v", ls)
	}
	if want := len(long) + len(rest); cr.n != want {
		t.Errorf("read %d bytes of %d: the flood was not drained", cr.n, want)
	}
}

// parse parses JSON text a test wrote, or fails the test.
var parse = jsonvtest.Parse

func TestParseReply(t *testing.T) {
	t.Parallel()
	tests := []struct {
		frame string
		want  string // reply type, or "ERR:" + a substring of the error
	}{
		{`{"type":"result","seq":7,"output":{"text":""}}`, "result"},
		{`{"type":"result","seq":7.0,"output":{}}`, "result"},
		{`{"type":"skip","seq":7,"reason":"no"}`, "skip"},
		{`{"type":"skip","seq":7,"reason":"no","link":"https://x"}`, "skip"},
		{`{"type":"error","seq":7,"message":"boom"}`, "error"},
		{`{"type":"result","seq":8,"output":{}}`, "ERR:/seq"},
		{`{"type":"result","seq":"7","output":{}}`, "ERR:/seq"},
		{`{"type":"result","output":{}}`, "ERR:seq"},
		{`{"type":"result","seq":7}`, "ERR:output"},
		{`{"type":"result","seq":7,"output":[]}`, "ERR:output"},
		{`{"type":"skip","seq":7}`, "ERR:reason"},
		{`{"type":"error","seq":7}`, "ERR:message"},
		{`{"type":"hello","seq":7}`, "ERR:want result, skip or error"},
		{`{"seq":7}`, "ERR:type"},
	}
	for _, tt := range tests {
		r, err := parseReply(parse(t, tt.frame), 7)
		got := r.Type
		if err != nil {
			got = "ERR:" + err.Error()
		}
		if want, isErr := strings.CutPrefix(tt.want, "ERR:"); isErr {
			if err == nil || !strings.Contains(got, want) {
				t.Errorf("parseReply(%s) = %q, want an error containing %q", tt.frame, got, want)
			}
		} else if got != tt.want {
			t.Errorf("parseReply(%s) = %q, want %q", tt.frame, got, tt.want)
		}
	}
}

func TestParseHello(t *testing.T) {
	t.Parallel()
	impl, err := parseHello(parse(t, `{"type":"hello","protocol":1,"implementation":{"name":"x","version":"1","language":"c","kinds":["sanitize"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if impl.Name != "x" || !impl.Supports("sanitize") || impl.Supports("cost") || impl.APIs == nil {
		t.Errorf("got %+v", impl)
	}
	for frame, want := range map[string]string{
		`{"type":"hello","protocol":2,"implementation":{"name":"x","version":"1","language":"c","kinds":[]}}`:  "/protocol",
		`{"type":"result","protocol":1,"implementation":{"name":"x","version":"1","language":"c","kinds":[]}}`: "/type",
		`{"type":"hello","protocol":1}`: "implementation",
		`{"type":"hello","protocol":1,"implementation":{"name":"x","version":"1","language":"c"}}`:                          "kinds",
		`{"type":"hello","protocol":1,"implementation":{"name":"x","version":"1","language":"c","kinds":[1]}}`:              "/implementation/kinds/0",
		`{"type":"hello","protocol":1,"implementation":{"name":"x","version":"1","language":"c","kinds":[],"apis":[true]}}`: "/implementation/apis/0",
	} {
		if _, err := parseHello(parse(t, frame)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseHello(%s) = %v, want an error naming %s", frame, err, want)
		}
	}
}

// shAdapter answers hello, then runs body for each run frame, with $seq set.
func shAdapter(body string) string {
	return `read l
printf '%s\n' '{"type":"hello","protocol":1,"implementation":{"name":"sh","version":"1","language":"sh","kinds":["sanitize"]}}'
while read l; do
  case "$l" in *'"bye"'*) exit 0;; esac
  seq=$(printf '%s' "$l" | sed 's/.*"seq":\([0-9]*\).*/\1/')
  ` + body + `
done`
}

func bounded(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("did not finish within %v", d)
	}
}

func TestProcess(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := &Process{Command: shAdapter(`printf '{"type":"result","seq":%s,"output":{"text":"ok"}}\n' "$seq"`)}
	bounded(t, 20*time.Second, func() {
		impl, err := p.Start(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if impl.Name != "sh" {
			t.Errorf("hello %+v", impl)
		}
		for range 3 {
			cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			r, err := p.Run(cctx, Case{ID: "sanitize/x", Kind: "sanitize", Input: parse(t, `{"text":"a"}`)})
			cancel()
			if err != nil || r.Type != ReplyResult {
				t.Fatalf("run: %+v, %v", r, err)
			}
		}
		// A restart keeps seq new for every frame.
		if _, err := p.Start(ctx); err != nil {
			t.Fatal(err)
		}
		r, err := p.Run(ctx, Case{ID: "sanitize/x", Kind: "sanitize", Input: parse(t, `{"text":"a"}`)})
		if err != nil || r.Type != ReplyResult || p.seq != 4 {
			t.Fatalf("after restart: %+v, %v, seq %d", r, err, p.seq)
		}
		start := time.Now()
		p.Close()
		if d := time.Since(start); d > 1900*time.Millisecond {
			t.Errorf("Close took %v: the adapter did not leave on bye", d)
		}
		if _, err := p.Run(ctx, Case{ID: "sanitize/x", Kind: "sanitize"}); err == nil || AsFailure(err).Outcome != FailCrash {
			t.Errorf("Run after Close: %v", err)
		}
	})
}

func TestProcessStartFailures(t *testing.T) {
	t.Parallel()
	for cmd, want := range map[string]string{
		"exit 3":                       FailCrash,
		"/nonexistent/adapter --serve": FailCrash,
		"echo hi; sleep 10":            FailProtocol,
		"read l; echo '[1]'; sleep 10": FailProtocol,
		"read l; sleep 10":             FailTimeout,
		`read l; echo '{"type":"hello","protocol":1,"implementation":{}}'; sleep 10`: FailProtocol,
	} {
		hello := 10 * time.Second // generous: sh must start even on a loaded machine
		if want == FailTimeout {
			hello = 300 * time.Millisecond
		}
		p := &Process{Command: cmd, StartTimeout: hello}
		bounded(t, 20*time.Second, func() {
			_, err := p.Start(context.Background())
			if err == nil || AsFailure(err).Outcome != want {
				t.Errorf("Start(%q) = %v, want %s", cmd, err, want)
			}
			p.Close()
		})
	}
}

// TestProcessNoLeak: a process that floods its output and is killed leaves
// no goroutine behind.
func TestProcessNoLeak(t *testing.T) {
	// Not parallel: it counts goroutines, and the parallel tests wait
	// paused while it runs.
	before := runtime.NumGoroutine()
	for range 3 {
		p := &Process{Command: shAdapter(`yes '{"type":"progress","seq":1}'`)}
		bounded(t, 10*time.Second, func() {
			if _, err := p.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, err := p.Run(cctx, Case{ID: "sanitize/x", Kind: "sanitize", Input: parse(t, `{"text":"a"}`)})
			if err == nil || AsFailure(err).Outcome != FailProtocol {
				t.Errorf("Run = %v, want a protocol failure", err)
			}
			p.Close()
		})
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines before, %d after:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

// TestReferenceKeepsTheDeadline: the in-process reference answers a case
// whose deadline has passed with a timeout, as a process would, so --timeout
// holds without --impl too.
func TestReferenceKeepsTheDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	_, err := (&Reference{}).Run(ctx, Case{ID: "sanitize/a", Kind: "sanitize", Input: jsonv.ObjectValue(jsonv.Member{Key: "text", Value: jsonv.StringValue("a")})})
	if f := AsFailure(err); err == nil || f.Outcome != FailTimeout {
		t.Errorf("Run past the deadline: %v, want a timeout", err)
	}
	reply, err := (&Reference{}).Run(context.Background(), Case{ID: "sanitize/a", Kind: "sanitize", Input: jsonv.ObjectValue(jsonv.Member{Key: "text", Value: jsonv.StringValue("a")})})
	if err != nil || reply.Type != ReplyResult {
		t.Errorf("Run in time: %+v, %v", reply, err)
	}
}
