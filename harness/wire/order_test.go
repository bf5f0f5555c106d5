package wire

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
)

// answeredAfter is the echo case with first as the answer to a first
// request, and the case's stream as the answer to a second.
func answeredAfter(first string) string {
	return strings.NewReplacer(`"response": {`, `"response": [`+first+`, {`, "]}\n}", "]}]\n}").Replace(caseFile)
}

// attempts sends the echo request once per value of X-Attempt, in order,
// and returns the bodies it got back.
func attempts(values ...string) Subject {
	return func(ctx context.Context, in jsonv.Value, cl *http.Client) (jsonv.Value, error) {
		var bodies []jsonv.Value
		for _, v := range values {
			out, err := echoSubject(func(r *http.Request) { r.Header.Set("X-Attempt", v) })(ctx, in, cl)
			if err != nil {
				return jsonv.Value{}, err
			}
			body, _ := out.Get("body")
			bodies = append(bodies, body)
		}
		return jsonv.ArrayValue(bodies...), nil
	}
}

// TestReplayServesInOrder: the n-th request is compared with the n-th
// recorded one and gets its response, whatever it holds; a request too many
// or too few fails the case.
func TestReplayServesInOrder(t *testing.T) {
	c := loadCase(t, answeredAfter(`{"status": 503, "body": "busy"}`), nil)
	cas, err := Record(context.Background(), c, attempts("0", "1"), echoIgnore)
	if err != nil {
		t.Fatal(err)
	}
	out, err := replay(t, c, cas, attempts("0", "1"))
	if err != nil {
		t.Fatalf("in order: %v", err)
	}
	if first := out.Elems()[0]; first.Str() != "busy" {
		t.Errorf("first answer %q, want the 503's body", first.Str())
	}

	out, err = replay(t, c, cas, attempts("1", "0"))
	var re *RequestError
	if !errors.As(err, &re) || len(re.Diffs) != 2 || re.Diffs[0].Path != "/requests/0/headers/x-attempt" || re.Diffs[1].Path != "/requests/1/headers/x-attempt" {
		t.Fatalf("swapped attempts: %v, want a difference in each request's x-attempt", err)
	}
	if first := out.Elems()[0]; first.Str() != "busy" {
		t.Errorf("a differing first request got %q, want the first response all the same", first.Str())
	}

	if _, err := replay(t, c, cas, attempts("0")); err == nil || !strings.Contains(err.Error(), "sent 1 request(s); the cassette expects 2") {
		t.Errorf("one request of two: %v", err)
	}
	if _, err := replay(t, c, cas, attempts("0", "1", "2")); err == nil || !strings.Contains(err.Error(), "request 3") {
		t.Errorf("three requests of two: %v", err)
	}
}

// TestReplayDisconnects: a disconnect is recorded as a request like any
// other, and replayed as a connection closed without an answer.
func TestReplayDisconnects(t *testing.T) {
	c := loadCase(t, answeredAfter(`{"disconnect": true}`), nil)
	// Sends once, and once more after a connection error.
	again := func(ctx context.Context, in jsonv.Value, cl *http.Client) (jsonv.Value, error) {
		if _, err := echoSubject(nil)(ctx, in, cl); err == nil {
			return jsonv.Value{}, errors.New("the first request got an answer")
		}
		return echoSubject(nil)(ctx, in, cl)
	}
	cas, err := Record(context.Background(), c, again, echoIgnore)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(cas), "method: POST"); got != 2 {
		t.Fatalf("the cassette holds %d request(s), want 2:\n%s", got, cas)
	}
	out, err := replay(t, c, cas, again)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if body, _ := out.Get("body"); !strings.HasPrefix(body.Str(), "event: greeting") {
		t.Errorf("the second request got %q, want the stream", body.Str())
	}
}
