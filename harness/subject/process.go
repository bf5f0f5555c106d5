package subject

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/protocol"
	"github.com/piconform/piconform/reference/jsonv"
)

// MaxFrameBytes bounds one line from an implementation, so a flood cannot
// exhaust the runner's memory.
const MaxFrameBytes = protocol.MaxFrameBytes

// DefaultStartTimeout is the start deadline of a process when none is set:
// generous, since an implementation that loads a large runtime (Node and
// the provider SDKs) may share a loaded machine with several more.
const DefaultStartTimeout = 60 * time.Second

// Process runs an implementation as a child process speaking the protocol.
type Process struct {
	// Command is the implementation's command line: run directly when it
	// is only words (quoted as for sh, after optional NAME=value
	// assignments), else with sh -c (see command).
	Command string
	// Dir is the working directory; empty means the runner's.
	Dir string
	// Log receives the implementation's stderr. Nil discards it.
	Log io.Writer
	// StartTimeout bounds start-up: from starting the command to its hello
	// (spec/PROTOCOL.md, "Start-up"). Zero means DefaultStartTimeout. A
	// case's own deadline starts only after the hello.
	StartTimeout time.Duration

	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan line
	seq   int64
	done  chan struct{} // closed when the process has exited
	quit  chan struct{} // closed by stop, so readLines never blocks forever
	mu    sync.Mutex    // guards cmd against Close racing a restart
}

type line struct {
	data []byte
	err  error
}

func (p *Process) Start(ctx context.Context) (Implementation, error) {
	p.stop()
	cmd := command(p.Command)
	cmd.Dir = p.Dir
	setProcessGroup(cmd)
	// A stderr log is copied through a pipe (it is capped); a descendant
	// that keeps the pipe open must not keep Wait from returning.
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return Implementation{}, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return Implementation{}, err
	}
	if p.Log != nil {
		cmd.Stderr = p.Log
	}
	if err := cmd.Start(); err != nil {
		return Implementation{}, &Failure{Outcome: FailCrash, Msg: fmt.Sprintf("cannot start %q: %v", p.Command, err)}
	}
	p.mu.Lock()
	p.cmd, p.stdin, p.lines, p.done, p.quit = cmd, stdin, make(chan line, 1), make(chan struct{}), make(chan struct{})
	p.mu.Unlock()
	go readLines(stdout, p.lines, p.quit)
	go func(done chan struct{}) { _ = cmd.Wait(); close(done) }(p.done)

	timeout := p.StartTimeout
	if timeout == 0 {
		timeout = DefaultStartTimeout
	}
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := p.send(protocol.Hello()); err != nil {
		// An adapter that dies at once breaks the pipe before it could be
		// read from: its exit says more than the write error.
		if exit, ok := p.exitStatus(); ok {
			return Implementation{}, p.fail(FailCrash, "%s", exit)
		}
		return Implementation{}, p.fail(FailCrash, "cannot send hello: %v", err)
	}
	frame, err := p.receive(hctx)
	if err != nil {
		if f := AsFailure(err); f.Outcome == FailTimeout {
			f.Msg = fmt.Sprintf("no hello within the start deadline of %v (--start-timeout)", timeout)
		}
		return Implementation{}, err
	}
	impl, err := parseHello(frame)
	if err != nil {
		f := p.fail(FailProtocol, "hello: %v", err).(*Failure)
		f.Final = errors.Is(err, errVersion)
		return Implementation{}, f
	}
	return impl, nil
}

func (p *Process) Run(ctx context.Context, c Case) (Reply, error) {
	if p.cmd == nil {
		return Reply{}, &Failure{Outcome: FailCrash, Msg: "not started"}
	}
	p.seq++
	seq := p.seq
	err := p.sendBy(ctx, protocol.Run(seq, c))
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return Reply{}, p.fail(FailTimeout, "the implementation did not read the case before the deadline")
	}
	if err != nil {
		return Reply{}, p.fail(FailCrash, "cannot send the case: %v", err)
	}
	frame, err := p.receive(ctx)
	if err != nil {
		return Reply{}, err
	}
	reply, err := parseReply(frame, seq)
	if err != nil {
		return Reply{}, p.fail(FailProtocol, "%v", err)
	}
	return reply, nil
}

