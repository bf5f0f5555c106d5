package provider

import (
	"math"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/wtf8"
)

// Pi 1.6 fits streamSimple's output cap in the model's context window,
// with a margin for an input counted higher than it estimates it
// (pi-ai's clampMaxTokensToContext and estimateContextTokens).
const (
	// contextSafetyTokens is the margin always kept.
	contextSafetyTokens = 4096
	// contextSafetyRatio is the share of the input kept as a margin while
	// that leaves minOutputWithRatio tokens of output.
	contextSafetyRatio = 0.15
	// minOutputWithRatio is the output below which only the fixed margin
	// is kept, and the cap at most this.
	minOutputWithRatio = 32768
	// charsPerToken and imageChars are the estimate's rates.
	charsPerToken = 3.5
	imageChars    = 4800
)

// ClampToContext is Pi 1.6's clampMaxTokensToContext of maxTokens for
// model and the options' transcript: with no positive context window the
// cap is at least 1; else the room the window leaves after the estimated
// input (EstimateContextTokens) and a margin of max(4096, ⌈15 % of the
// input⌉), or, when that room is under 32768, min(32768, window − input
// − 4096); the cap is maxTokens within [1, room]. Every step computes as
// JavaScript does (a value that is no number gives NaN, which a body
// writes as null), and throws (a stream.JSError) where it does.
func (o SimpleOptions) ClampToContext(model *ai.Model, maxTokens jsonv.Value) jsonv.Value {
	// Go's max and min are Math.max and Math.min: NaN when either is NaN.
	window := stream.ToNumber(model.ContextWindow)
	if window <= 0 {
		return jsonv.JSNumberValue(max(1, stream.ToNumber(maxTokens)))
	}
	input := stream.ToNumber(EstimateContextTokens(o.Transcript))
	margin := max(contextSafetyTokens, math.Ceil(input*contextSafetyRatio))
	room := window - input - margin
	if room < minOutputWithRatio {
		room = min(minOutputWithRatio, window-input-contextSafetyTokens)
	}
	return jsonv.JSNumberValue(min(stream.ToNumber(maxTokens), max(1, room)))
}

// EstimateContextTokens is Pi 1.6's estimateContextTokens of a
// transcript's messages, as written: the usage of the last assistant
// message that answered the whole prefix before it (not aborted nor
// failed, with tokens counted, and no later-stamped message before it)
// plus an estimate of the messages after it; without one, the estimate of
// every message (EstimateMessageTokens). It computes as JavaScript does
// (+ joins text) and throws where Pi does.
func EstimateContextTokens(msgs []jsonv.Value) jsonv.Value {
	last, usage := -1, jsonv.Value{}
	latest := math.Inf(-1)
	for i, m := range msgs {
		if m.IsNullish() {
			panic(stream.PropertyTypeError(m, "role"))
		}
		if isRole(m, ai.RoleAssistant) {
			ts := stream.ToNumber(stream.Member(m, "timestamp"))
			stop := stream.Member(m, "stopReason")
			failed := stop.Kind() == jsonv.String && (stop.Str() == ai.StopAborted || stop.Str() == ai.StopError)
			if u := contextTokens(stream.Member(m, "usage")); ts >= latest && !failed && greaterThanZero(u) {
				last, usage = i, u
			}
		}
		latest = max(latest, stream.ToNumber(stream.Member(m, "timestamp")))
	}
	if last < 0 {
		return sumTokens(msgs)
	}
	return stream.Plus(usage, sumTokens(msgs[last+1:]))
}

// sumTokens adds the estimates of msgs, from 0.
func sumTokens(msgs []jsonv.Value) jsonv.Value {
	total := stream.Zero
	for _, m := range msgs {
		total = stream.Plus(total, EstimateMessageTokens(m))
	}
	return total
}

// contextTokens is Pi's calculateContextTokens: totalTokens when truthy,
// else input + output + cacheRead + cacheWrite.
func contextTokens(usage jsonv.Value) jsonv.Value {
	if t := stream.Prop(usage, "totalTokens"); t.Truthy() {
		return t
	}
	return stream.Sum(stream.Member(usage, "input"), stream.Member(usage, "output"),
		stream.Member(usage, "cacheRead"), stream.Member(usage, "cacheWrite"))
}

func greaterThanZero(v jsonv.Value) bool {
	gt, err := jsonv.Greater(v, stream.Zero)
	if err != nil {
		panic(stream.JSError{Msg: stream.NoPrimitiveText})
	}
	return gt
}

