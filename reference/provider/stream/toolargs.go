package stream

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// Tool-call arguments as Pi 1.6 reads them from a stream (pi-ai 1.6's
// ToolCallArgumentsStream, StreamingJsonParser and parseToolCallArguments):
// the pieces feed a tolerant incremental parser whose value is the partial
// arguments shown while the call streams, and the complete text is parsed
// once, strictly, when the call ends. Pi 0.80 re-parsed the whole text with
// the repairing partial parser at each piece instead (ParseStreamingJSON).

// ToolCallArgs is the argument state of one streaming tool call. The zero
// value is a call with no text yet.
type ToolCallArgs struct {
	text string
	p    streamingJSON
	args jsonv.Value
}

// Text is the raw argument text received so far.
func (a *ToolCallArgs) Text() string { return a.text }

// Append adds a piece of argument text and returns the partial arguments.
func (a *ToolCallArgs) Append(delta string) jsonv.Value {
	a.text = wtf8.Concat(a.text, delta)
	a.p.append(delta)
	return a.partial()
}

// Replace takes the provider's complete argument text. When it continues
// the text so far, ok is true and delta is the missing piece ("" when
// there is none); otherwise the parse starts over with text and ok is
// false. Either way args are the partial arguments of text.
func (a *ToolCallArgs) Replace(text string) (delta string, ok bool, args jsonv.Value) {
	have, full := wtf8.ToUTF16(a.text), wtf8.ToUTF16(text)
	if len(full) >= len(have) && equalUnits(full[:len(have)], have) {
		delta = wtf8.FromUTF16(full[len(have):])
		if delta == "" {
			return "", true, a.partial()
		}
		return delta, true, a.Append(delta)
	}
	a.text, a.p = "", streamingJSON{}
	return "", false, a.Append(text)
}

