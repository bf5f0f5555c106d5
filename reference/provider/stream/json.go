package stream

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// JSValue returns v as JSON.parse gives it to JavaScript: numbers become
// the double JavaScript holds (and print as JavaScript prints them, 1.50 as
// 1.5; 1e400 is Infinity, which counts as such and is written as null),
// an object keeps one member per name (the last value, at the place of the
// first), and names that are array indices ("0", "7") move to the front in
// ascending order, as JavaScript orders an object's own keys. Pi handles
// every payload it reads or writes as such an object, so the reference must
// too.
func JSValue(v jsonv.Value) jsonv.Value {
	if unchangedByJS(v) {
		return v // most payloads: no copy
	}
	return jsRebuild(v)
}

// jsRebuild is JSValue making every array and object anew.
func jsRebuild(v jsonv.Value) jsonv.Value {
	switch v.Kind() {
	case jsonv.Number:
		f, _ := v.Float64()
		return jsonv.JSNumberValue(f)
	case jsonv.Array:
		elems := make([]jsonv.Value, len(v.Elems()))
		for i, e := range v.Elems() {
			elems[i] = jsRebuild(e)
		}
		return jsonv.ArrayValue(elems...)
	case jsonv.Object:
		obj := newJSObject()
		for _, m := range v.Members() {
			obj.define(m.Key, jsRebuild(m.Value))
		}
		return obj.value()
	}
	return v
}

// unchangedByJS reports whether JSValue(v) is v: its numbers are plain
// integers (other numbers are not looked at closely), and no object has a
// repeated name, a name that is an array index or one that is not
// canonical WTF-8.
func unchangedByJS(v jsonv.Value) bool {
	switch v.Kind() {
	case jsonv.Number:
		return isPlainInteger(v.Literal())
	case jsonv.Array:
		for _, e := range v.Elems() {
			if !unchangedByJS(e) {
				return false
			}
		}
	case jsonv.Object:
		ms := v.Members()
		if len(ms) > 16 {
			return false // not worth a quadratic search for repeats
		}
		for i, m := range ms {
			if isArrayIndex(m.Key) || wtf8.HasSurrogate(m.Key) || !unchangedByJS(m.Value) {
				return false
			}
			for _, prev := range ms[:i] {
				if prev.Key == m.Key {
					return false
				}
			}
		}
	}
	return true
}

