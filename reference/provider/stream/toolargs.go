package stream

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// ToolCallArguments is how Pi 1.6 reads a tool call's arguments while they
// stream (ToolCallArgumentsStream): each piece of text is appended, the
// arguments shown meanwhile are a lenient preview of the text so far (an
// object, else {}), and when the block ends the whole text is parsed once,
// strictly (ParseToolCallArguments). Its scratch state stays off the
// block, so nothing of it leaks into a message.
//
// The preview reuses the partial parser of 0.80 (ParseStreamingJSON). Pi
// 1.6 previews with its own incremental parser, which differs on a few
// unfinished texts (white space at the end of an open string, an open
// string holding a raw control character or a bad escape, the words NaN
// and Infinity); a preview is only seen when the stream fails before the
// block ends.
type ToolCallArguments struct{ text string }

// Text is the raw argument text so far.
func (a *ToolCallArguments) Text() string { return a.text }

// Append adds a piece of the text, as Pi's += does, and returns the
// preview of the text so far.
func (a *ToolCallArguments) Append(delta string) jsonv.Value {
	a.text = wtf8.Concat(a.text, delta)
	if v := ParseStreamingJSON(a.text); v.Kind() == jsonv.Object {
		return v
	}
	return jsonv.ObjectValue()
}

// Finish writes the final arguments into b: ParseToolCallArguments of the
// whole text, its error (if any) as b's argumentsError member.
func (a *ToolCallArguments) Finish(b *ai.ToolCallBlock) {
	args, errText, failed := ParseToolCallArguments(a.text)
	b.Arguments = args
	if failed {
		b.Extra = append(b.Extra, jsonv.Member{Key: ArgumentsErrorMember, Value: jsonv.StringValue(errText)})
	}
}

// ArgumentsErrorMember is the tool-call block member Pi 1.6 writes when
// the finished arguments are not a JSON object.
const ArgumentsErrorMember = "argumentsError"

// ReceivedArgumentsText separates the parse error from the text the model
// sent in an argumentsError.
const ReceivedArgumentsText = "\n\nReceived arguments:\n"

// NotAnObjectText is the error of arguments that parse but are not an
// object.
const NotAnObjectText = "Tool arguments must be a JSON object"

// ParseToolCallArguments is Pi 1.6's parse of a finished call's argument
// text: blank text is {}; otherwise ParseJSONWithRepair, which must give an
// object. When it does not, the arguments are {} and failed is true, with
// errText the error (JSON.parse's message, or NotAnObjectText), then
// ReceivedArgumentsText and the text.
func ParseToolCallArguments(text string) (args jsonv.Value, errText string, failed bool) {
	if JSTrim(text) == "" {
		return jsonv.ObjectValue(), "", false
	}
	v, err := ParseJSONWithRepair(text)
	msg := NotAnObjectText
	if err == nil {
		if v.Kind() == jsonv.Object {
			return v, "", false
		}
	} else {
		msg = err.Error()
	}
	return jsonv.ObjectValue(), wtf8.Concat(msg, ReceivedArgumentsText, text), true
}
