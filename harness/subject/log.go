package subject

import (
	"fmt"
	"os"
	"sync"
)

// MaxLogBytes caps one implementation log: an adapter that floods its
// stderr must not fill the disk. What comes past it is dropped, after a
// note saying so.
const MaxLogBytes = 16 << 20

// Log is a log file for an implementation's stderr, capped at a limit.
type Log struct {
	mu      sync.Mutex
	f       *os.File
	limit   int64
	written int64
	cut     bool
}

// LogFile opens (appending) a log file for an implementation's stderr,
// capped at MaxLogBytes.
func LogFile(path string) (*Log, error) { return logFile(path, MaxLogBytes) }

func logFile(path string, limit int64) (*Log, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &Log{f: f, limit: limit}, nil
}

// Write writes p up to the cap, then the note once; it always reports all
// of p written, so the process copying stderr keeps draining it.
func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cut {
		return len(p), nil
	}
	keep := p
	if room := l.limit - l.written; int64(len(p)) > room {
		keep = p[:room]
		l.cut = true
	}
	n, err := l.f.Write(keep)
	l.written += int64(n)
	if l.cut {
		fmt.Fprintf(l.f, "\n[piconform: log truncated at %d bytes; the rest of the implementation's stderr was dropped]\n", l.limit)
	}
	if err != nil {
		return n, err
	}
	return len(p), nil
}

// Close closes the file.
func (l *Log) Close() error { return l.f.Close() }
