package jsonv

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unsafe"
)

// ReadArray reads one JSON array from r and calls each with its elements in
// order, parsed as Parse parses them. Neither the input nor the whole array
// is held: an element is parsed once its last byte has been read and is the
// caller's to keep or drop, so a long transcript can be read in the memory
// of the messages the caller keeps. What the elements share (interned member
// names, the chunks their short strings are packed in) is shared across the
// whole array.
//
// A syntax error is a *SyntaxError placed in the whole input: its offset,
// line and column count from r's first byte, and its pointer starts with the
// element's index. An error from r or from each ends the read and is returned
// as it is.
func ReadArray(r io.Reader, each func(i int, v Value) error) error {
	a := &arrayReader{r: r, buf: make([]byte, 0, readChunk), line: 1, col: 1}
	a.p.streaming = true
	c, err := a.nonSpace()
	if err != nil {
		return err
	}
	if c != '[' {
		return a.errorf("unexpected %s, want '['", a.describe())
	}
	a.pos++
	for i := 0; ; i++ {
		c, err := a.nonSpace()
		if err != nil {
			return err
		}
		if c == ']' && i == 0 {
			a.pos++
			break
		}
		v, err := a.element(i)
		if err != nil {
			return err
		}
		if err := each(i, v); err != nil {
			return err
		}
		if c, err = a.nonSpace(); err != nil {
			return err
		}
		a.pos++
		if c == ']' {
			break
		}
		if c != ',' {
			a.pos--
			return a.errorf("unexpected %s, want ',' or ']'", a.describe())
		}
	}
	if _, err := a.nonSpace(); err != nil {
		return err
	}
	if a.pos < len(a.buf) {
		return a.errorf("unexpected %s after the value", a.describe())
	}
	return nil
}

// readChunk is how much ReadArray asks its reader for at a time.
const readChunk = 64 << 10

// arrayReader is ReadArray's state: a window of the input, where it stands
// in the whole, and the parser its elements share.
type arrayReader struct {
	r   io.Reader
	buf []byte // the unread input is buf[pos:]
	pos int
	eof bool
	// offset, line and col place buf[mark] in the whole input; mark only
	// moves forward, so that lines are counted once.
	mark, offset, line, col int
	// elem gathers the bytes of an element that a read cuts in two.
	elem []byte
	p    parser
}

// fill drops the bytes read so far and reads more; it reports false at the
// end of the input.
func (a *arrayReader) fill() (bool, error) {
	if a.eof {
		return false, nil
	}
	a.position(a.pos)
	a.mark = 0
	a.buf = a.buf[:copy(a.buf, a.buf[a.pos:])]
	a.pos = 0
	for len(a.buf) < cap(a.buf) {
		n, err := a.r.Read(a.buf[len(a.buf):cap(a.buf)])
		a.buf = a.buf[:len(a.buf)+n]
		if errors.Is(err, io.EOF) {
			a.eof = true
			break
		}
		if err != nil {
			return false, err
		}
		if n > 0 {
			break
		}
	}
	return a.pos < len(a.buf), nil
}

// nonSpace skips white space and returns the next byte, or 0 at the end of
// the input.
func (a *arrayReader) nonSpace() (byte, error) {
	for {
		for a.pos < len(a.buf) {
			switch c := a.buf[a.pos]; c {
			case ' ', '\t', '\n', '\r':
				a.pos++
			default:
				return c, nil
			}
		}
		if more, err := a.fill(); !more {
			return 0, err
		}
	}
}

