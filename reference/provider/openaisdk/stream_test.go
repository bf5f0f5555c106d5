package openaisdk

import (
	"slices"
	"testing"

	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/provider/sse"
	"github.com/piconform/piconform/reference/provider/stream"
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

// TestStreamNextSDK7: SDK 7 (Pi 1.6) takes only "[DONE]" for the marker,
// throws an "error" event's data, and words bad JSON its own way.
func TestStreamNextSDK7(t *testing.T) {
	errName := "error"
	s := Stream{Dialect: dialect.V1_6}
	for _, tc := range []struct {
		ev   sse.Event
		want string
	}{
		{sse.Event{Name: &errName, Data: `{"error":{"message":"m"}}`}, `error {"message":"m"}`},
		{sse.Event{Name: &errName, Data: `{"message":"m"}`}, `error {"message":"m"}`},
		{sse.Event{Data: `{"a":1}`}, `data {"a":1}`},
	} {
		if got := yielded(s.Next(tc.ev)); got != tc.want {
			t.Errorf("Next(%+v) = %s, want %s", tc.ev, got, tc.want)
		}
	}
	for _, tc := range []struct {
		dl         dialect.Dialect
		data, want string
	}{
		{dialect.V1_6, "[DONE]x", MalformedEventText},
		{dialect.V1_6, "{oops", MalformedEventText},
		{dialect.V0_80, "{oops", "Expected property name or '}' in JSON at position 1 (line 1 column 2)"},
	} {
		func() {
			defer func() {
				e, _ := recover().(stream.JSError)
				if e.Msg != tc.want {
					t.Errorf("%s: Next(%q) threw %q, want %q", tc.dl, tc.data, e.Msg, tc.want)
				}
			}()
			s := Stream{Dialect: tc.dl}
			s.Next(sse.Event{Data: tc.data})
		}()
	}
	if _, _, ok := (&Stream{}).Next(sse.Event{Data: "[DONE]x"}); ok {
		t.Errorf("SDK 6 yielded [DONE]x; it takes any data starting with [DONE] for the marker")
	}
}

// TestChatChunk: SDK 7's rewrite of a chat chunk's choices (each spread,
// with finish_reason ?? null; a null choice throws), checked against
// openai 7.59.0's normalizeChatCompletionChunk under Node 22; SDK 6 hands
// every chunk on as it is.
func TestChatChunk(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"id":"a","choices":[{"delta":{},"finish_reason":"stop"}]}`, `{"id":"a","choices":[{"delta":{},"finish_reason":"stop"}]}`},
		{`{"choices":[{"delta":{}}]}`, `{"choices":[{"delta":{},"finish_reason":null}]}`},
		{`{"choices":[0,"ab",[7],true]}`, `{"choices":[{"finish_reason":null},{"0":"a","1":"b","finish_reason":null},{"0":7,"finish_reason":null},{"finish_reason":null}]}`},
		{`{"choices":{}}`, `{"choices":{}}`},
		{`[1]`, `[1]`},
		{`null`, `null`},
	} {
		in := jsonvtest.Parse(t, tc.in)
		if got := ChatChunk(dialect.V1_6, in); !jsonv.Equal(got, jsonvtest.Parse(t, tc.want)) {
			t.Errorf("1.6 %s: got %s, want %s", tc.in, got, tc.want)
		}
		if got := ChatChunk(dialect.V0_80, in); !jsonv.Equal(got, in) {
			t.Errorf("0.80 %s: got %s, want it as it is", tc.in, got)
		}
	}
	defer func() {
		if r, ok := recover().(stream.JSError); !ok || r.Msg != "Cannot read properties of null (reading 'finish_reason')" {
			t.Errorf("a null choice: got %v, want the TypeError", r)
		}
	}()
	ChatChunk(dialect.V1_6, jsonvtest.Parse(t, `{"choices":[{},null]}`))
}
