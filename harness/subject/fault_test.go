//go:build unix

package subject_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/piconform/piconform/harness/subject"
	"github.com/piconform/piconform/reference/jsonv"
)

// faultEnv makes this test binary a misbehaving adapter (see fault).
const faultEnv = "PICONFORM_TEST_FAULT"

// pidFileEnv names the file where "setsid-child" writes its child's pid.
const pidFileEnv = "PICONFORM_TEST_PIDFILE"

// fault is an adapter that says hello, then misbehaves on the first case:
// "close-stdout" closes its output and keeps running; "exit" exits;
// "setsid-child" starts a child in a new session at hello and hangs.
// "sleep" only sleeps (the child).
func fault(behaviour string) int {
	if behaviour == "sleep" {
		time.Sleep(time.Minute)
		return 0
	}
	in := bufio.NewReader(os.Stdin)
	for {
		data, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		frame, _ := jsonv.Parse(data)
		typ, _ := frame.Get("type")
		if typ.Str() == "hello" {
			if behaviour == "setsid-child" {
				// A child in a session of its own, out of the process group.
				child := exec.Command(os.Args[0])
				child.Env = append(os.Environ(), faultEnv+"=sleep")
				child.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
				if child.Start() == nil {
					os.WriteFile(os.Getenv(pidFileEnv), []byte(strconv.Itoa(child.Process.Pid)), 0o644)
				}
			}
			os.Stdout.WriteString(`{"type":"hello","protocol":1,"implementation":{"name":"fault","version":"1","language":"go","kinds":["sanitize"]}}` + "\n")
			continue
		}
		if typ.Str() == "bye" {
			return 0
		}
		switch behaviour {
		case "sleep", "setsid-child":
			time.Sleep(time.Minute)
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
	t.Parallel()
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
			t.Parallel()
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

// TestSetsidChildIsReaped: a child that left the adapter's process group
// and session (setsid) is killed with the adapter when the runner stops it
// at a timeout, and when the runner closes it and it exits on its own.
func TestSetsidChildIsReaped(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc: only the process group is killed")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, how := range []string{"timeout", "close"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			pidFile := filepath.Join(t.TempDir(), "pid")
			p := &subject.Process{Command: pidFileEnv + "=" + pidFile + " " + faultEnv + "=setsid-child " + exe, StartTimeout: 30 * time.Second}
			defer p.Close()
			if _, err := p.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatal(err)
			}
			pid, _ := strconv.Atoi(string(data))
			if how == "timeout" {
				ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
				defer cancel()
				if _, err := p.Run(ctx, subject.Case{ID: "sanitize/a", Kind: "sanitize", Input: jsonv.ObjectValue()}); subject.AsFailure(err).Outcome != subject.FailTimeout {
					t.Fatalf("Run = %v, want a timeout", err)
				}
			} else {
				p.Close()
			}
			for range 100 { // the kill is sent; the child may take a moment to go
				if !alive(pid) {
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("the setsid child %d outlived its adapter", pid)
		})
	}
}

// alive tells whether a process runs (a zombie, killed but not yet reaped
// by its new parent, does not).
func alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}