func equalUnits(a, b []uint16) bool {
	for i := range b {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Finish is the final arguments: ParseToolCallArguments of the whole text.
func (a *ToolCallArgs) Finish() (args jsonv.Value, argumentsError *string) {
	return ParseToolCallArguments(a.text)
}

// partial is the parser's snapshot when it is an object, else {}.
func (a *ToolCallArgs) partial() jsonv.Value {
	snap, changed := a.p.snapshot()
	if changed || a.args.IsAbsent() {
		if snap.Kind() == jsonv.Object {
			a.args = snap
		} else {
			a.args = jsonv.ObjectValue()
		}
	}
	return a.args
}

// ArgumentsNotObjectText is the error of arguments that parse but are not
// a JSON object.
const ArgumentsNotObjectText = "Tool arguments must be a JSON object"

// ParseToolCallArguments is Pi 1.6's parse of a finished call's complete
// argument text: blank text is {}; otherwise ParseJSONWithRepair, which
// must give an object. Anything else gives {} and argumentsError, the
// error's message, a blank line, "Received arguments:" and the text.
func ParseToolCallArguments(text string) (args jsonv.Value, argumentsError *string) {
	if JSTrim(text) == "" {
		return jsonv.ObjectValue(), nil
	}
	v, err := ParseJSONWithRepairIn(dialect.V1_6, text)
	msg := ""
	switch {
	case err != nil:
		msg = err.Error()
	case v.Kind() != jsonv.Object:
		msg = ArgumentsNotObjectText
	default:
		return v, nil
	}
	e := msg + "\n\nReceived arguments:\n" + text
	return jsonv.ObjectValue(), &e
}

// streamingJSON is Pi 1.6's StreamingJsonParser: it reads JSON text piece
// by piece, once, and its snapshot is the value of the text read so far.
// Incomplete text shows what it holds: an open string its characters (an
// unfinished escape held back), an open container its members and
// elements, a member only once its value has started; an unfinished
// literal or number once it is a prefix of true, false or null or a number
// (an exponent without digits left off). Malformed text is read leniently:
// raw control characters stay in strings, an invalid escape stays as text,
// missing commas and colons are tolerated, values where none can go and
// unknown words are dropped, and text after the root value is ignored. It
// never fails.
//
// Pi rations the copying of the open containers a snapshot makes: each
// piece earns credit (256, and 8 per UTF-16 unit) and a snapshot that would
// copy more members and elements than the credit left returns the previous
// one. The ration is kept here so the value shown lags exactly as Pi's.
type streamingJSON struct {
	root     *jsonv.Value
	done     bool
	stack    []*sjFrame
	str      *sjString // the open string, nil when none
	scalar   string    // the unfinished number or literal
	scalarAt *sjSlot
	pathCost int
	credit   int
	dirty    bool
	snap     jsonv.Value // Absent before any snapshot with a value
}

// sjSlot is where a value goes: the root, an element of the innermost open
// array, or a member of the innermost open object.
type sjSlot struct {
	kind  byte // 'r', 'e', 'm'
	index int
	key   string
}

type sjFrame struct {
	array bool
	elems []jsonv.Value
	obj   *jsObject
	slot  *sjSlot // nil: a container where no value can go
	size  int
	key   *string
	phase string // "key", "colon", "value", "comma"
}

type sjString struct {
	key    bool // a member name, not a value
	slot   *sjSlot
	text   string
	escape string
}

const (
	sjCreditPerAppend  = 256
	sjCreditPerUnit    = 8
	sjMaxPendingScalar = 64
)

var (
	sjNumber            = regexp.MustCompile(`^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$`)
	sjNumberNoExpDigits = regexp.MustCompile(`^(-?(?:0|[1-9]\d*)(?:\.\d+)?)[eE][+-]?$`)
	sjEscapes           = map[byte]string{'"': `"`, '\\': `\`, '/': "/", 'b': "\b", 'f': "\f", 'n': "\n", 'r': "\r", 't': "\t"}
)

func (p *streamingJSON) append(text string) {
	p.credit += sjCreditPerAppend + sjCreditPerUnit*wtf8.Len(text)
	i := 0
	for i < len(text) && !p.done {
		switch {
		case p.str != nil:
			i = p.readString(text, i)
		case p.scalar != "":
			i = p.readScalar(text, i)
		default:
			p.structural(text[i])
			i++
		}
	}
}

// snapshot is the value read so far (Absent before a value starts) and
// whether it differs from the last one returned.
func (p *streamingJSON) snapshot() (jsonv.Value, bool) {
	if !p.dirty {
		return p.snap, false
	}
	pendSlot, pendVal, pending := p.pendingScalar()
	cost := p.pathCost
	if pending {
		cost++
	}
	if cost > p.credit {
		return p.snap, false
	}
	p.credit -= cost
	p.dirty = false
	p.snap = p.copyOpenPath(pendSlot, pendVal, pending)
	return p.snap, true
}

func (p *streamingJSON) top() *sjFrame {
	if len(p.stack) == 0 {
		return nil
	}
	return p.stack[len(p.stack)-1]
}

func (p *streamingJSON) readString(text string, start int) int {
	open := p.str
	run := start
	for i := start; i < len(text); i++ {
		c := text[i]
		if open.escape != "" {
			if p.continueEscape(open, c) {
				run = i + 1
				continue
			}
			run = i
		}
		switch c {
		case '"':
			if i > run {
				p.appendString(open, text[run:i])
			}
			p.endString(open)
			return i + 1
		case '\\':
			if i > run {
				p.appendString(open, text[run:i])
			}
			open.escape = `\`
			run = i + 1
		}
	}
	if len(text) > run {
		p.appendString(open, text[run:])
	}
	return len(text)
}

func (p *streamingJSON) readScalar(text string, start int) int {
	end := start
	for end < len(text) && !sjDelimiter(text[end]) {
		end++
	}
	if end > start {
		p.scalar += text[start:end]
		if p.scalarAt != nil {
			p.dirty = true
		}
	}
	if end < len(text) {
		p.endScalar()
	}
	return end
}

func (p *streamingJSON) structural(c byte) {
	switch c {
	case ' ', '\t', '\n', '\r':
	case '"':
		p.startString()
	case '{', '[':
		p.openContainer(c == '[')
	case '}', ']':
		p.closeContainer()
	case ':':
		if f := p.top(); f != nil && !f.array && f.phase == "colon" {
			f.phase = "value"
		}
	case ',':
		if f := p.top(); f != nil {
			if f.array {
				f.phase = "value"
			} else {
				f.phase = "key"
			}
		}
	default:
		p.scalar = string(c)
		p.scalarAt = p.valueSlot()
		if p.scalarAt != nil {
			p.dirty = true
		}
	}
}

// valueSlot is where a value starting now goes, nil where none can.
func (p *streamingJSON) valueSlot() *sjSlot {
	f := p.top()
	switch {
	case f == nil:
		if p.root == nil {
			return &sjSlot{kind: 'r'}
		}
		return nil
	case f.array:
		return &sjSlot{kind: 'e', index: len(f.elems)}
	case (f.phase == "value" || f.phase == "colon") && f.key != nil:
		// A missing colon is tolerated.
		return &sjSlot{kind: 'm', key: *f.key}
	}
	return nil
}

func (p *streamingJSON) startString() {
	if f := p.top(); f != nil && !f.array && (f.phase == "key" || f.phase == "comma") {
		// A missing comma is tolerated: the string is the next name.
		p.str = &sjString{key: true}
		return
	}
	slot := p.valueSlot()
	p.str = &sjString{slot: slot}
	p.place(slot, jsonv.StringValue(""))
}

func (p *streamingJSON) continueEscape(open *sjString, c byte) bool {
	if open.escape == `\` {
		if d, ok := sjEscapes[c]; ok {
			open.escape = ""
			p.appendString(open, d)
			return true
		}
		if c == 'u' {
			open.escape = `\u`
			return true
		}
		// An invalid escape keeps its backslash as text.
		open.escape = ""
		p.appendString(open, `\`)
		return false
	}
	if isHexDigit(c) {
		open.escape += string(c)
		if len(open.escape) < 6 {
			return true
		}
		n, _ := strconv.ParseUint(open.escape[2:], 16, 16)
		open.escape = ""
		p.appendString(open, wtf8.FromUTF16([]uint16{uint16(n)}))
		return true
	}
	// \u without four hex digits stays as text.
	lit := open.escape
	open.escape = ""
	p.appendString(open, lit)
	return false
}

func (p *streamingJSON) appendString(open *sjString, text string) {
	open.text = wtf8.Concat(open.text, text)
	if !open.key {
		p.place(open.slot, jsonv.StringValue(open.text))
	}
}

func (p *streamingJSON) endString(open *sjString) {
	p.str = nil
	f := p.top()
	if open.key {
		if f != nil {
			k := open.text
			f.key = &k
			f.phase = "colon"
		}
		return
	}
	p.valueEnded(f)
}

func (p *streamingJSON) endScalar() {
	token, slot := p.scalar, p.scalarAt
	p.scalar, p.scalarAt = "", nil
	if v, ok := sjScalarValue(token); ok {
		p.place(slot, v)
	}
	p.valueEnded(p.top())
}

// pendingScalar is the value an unfinished number or literal at the end of
// the text shows, if it shows one.
func (p *streamingJSON) pendingScalar() (*sjSlot, jsonv.Value, bool) {
	if p.scalarAt == nil || p.scalar == "" || wtf8.Len(p.scalar) > sjMaxPendingScalar {
		return nil, jsonv.Value{}, false
	}
	v, ok := sjPendingValue(p.scalar)
	return p.scalarAt, v, ok
}

func (p *streamingJSON) openContainer(array bool) {
	slot := p.valueSlot()
	f := &sjFrame{array: array, slot: slot, phase: "key"}
	if array {
		f.elems, f.phase = []jsonv.Value{}, "value"
	} else {
		f.obj = newJSObject()
	}
	p.place(slot, f.value())
	p.stack = append(p.stack, f)
	p.pathCost++
	p.dirty = true
}

func (p *streamingJSON) closeContainer() {
	f := p.top()
	if f == nil {
		return // a stray closer is ignored
	}
	p.stack = p.stack[:len(p.stack)-1]
	p.pathCost -= f.size + 1
	p.dirty = true
	// The parent holds the container itself in Pi, so it sees the
	// container's final content: write it there.
	p.put(f.slot, f.value())
	p.valueEnded(p.top())
}

func (p *streamingJSON) valueEnded(f *sjFrame) {
	if f == nil {
		if p.root != nil {
			p.done = true // text after the root value is ignored
		}
		return
	}
	f.phase = "comma"
}

// place sets the value at slot in the innermost open container (or the
// root), counting a new member or element; nil does nothing.
func (p *streamingJSON) place(slot *sjSlot, v jsonv.Value) {
	if slot == nil {
		return
	}
	p.dirty = true
	if slot.kind != 'r' {
		f := p.top()
		isNew := slot.kind == 'e' && slot.index == len(f.elems)
		if slot.kind == 'm' {
			_, has := f.obj.vals[wtf8.Canonical(slot.key)]
			isNew = !has
		}
		if isNew {
			f.size++
			p.pathCost++
		}
	}
	p.put(slot, v)
}

// put writes v at slot without counting.
func (p *streamingJSON) put(slot *sjSlot, v jsonv.Value) {
	if slot == nil {
		return
	}
	switch slot.kind {
	case 'r':
		p.root = &v
	case 'e':
		f := p.top()
		if slot.index == len(f.elems) {
			f.elems = append(f.elems, v)
		} else {
			f.elems[slot.index] = v
		}
	case 'm':
		// "__proto__" becomes an own member, as JSON.parse makes it.
		p.top().obj.define(slot.key, v)
	}
}

func (f *sjFrame) value() jsonv.Value {
	if f.array {
		return jsonv.ArrayValue(append([]jsonv.Value(nil), f.elems...)...)
	}
	return f.obj.value()
}

// copyOpenPath is a fresh value of the text so far: each open container
// with its open child (and the pending scalar in the innermost one).
func (p *streamingJSON) copyOpenPath(pendSlot *sjSlot, pendVal jsonv.Value, pending bool) jsonv.Value {
	if len(p.stack) == 0 {
		if pending && pendSlot.kind == 'r' {
			return pendVal
		}
		if p.root == nil {
			return jsonv.Value{}
		}
		return *p.root
	}
	var child jsonv.Value
	var childSlot *sjSlot
	haveChild := false
	for d := len(p.stack) - 1; d >= 0; d-- {
		f := p.stack[d]
		cp := &sjFrame{array: f.array, elems: append([]jsonv.Value(nil), f.elems...)}
		if !f.array {
			cp.obj = f.obj.clone()
		}
		if d == len(p.stack)-1 && pending {
			cp.set(pendSlot, pendVal)
		}
		if haveChild && childSlot != nil {
			cp.set(childSlot, child)
		}
		child, childSlot, haveChild = cp.value(), f.slot, true
	}
	if childSlot != nil && childSlot.kind == 'r' {
		return child
	}
	if p.root == nil {
		return jsonv.Value{}
	}
	return *p.root
}

func (f *sjFrame) set(slot *sjSlot, v jsonv.Value) {
	switch slot.kind {
	case 'e':
		if slot.index == len(f.elems) {
			f.elems = append(f.elems, v)
		} else if slot.index < len(f.elems) {
			f.elems[slot.index] = v
		}
	case 'm':
		f.obj.define(slot.key, v)
	}
}

func (o *jsObject) clone() *jsObject {
	c := &jsObject{keys: append([]string(nil), o.keys...), vals: make(map[string]jsonv.Value, len(o.vals))}
	for k, v := range o.vals {
		c.vals[k] = v
	}
	return c
}

func sjDelimiter(c byte) bool {
	return strings.IndexByte(" \t\n\r,:{}[]\"", c) >= 0
}

// sjScalarValue is the value of a finished literal or number; ok is false
// for anything else, which is dropped.
func sjScalarValue(token string) (jsonv.Value, bool) {
	switch token {
	case "true":
		return jsonv.BoolValue(true), true
	case "false":
		return jsonv.BoolValue(false), true
	case "null":
		return jsonv.NullValue(), true
	}
	if sjNumber.MatchString(token) {
		return sjNumberValue(token), true
	}
	return jsonv.Value{}, false
}

// sjPendingValue is the value an unfinished literal or number shows.
func sjPendingValue(token string) (jsonv.Value, bool) {
	for _, lit := range []string{"true", "false", "null"} {
		if strings.HasPrefix(lit, token) {
			v, _ := sjScalarValue(lit)
			return v, true
		}
	}
	if sjNumber.MatchString(token) {
		return sjNumberValue(token), true
	}
	if m := sjNumberNoExpDigits.FindStringSubmatch(token); m != nil {
		return sjNumberValue(m[1]), true
	}
	return jsonv.Value{}, false
}

// sjNumberValue is Number(token) for a token of JSON's number grammar.
func sjNumberValue(token string) jsonv.Value {
	f, _ := strconv.ParseFloat(token, 64)
	return jsonv.JSNumberValue(f)
}