// Close says bye, gives the process two seconds to leave, then kills it.
func (p *Process) Close() error {
	if p.cmd == nil {
		return nil
	}
	// The descendants now, while they are attached: an adapter that exits
	// on bye leaves the ones that left its process group (setsid) behind.
	left := descendants(p.cmd.Process.Pid)
	_ = p.send(protocol.Bye())
	_ = p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(2 * time.Second):
	}
	p.stop()
	killAll(left)
	return nil
}

// stop kills the process group, if any, and forgets the process.
func (p *Process) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return
	}
	killProcessGroup(p.cmd)
	_ = p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
	}
	close(p.quit)
	p.cmd = nil
}

func (p *Process) fail(outcome, format string, args ...any) error {
	p.stop()
	return &Failure{Outcome: outcome, Msg: fmt.Sprintf(format, args...)}
}

func (p *Process) send(f protocol.Frame) error {
	_, err := p.stdin.Write(f.AppendLine(nil))
	return err
}

// sendBy is send that gives up at ctx's deadline: an implementation that
// stops reading its input must not block the runner once the pipe is full.
func (p *Process) sendBy(ctx context.Context, f protocol.Frame) error {
	if d, ok := ctx.Deadline(); ok {
		if f, ok := p.stdin.(interface{ SetWriteDeadline(time.Time) error }); ok && f.SetWriteDeadline(d) == nil {
			defer f.SetWriteDeadline(time.Time{})
		}
	}
	return p.send(f)
}

// receive waits for the next frame. Past the context's deadline the process
// is killed and the case is a timeout.
func (p *Process) receive(ctx context.Context) (jsonv.Value, error) {
	select {
	case l, ok := <-p.lines:
		if !ok {
			return jsonv.Value{}, p.fail(FailCrash, "the implementation closed its output")
		}
		if l.err != nil {
			if errors.Is(l.err, errFrameTooLong) {
				return jsonv.Value{}, p.fail(FailProtocol, "%v", l.err)
			}
			return jsonv.Value{}, p.fail(FailCrash, "%v", p.exitDescription(l.err))
		}
		v, err := jsonv.Parse(l.data)
		if err != nil {
			return jsonv.Value{}, p.fail(FailProtocol, "not a JSON frame (%v): %s", err, truncate(l.data, 200))
		}
		if v.Kind() != jsonv.Object {
			return jsonv.Value{}, p.fail(FailProtocol, "a frame must be a JSON object: %s", truncate(l.data, 200))
		}
		if err := protocol.DuplicateKey(v, ""); err != nil {
			return jsonv.Value{}, p.fail(FailProtocol, "%v", err)
		}
		return v, nil
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return jsonv.Value{}, p.fail(FailTimeout, "no answer before the deadline")
		}
		return jsonv.Value{}, p.fail(FailCrash, "interrupted: %v", ctx.Err())
	}
}

func (p *Process) exitDescription(readErr error) string {
	if exit, ok := p.exitStatus(); ok {
		return exit
	}
	if errors.Is(readErr, io.EOF) {
		return "the implementation closed its output"
	}
	return "reading the implementation's output: " + readErr.Error()
}

// exitStatus waits a moment for the process to end, and says how it ended.
func (p *Process) exitStatus() (string, bool) {
	select {
	case <-p.done:
		if st := p.cmd.ProcessState; st != nil {
			return "the implementation exited: " + st.String(), true
		}
	case <-time.After(time.Second):
	}
	return "", false
}

var errVersion = errors.New("/protocol: protocol version mismatch")

