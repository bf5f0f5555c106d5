package openaicompletions

import "strings"

// sseEvent is one dispatched server-sent event; event is nil when it had
// no "event:" line.
type sseEvent struct {
	event *string
	data  string
}

// sseReader is the openai SDK's SSE splitting (LineDecoder, SSEDecoder):
// lines end at \n, \r\n or \r, each line is decoded as UTF-8 on its own
// (TextDecoder drops a leading BOM of every line and turns bad bytes into
// U+FFFD), a blank line dispatches the event being collected when it has a
// non-empty name or any data, "event" and "data" are the only fields, and
// one space after the colon is dropped. An event that no blank line ends is
// never dispatched, not even at the end of the body.
//
// A \r at the end of the bytes read so far is held until the next byte,
// so the result does not depend on how the body is cut into reads.
type sseReader struct {
	pending []byte
	event   *string
	data    []string
}

func (s *sseReader) feed(chunk []byte, eof bool) []sseEvent {
	s.pending = append(s.pending, chunk...)
	var out []sseEvent
	for {
		i := indexLineEnd(s.pending)
		if i < 0 || (s.pending[i] == '\r' && i == len(s.pending)-1 && !eof) {
			break
		}
		line := decodeUTF8(stripBOM(s.pending[:i]))
		next := i + 1
		if s.pending[i] == '\r' && next < len(s.pending) && s.pending[next] == '\n' {
			next++
		}
		s.pending = s.pending[next:]
		if ev, ok := s.line(line); ok {
			out = append(out, ev)
		}
	}
	if eof && len(s.pending) > 0 {
		if ev, ok := s.line(decodeUTF8(stripBOM(s.pending))); ok {
			out = append(out, ev)
		}
		s.pending = nil
	}
	return out
}

func indexLineEnd(b []byte) int {
	for i, c := range b {
		if c == '\r' || c == '\n' {
			return i
		}
	}
	return -1
}

func (s *sseReader) line(line string) (sseEvent, bool) {
	if line == "" {
		if (s.event == nil || *s.event == "") && len(s.data) == 0 {
			return sseEvent{}, false
		}
		ev := sseEvent{event: s.event, data: strings.Join(s.data, "\n")}
		s.event, s.data = nil, nil
		return ev, true
	}
	if strings.HasPrefix(line, ":") {
		return sseEvent{}, false
	}
	field, value, _ := strings.Cut(line, ":")
	value = strings.TrimPrefix(value, " ")
	switch field {
	case "event":
		s.event = &value
	case "data":
		s.data = append(s.data, value)
	}
	return sseEvent{}, false
}

func stripBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}

// decodeUTF8 is the WHATWG UTF-8 decoder with replacement: each maximal
// invalid subsequence becomes one U+FFFD.
func decodeUTF8(b []byte) string {
	var sb strings.Builder
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			sb.WriteByte(c)
			i++
			continue
		}
		need, lo, hi := 0, byte(0x80), byte(0xBF)
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need = 1
		case c == 0xE0:
			need, lo = 2, 0xA0
		case c == 0xED:
			need, hi = 2, 0x9F
		case c >= 0xE1 && c <= 0xEF:
			need = 2
		case c == 0xF0:
			need, lo = 3, 0x90
		case c == 0xF4:
			need, hi = 3, 0x8F
		case c >= 0xF1 && c <= 0xF3:
			need = 3
		default:
			sb.WriteString("\uFFFD")
			i++
			continue
		}
		j := i + 1
		ok := true
		for k := 0; k < need; k++ {
			if j >= len(b) || b[j] < lo || b[j] > hi {
				ok = false
				break
			}
			lo, hi = 0x80, 0xBF
			j++
		}
		if !ok {
			sb.WriteString("\uFFFD")
			i = j
			continue
		}
		sb.Write(b[i:j])
		i = j
	}
	return sb.String()
}
