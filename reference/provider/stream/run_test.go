package stream

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
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