// isRole is `message.role === role`.
func isRole(m jsonv.Value, role string) bool {
	r := stream.Member(m, "role")
	return r.Kind() == jsonv.String && r.Str() == role
}

// EstimateMessageTokens is Pi 1.6's estimateMessageTokens: ⌈characters /
// 3.5⌉ of a message. A system message counts its whole prompt
// (SystemMessageText) and, apart, the JSON of the tools it adds and
// removes; a user message or a tool result its text (an image 4800
// characters); any other message the text of its text and thinking
// blocks and, for a tool call, its name and the JSON of its arguments.
// Lengths are JavaScript's (UTF-16 units).
func EstimateMessageTokens(m jsonv.Value) jsonv.Value {
	switch {
	case isRole(m, ai.RoleSystem):
		text, err := SystemMessageText(m, "")
		if err != nil {
			panic(stream.JSError{Msg: err.Error()})
		}
		t := jsonv.JSNumberValue(math.Ceil(float64(wtf8.Len(text)) / charsPerToken))
		return stream.Sum(t, toolsTokens(stream.Member(m, "toolsAdded")), toolsTokens(stream.Member(m, "toolsRemoved")))
	case isRole(m, ai.RoleUser), isRole(m, ai.RoleToolResult):
		content := stream.Member(m, "content")
		if content.Kind() == jsonv.String {
			return ceilTokens(jsLength(content))
		}
		chars := stream.Zero
		for _, b := range iterateOrThrow(content) {
			if t := stream.Prop(b, "type"); t.Kind() == jsonv.String && t.Str() == "text" {
				chars = stream.Plus(chars, jsLength(stream.Member(b, "text")))
			} else {
				chars = stream.Plus(chars, jsonv.NumberValue("4800"))
			}
		}
		return ceilTokens(chars)
	}
	chars := stream.Zero
	for _, b := range iterateOrThrow(stream.Member(m, "content")) {
		switch t := stream.Prop(b, "type"); {
		case t.Kind() == jsonv.String && t.Str() == "text":
			chars = stream.Plus(chars, jsLength(stream.Member(b, "text")))
		case t.Kind() == jsonv.String && t.Str() == "thinking":
			chars = stream.Plus(chars, jsLength(stream.Member(b, "thinking")))
		default:
			chars = stream.Sum(chars, jsLength(stream.Member(b, "name")), jsonv.FloatValue(float64(stringifiedLength(stream.Member(b, "arguments")))))
		}
	}
	return ceilTokens(chars)
}

// ceilTokens is ⌈chars / 3.5⌉.
func ceilTokens(chars jsonv.Value) jsonv.Value {
	return jsonv.JSNumberValue(math.Ceil(stream.ToNumber(chars) / charsPerToken))
}

// toolsTokens is Pi's estimateToolsTokens: 0 for no tools (falsy, or a
// length of 0), else ⌈the length of their JSON / 3.5⌉.
func toolsTokens(tools jsonv.Value) jsonv.Value {
	if !tools.Truthy() {
		return stream.Zero
	}
	if n := jsLength(tools); n.Kind() == jsonv.Number && n.JSNumber() == 0 {
		return stream.Zero
	}
	return jsonv.JSNumberValue(math.Ceil(float64(stringifiedLength(tools)) / charsPerToken))
}

// stringifiedLength is the length of JSON.stringify(v) ("undefined" for
// Absent, which stringifies to undefined).
func stringifiedLength(v jsonv.Value) int {
	if v.IsAbsent() {
		return len("undefined")
	}
	return wtf8.Len(string(v.Stringified().AppendJSON(nil)))
}

// jsLength is v.length: a string's UTF-16 units, an array's elements, an
// object's own length member; undefined (Absent) on a number or a
// boolean; it throws on undefined and null.
func jsLength(v jsonv.Value) jsonv.Value {
	switch v.Kind() {
	case jsonv.String:
		return jsonv.FloatValue(float64(wtf8.Len(v.Str())))
	case jsonv.Array:
		return jsonv.FloatValue(float64(len(v.Elems())))
	}
	return stream.Prop(v, "length")
}

// iterateOrThrow is the elements `for (x of v)` visits: an array's, a
// string's code points; anything else throws.
func iterateOrThrow(v jsonv.Value) []jsonv.Value {
	if v.IsNullish() {
		panic(stream.JSError{Msg: v.JSString() + " is not iterable (cannot read property Symbol(Symbol.iterator))"})
	}
	elems, ok := jsonv.Iterate(v)
	if !ok {
		panic(stream.JSError{Msg: jsonv.NotIterableText(v)})
	}
	return elems
}
