package stream

import (
	"math"
	"time"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/transform"
)

// NewOutputIn is the message a stream of dialect d starts a response
// with: NewOutput's, starting at d's stop reason ("pending" from 1.6 on)
// and built by d (ai.AssistantMessage.Dialect), which the other helpers
// of this file read.
func NewOutputIn(d dialect.Dialect, model *ai.Model, api string, now transform.Clock) *ai.AssistantMessage {
	out := NewOutput(model, api, now)
	out.StopReason, out.Dialect = startStopReason.At(d), d
	return out
}

// SetRawStopReason records v, the provider's stop value as it arrived, as
// the message's rawStopReason where its dialect keeps one (1.6 on); each
// API calls it where it reads its stop value, before mapping it.
func SetRawStopReason(out *ai.AssistantMessage, v jsonv.Value) {
	if keepsRawStopReason.At(out.Dialect) {
		out.RawStopReason = v
	}
}

// RequireStop is the check Pi 1.6's stream readers make once the body is
// read: a message still "pending" got no stop reason, and the stream
// fails with the API's text (a JSError). A 0.80 message is never pending.
func RequireStop(out *ai.AssistantMessage, text string) {
	if out.StopReason == ai.StopPending {
		panic(JSError{text})
	}
}

// Finish is what Pi's event stream does to the last event of an answer
// of dialect d, which took elapsed from the call: from 1.6 on it stamps
// the final message (the terminal event's, and out) with durationMs, the
// whole milliseconds elapsed, unless it has one already. It also marks
// them as built by d, for their members' order, whichever parser made
// them.
func Finish(d dialect.Dialect, out *ai.AssistantMessage, events []Event, elapsed time.Duration) {
	stamp := func(m *ai.AssistantMessage) {
		if m == nil {
			return
		}
		m.Dialect = d
		if timesAnswer.At(d) && m.DurationMs.IsAbsent() {
			m.DurationMs = DurationMs(elapsed)
		}
	}
	stamp(out)
	if n := len(events); n > 0 && events[n-1].Message != out {
		stamp(events[n-1].Message)
	}
}

// DurationMs is elapsed as Pi writes it: max(0, Math.round(milliseconds)).
func DurationMs(elapsed time.Duration) jsonv.Value {
	ms := math.Floor(float64(elapsed)/float64(time.Millisecond) + 0.5)
	return jsonv.FloatValue(max(0, ms))
}

// KeepResponseID is Pi's `output.responseId ||= id` for each chunk of a
// stream: while out has no responseId (unset or ""), a string id becomes
// it and an absent one leaves it unset. ok is false for an id of any other
// type, which Pi would keep and the message cannot hold (outside the
// model).
func KeepResponseID(out *ai.AssistantMessage, id jsonv.Value) (ok bool) {
	if out.ResponseID != nil && *out.ResponseID != "" {
		return true
	}
	switch id.Kind() {
	case jsonv.String:
		s := id.Str()
		out.ResponseID = &s
	case jsonv.Absent:
		out.ResponseID = nil
	default:
		return false
	}
	return true
}
