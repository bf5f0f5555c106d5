package jsonv

import (
	"fmt"
	"math/bits"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

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

// maxDepth bounds nesting so hostile input cannot exhaust the stack. It is
// encoding/json's bound, and deeper than Node can write: JSON.stringify and
// structuredClone overflow V8's stack near 4,000 levels, so whatever Pi
// writes, and every answer a harness frame carries, reads back.
const maxDepth = 10000

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
//
// The result owns its text: data may change afterwards. ParseString spares
// the copies.
func Parse(data []byte) (Value, error) {
	// The parser only reads through this view; every string it keeps is
	// cloned out of it (owned), so the view never outlives the call.
	p := &parser{data: unsafe.String(unsafe.SliceData(data), len(data)), owned: data}
	return p.parse()
}

// ParseString is Parse reading a string. The strings, numbers and member
// names of the result that need no unescaping share data's text instead
// of being copied: a transcript's values then cost no allocation each.
func ParseString(data string) (Value, error) {
	p := &parser{data: data}
	return p.parse()
}

func (p *parser) parse() (Value, error) {
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
	data string
	// owned is set when data is a view of these bytes, which the caller
	// may change: what the result keeps of them is copied (see slice).
	owned []byte
	pos   int
	// path leads to the value being read; it becomes a JSON Pointer only
	// for an error.
	path []pathSegment
	// members and elems hold the open containers' children, innermost
	// last, so that each container gets one slice of exactly its length.
	// A container that fails leaves its children behind: the parse is
	// over then.
	members []Member
	elems   []Value
	// keys interns member names in an owned parse, transcripts repeat a
	// few of them: a name is kept at one of two places its bytes choose,
	// where a name met again is found; keyMap holds every name, for the
	// rare names whose places are both taken.
	keys   *[256]string
	keyMap map[string]string
	// memberChunk and elemChunk hold the members and elements of the
	// result's smaller containers (see memberSlice).
	memberChunk []Member
	elemChunk   []Value
	// text holds the strings the result keeps a copy of (see keep).
	text []byte
	// scratch is where a string with escapes is decoded before it is
	// copied out at its exact length.
	scratch []byte
	// streaming is set when data is one piece of a longer input (see
	// ReadArray), whose length the chunks of text cannot be fitted to.
	streaming bool
	// numberAtEnd is set when a number ran to the end of data, where
	// more digits may follow in a longer input (see ReadArray).
	numberAtEnd bool
	// lone is set when the string being read holds a lone surrogate,
	// which may need joining with its neighbour (wtf8.Canonical).
	lone bool
}

// pathSegment is a member name, or an array index when index >= 0.
type pathSegment struct {
	key   string
	index int
}

func (p *parser) pointer() string {
	var sb strings.Builder
	for _, seg := range p.path {
		if seg.index >= 0 {
			sb.WriteString(Index("", seg.index))
		} else {
			sb.WriteString(Pointer(seg.key))
		}
	}
	return sb.String()
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
	return &SyntaxError{Offset: p.pos, Line: line, Column: col, Pointer: p.pointer(), Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) describe() string {
	if p.pos >= len(p.data) {
		return "end of input"
	}
	return strconv.QuoteRune(rune(p.data[p.pos]))
}

// keep copies b, read from data at offset at or later, for the result.
// A short string goes into p.text, filled in chunks that are never written
// again once a string is made of them: a transcript's tens of thousands of
// ids, names, numbers and short texts then cost a few allocations instead
// of one each. A long string gets its own allocation, so that it can be
// freed apart from its neighbours (a chunk lives as long as any of its
// strings). A chunk is never longer than what is left of the input, which
// no string still to come can outgrow (unescaping only shortens).
func (p *parser) keep(b []byte, at int) string {
	const short, chunk = 128, 16 << 10
	if len(b) > short {
		return string(b)
	}
	if len(b) == 0 {
		return ""
	}
	if cap(p.text)-len(p.text) < len(b) {
		size := chunk
		if !p.streaming {
			size = min(chunk, len(p.data)-at)
		}
		p.text = make([]byte, 0, max(len(b), size))
	}
	start := len(p.text)
	p.text = append(p.text, b...)
	return unsafe.String(&p.text[start], len(b))
}

// memberSlice is the members of the object just read, p.members[base:],
// to keep in the result (see chunked).
func (p *parser) memberSlice(base int) []Member { return chunked(&p.memberChunk, p.members[base:]) }

// elemSlice is the elements of the array just read, p.elems[base:], to
// keep in the result (see chunked).
func (p *parser) elemSlice(base int) []Value { return chunked(&p.elemChunk, p.elems[base:]) }

// chunked is a copy of the children of a container. Those of a small one
// go into a chunk that later ones share, which costs one allocation for
// many containers, as keep does for strings (a chunk lives as long as any
// of its containers); a larger container gets its own.
func chunked[T any](chunk *[]T, children []T) []T {
	if len(children) > 16 {
		return slices.Clone(children)
	}
	if cap(*chunk)-len(*chunk) < len(children) {
		*chunk = make([]T, 0, 64)
	}
	start := len(*chunk)
	*chunk = append(*chunk, children...)
	return (*chunk)[start:len(*chunk):len(*chunk)]
}

// slice is data[start:end] to keep in the result.
func (p *parser) slice(start, end int) string {
	if p.owned != nil {
		return p.keep(p.owned[start:end], start)
	}
	return p.data[start:end]
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
			if strings.HasPrefix(p.data[p.pos:], lit.word) {
				p.pos += len(lit.word)
				return lit.v, nil
			}
		}
		return Value{}, p.errorf("unexpected %s, want a JSON value", p.describe())
	}
}

