package openaisdk

import (
	"slices"
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/sse"
)

// TestStreamNext walks the iterator through one stream: plain data, a
// falsy value, an error member (a falsy one is data), a thread.* event
// (whose error is not looked at), the [DONE] marker and an event after it.
func TestStreamNext(t *testing.T) {
	thread := "thread.run"
	events := []sse.Event{
		{Data: `{"a":1}`}, {Data: `null`}, {Data: `{"error":{"message":"boom"}}`}, {Data: `{"error":0}`},
		{Name: &thread, Data: `{"error":1}`}, {Data: `[DONE]`}, {Data: `{"a":2}`},
	}
	want := []string{
		`data {"a":1}`, `data null`, `error {"message":"boom"}`, `data {"error":0}`,
		`data {"event":"thread.run","data":{"error":1}}`, `nothing`, `nothing`,
	}
	var s Stream
	var got []string
	for _, ev := range events {
		got = append(got, yielded(s.Next(ev)))
	}
	if !slices.Equal(got, want) {
		t.Errorf("yielded %q,\nwant %q", got, want)
	}
}

// yielded says what Next gave.
func yielded(data, errMember jsonv.Value, ok bool) string {
	switch {
	case !ok:
		return "nothing"
	case !errMember.IsAbsent():
		return "error " + string(errMember.AppendJSON(nil))
	}
	return "data " + string(data.AppendJSON(nil))
}
