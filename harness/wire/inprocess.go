package wire

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
)

// InProcess is the HTTP client for an implementation that runs in this
// process (the built-in reference). A connection it opens to a replay
// server of this process is an in-memory pipe instead of a TCP socket: a
// write on a pipe returns only once the reader has taken all of it, and a
// read never spans two writes, so a split replay (Settings.ChunkBytes)
// hands the client each piece in a read of its own, without the pause a
// socket needs. Other addresses are dialled as usual.
var InProcess = &http.Client{Transport: inProcessTransport}

var inProcessTransport = func() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = dialInProcess
	return t
}()

// pipeListeners holds the in-memory listener of every live replay, by the
// address of its TCP listener.
var pipeListeners sync.Map // string → *pipeListener

func dialInProcess(ctx context.Context, network, addr string) (net.Conn, error) {
	if l, ok := pipeListeners.Load(addr); ok {
		return l.(*pipeListener).dial(ctx)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}

// pipeListener is a net.Listener whose connections come from
// dialInProcess.
type pipeListener struct {
	addr   net.Addr
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func newPipeListener(addr net.Addr) *pipeListener {
	return &pipeListener{addr: addr, conns: make(chan net.Conn), closed: make(chan struct{})}
}

var errListenerClosed = errors.New("wire: in-process listener closed")

func (l *pipeListener) dial(ctx context.Context) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.closed:
		return nil, errListenerClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, errListenerClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return l.addr }

// isPipe reports whether req came over an in-memory pipe.
func isPipe(req *http.Request) bool {
	addr, ok := req.Context().Value(http.LocalAddrContextKey).(net.Addr)
	return ok && addr.Network() == "pipe"
}
