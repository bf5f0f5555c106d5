package stream

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

var testModel = &ai.Model{ID: "m", API: "a", Provider: "p"}

func fixedClock() jsonv.Value { return jsonv.NumberValue("5") }

// TestAnswerPerDialect: what the answer side of every API does in each
// dialect (MSG-103, MSG-104, SHR16-04, SHR16-06).
func TestAnswerPerDialect(t *testing.T) {
	for _, tc := range []struct {
		d         dialect.Dialect
		startStop string
		raw       bool // rawStopReason kept
		timed     bool // durationMs stamped
	}{
		{dialect.V0_80, "stop", false, false},
		{dialect.V1_6, "pending", true, true},
	} {
		t.Run(tc.d.String(), func(t *testing.T) {
			out := NewOutputIn(tc.d, testModel, "a", fixedClock)
			if out.StopReason != tc.startStop || out.Dialect != tc.d {
				t.Errorf("starts at %q of %s, want %q of %s", out.StopReason, out.Dialect, tc.startStop, tc.d)
			}
			SetRawStopReason(out, jsonv.StringValue("end_turn"))
			if got := !out.RawStopReason.IsAbsent(); got != tc.raw {
				t.Errorf("rawStopReason kept = %v, want %v", got, tc.raw)
			}
			events := []Event{DoneEvent(out)}
			Finish(tc.d, out, events, 1499*time.Microsecond)
			want := jsonv.Value{}
			if tc.timed {
				want = jsonv.NumberValue("1")
			}
			if !jsonv.Equal(out.DurationMs, want) || events[0].Message.DurationMs.Literal() != want.Literal() {
				t.Errorf("durationMs = %v, want %v", out.DurationMs, want)
			}
		})
	}
}

// TestFinish: the event stream stamps the terminal event's message (a
// copy too), keeps a durationMs already there, and rounds as Math.round.
func TestFinish(t *testing.T) {
	for _, tc := range []struct {
		name    string
		elapsed time.Duration
		preset  string
		want    string
	}{
		{"rounds down", 2*time.Millisecond + 499*time.Microsecond, "", "2"},
		{"half rounds up", 2*time.Millisecond + 500*time.Microsecond, "", "3"},
		{"zero", 0, "", "0"},
		{"kept", 40 * time.Millisecond, "5", "5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := NewOutputIn(dialect.V1_6, testModel, "a", fixedClock)
			other := *out
			if tc.preset != "" {
				out.DurationMs = jsonv.NumberValue(tc.preset)
				other.DurationMs = out.DurationMs
			}
			events := []Event{{Type: TypeStart}, ErrorEvent(&other, "x")}
			Finish(dialect.V1_6, out, events, tc.elapsed)
			if out.DurationMs.Literal() != tc.want || other.DurationMs.Literal() != tc.want {
				t.Errorf("durationMs = %s and %s, want %s", out.DurationMs.Literal(), other.DurationMs.Literal(), tc.want)
			}
		})
	}
}

// TestRequireStop: a message still pending at the end fails with the
// API's text; one with a stop reason passes.
func TestRequireStop(t *testing.T) {
	for _, tc := range []struct {
		stop  string
		throw bool
	}{{ai.StopPending, true}, {ai.StopStop, false}, {ai.StopToolUse, false}} {
		got := func() (threw string) {
			defer func() {
				if x := recover(); x != nil {
					threw = x.(JSError).Msg
				}
			}()
			RequireStop(&ai.AssistantMessage{StopReason: tc.stop}, "API stream ended without a stop reason")
			return ""
		}()
		if (got != "") != tc.throw || (tc.throw && got != "API stream ended without a stop reason") {
			t.Errorf("%s: threw %q, want a throw: %v", tc.stop, got, tc.throw)
		}
	}
}

// TestParseToolCallArguments: SHR16-05, expected values printed by
// parseToolCallArguments of pi-ai 1.6.0 under Node 22.
func TestParseToolCallArguments(t *testing.T) {
	for _, tc := range []struct{ text, args, argsErr string }{
		{"", `{}`, ""},
		{"  ", `{}`, ""},
		{`{"a":1}`, `{"a":1}`, ""},
		{"{\"a\":\"x\ty\"}", `{"a":"x\ty"}`, ""}, // repaired
		{`{"a":"\d"}`, `{"a":"\\d"}`, ""},        // repaired
		{`{"path": "a`, `{}`, "Unterminated string in JSON at position 11 (line 1 column 12)\n\nReceived arguments:\n{\"path\": \"a"},
		{`[1]`, `{}`, "Tool arguments must be a JSON object\n\nReceived arguments:\n[1]"},
		{`5`, `{}`, "Tool arguments must be a JSON object\n\nReceived arguments:\n5"},
		{`null`, `{}`, "Tool arguments must be a JSON object\n\nReceived arguments:\nnull"},
		{`{a:1}`, `{}`, "Expected property name or '}' in JSON at position 1 (line 1 column 2)\n\nReceived arguments:\n{a:1}"},
	} {
		args, argsErr := ParseToolCallArguments(tc.text)
		got := ""
		if argsErr != nil {
			got = *argsErr
		}
		if args.String() != tc.args || got != tc.argsErr {
			t.Errorf("%q: got %s, %q; want %s, %q", tc.text, args, got, tc.args, tc.argsErr)
		}
	}
}

// TestFinishArguments: 0.80 keeps what a prefix parses to; 1.6 parses
// once and adds argumentsError after the block's members.
func TestFinishArguments(t *testing.T) {
	const text = `{"path": "a`
	for _, tc := range []struct {
		d    dialect.Dialect
		want string
	}{
		{dialect.V0_80, `{"type":"toolCall","id":"c","name":"n","arguments":{"path":"a"}}`},
		{dialect.V1_6, `{"type":"toolCall","id":"c","name":"n","arguments":{},"argumentsError":"Unterminated string in JSON at position 11 (line 1 column 12)\n\nReceived arguments:\n{\"path\": \"a"}`},
	} {
		b := &ai.ToolCallBlock{ID: "c", Name: "n", Arguments: jsonv.ObjectValue()}
		FinishArguments(tc.d, b, text)
		if diff := cmp.Diff(tc.want, b.JSON().String()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.d, diff)
		}
	}
}

// TestKeepResponseID: `output.responseId ||= id` over a stream's chunks, as
// Pi 1.6.0 keeps it (a null, 0 or false id is kept by Pi, which the message
// cannot hold).
func TestKeepResponseID(t *testing.T) {
	str := func(s string) *string { return &s }
	for _, tc := range []struct {
		name string
		have *string
		id   jsonv.Value
		want *string
		ok   bool
	}{
		{"first id", nil, jsonv.StringValue("r1"), str("r1"), true},
		{"kept", str("r1"), jsonv.StringValue("r2"), str("r1"), true},
		{"kept over a null", str("r1"), jsonv.NullValue(), str("r1"), true},
		{"empty replaced", str(""), jsonv.StringValue("r2"), str("r2"), true},
		{"empty unset by absent", str(""), jsonv.Value{}, nil, true},
		{"null", nil, jsonv.NullValue(), nil, false},
		{"zero", str(""), jsonv.NumberValue("0"), str(""), false},
		{"false", nil, jsonv.BoolValue(false), nil, false},
	} {
		out := &ai.AssistantMessage{ResponseID: tc.have}
		ok := KeepResponseID(out, tc.id)
		if ok != tc.ok || !cmp.Equal(out.ResponseID, tc.want) {
			t.Errorf("%s: responseId %v, ok %v; want %v, %v", tc.name, out.ResponseID, ok, tc.want, tc.ok)
		}
	}
}