var errFrameTooLong = fmt.Errorf("a frame longer than %d bytes", MaxFrameBytes)

// readLines splits r into lines, never holding more than MaxFrameBytes.
// It gives up when quit is closed (nil: never), since nobody reads out then.
func readLines(r io.Reader, out chan<- line, quit <-chan struct{}) {
	defer close(out)
	send := func(l line) bool {
		select {
		case out <- l:
			return true
		case <-quit:
			return false
		}
	}
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		var buf []byte
		for {
			chunk, err := br.ReadSlice('\n')
			if len(buf)+len(chunk) > MaxFrameBytes {
				send(line{err: errFrameTooLong})
				_, _ = io.Copy(io.Discard, r) // keep the child from blocking on a full pipe
				return
			}
			buf = append(buf, chunk...)
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if err != nil {
				if len(bytes.TrimSpace(buf)) > 0 && !send(line{data: buf}) {
					return
				}
				send(line{err: err})
				return
			}
			break
		}
		if len(bytes.TrimSpace(buf)) == 0 {
			continue // blank lines carry nothing
		}
		if !send(line{data: buf}) {
			return
		}
	}
}

func truncate(b []byte, n int) string {
	b = bytes.TrimSpace(b)
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

func parseHello(v jsonv.Value) (Implementation, error) {
	if typ, err := frameType(v); err != nil {
		return Implementation{}, err
	} else if typ != protocol.TypeHello {
		return Implementation{}, jsonv.Errorf("/type", "want \"hello\", got %q", typ)
	}
	// The version first: a runner of another version cannot trust the rest.
	if proto, _ := v.Get("protocol"); proto.Kind() == jsonv.Number {
		if n, _ := proto.Float64(); n != ProtocolVersion {
			return Implementation{}, fmt.Errorf("%w: the runner speaks %d, the implementation %s", errVersion, ProtocolVersion, proto.Literal())
		}
	}
	f, err := protocol.DecodeValue(v)
	if err != nil {
		return Implementation{}, err
	}
	if f.Implementation == nil {
		return Implementation{}, jsonv.Errorf("/implementation", "missing required object")
	}
	return boundHello(*f.Implementation), nil
}

// boundHello cuts what a hello says to what a report shows: each text to 200
// bytes, each list to 200 entries. A hello may be 16 MiB long, and every
// report names the implementation.
func boundHello(impl Implementation) Implementation {
	const most = 200
	clip := func(s string) string { return compare.Clip(s, most) }
	list := func(l []string) []string {
		if l == nil {
			return nil
		}
		out := make([]string, min(len(l), most))
		for i := range out {
			out[i] = clip(l[i])
		}
		return out
	}
	impl.Name, impl.Version, impl.Language, impl.Homepage = clip(impl.Name), clip(impl.Version), clip(impl.Language), clip(impl.Homepage)
	impl.Kinds, impl.APIs, impl.Dialects = list(impl.Kinds), list(impl.APIs), list(impl.Dialects)
	return impl
}

func parseReply(v jsonv.Value, seq int64) (Reply, error) {
	switch typ, err := frameType(v); {
	case err != nil:
		return Reply{}, err
	case typ != ReplyResult && typ != ReplySkip && typ != ReplyError:
		return Reply{}, jsonv.Errorf("/type", "want result, skip or error, got %q", typ)
	}
	f, err := protocol.DecodeValue(v)
	if f.Seq != 0 && f.Seq != seq {
		return Reply{}, jsonv.Errorf("/seq", "answer for seq %d, want %d", f.Seq, seq)
	}
	if err != nil {
		return Reply{}, err
	}
	return f.Answer, nil
}

// frameType reads the member type, which tells what else to expect.
func frameType(v jsonv.Value) (string, error) {
	f := jsonv.ReadFields(v, "")
	typ := f.String("type")
	return typ, f.Err()
}
