package stream

import (
	"errors"
	"io"

	"github.com/piconform/piconform/reference/ai"
)

// ErrAborted is what Run returns when it stopped reading because the
// caller aborted (AbortAfter): the stream already ended with an error event,
// which Aborted turns into Pi's aborted one.
var ErrAborted = errors.New("stream aborted by the caller")

// AbortAfter is a response body read by a caller who aborts the request
// once the stream has emitted Events events, as a consumer firing Pi's
// AbortSignal after its k-th event does. Run stops reading then and ends
// the stream with Text, the error the provider's pending read throws.
// A parser passes the body it was given to Run as it is, so that Run can
// see this type.
type AbortAfter struct {
	io.ReadCloser
	Events int
	// Text is the error the waiting read throws. Empty when the API's SDK
	// ends its stream quietly on an abort instead, as at the end of the
	// body: Pi's own checks of how the stream ended then run, and Fired
	// tells them that the signal fired.
	Text  string
	fired bool
}

// Fired tells whether the caller aborted the stream read from r.
func Fired(r io.Reader) bool {
	a, ok := r.(*AbortAfter)
	return ok && a.fired
}

// abortDue tells whether the caller of a stream read by r aborts now, and
// if so marks it fired.
func abortDue(r io.Reader, s Steps) (*AbortAfter, bool) {
	a, ok := r.(*AbortAfter)
	if !ok || a.fired || s.Events == nil || s.Events() < a.Events {
		return nil, false
	}
	a.fired = true
	return a, true
}

// Aborted marks a failed stream as aborted: Pi's stopReason is "aborted"
// when the signal fired, whatever the error was. events ends with the
// stream's error event.
func Aborted(out *ai.AssistantMessage, events []Event) {
	out.StopReason = ai.StopAborted
	if n := len(events); n > 0 && events[n-1].Type == TypeError {
		events[n-1].Reason = ai.StopAborted
	}
}