// isPlainInteger reports whether a number literal is an integer that
// JavaScript prints as written: no sign but "-", no leading zero, no "-0",
// and at most 15 digits, so exact as a double.
func isPlainInteger(lit string) bool {
	digits := strings.TrimPrefix(lit, "-")
	if digits == "" || len(digits) > 15 || digits[0] == '0' && (len(digits) > 1 || len(lit) > 1) {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

// jsObject collects members with JavaScript's own-property rules.
type jsObject struct {
	keys []string
	vals map[string]jsonv.Value
}

func newJSObject() *jsObject { return &jsObject{vals: map[string]jsonv.Value{}} }

// define is CreateDataProperty, what JSON.parse does for each member.
func (o *jsObject) define(key string, v jsonv.Value) {
	key = wtf8.Canonical(key)
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

// assign is `obj[key] = v` on a plain object: "__proto__" changes the
// prototype (or nothing) and never becomes an own property.
func (o *jsObject) assign(key string, v jsonv.Value) {
	if key == "__proto__" {
		return
	}
	o.define(key, v)
}

func (o *jsObject) value() jsonv.Value {
	members := make([]jsonv.Member, 0, len(o.keys))
	for _, k := range o.keys {
		members = append(members, jsonv.Member{Key: k, Value: o.vals[k]})
	}
	return jsonv.ObjectValue(JSOrder(members)...)
}

// JSOrder is members, each key once, in the order JavaScript lists an
// object's own keys: the array indexes in ascending order, then the other
// keys in the order they were added. It returns members itself when they
// are in that order already.
func JSOrder(members []jsonv.Member) []jsonv.Member {
	var index, named []jsonv.Member
	for _, m := range members {
		if isArrayIndex(m.Key) {
			index = append(index, m)
		} else {
			named = append(named, m)
		}
	}
	if len(index) == 0 {
		return members
	}
	sort.SliceStable(index, func(i, j int) bool {
		a, _ := strconv.ParseUint(index[i].Key, 10, 64)
		b, _ := strconv.ParseUint(index[j].Key, 10, 64)
		return a < b
	})
	return append(index, named...)
}

// isArrayIndex reports whether k is the canonical decimal form of an
// integer from 0 to 2^32-2, the keys JavaScript lists first.
func isArrayIndex(k string) bool {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return false
		}
	}
	n, err := strconv.ParseUint(k, 10, 64)
	return err == nil && n < 1<<32-1
}

// SyntaxError is JSON.parse's failure. Message is the text V8 (Node 22)
// puts in the SyntaxError, which Pi copies into error messages.
type SyntaxError struct{ Message string }

func (e *SyntaxError) Error() string { return e.Message }

// ParseJSON is JavaScript's JSON.parse: the text is a JavaScript string (a
// lone surrogate inside a string literal is allowed), the result is a
// JSValue, and a failure carries V8's message.
func ParseJSON(text string) (jsonv.Value, error) {
	if msg, ok := v8Check(wtf8.ToUTF16(text)); !ok {
		return jsonv.Value{}, &SyntaxError{Message: msg}
	}
	v, err := jsonv.ParseString(wtf8.EscapeSurrogates(text))
	if err != nil {
		// v8Check accepted it, so this is a disagreement between the two
		// parsers, not a property of the input.
		panic(fmt.Sprintf("stream: V8 grammar accepted %q but jsonv did not: %v", text, err))
	}
	return JSValue(v), nil
}

// ParseJSONWithRepair is Pi's parseJsonWithRepair: JSON.parse, and when that
// fails and RepairJSON changes the text, JSON.parse of the repaired text
// (whose error then wins).
func ParseJSONWithRepair(text string) (jsonv.Value, error) {
	return ParseJSONWithRepairIn(dialect.V0_80, text)
}

// ParseJSONWithRepairIn is ParseJSONWithRepair with dialect d's RepairJSON.
func ParseJSONWithRepairIn(d dialect.Dialect, text string) (jsonv.Value, error) {
	v, err := ParseJSON(text)
	if err == nil {
		return v, nil
	}
	if repaired := RepairJSONIn(d, text); repaired != text {
		return ParseJSON(repaired)
	}
	return jsonv.Value{}, err
}

// RepairJSON is Pi's repairJson: inside string literals it escapes raw
// control characters and doubles a backslash that starts no valid escape.
// Everything it looks at is ASCII, so working on bytes gives the same text
// as JavaScript working on code units.
func RepairJSON(s string) string { return RepairJSONIn(dialect.V0_80, s) }

// RepairJSONIn is RepairJSON as dialect d's Pi repairs (validEscapes).
func RepairJSONIn(d dialect.Dialect, s string) string {
	validEscapes := validEscapes.At(d)
	var b strings.Builder
	inString := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !inString {
			b.WriteByte(c)
			if c == '"' {
				inString = true
			}
			continue
		}
		switch {
		case c == '"':
			b.WriteByte(c)
			inString = false
		case c == '\\':
			if i+1 >= len(s) {
				b.WriteString(`\\`)
				continue
			}
			next := s[i+1]
			if next == 'u' && i+6 <= len(s) && isHex4(s[i+2:i+6]) {
				b.WriteString(s[i : i+6])
				i += 5
				continue
			}
			if strings.IndexByte(validEscapes, next) >= 0 {
				b.WriteByte('\\')
				b.WriteByte(next)
				i++
				continue
			}
			b.WriteString(`\\`)
		case c < 0x20:
			switch c {
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				fmt.Fprintf(&b, `\u%04x`, c)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex4(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHexDigit(s[i]) {
			return false
		}
	}
	return len(s) == 4
}

func isHexDigit(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// ParseStreamingJSON is Pi's parseStreamingJson, used for tool-call
// arguments that arrive in pieces: blank text is {}; otherwise
// ParseJSONWithRepair, then the partial-json parser (0.1.7, every kind of
// partial value allowed) on the text and on the repaired text, and {} when
// all fail. A partial parse that gives null also becomes {}; a complete
// "null" stays null.
func ParseStreamingJSON(text string) jsonv.Value {
	empty := jsonv.ObjectValue()
	if JSTrim(text) == "" {
		return empty
	}
	if v, err := ParseJSONWithRepair(text); err == nil {
		return v
	}
	for _, t := range []string{text, RepairJSON(text)} {
		if v, isNull, ok := partialParse(t); ok {
			if isNull {
				return empty
			}
			return v
		}
	}
	return empty
}

// JSTrimStart is String.prototype.trimStart: it strips ECMAScript white
// space and line terminators from the start.
func JSTrimStart(s string) string {
	start := 0
	for start < len(s) {
		r, n := wtf8.Next(s[start:])
		if !jsSpace(r) {
			break
		}
		start += n
	}
	return s[start:]
}

// JSTrim is String.prototype.trim: it strips ECMAScript white space and
// line terminators from both ends.
func JSTrim(s string) string {
	s = JSTrimStart(s)
	start := 0
	end := len(s)
	for end > start {
		i := end - 1
		for i > start && s[i]&0xC0 == 0x80 {
			i--
		}
		r, _ := wtf8.Next(s[i:end])
		if !jsSpace(r) {
			break
		}
		end = i
	}
	return s[start:end]
}

// jsSpace reports whether r is ECMAScript WhiteSpace or LineTerminator.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00A0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// IsBlank reports whether s.trim() is empty in JavaScript. Adapters use it
// where Pi drops blank text.
func IsBlank(s string) bool { return JSTrim(s) == "" }