// element reads the value that starts at the next byte, which is not white
// space, and parses it as element i. It gathers bytes up to where the value
// ends by its structure alone (strings, brackets, a scalar's delimiter) and
// leaves everything else, a malformed value included, to the parser, which
// then reports the error as Parse would.
func (a *arrayReader) element(i int) (Value, error) {
	a.elem = a.elem[:0]
	depth, inString := 0, false
	if a.pos == len(a.buf) || a.buf[a.pos] == ',' || a.buf[a.pos] == ']' || a.buf[a.pos] == '}' {
		err := a.errorf("unexpected %s, want a JSON value", a.describe())
		if a.pos == len(a.buf) {
			err = a.errorf("unexpected end of input")
		}
		err.Pointer = Index("", i)
		return Value{}, err
	}
	if v, ok, err := a.inPlace(i); ok {
		return v, err
	}
	// A read comes in the middle of the element: its bytes are gathered
	// in elem up to where its structure ends, then parsed.
	start := a.position(a.pos)
	from, done := a.pos, false
	for !done {
		if a.pos == len(a.buf) {
			a.elem = append(a.elem, a.buf[from:a.pos]...)
			more, err := a.fill()
			if err != nil {
				return Value{}, err
			}
			if from = a.pos; !more {
				break // the parser tells what is missing
			}
		}
		for a.pos < len(a.buf) && !done {
			if inString {
				// The string ends at the next quote that an even run of
				// backslashes precedes.
				j := bytes.IndexByte(a.buf[a.pos:], '"')
				if j < 0 {
					a.pos = len(a.buf)
					break
				}
				q := a.pos + j
				a.pos = q + 1
				if a.backslashesBefore(from, q)%2 == 0 {
					if inString = false; depth == 0 {
						done = true
					}
				}
				continue
			}
			switch a.buf[a.pos] {
			case '"':
				inString = true
			case '{', '[':
				depth++
			case '}', ']':
				if depth == 0 {
					done = true // a scalar's end; the bracket is not its
					continue
				}
				if depth--; depth == 0 {
					done = true
				}
			case ',', ' ', '\t', '\n', '\r':
				if depth == 0 {
					done = true
					continue
				}
			}
			a.pos++
		}
	}
	text := a.buf[from:a.pos]
	if len(a.elem) > 0 {
		a.elem = append(a.elem, text...)
		text = a.elem
	}
	v, err := a.parse(text, i)
	if err == nil && a.p.pos < len(text) {
		// The value ended before what its structure seemed to hold.
		a.p.path = a.p.path[:0]
		err = a.p.errorf("unexpected %s, want ',' or ']'", a.p.describe())
	}
	return v, placed(err, start)
}

// inPlace parses element i where it starts, in the window, as far as the
// window goes, which is most elements once and for all: the bytes are
// looked at once, by the parser. It reports false, having read nothing,
// when the window may end inside the element (before the end of the
// input), which then has to be gathered (element).
func (a *arrayReader) inPlace(i int) (Value, bool, error) {
	window := a.buf[a.pos:]
	v, err := a.parse(window, i)
	// Where the window's end bears on what the parser did (a string, a
	// container, a literal or an escape cut short, all errors at the
	// end; a number that ran to it), it stopped within a few bytes of the
	// end. An element that ends that near it is gathered too.
	const lookahead = 8
	if !a.eof && (a.p.numberAtEnd || a.p.pos+lookahead > len(window)) {
		return Value{}, false, nil
	}
	if err != nil {
		err = placed(err, a.position(a.pos))
	}
	a.pos += a.p.pos
	return v, true, err
}

// parse parses text as element i. The parser copies what it keeps out of
// text (owned), so the window may be read over afterwards.
func (a *arrayReader) parse(text []byte, i int) (Value, error) {
	p := &a.p
	p.data, p.owned, p.pos, p.numberAtEnd = unsafe.String(unsafe.SliceData(text), len(text)), text, 0, false
	p.members, p.elems = p.members[:0], p.elems[:0]
	p.path = append(p.path[:0], pathSegment{index: i})
	return p.value(1)
}

// placed moves a syntax error in an element's text to its place in the
// whole input, where the element starts at start.
func placed(err error, start SyntaxError) error {
	if se := (*SyntaxError)(nil); errors.As(err, &se) {
		se.Offset += start.Offset
		if se.Line == 1 {
			se.Column += start.Column - 1
		}
		se.Line += start.Line - 1
	}
	return err
}

// backslashesBefore counts the backslashes right before buf[q], down to
// the element's first byte in the window, from, and on into the bytes
// gathered from earlier reads.
func (a *arrayReader) backslashesBefore(from, q int) int {
	k := q - 1
	for k >= from && a.buf[k] == '\\' {
		k--
	}
	n := q - 1 - k
	if k < from {
		for j := len(a.elem) - 1; j >= 0 && a.elem[j] == '\\'; j-- {
			n++
		}
	}
	return n
}

// position places buf[k], at or after the mark, in the whole input, and
// moves the mark there.
func (a *arrayReader) position(k int) SyntaxError {
	passed := a.buf[a.mark:k]
	if nl := bytes.Count(passed, []byte{'\n'}); nl > 0 {
		a.line += nl
		a.col = len(passed) - bytes.LastIndexByte(passed, '\n')
	} else {
		a.col += len(passed)
	}
	a.offset += len(passed)
	a.mark = k
	return SyntaxError{Offset: a.offset, Line: a.line, Column: a.col}
}

func (a *arrayReader) describe() string {
	p := parser{data: unsafe.String(unsafe.SliceData(a.buf), len(a.buf)), pos: a.pos}
	return p.describe()
}

func (a *arrayReader) errorf(format string, args ...any) *SyntaxError {
	se := a.position(a.pos)
	se.Msg = fmt.Sprintf(format, args...)
	return &se
}
