package stream

import (
	"strconv"

	"github.com/piconform/piconform/reference/wtf8"
)

// v8Check runs V8's JSON grammar over a JavaScript string (UTF-16 code
// units) and, on the first error, builds the message Node 22's JSON.parse
// throws. Pi pastes that message into error texts ("Could not parse
// Anthropic SSE event …"), so it is part of what Pi emits.
//
// The scan follows V8's parser: the same points of failure, the same
// cursor position, and the same choice between a fixed message ("Expected
// ',' or '}' after property value …") and the generic "Unexpected token"
// one with up to ten code units of context on each side.
func v8Check(src []uint16) (msg string, ok bool) {
	p := &v8Parser{src: src}
	defer func() {
		if r := recover(); r != nil {
			f, isFail := r.(v8Fail)
			if !isFail {
				panic(r)
			}
			msg, ok = string(f), false
		}
	}()
	p.value()
	p.skipSpace()
	if p.pos < len(p.src) {
		p.failWith(msgNonWhitespace)
	}
	return "", true
}

type v8Fail string

type v8Parser struct {
	src []uint16
	pos int
}

// endOfString is what V8 reads past the last code unit.
const endOfString = -1

func (p *v8Parser) cur() int {
	if p.pos >= len(p.src) {
		return endOfString
	}
	return int(p.src[p.pos])
}

func (p *v8Parser) next() int {
	p.pos++
	return p.cur()
}

