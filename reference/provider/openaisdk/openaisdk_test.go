package openaisdk

import (
	"fmt"
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/sse"
)

func TestErrorMessage(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		want   string
	}{
		{400, `{"error":{"message":"bad"}}`, "400 bad"},
		{400, `{"error":{"message":{"a":1}}}`, `400 {"a":1}`},
		{400, `{"error":{"code":"x"}}`, `400 {"code":"x"}`},
		{500, `upstream failure`, "500 upstream failure"},
		{429, ``, "429 status code (no body)"},
		{404, `{"detail":"nope"}`, "404 status code (no body)"},
	} {
		errMember, message := BodyError([]byte(tc.body))
		if got := ErrorMessage(tc.status, errMember, message); got != tc.want {
			t.Errorf("%d %s: %q, want %q", tc.status, tc.body, got, tc.want)
		}
	}
	if got := ErrorMessage(0, jsonv.Value{}, jsonv.Value{}); got != NoStatusNoBodyText {
		t.Errorf("no status, no body: %q", got)
	}
	e, _ := jsonv.Parse([]byte(`{"message":"boom"}`))
	if got := ErrorMessage(0, e, jsonv.Value{}); got != "boom" {
		t.Errorf("event error: %q", got)
	}
}

// TestStreamNext walks the iterator through one stream: plain data, a
// falsy value, an error member, a thread.* event (whose error is not
// looked at), the [DONE] marker and an event after it.
func TestStreamNext(t *testing.T) {
	thread := "thread.run"
	var s Stream
	for _, tc := range []struct {
		ev              sse.Event
		data, errMember string
		ok              bool
	}{
		{sse.Event{Data: `{"a":1}`}, `{"a":1}`, ``, true},
		{sse.Event{Data: `null`}, `null`, ``, true},
		{sse.Event{Data: `{"error":{"message":"boom"}}`}, ``, `{"message":"boom"}`, true},
		{sse.Event{Data: `{"error":0}`}, `{"error":0}`, ``, true},
		{sse.Event{Name: &thread, Data: `{"error":1}`}, `{"event":"thread.run","data":{"error":1}}`, ``, true},
		{sse.Event{Data: `[DONE]`}, ``, ``, false},
		{sse.Event{Data: `{"a":2}`}, ``, ``, false},
	} {
		data, errMember, ok := s.Next(tc.ev)
		if got := [3]string{text(data), text(errMember), fmt.Sprint(ok)}; got != [3]string{tc.data, tc.errMember, fmt.Sprint(tc.ok)} {
			t.Errorf("%s: got %q", tc.ev.Data, got)
		}
	}
}

// text is v as JSON, "" when it is absent.
func text(v jsonv.Value) string {
	if v.IsAbsent() {
		return ""
	}
	return string(v.AppendJSON(nil))
}