func (p *parser) object(depth int) (Value, error) {
	p.pos++ // {
	base := len(p.members)
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return ObjectValue(), nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return Value{}, p.errorf("unexpected %s, want a quoted member name", p.describe())
		}
		key, err := p.key()
		if err != nil {
			return Value{}, err
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return Value{}, p.errorf("unexpected %s, want ':'", p.describe())
		}
		p.pos++
		p.skipSpace()
		p.path = append(p.path, pathSegment{key: key, index: -1})
		v, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		p.path = p.path[:len(p.path)-1]
		p.members = append(p.members, Member{Key: key, Value: v})
		p.skipSpace()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] == '}' {
			p.pos++
			v := ObjectValue(p.memberSlice(base)...)
			p.members = p.members[:base]
			return v, nil
		}
		return Value{}, p.errorf("unexpected %s, want ',' or '}'", p.describe())
	}
}

func (p *parser) array(depth int) (Value, error) {
	p.pos++ // [
	base := len(p.elems)
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return ArrayValue(), nil
	}
	for {
		p.skipSpace()
		p.path = append(p.path, pathSegment{index: len(p.elems) - base})
		v, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		p.path = p.path[:len(p.path)-1]
		p.elems = append(p.elems, v)
		p.skipSpace()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] == ']' {
			p.pos++
			v := ArrayValue(p.elemSlice(base)...)
			p.elems = p.elems[:base]
			return v, nil
		}
		return Value{}, p.errorf("unexpected %s, want ',' or ']'", p.describe())
	}
}

// key reads a member name. In an owned parse a short name without escapes
// is interned; otherwise it is read as any string.
func (p *parser) key() (string, error) {
	if p.owned == nil {
		return p.string()
	}
	end := p.pos + 1
	end += plainLen(p.data[end:min(len(p.data), end+32)])
	if end >= len(p.data) || p.data[end] != '"' {
		return p.string()
	}
	raw := p.data[p.pos+1 : end]
	var k string
	if len(raw) > 0 {
		if p.keys == nil {
			p.keys, p.keyMap = new([256]string), map[string]string{}
		}
		h1, h2 := keyHash(p.data, p.pos+1, end)
		if k = p.keys[h1]; k != raw {
			if k = p.keys[h2]; k != raw {
				var ok bool
				if k, ok = p.keyMap[raw]; !ok {
					k = string(p.owned[p.pos+1 : end])
					p.keyMap[k] = k
				}
				if p.keys[h1] == "" {
					p.keys[h1] = k
				} else {
					p.keys[h2] = k
				}
			}
		}
	}
	p.pos = end + 1
	return k, nil
}

// keyHash gives two places in parser.keys for the member name
// data[start:end], from its length and its first and last eight bytes (of
// a shorter name, its bytes, read as one word where data has room for it).
func keyHash(data string, start, end int) (uint8, uint8) {
	n := end - start
	var a, b uint64
	switch {
	case n >= 8:
		a, b = load64(data[start:]), load64(data[end-8:])
	case len(data)-start >= 8:
		a = load64(data[start:]) & (1<<(8*n) - 1)
		b = a
	default:
		for i := range n {
			a |= uint64(data[start+i]) << (8 * i)
		}
		b = a
	}
	h := (a*0x9E3779B97F4A7C15 ^ b*0xC2B2AE3D27D4EB4F ^ uint64(n)) * 0x165667B19E3779F9
	return uint8(h >> 56), uint8(h >> 48)
}

