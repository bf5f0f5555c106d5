package wire

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
)

// connectingSubject is echoSubject for a case with its own baseUrl: the
// request goes to connectTo, naming host (the URL's, unless host is set)
// in its Host header.
func connectingSubject(t *testing.T, host string) Subject {
	return func(ctx context.Context, in jsonv.Value, cl *http.Client) (jsonv.Value, error) {
		to, ok := in.Get("connectTo")
		if !ok || !strings.HasPrefix(to.Str(), "127.0.0.1:") {
			t.Errorf("input %s: want connectTo, the loopback server", in)
		}
		return echoSubject(func(r *http.Request) {
			r.Host = r.URL.Host
			if host != "" {
				r.Host = host
			}
			r.URL.Scheme, r.URL.Host = "http", to.Str()
		})(ctx, in, cl)
	}
}

// A case with its own baseUrl keeps it; the cassette holds the host the
// request named, and a request naming another host differs at its path.
func TestOwnBaseURLKeepsItsHost(t *testing.T) {
	c := loadCase(t, strings.Replace(caseFile, `"say": "hello"`, `"say": "hello", "baseUrl": "https://api.example.com/base"`, 1), nil)
	s, err := ParseCase(c)
	if err != nil || !s.OwnBaseURL {
		t.Fatalf("ParseCase: %+v, %v", s, err)
	}
	in := PrepareInput(c.Input, "http://127.0.0.1:9", s)
	if b, _ := in.Get("baseUrl"); b.Str() != "https://api.example.com/base" {
		t.Errorf("baseUrl %s, want the case's", b)
	}
	cas, err := Record(context.Background(), c, connectingSubject(t, ""), echoIgnore)
	if err != nil {
		t.Fatal(err)
	}
	if want := "url: //api.example.com/base/v1/say"; !strings.Contains(string(cas), want) {
		t.Errorf("cassette lacks %q:\n%s", want, cas)
	}
	if _, err := replay(t, c, cas, connectingSubject(t, "")); err != nil {
		t.Errorf("same host: %v", err)
	}
	_, err = replay(t, c, cas, connectingSubject(t, "other.example.com"))
	if err == nil || !strings.Contains(err.Error(), "/requests/0/path") || !strings.Contains(err.Error(), "//other.example.com/base/v1/say") {
		t.Errorf("another host: %v", err)
	}
}
