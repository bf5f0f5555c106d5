package stream

import (
	"math"
	"strings"
	"unicode/utf16"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// partialParse is the partial-json package (0.1.7) with every partial kind
// allowed, the fallback Pi uses for tool arguments that are cut off. It is
// a line-by-line port, quirks included: keys need no quotes to be tried,
// the colon is skipped without being looked at, and a string that cannot be
// completed is cut at the last backslash of the whole text. ok is false when
// the parser throws; isNull tells a null result (Pi turns it into {}).
//
// The text is scanned as bytes. Every decision looks at ASCII characters,
// which UTF-8 never uses inside a multi-byte character, so the cuts fall
// where JavaScript's code-unit indices would put them. The one blind step,
// over the colon, moves by a UTF-16 code unit (skipUnit).
func partialParse(text string) (v jsonv.Value, isNull, ok bool) {
	if JSTrim(text) == "" {
		return jsonv.Value{}, false, false
	}
	p := &partialParser{s: JSTrim(text)}
	defer func() {
		if r := recover(); r != nil {
			if _, thrown := r.(partialThrow); !thrown {
				panic(r)
			}
			v, isNull, ok = jsonv.Value{}, false, false
		}
	}()
	v = p.any()
	return v, v.Kind() == jsonv.Null && !p.lastNonFinite, true
}

// partialThrow is a JavaScript exception inside the parser; every catch in
// partial-json catches all of them alike.
type partialThrow struct{}

type partialParser struct {
	s             string
	i             int
	lastNonFinite bool
}

func (p *partialParser) throw() { panic(partialThrow{}) }

// at is s[i] in JavaScript: the character, or 0 past the end (undefined).
func (p *partialParser) at(i int) byte {
	if i < 0 || i >= len(p.s) {
		return 0
	}
	return p.s[i]
}

// substring is String.prototype.substring: both ends clamped to the text,
// swapped when reversed.
func (p *partialParser) substring(a, b int) string {
	clamp := func(x int) int { return max(0, min(x, len(p.s))) }
	a, b = clamp(a), clamp(b)
	if a > b {
		a, b = b, a
	}
	return p.s[a:b]
}

// parse is JSON.parse; a failure is thrown.
func (p *partialParser) parse(text string) jsonv.Value {
	v, err := ParseJSON(text)
	if err != nil {
		p.throw()
	}
	return v
}

// try runs f and reports whether it threw.
func (p *partialParser) try(f func()) (threw bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(partialThrow); !ok {
				panic(r)
			}
			threw = true
		}
	}()
	f()
	return false
}

// skipUnit is partial-json's `index++` over a character it never looks at
// (the colon after a key): one UTF-16 code unit, so a non-ASCII character
// there is stepped over whole, and an astral one only by its high
// surrogate. For that, the text is re-spelled with the pair as two WTF-8
// surrogates (JSON.parse of a later cut reads the same code units).
func (p *partialParser) skipUnit() {
	if p.i >= len(p.s) {
		p.i++
		return
	}
	r, n := wtf8.Next(p.s[p.i:])
	if r > 0xFFFF {
		hi, lo := utf16.EncodeRune(r)
		pair := wtf8.AppendRune(wtf8.AppendRune(nil, hi), lo)
		p.s = p.s[:p.i] + string(pair) + p.s[p.i+n:]
		n = 3
	}
	p.i += n
}

func (p *partialParser) skipBlank() {
	for p.i < len(p.s) && strings.IndexByte(" \n\r\t", p.s[p.i]) >= 0 {
		p.i++
	}
}

// literal matches word at the cursor, or a cut-off start of it that runs to
// the end of the text; minRest is how much must remain for the cut form.
func (p *partialParser) literal(word string, minRest int) bool {
	rest := len(p.s) - p.i
	if p.substring(p.i, p.i+len(word)) == word {
		return true
	}
	return rest > minRest && rest < len(word) && strings.HasPrefix(word, p.s[p.i:])
}

