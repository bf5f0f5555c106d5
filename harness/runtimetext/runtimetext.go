// Package runtimetext finds the words of the JavaScript runtime in an
// output, so that the golden writer can mark them (compare.RuntimeText).
//
// Pi copies some exceptions into its output verbatim: JSON.parse's
// SyntaxError ("Unexpected token 'o', \"oops\" is not valid JSON") and the
// TypeError of reading a member of undefined or null ("Cannot read
// properties of undefined (reading 'id')"), the TypeError of converting a
// value that has no primitive form, and Node's own texts: its WebSocket
// client's error for a failed handshake, the AbortError of an aborted
// call ("This operation was aborted"), undici's refusal of a header
// value that is not Latin-1 (a ByteString), fetch's error when no
// response arrives ("fetch failed", with its cause in 1.6), and Node's
// checks of a function's argument ("The "delay" argument must be ..."). Their wording is V8's and Node's (Node
// 22), not Pi's, and a port in another language cannot produce it. The set
// of such messages is closed and each has a fixed shape, so they are found
// by shape: the same messages the reference builds in
// reference/provider/stream (v8json.go, js.go) and reference/provider
// (provider.go).
package runtimetext

import (
	"regexp"
	"strings"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/reference/jsonv"
)

// v8Messages are the shapes of the runtime messages, as regular
// expressions. The positional JSON.parse messages end with V8's
// " at position N (line L column C)".
var v8Messages = regexp.MustCompile(strings.Join([]string{
	`(?:Expected property name or '\}' in|Expected ',' or '\]' after array element in|Expected ',' or '\}' after property value in|` +
		`Unexpected non-whitespace character after|Bad escaped character in|Bad control character in string literal in|` +
		`Bad Unicode escape in|No number after minus sign in|Exponent part is missing a number in|` +
		`Unterminated fractional number in|Expected ':' after property name in|Expected double-quoted property name in|` +
		`Unterminated string in|Unexpected number in|Unexpected string in) JSON at position \d+ \(line \d+ column \d+\)`,
	`Unexpected end of JSON input`,
	`Unexpected token '(?s:.+?)', (?:\.\.\.)?"(?s:.*?)"(?:\.\.\.)? is not valid JSON`,
	`"(?:\[object Object\]|undefined|Infinity|NaN)" is not valid JSON`,
	`Cannot read properties of (?:undefined|null) \(reading '(?s:.*?)'\)`,
	// Converting a value with no primitive form (an object with its own
	// toString member) to a string or a number.
	`Cannot convert object to primitive value`,
	// Calling what is not a function: V8 names the callee as Pi's source
	// writes it ("model.compat?.allowedFallbackModels?.find").
	`(?:\([^()]*\)|[\w$])[\w$.?\[\]]* is not a function`,
	// Node's URL parser refusing a string.
	`Invalid URL`,
	// Node's WebSocket client (undici) when a handshake fails.
	`Received network error or non-101 status code\.`,
	// Node's own AbortError (a DOMException), as fetch and AbortSignal
	// throw it when a call is aborted.
	`This operation was aborted`,
	// undici's refusal of a header value that is not Latin-1 (WebIDL's
	// ByteString conversion), with the offending character's index and
	// code unit.
	`Cannot convert argument to a ByteString because the character at index \d+ has a value of \d+ which is greater than 255\.`,
	// Node's fetch (undici) when no response arrives: its TypeError, and
	// the deepest causes Pi 1.6 appends to a client's message (the server
	// closing the connection, a host the DNS does not know).
	`fetch failed`,
	// Node's own checks of a function's argument (ERR_INVALID_ARG_TYPE,
	// ERR_OUT_OF_RANGE), as AbortSignal.timeout makes them of a delay:
	// the value as Node's inspect shows it ends the message.
	`The "[^"]*" argument must be of type [^.]*\. Received (?s:.*)`,
	`The value of "[^"]*" is out of range\. It must be (?s:.*?)\. Received (?s:.*)`,
	`other side closed \(UND_ERR_SOCKET\)`,
	`getaddrinfo ENOTFOUND [^\s"';,]+`,
}, "|"))

// Pattern returns s with every runtime message replaced by
// compare.RuntimePlaceholder, and whether it held one.
func Pattern(s string) (string, bool) {
	if strings.Contains(s, compare.RuntimePlaceholder) {
		return "", false // the placeholder could not be told from the text
	}
	p := v8Messages.ReplaceAllLiteralString(s, compare.RuntimePlaceholder)
	return p, p != s
}

// Find lists the strings of an output that hold runtime messages, in
// document order.
func Find(output jsonv.Value) []compare.RuntimeText {
	var out []compare.RuntimeText
	var walk func(v jsonv.Value, ptr string)
	walk = func(v jsonv.Value, ptr string) {
		switch v.Kind() {
		case jsonv.String:
			if p, ok := Pattern(v.Str()); ok {
				out = append(out, compare.RuntimeText{Path: ptr, Pattern: p})
			}
		case jsonv.Array:
			for i, e := range v.Elems() {
				walk(e, jsonv.Index(ptr, i))
			}
		case jsonv.Object:
			for _, m := range v.Members() {
				walk(m.Value, jsonv.Child(ptr, m.Key))
			}
		}
	}
	walk(output, "")
	return out
}

// Mark is the golden document of an output: the output, with its runtime
// texts listed under compare.RuntimeTextsMember when it has any. An output
// that is not an object cannot carry the list and is returned as it is.
func Mark(output jsonv.Value) jsonv.Value {
	if output.Kind() != jsonv.Object {
		return output
	}
	golden, err := compare.JoinGolden(output, Find(output))
	if err != nil {
		return output
	}
	return golden
}
