package jsonv

import (
	"fmt"
	"os"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/piconform/piconform/reference/wtf8"
)

// ReadFile parses the JSON file name; an error names the file.
func ReadFile(name string) (Value, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return Value{}, err
	}
	v, err := Parse(data)
	if err != nil {
		return Value{}, fmt.Errorf("%s: %w", name, err)
	}
	return v, nil
}

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 1000

// SyntaxError is malformed JSON. It says where: the byte offset, the line and
// column, and the JSON Pointer of the value being read.
type SyntaxError struct {
	Offset  int
	Line    int
	Column  int
	Pointer string
	Msg     string
}

func (e *SyntaxError) Error() string {
	ptr := e.Pointer
	if ptr == "" {
		ptr = "/"
	}
	return fmt.Sprintf("line %d column %d (at %s): %s", e.Line, e.Column, ptr, e.Msg)
}

// Parse reads exactly one JSON value from data. Duplicate keys are kept in the
// member list; Get returns the last, as JSON.parse does.
func Parse(data []byte) (Value, error) {
	p := &parser{data: data}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return Value{}, err
	}
	p.skipSpace()
	if p.pos < len(p.data) {
		return Value{}, p.errorf("unexpected %s after the value", p.describe())
	}
	return v, nil
}

type parser struct {
	data []byte
	pos  int
	path []string
}

func (p *parser) errorf(format string, args ...any) error {
	line, col := 1, 1
	for i := 0; i < p.pos && i < len(p.data); i++ {
		if p.data[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &SyntaxError{Offset: p.pos, Line: line, Column: col, Pointer: Pointer(p.path...), Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) describe() string {
	if p.pos >= len(p.data) {
		return "end of input"
	}
	return strconv.QuoteRune(rune(p.data[p.pos]))
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, p.errorf("nesting deeper than %d", maxDepth)
	}
	if p.pos >= len(p.data) {
		return Value{}, p.errorf("unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.string()
		return StringValue(s), err
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		for _, lit := range [...]struct {
			word string
			v    Value
		}{{"true", BoolValue(true)}, {"false", BoolValue(false)}, {"null", NullValue()}} {
			if len(p.data)-p.pos >= len(lit.word) && string(p.data[p.pos:p.pos+len(lit.word)]) == lit.word {
				p.pos += len(lit.word)
				return lit.v, nil
			}
		}
		return Value{}, p.errorf("unexpected %s, want a JSON value", p.describe())
	}
}

func (p *parser) object(depth int) (Value, error) {
	p.pos++ // {
	members := []Member{}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return ObjectValue(members...), nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return Value{}, p.errorf("unexpected %s, want a quoted member name", p.describe())
		}
		key, err := p.string()
		if err != nil {
			return Value{}, err
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return Value{}, p.errorf("unexpected %s, want ':'", p.describe())
		}
		p.pos++
		p.skipSpace()
		p.path = append(p.path, key)
		v, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		p.path = p.path[:len(p.path)-1]
		members = append(members, Member{Key: key, Value: v})
		p.skipSpace()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] == '}' {
			p.pos++
			return ObjectValue(members...), nil
		}
		return Value{}, p.errorf("unexpected %s, want ',' or '}'", p.describe())
	}
}

func (p *parser) array(depth int) (Value, error) {
	p.pos++ // [
	elems := []Value{}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return ArrayValue(elems...), nil
	}
	for {
		p.skipSpace()
		p.path = append(p.path, strconv.Itoa(len(elems)))
		v, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		p.path = p.path[:len(p.path)-1]
		elems = append(elems, v)
		p.skipSpace()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] == ']' {
			p.pos++
			return ArrayValue(elems...), nil
		}
		return Value{}, p.errorf("unexpected %s, want ',' or ']'", p.describe())
	}
}

// string reads a quoted string into canonical WTF-8. A \u escape of a lone
// surrogate is kept as that surrogate; an escaped pair becomes its character.
func (p *parser) string() (string, error) {
	p.pos++ // opening quote
	var b []byte
	start := p.pos
	for {
		if p.pos >= len(p.data) {
			return "", p.errorf("unterminated string")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			if b == nil {
				s := string(p.data[start:p.pos])
				p.pos++
				return s, nil
			}
			p.pos++
			return wtf8.Canonical(string(b)), nil
		case c == '\\':
			if b == nil {
				b = append([]byte{}, p.data[start:p.pos]...)
			}
			if err := p.escape(&b); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", p.errorf("control character %#02x in string", c)
		case c < utf8.RuneSelf:
			if b != nil {
				b = append(b, c)
			}
			p.pos++
		default:
			r, n := utf8.DecodeRune(p.data[p.pos:])
			if r == utf8.RuneError && n == 1 {
				return "", p.errorf("invalid UTF-8 in string")
			}
			if b != nil {
				b = append(b, p.data[p.pos:p.pos+n]...)
			}
			p.pos += n
		}
	}
}

func (p *parser) escape(b *[]byte) error {
	p.pos++ // backslash
	if p.pos >= len(p.data) {
		return p.errorf("unterminated escape")
	}
	c := p.data[p.pos]
	p.pos++
	switch c {
	case '"', '\\', '/':
		*b = append(*b, c)
	case 'b':
		*b = append(*b, '\b')
	case 'f':
		*b = append(*b, '\f')
	case 'n':
		*b = append(*b, '\n')
	case 'r':
		*b = append(*b, '\r')
	case 't':
		*b = append(*b, '\t')
	case 'u':
		r, err := p.hex4()
		if err != nil {
			return err
		}
		// A high surrogate escape followed by a low one is one character.
		if r >= 0xD800 && r <= 0xDBFF && p.pos+6 <= len(p.data) && p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
			save := p.pos
			p.pos += 2
			lo, err := p.hex4()
			if err == nil && lo >= 0xDC00 && lo <= 0xDFFF {
				*b = utf8.AppendRune(*b, utf16.DecodeRune(r, lo))
				return nil
			}
			p.pos = save
		}
		*b = wtf8.AppendRune(*b, r)
	default:
		p.pos--
		return p.errorf("invalid escape '\\%c'", c)
	}
	return nil
}

func (p *parser) hex4() (rune, error) {
	if p.pos+4 > len(p.data) {
		return 0, p.errorf("short \\u escape")
	}
	n, err := strconv.ParseUint(string(p.data[p.pos:p.pos+4]), 16, 32)
	if err != nil {
		return 0, p.errorf("invalid \\u escape %q", p.data[p.pos:p.pos+4])
	}
	p.pos += 4
	return rune(n), nil
}

func (p *parser) number() (Value, error) {
	start := p.pos
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			p.pos++
			continue
		}
		break
	}
	lit := string(p.data[start:p.pos])
	if !validNumber(lit) {
		p.pos = start
		return Value{}, p.errorf("invalid number %q", lit)
	}
	return Value{kind: Number, s: lit}, nil
}

// validNumber checks the JSON number grammar (RFC 8259 section 6).
func validNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	return i == len(s)
}