func (p *partialParser) any() jsonv.Value {
	p.lastNonFinite = false
	p.skipBlank()
	if p.i >= len(p.s) {
		p.throw()
	}
	switch p.s[p.i] {
	case '"':
		return p.str()
	case '{':
		return p.obj()
	case '[':
		return p.arr()
	}
	nonFinite := func(f float64, n int) jsonv.Value {
		p.i += n
		p.lastNonFinite = true
		return jsonv.FloatValue(f)
	}
	switch {
	case p.literal("null", 0):
		p.i += 4
		return jsonv.NullValue()
	case p.literal("true", 0):
		p.i += 4
		return jsonv.BoolValue(true)
	case p.literal("false", 0):
		p.i += 5
		return jsonv.BoolValue(false)
	case p.literal("Infinity", 0):
		return nonFinite(math.Inf(1), 8)
	case p.literal("-Infinity", 1):
		return nonFinite(math.Inf(-1), 9)
	case p.literal("NaN", 0):
		return nonFinite(math.NaN(), 3)
	}
	return p.num()
}

func (p *partialParser) str() jsonv.Value {
	start := p.i
	escape := false
	p.i++
	for p.i < len(p.s) && (p.s[p.i] != '"' || (escape && p.at(p.i-1) == '\\')) {
		escape = p.s[p.i] == '\\' && !escape
		p.i++
	}
	back := 0
	if escape {
		back = 1
	}
	if p.at(p.i) == '"' {
		p.i++
		return p.parse(p.substring(start, p.i-back))
	}
	var v jsonv.Value
	if p.try(func() { v = p.parse(p.substring(start, p.i-back) + `"`) }) {
		return p.parse(p.substring(start, strings.LastIndex(p.s, `\`)) + `"`)
	}
	return v
}

func (p *partialParser) obj() (result jsonv.Value) {
	p.i++
	p.skipBlank()
	obj := newJSObject()
	done := false
	threw := p.try(func() {
		for p.at(p.i) != '}' {
			p.skipBlank()
			if p.i >= len(p.s) {
				done = true
				return
			}
			key := p.str()
			p.skipBlank()
			p.skipUnit() // the colon, unchecked
			var value jsonv.Value
			if p.try(func() { value = p.any() }) {
				done = true
				return
			}
			obj.assign(key.JSString(), value)
			p.skipBlank()
			if p.at(p.i) == ',' {
				p.i++
			}
		}
	})
	if threw || done {
		return obj.value()
	}
	p.i++
	return obj.value()
}

func (p *partialParser) arr() jsonv.Value {
	p.i++
	var elems []jsonv.Value
	if p.try(func() {
		for p.at(p.i) != ']' {
			elems = append(elems, p.any())
			p.skipBlank()
			if p.at(p.i) == ',' {
				p.i++
			}
		}
	}) {
		return jsonv.ArrayValue(elems...)
	}
	p.i++
	return jsonv.ArrayValue(elems...)
}

func (p *partialParser) num() jsonv.Value {
	if p.i == 0 {
		if p.s == "-" {
			p.throw()
		}
		var v jsonv.Value
		if !p.try(func() { v = p.parse(p.s) }) {
			return v
		}
		if !p.try(func() { v = p.parse(p.substring(0, strings.LastIndex(p.s, "e"))) }) {
			return v
		}
		p.throw()
	}
	start := p.i
	if p.at(p.i) == '-' {
		p.i++
	}
	for p.i < len(p.s) && strings.IndexByte(",]}", p.s[p.i]) < 0 {
		p.i++
	}
	var v jsonv.Value
	if !p.try(func() { v = p.parse(p.substring(start, p.i)) }) {
		return v
	}
	if p.substring(start, p.i) == "-" {
		p.throw()
	}
	return p.parse(p.substring(start, strings.LastIndex(p.s, "e")))
}