func (p *v8Parser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// Messages with a position; V8 appends " at position N (line L column C)".
const (
	msgPropNameOrRBrace   = "Expected property name or '}' in JSON"
	msgCommaOrRBrack      = "Expected ',' or ']' after array element in JSON"
	msgCommaOrRBrace      = "Expected ',' or '}' after property value in JSON"
	msgNonWhitespace      = "Unexpected non-whitespace character after JSON"
	msgBadEscape          = "Bad escaped character in JSON"
	msgBadControl         = "Bad control character in string literal in JSON"
	msgBadUnicode         = "Bad Unicode escape in JSON"
	msgNoNumberAfterMinus = "No number after minus sign in JSON"
	msgExponentMissing    = "Exponent part is missing a number in JSON"
	msgUnterminatedFrac   = "Unterminated fractional number in JSON"
	msgColonAfterName     = "Expected ':' after property name in JSON"
	msgQuotedName         = "Expected double-quoted property name in JSON"
	msgUnterminatedString = "Unterminated string in JSON"
	msgUnexpectedNumber   = "Unexpected number in JSON"
	msgUnexpectedString   = "Unexpected string in JSON"
)

// failWith throws a fixed message at the cursor.
func (p *v8Parser) failWith(what string) {
	line, col := p.location()
	panic(v8Fail(what + " at position " + strconv.Itoa(p.pos) +
		" (line " + strconv.Itoa(line) + " column " + strconv.Itoa(col) + ")"))
}

// location is V8's line and column of the cursor: \n, \r and \r\n each end
// a line.
func (p *v8Parser) location() (line, col int) {
	line, lineStart := 1, 0
	for i := 0; i < p.pos && i < len(p.src); i++ {
		c := p.src[i]
		if c == '\r' && i+1 < p.pos && p.src[i+1] == '\n' {
			i++
		}
		if c == '\r' || c == '\n' {
			line++
			lineStart = i + 1
		}
	}
	return line, 1 + p.pos - lineStart
}

// unexpected throws the generic message for the character at the cursor.
func (p *v8Parser) unexpected() {
	if p.pos >= len(p.src) {
		panic(v8Fail("Unexpected end of JSON input"))
	}
	source := wtf8.FromUTF16(p.src)
	switch source {
	case "[object Object]", "undefined", "Infinity", "NaN":
		panic(v8Fail(`"` + source + `" is not valid JSON`))
	}
	token := wtf8.FromUTF16(p.src[p.pos : p.pos+1])
	const context = 10
	n := len(p.src)
	if n < 2*context+1 {
		panic(v8Fail("Unexpected token '" + token + `', "` + source + `" is not valid JSON`))
	}
	start, end, pre, post := 0, n, "", ""
	switch {
	case p.pos < context:
		end, post = p.pos+context, "..."
	case p.pos < n-context:
		start, end, pre, post = p.pos-context, p.pos+context, "...", "..."
	default:
		start, pre = p.pos-context, "..."
	}
	panic(v8Fail("Unexpected token '" + token + "', " + pre + `"` + wtf8.FromUTF16(p.src[start:end]) + `"` + post + " is not valid JSON"))
}

// unexpectedChar is V8's ReportUnexpectedCharacter: the character at the
// cursor is classed as a token first, and a quote (a string) or a digit or
// minus (a number) gets the short message with a position instead of the
// generic one ("tr\"x" → Unexpected string in JSON at position 2 …).
func (p *v8Parser) unexpectedChar() {
	switch c := p.cur(); {
	case c == '"':
		p.failWith(msgUnexpectedString)
	case c == '-' || isDigit(c):
		p.failWith(msgUnexpectedNumber)
	}
	p.unexpected()
}

func (p *v8Parser) value() {
	p.skipSpace()
	switch c := p.cur(); {
	case c == '"':
		p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		p.number()
	case c == '{':
		p.elements('}', msgCommaOrRBrace, msgPropNameOrRBrace, msgQuotedName)
	case c == '[':
		p.elements(']', msgCommaOrRBrack, "", "")
	case c == 't':
		p.literal("true")
	case c == 'f':
		p.literal("false")
	case c == 'n':
		p.literal("null")
	default:
		p.unexpected()
	}
}

// elements reads an object's members or an array's elements, from its
// opening bracket to close. An object's first name is missing with
// firstName, a later one with nextName; an array passes "" for both. A
// value followed by neither a comma nor close fails with notClosed.
func (p *v8Parser) elements(close int, notClosed, firstName, nextName string) {
	p.pos++
	p.skipSpace()
	if p.cur() == close {
		p.pos++
		return
	}
	for name := firstName; ; name = nextName {
		if name != "" {
			p.expectName(name)
		}
		p.value()
		p.skipSpace()
		if p.cur() == ',' {
			p.pos++
			continue
		}
		if p.cur() != close {
			p.failWith(notClosed)
		}
		p.pos++
		return
	}
}

// expectName reads `"name" :` after { or a comma.
func (p *v8Parser) expectName(what string) {
	p.skipSpace()
	if p.cur() != '"' {
		p.failWith(what)
	}
	p.str()
	p.skipSpace()
	if p.cur() != ':' {
		p.failWith(msgColonAfterName)
	}
	p.pos++
}

func (p *v8Parser) literal(word string) {
	if p.pos+len(word) <= len(p.src) {
		match := true
		for i := 1; i < len(word); i++ {
			if p.src[p.pos+i] != uint16(word[i]) {
				match = false
				break
			}
		}
		if match {
			p.pos += len(word)
			return
		}
	}
	p.pos++
	for i := 1; i < len(word) && p.pos < len(p.src); i++ {
		if p.src[p.pos] != uint16(word[i]) {
			p.unexpectedChar()
		}
		p.pos++
	}
	p.unexpected() // at the end of the text
}

func (p *v8Parser) str() {
	p.pos++ // opening quote
	for {
		c := p.cur()
		switch {
		case c == endOfString:
			p.failWith(msgUnterminatedString)
		case c == '"':
			p.pos++
			return
		case c == '\\':
			e := p.next()
			switch {
			case e == endOfString || e > 0xFF:
				p.unexpected()
			case e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't':
			case e == 'u':
				for i := 0; i < 4; i++ {
					h := p.next()
					if h == endOfString || h > 0x7F || !isHexDigit(byte(h)) {
						p.failWith(msgBadUnicode)
					}
				}
			default:
				p.failWith(msgBadEscape)
			}
			p.pos++
		case c < 0x20:
			p.failWith(msgBadControl)
		default:
			p.pos++
		}
	}
}

func isDigit(c int) bool { return c >= '0' && c <= '9' }

// isNumberPart is V8's set of characters that may continue a number.
func isNumberPart(c int) bool {
	return isDigit(c) || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+'
}

func (p *v8Parser) number() {
	negative := false
	c := p.cur()
	if c == '-' {
		negative = true
		c = p.next()
	}
	if c == '0' {
		c = p.next()
		if isNumberPart(c) {
			if isDigit(c) {
				p.failWith(msgUnexpectedNumber)
			}
		} else if !negative {
			return
		}
	} else {
		if !isDigit(c) {
			p.failWith(msgNoNumberAfterMinus)
		}
		for isDigit(p.cur()) {
			p.pos++
		}
	}
	if p.cur() == '.' {
		if !isDigit(p.next()) {
			p.failWith(msgUnterminatedFrac)
		}
		for isDigit(p.cur()) {
			p.pos++
		}
	}
	if c := p.cur(); c == 'e' || c == 'E' {
		c = p.next()
		if c == '-' || c == '+' {
			c = p.next()
		}
		if !isDigit(c) {
			p.failWith(msgExponentMissing)
		}
		for isDigit(p.cur()) {
			p.pos++
		}
	}
}
