package stream

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/piconform/piconform/reference/ai"
)

// TestRun drives Run with a feed that records what it is given: a line
// "stop" ends the reading, "throw" and "outside" throw.
func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name    string
		r       io.Reader
		want    string // what the steps saw, in order
		wantErr bool
	}{
		{"whole body then eof", strings.NewReader("a b"), "feed(a b) feed() feed(eof) end", false},
		{"stop ends reading", iotest.OneByteReader(strings.NewReader("stop tail")), "feed(s) feed(t) feed(o) feed(p) end", false},
		{"read error fails", io.MultiReader(strings.NewReader("a"), iotest.ErrReader(errors.New("terminated"))), "feed(a) feed() fail(terminated)", true},
		{"a throw fails", strings.NewReader("throw"), "feed(throw) fail(boom)", false},
		{"outside fails and tells", strings.NewReader("outside"), "feed(outside) outside fail(outside the model)", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var seen []string
			var text string
			steps := Steps{
				Feed: func(data []byte, eof bool) bool {
					if eof {
						seen = append(seen, "feed(eof)")
						return false
					}
					seen = append(seen, "feed("+string(data)+")")
					text += string(data)
					switch text {
					case "throw":
						panic(JSError{Msg: "boom"})
					case "outside":
						panic(Outside{})
					}
					return text == "stop"
				},
				End:     func() { seen = append(seen, "end") },
				Fail:    func(msg string) { seen = append(seen, "fail("+msg+")") },
				Outside: func() { seen = append(seen, "outside") },
			}
			err := Run(tc.r, steps)
			if got := strings.Join(seen, " "); got != tc.want {
				t.Errorf("steps = %s, want %s", got, tc.want)
			}
			if (err != nil) != tc.wantErr {
				t.Errorf("err = %v", err)
			}
		})
	}
}

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
