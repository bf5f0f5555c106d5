package subject_test

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/piconform/piconform/harness/subject"
	"github.com/piconform/piconform/reference/jsonv"
)

// faultEnv makes this test binary a misbehaving adapter (see fault).
const faultEnv = "PICONFORM_TEST_FAULT"

// fault is an adapter that says hello, then misbehaves on the first case:
// "close-stdout" closes its output and keeps running; "exit" exits.
func fault(behaviour string) int {
	in := bufio.NewReader(os.Stdin)
	for {
		data, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		frame, _ := jsonv.Parse(data)
		typ, _ := frame.Get("type")
		if typ.Str() == "hello" {
			os.Stdout.WriteString(`{"type":"hello","protocol":1,"implementation":{"name":"fault","version":"1","language":"go","kinds":["sanitize"]}}` + "\n")
			continue
		}
		switch behaviour {
		case "close-stdout":
			os.Stdout.Close()
			time.Sleep(time.Minute)
		}
		return 3
	}
}

// TestAdapterFaults: an adapter that closes its output and keeps running
// is a crash as soon as it closes it, not a timeout at the case deadline:
// a command of plain words runs without a shell in between.
func TestAdapterFaults(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	tests := []struct {
		behaviour string
		msg       string
	}{
		{"close-stdout", "closed its output"},
		{"exit", "exited"},
	}
	for _, tt := range tests {
		t.Run(tt.behaviour, func(t *testing.T) {
			p := &subject.Process{Command: faultEnv + "=" + tt.behaviour + " " + q(exe), StartTimeout: 30 * time.Second}
			defer p.Close()
			if _, err := p.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			// A deadline far longer than the test should take: a timeout
			// means the closed output went unseen.
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, err := p.Run(ctx, subject.Case{ID: "sanitize/a", Kind: "sanitize", Input: jsonv.ObjectValue()})
			f := subject.AsFailure(err)
			if f == nil || f.Outcome != subject.FailCrash || !strings.Contains(f.Msg, tt.msg) {
				t.Errorf("Run = %v, want a crash saying %q", err, tt.msg)
			}
		})
	}
}