// string reads a quoted string into canonical WTF-8. A \u escape of a lone
// surrogate is kept as that surrogate; an escaped pair becomes its character.
func (p *parser) string() (string, error) {
	p.pos++ // opening quote
	open := p.pos
	p.pos += plainLen(p.data[p.pos:])
	if p.pos < len(p.data) && p.data[p.pos] == '"' {
		s := p.slice(open, p.pos)
		p.pos++
		return s, nil
	}
	return p.unescapeString(open)
}

// unescapeString reads on a string that opened at open and whose plain
// text stops at p.pos before its closing quote: it decodes the escapes
// into the parser's scratch buffer, copying the plain text between them a
// word at a time as it scans it, or it is an error.
func (p *parser) unescapeString(open int) (string, error) {
	b := append(p.scratch[:0], p.data[open:p.pos]...)
	p.lone = false
	for {
		if p.pos >= len(p.data) {
			return "", p.errorf("unterminated string")
		}
		switch c := p.data[p.pos]; {
		case c == '"':
			p.pos++
			p.scratch = b
			s := p.keep(b, open)
			if p.lone {
				s = wtf8.Canonical(s)
			}
			return s, nil
		case c == '\\':
			// A one-character escape (\n, \", …), most of a text's, is
			// decoded here; \u and malformed escapes in escape.
			if p.pos+1 < len(p.data) && unescape[p.data[p.pos+1]] != 0 {
				b = append(b, unescape[p.data[p.pos+1]])
				p.pos += 2
			} else if err := p.escape(&b); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", p.errorf("control character %#02x in string", c)
		default:
			// A well-formed character that a word did not hold whole, or
			// a byte that is not UTF-8 (or a character cut short by the
			// end of the input).
			n := utf8Len(p.data[p.pos:])
			if n == 0 {
				return "", p.errorf("invalid UTF-8 in string")
			}
			b = append(b, p.data[p.pos:p.pos+n]...)
			p.pos += n
		}
		// The plain text up to the next stop byte, each word stored
		// whole at the end of b and b grown by its plain bytes.
		data, pos := p.data, p.pos
		for len(data)-pos >= 8 {
			if cap(b)-len(b) < 8 {
				b = slices.Grow(b, 64)
			}
			x, j := load64(data[pos:]), len(b)
			store64(b[j:j+8], x)
			z := bits.TrailingZeros64(stops(x)) >> 3
			if z < 8 && data[pos+z] >= utf8.RuneSelf {
				if n := utf8Len(data[pos+z:]); n > 0 && z+n <= 8 {
					z += n // a character the word holds whole
					b, pos = b[:j+z], pos+z
					continue
				}
			}
			b, pos = b[:j+z], pos+z
			if z < 8 {
				break
			}
		}
		if len(data)-pos < 8 {
			n := plainLen(data[pos:])
			b, pos = append(b, data[pos:pos+n]...), pos+n
		}
		p.pos = pos
	}
}

// unescape is the character each one-character escape stands for (\n,
// \", …), 0 for the other bytes.
var unescape = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

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
		if r >= 0xD800 && r <= 0xDFFF {
			p.lone = true
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
	n, err := strconv.ParseUint(p.data[p.pos:p.pos+4], 16, 32)
	if err != nil {
		return 0, p.errorf("invalid \\u escape %q", p.data[p.pos:p.pos+4])
	}
	p.pos += 4
	return rune(n), nil
}

func (p *parser) number() (Value, error) {
	start := p.pos
	for p.pos < len(p.data) {
		p.pos += digitsLen(p.data[p.pos:])
		if p.pos == len(p.data) {
			break
		}
		if c := p.data[p.pos]; c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			p.pos++
			continue
		}
		break
	}
	if p.pos == len(p.data) {
		p.numberAtEnd = true
	}
	lit := p.slice(start, p.pos)
	if !validNumber(lit) {
		p.pos = start
		return Value{}, p.errorf("invalid number %q", lit)
	}
	return textValue(Number, lit), nil
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
		i += digitsLen(s[i:])
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		i += digitsLen(s[i:])
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		i += digitsLen(s[i:])
	}
	return i == len(s)
}
