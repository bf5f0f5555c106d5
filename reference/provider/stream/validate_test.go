package stream

import (
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
)

func TestValidate(t *testing.T) {
	msg := func(stop string) *ai.AssistantMessage { return &ai.AssistantMessage{StopReason: stop} }
	start := Event{Type: TypeStart}
	done := Event{Type: TypeDone, Reason: ai.StopStop, Message: msg(ai.StopStop)}
	fail := Event{Type: TypeError, Reason: ai.StopError, Message: msg(ai.StopError)}
	ts := func(i int) Event { return Event{Type: TypeTextStart, ContentIndex: i} }
	td := func(i int) Event { return Event{Type: TypeTextDelta, ContentIndex: i, Delta: "x"} }
	te := func(i int) Event { return Event{Type: TypeTextEnd, ContentIndex: i} }
	tcs := Event{Type: TypeToolCallStart, ContentIndex: 1}
	tce := Event{Type: TypeToolCallEnd, ContentIndex: 1, ToolCall: &ai.ToolCallBlock{Arguments: jsonv.ObjectValue()}}
	for _, tc := range []struct {
		name   string
		events []Event
		want   string // "" for valid, else a part of the message
	}{
		{"minimal", []Event{start, done}, ""},
		{"blocks", []Event{start, ts(0), td(0), te(0), tcs, tce, done}, ""},
		{"error mid block", []Event{start, ts(0), td(0), fail}, ""},
		{"lone error before a response", []Event{fail}, ""},
		{"empty", nil, "empty stream"},
		{"no start", []Event{ts(0), done}, "opens with text_start"},
		{"two starts", []Event{start, start, done}, "a second start"},
		{"no terminal", []Event{start, ts(0)}, "ends without done or error"},
		{"after terminal", []Event{start, done, td(0)}, "after the terminal"},
		{"two terminals", []Event{start, done, fail}, "after the terminal"},
		{"delta before start", []Event{start, td(0), done}, "no block is open"},
		{"delta after end", []Event{start, ts(0), te(0), td(0), done}, "no block is open"},
		{"wrong family", []Event{start, ts(0), Event{Type: TypeThinkingEnd}, done}, "a text block is open"},
		{"index reused", []Event{start, ts(0), te(0), ts(0), te(0), done}, "already used"},
		{"done with open block", []Event{start, ts(0), done}, "still open"},
		{"bad done reason", []Event{start, {Type: TypeDone, Reason: ai.StopError, Message: msg(ai.StopError)}}, "want stop, length or toolUse"},
		{"reason differs from message", []Event{start, {Type: TypeDone, Reason: ai.StopStop, Message: msg(ai.StopLength)}}, "stopReason is"},
		{"missing message", []Event{start, {Type: TypeError, Reason: ai.StopAborted}}, "without its final message"},
		{"unknown type", []Event{start, {Type: "text_middle"}, done}, "unknown event type"},
	} {
		err := Validate(tc.events)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestEventJSONRoundTrip(t *testing.T) {
	text := `[{"type":"start"},{"type":"toolcall_start","contentIndex":0},{"type":"toolcall_delta","contentIndex":0,"delta":"{\"a\":"},` +
		`{"type":"toolcall_end","contentIndex":0,"toolCall":{"type":"toolCall","id":"t","name":"f","arguments":{"a":1}}},` +
		`{"type":"text_start","contentIndex":1},{"type":"text_end","contentIndex":1,"content":"\ud83d"},` +
		`{"type":"done","reason":"toolUse","message":{"role":"assistant","content":[],"api":"a","provider":"p","model":"m","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":1}}]`
	v, err := jsonv.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	events, err := DecodeEvents(v, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(EventsJSON(events).AppendJSON(nil)); got != text {
		t.Errorf("round trip\n got %s\nwant %s", got, text)
	}
	bad, _ := jsonv.Parse([]byte(`[{"type":"text_delta","contentIndex":-1,"delta":"x"}]`))
	if _, err := DecodeEvents(bad, ""); err == nil || !strings.Contains(err.Error(), "/0/contentIndex") {
		t.Errorf("DecodeEvents(bad) = %v", err)
	}
}

func TestJSValue(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"b":1,"a":2,"b":3}`, `{"b":3,"a":2}`},
		{`{"x":0,"10":1,"2":2,"01":3,"4294967295":4,"4294967294":5}`, `{"2":2,"10":1,"4294967294":5,"x":0,"01":3,"4294967295":4}`},
		{`[1.50,1e400,-0,12345678901234567890,1E-7,100e-2]`, `[1.5,null,0,12345678901234567000,1e-7,1]`},
		{`"\ud83d"`, `"\ud83d"`},
		// Left as they are (unchangedByJS), and the look-alikes that are not.
		{`{"a":[1,-2,0,{"b":"\ud83d"}],"c":123456789012345}`, `{"a":[1,-2,0,{"b":"\ud83d"}],"c":123456789012345}`},
		{`[1234567890123456789,-0,0.5,10.0,1e2]`, `[1234567890123456800,0,0.5,10,100]`},
		{`{"a":{"x":1,"7":2}}`, `{"a":{"7":2,"x":1}}`},
		{`{"a":[{"x":1,"x":2}]}`, `{"a":[{"x":2}]}`},
	} {
		v, err := jsonv.Parse([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		if got := JSValue(v).String(); got != tc.want {
			t.Errorf("JSValue(%s) = %s, want %s", tc.in, got, tc.want)
		}
		if got := jsRebuild(v).String(); got != tc.want {
			t.Errorf("jsRebuild(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
