package sse

import "strings"

// Event is one dispatched server-sent event.
type Event struct {
	// Name is nil when the event had no "event:" line.
	Name *string
	Data string
	// Raw is every line since the last dispatch, comments included.
	Raw []string
}

// Reader is the line-based SSE reading both Pi's own iterateSseMessages
// and the openai SDK (LineDecoder, SSEDecoder) do: lines end at \n, \r\n or
// a lone \r; a blank line dispatches the event being collected when it has
// a non-empty name or any data; ":" starts a comment; "event" and "data"
// are the only fields, with one space after the colon dropped; bad UTF-8
// becomes U+FFFD.
//
// A \r at the end of the bytes read so far is held until the next byte, so
// the result does not depend on how the body is cut into reads. (Pi splits
// each network read on its own, so a \r\n torn between two reads counts as
// two line ends there; the Reader equals Pi when the body arrives whole.)
//
// The zero Reader reads as Pi does; the fields select the openai SDK's
// differences.
type Reader struct {
	// BOMEachLine: the openai SDK decodes each line on its own, so every
	// line loses a leading BOM. Pi decodes the body as one stream and drops
	// only a BOM at its start.
	BOMEachLine bool
	// DropUnfinished: the openai SDK never dispatches an event that no
	// blank line ends; Pi dispatches it when the body ends.
	DropUnfinished bool

	pending []byte
	started bool
	event   *string
	data    []string
	raw     []string
}

// Feed takes the next read of the body (eof set on the call after the
// last) and returns the events it completes.
func (s *Reader) Feed(chunk []byte, eof bool) []Event {
	s.pending = append(s.pending, chunk...)
	if !s.BOMEachLine && !s.started {
		if len(s.pending) < 3 && !eof {
			return nil
		}
		s.pending = StripBOM(s.pending)
		s.started = true
	}
	var out []Event
	for {
		i := indexLineEnd(s.pending)
		if i < 0 || (s.pending[i] == '\r' && i == len(s.pending)-1 && !eof) {
			break
		}
		line := s.decode(s.pending[:i])
		next := i + 1
		if s.pending[i] == '\r' && next < len(s.pending) && s.pending[next] == '\n' {
			next++
		}
		s.pending = s.pending[next:]
		if ev, ok := s.line(line); ok {
			out = append(out, ev)
		}
	}
	if !eof {
		return out
	}
	if len(s.pending) > 0 {
		if ev, ok := s.line(s.decode(s.pending)); ok {
			out = append(out, ev)
		}
		s.pending = nil
	}
	if !s.DropUnfinished {
		if ev, ok := s.flush(); ok {
			out = append(out, ev)
		}
	}
	return out
}

func (s *Reader) decode(line []byte) string {
	if s.BOMEachLine {
		line = StripBOM(line)
	}
	return DecodeUTF8(line)
}

func indexLineEnd(b []byte) int {
	for i, c := range b {
		if c == '\r' || c == '\n' {
			return i
		}
	}
	return -1
}

func (s *Reader) line(line string) (Event, bool) {
	if line == "" {
		return s.flush()
	}
	s.raw = append(s.raw, line)
	if strings.HasPrefix(line, ":") {
		return Event{}, false
	}
	field, value, _ := strings.Cut(line, ":")
	value = strings.TrimPrefix(value, " ")
	switch field {
	case "event":
		s.event = &value
	case "data":
		s.data = append(s.data, value)
	}
	return Event{}, false
}

// flush dispatches the event being collected. An event with neither a name
// nor data is not dispatched, and then the raw lines are kept.
func (s *Reader) flush() (Event, bool) {
	if (s.event == nil || *s.event == "") && len(s.data) == 0 {
		return Event{}, false
	}
	ev := Event{Name: s.event, Data: strings.Join(s.data, "\n"), Raw: s.raw}
	s.event, s.data, s.raw = nil, nil, nil
	return ev, true
}

// Splitter is the google SDK's reading of the body: bytes are decoded as a
// streaming TextDecoder does (a leading BOM dropped, bad UTF-8 as U+FFFD,
// an unfinished sequence held back and, at the end, dropped), and the text
// is cut at the earliest "\n\n", "\r\r" or "\r\n\r\n". Searching the whole
// undelivered text each time makes the pieces independent of how the bytes
// were split.
type Splitter struct {
	pending []byte
	started bool
	rest    string
}

// Feed takes the next read of the body and returns the pieces it completes.
func (s *Splitter) Feed(chunk []byte) []string {
	s.pending = append(s.pending, chunk...)
	if !s.started {
		if len(s.pending) < 3 && mayBecomeBOM(s.pending) {
			return nil
		}
		s.pending = StripBOM(s.pending)
		s.started = true
	}
	keep := len(s.pending) - len(TrimIncomplete(s.pending))
	s.rest += DecodeUTF8(s.pending[:len(s.pending)-keep])
	s.pending = append([]byte(nil), s.pending[len(s.pending)-keep:]...)
	var out []string
	for {
		at, n := -1, 0
		for _, d := range []string{"\n\n", "\r\r", "\r\n\r\n"} {
			if i := strings.Index(s.rest, d); i >= 0 && (at < 0 || i < at) {
				at, n = i, len(d)
			}
		}
		if at < 0 {
			return out
		}
		out = append(out, s.rest[:at])
		s.rest = s.rest[at+n:]
	}
}

// Rest is the decoded text after the last delimiter.
func (s *Splitter) Rest() string { return s.rest }
