package wire

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"sync"
	"syscall"
)

// loopback listens for a replay server: plain TCP, which is all a
// loopback connection needs (Go would make the socket multipath-capable).
var loopback = func() *net.ListenConfig {
	lc := &net.ListenConfig{}
	lc.SetMultipathTCP(false)
	return lc
}()

// listenLoopback listens on 127.0.0.1 at a free port. It names a port
// itself, drawn at random from the system's ephemeral range, and lets the
// kernel choose (port 0) only after a few ports in use. On Linux the
// kernel's own choice searches the range port by port, and a port that a
// closed connection still holds (TIME_WAIT, a minute after every
// connection its side closed first) is skipped one at a time: with
// thousands of them, as a machine that runs a suite of wire cases now and
// then has, one listen took 0.3 to 1.7 ms of CPU, where naming a port
// takes 15 to 35 µs whatever the range holds.
func listenLoopback(ctx context.Context) (net.Listener, error) {
	if lo, hi := ephemeralPorts(); hi > lo {
		for range 8 {
			port := lo + rand.IntN(hi-lo+1)
			l, err := loopback.Listen(ctx, "tcp", fmt.Sprintf("127.0.0.1:%d", port))
			if err == nil {
				return l, nil
			}
			if !errors.Is(err, syscall.EADDRINUSE) && !errors.Is(err, syscall.EACCES) {
				return nil, err
			}
		}
	}
	return loopback.Listen(ctx, "tcp", "127.0.0.1:0")
}

// ephemeralPorts is the range of ports the system gives out itself
// (Linux's ip_local_port_range); 0, 0 where it cannot be read.
var ephemeralPorts = sync.OnceValues(func() (lo, hi int) {
	data, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 0, 0
	}
	if _, err := fmt.Sscan(string(data), &lo, &hi); err != nil || lo < 1024 || hi > 65535 || hi <= lo {
		return 0, 0
	}
	return lo, hi
})
