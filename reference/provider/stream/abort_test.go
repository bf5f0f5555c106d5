package stream

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/piconform/piconform/reference/ai"
)

// TestRunAborts: each byte fed is one event; the caller aborts after two.
// With a text the stream fails with it; without one it ends (End), and
// Fired tells End so. Either way no byte past the abort is read.
func TestRunAborts(t *testing.T) {
	for _, tc := range []struct {
		text, want string
	}{
		{"This operation was aborted", "feed(a) feed(b) fail(This operation was aborted)"},
		{"", "feed(a) feed(b) end(fired)"},
	} {
		body := &AbortAfter{ReadCloser: io.NopCloser(iotest.OneByteReader(strings.NewReader("abc"))), Events: 2, Text: tc.text}
		var seen []string
		events := 0
		err := Run(body, Steps{
			Feed: func(data []byte, eof bool) bool {
				events += len(data)
				seen = append(seen, "feed("+string(data)+")")
				return false
			},
			End: func() {
				if Fired(body) {
					seen = append(seen, "end(fired)")
				}
			},
			Fail:   func(msg string) { seen = append(seen, "fail("+msg+")") },
			Events: func() int { return events },
		})
		if got := strings.Join(seen, " "); got != tc.want {
			t.Errorf("text %q: steps = %s, want %s", tc.text, got, tc.want)
		}
		if !errors.Is(err, ErrAborted) {
			t.Errorf("text %q: err = %v, want ErrAborted", tc.text, err)
		}
	}
}

func TestAbortedMarksTheErrorEvent(t *testing.T) {
	out := &ai.AssistantMessage{}
	out, events := Failure(out, "x")
	Aborted(out, events)
	if out.StopReason != ai.StopAborted || events[0].Reason != ai.StopAborted {
		t.Errorf("stopReason %q, event reason %q", out.StopReason, events[0].Reason)
	}
}
