package stream

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// ArgumentsErrorKey is the tool call member, from Pi 1.6 on, that says
// why the finished arguments text was no JSON object, and holds the text.
const ArgumentsErrorKey = "argumentsError"

// FinishArguments sets the arguments of b, a tool call whose block ended
// with text as its complete arguments text, as Pi of dialect d does: 0.80
// keeps what the partial parser makes of it; 1.6 parses it once
// (ParseToolCallArguments) and adds argumentsError after the block's
// members when that failed, as Pi's Object.assign does.
func FinishArguments(d dialect.Dialect, b *ai.ToolCallBlock, text string) {
	if !onceParsedArguments.At(d) {
		b.Arguments = ParseStreamingJSON(text)
		return
	}
	args, argsErr := ParseToolCallArguments(text)
	b.Arguments = args
	SetArgumentsError(b, argsErr)
}

// SetArgumentsError adds argumentsError (when not nil) after the members
// of b.
func SetArgumentsError(b *ai.ToolCallBlock, argumentsError *string) {
	if argumentsError != nil {
		b.Extra = append(b.Extra[:len(b.Extra):len(b.Extra)], jsonv.Member{Key: ArgumentsErrorKey, Value: jsonv.StringValue(*argumentsError)})
	}
}
