package stream

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// onceParsedArguments tells whether a finished tool call's arguments come
// from one strict parse of the whole text, with argumentsError on a
// failure (1.6 on), rather than from the partial parser that kept what a
// prefix of the text gave (0.80).
var onceParsedArguments = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// ArgumentsErrorKey is the tool call member, from Pi 1.6 on, that says
// why the finished arguments text was no JSON object, and holds the text.
const ArgumentsErrorKey = "argumentsError"

// NotAnObjectText is the error of arguments text that parses to a value
// other than an object.
const NotAnObjectText = "Tool arguments must be a JSON object"

// ParseToolCallArguments reads the complete arguments text of a finished
// tool call as Pi 1.6 does: blank text is {}; else JSON.parse with Pi's
// string repair (ParseJSONWithRepair), which must give an object. Text
// that does not gives {} and argumentsError: the reason (V8's SyntaxError
// text, or NotAnObjectText), a blank line, "Received arguments:" and the
// text. argumentsError is Absent when the text was fine.
func ParseToolCallArguments(text string) (args, argumentsError jsonv.Value) {
	empty := jsonv.ObjectValue()
	if IsBlank(text) {
		return empty, jsonv.Value{}
	}
	v, err := ParseJSONWithRepair(text)
	msg := ""
	switch {
	case err != nil:
		msg = err.Error()
	case v.Kind() != jsonv.Object:
		msg = NotAnObjectText
	default:
		return v, jsonv.Value{}
	}
	return empty, jsonv.StringValue(wtf8.Concat(msg, "\n\nReceived arguments:\n", text))
}

// PartialArguments are the arguments a tool call shows while its text is
// still arriving: what the partial parser makes of the text so far.
func PartialArguments(d dialect.Dialect, text string) jsonv.Value {
	args := ParseStreamingJSON(text)
	if onceParsedArguments.At(d) && args.Kind() != jsonv.Object {
		// Only an object counts as arguments; anything else shows none yet.
		return jsonv.ObjectValue()
	}
	return args
}

// AppendArgsIn is AppendArgs for dialect d: it adds delta to *partial and
// shows the partial arguments of the text so far (PartialArguments).
func AppendArgsIn(d dialect.Dialect, b *ai.ToolCallBlock, partial *string, i int, delta string) Event {
	*partial = wtf8.Concat(*partial, delta)
	b.Arguments = PartialArguments(d, *partial)
	return Event{Type: TypeToolCallDelta, ContentIndex: i, Delta: delta}
}

// FinishArguments sets the arguments of b, a tool call whose block ended
// with text as its complete arguments text, as Pi of dialect d does: 0.80
// keeps what the partial parser makes of it; 1.6 parses it once
// (ParseToolCallArguments) and adds argumentsError after the block's
// members when that failed.
func FinishArguments(d dialect.Dialect, b *ai.ToolCallBlock, text string) {
	if !onceParsedArguments.At(d) {
		b.Arguments = ParseStreamingJSON(text)
		return
	}
	args, argsErr := ParseToolCallArguments(text)
	b.Arguments = args
	if !argsErr.IsAbsent() {
		b.Extra = append(b.Extra[:len(b.Extra):len(b.Extra)], jsonv.Member{Key: ArgumentsErrorKey, Value: argsErr})
	}
}
