package wire

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/piconform/piconform/reference/jsonv"
)

// The server of a case that aborts writes the body and then waits for the
// client: a read past the body blocks until the client goes, and the
// client's going is no problem of the request.
func TestAbortHoldsTheResponseOpen(t *testing.T) {
	c := loadCase(t, strings.Replace(caseFile, `"say": "hello"`, `"say": "hello", "abort": {"afterEvents": 2}`, 1), nil)
	s, err := ParseCase(c)
	if err != nil || !s.Abort || s.AbortAfter != 2 {
		t.Fatalf("ParseCase: %+v, %v", s, err)
	}
	cas := record(t, c)
	want := "event: greeting\ndata: {\"text\":\"hi\",\"n\":1.50}\n\ndata: two\ndata: lines\n\n"
	var after error
	subj := func(ctx context.Context, in jsonv.Value, cl *http.Client) (jsonv.Value, error) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		cl = &http.Client{Transport: bodyTransport(func(body io.ReadCloser) io.ReadCloser {
			return &abortingBody{body, len(want), cancel, &after}
		})}
		return echoSubject(nil)(ctx, in, cl)
	}
	out, err := replay(t, c, cas, subj)
	if err != nil {
		t.Errorf("check: %v", err)
	}
	if body, _ := out.Get("body"); body.Str() != want {
		t.Errorf("body %q, want %q", body.Str(), want)
	}
	if !errors.Is(after, context.Canceled) {
		t.Errorf("the read past the body returned %v, want the client's cancellation (the server ended the body?)", after)
	}
}

type bodyTransport func(io.ReadCloser) io.ReadCloser

func (f bodyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		resp.Body = f(resp.Body)
	}
	return resp, err
}

// abortingBody reads n bytes, then starts one more read, which blocks
// while the server holds the response, and cancels the request under it;
// that read's error goes to *after and the reader reports the end.
type abortingBody struct {
	io.ReadCloser
	n      int
	cancel func()
	after  *error
}

func (b *abortingBody) Read(p []byte) (int, error) {
	if b.n > 0 {
		n, err := b.ReadCloser.Read(p[:min(len(p), b.n)])
		b.n -= n
		return n, err
	}
	done := make(chan error, 1)
	go func() {
		_, err := b.ReadCloser.Read(make([]byte, 1))
		done <- err
	}()
	// A server that ended the body answers this read at once with io.EOF.
	// The wait only gives a broken server time to show itself: a server
	// that holds the response passes however long it is.
	select {
	case *b.after = <-done:
	case <-time.After(100 * time.Millisecond):
		b.cancel()
		*b.after = <-done
	}
	return 0, io.EOF
}

// An implementation that never aborts leaves the response held open; the
// runner's check at the case's end still closes it and returns.
func TestHoldEndsWhenTheCaseEnds(t *testing.T) {
	c := loadCase(t, strings.Replace(caseFile, `"say": "hello"`, `"say": "hello", "abort": {"afterEvents": 5}`, 1), nil)
	cas := record(t, c)
	fx := &Fixture{Cassettes: map[string][]byte{c.ID: cas}, Ignore: func(string) []string { return echoIgnore }}
	input, check, err := fx.Setup(context.Background(), c, func(error) {})
	if err != nil {
		t.Fatal(err)
	}
	base, _ := input.Get("baseUrl")
	resp, err := http.Post(base.Str()+"/v1/say", "application/json", strings.NewReader(`{"say":"hello","n":1}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	read := make(chan error, 1)
	go func() {
		_, err := io.ReadAll(resp.Body)
		read <- err
	}()
	check() // the request differs in its headers; what matters is that it returns
	if err := <-read; err == nil {
		t.Errorf("the held body ended cleanly; want it cut off when the case ended")
	}
}
