package transform

import (
	"errors"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// ErrThrows marks input on which Pi throws because it reads a value of
// another type than it declares: a member of null, or a method the value
// lacks. Pi's stream then ends with an error message (in V8's wording); the
// reference refuses the input instead (spec input.strict).
var ErrThrows = errors.New("Pi throws reading a value of another type")

// Throws is ErrThrows at the JSON Pointer ptr; its text is the PathError's.
func Throws(ptr, format string, args ...any) error {
	var pe *jsonv.PathError
	errors.As(jsonv.Errorf(ptr, format, args...), &pe)
	return throwError{pe}
}

type throwError struct{ *jsonv.PathError }

func (e throwError) Unwrap() []error { return []error{ErrThrows, e.PathError} }

// CheckThrows refuses msgs where Messages, Pi's transformMessages, throws
// for model, with a tool-call id normalizer that throws on the ids idThrows
// reports (nil: no normalizer). msgsPtr is the JSON Pointer of the message
// array. Pi throws on:
//   - a null in assistant content (it reads its type), or in an array there
//     that flatMap splices in, unless the assistant is an error or an abort,
//     dropped before its tool calls are looked for;
//   - thinking that is truthy but not a string, where it is trimmed (not
//     redacted, and not signed for the same model);
//   - the id of another model's tool call that the normalizer cannot read;
//   - for a model without images, a null in user array content or in a
//     tool result's content, and tool-result content that is neither an
//     array nor a string (the image downgrade iterates it and reads types).
func CheckThrows(msgs []ai.Message, model *ai.Model, idThrows func(id jsonv.Value) bool, msgsPtr string) error {
	return CheckThrowsIn(dialect.V0_80, msgs, model, idThrows, msgsPtr)
}

// CheckThrowsIn is CheckThrows as Pi of dialect d throws. In 1.6 thinking of
// another model is dropped before it is trimmed, so only the same model's
// thinking can throw there; the content FillContent fills throws nowhere.
func CheckThrowsIn(d dialect.Dialect, msgs []ai.Message, model *ai.Model, idThrows func(id jsonv.Value) bool, msgsPtr string) error {
	for i, m := range msgs {
		if err := CheckMessageIn(d, m, i, model, idThrows, msgsPtr); err != nil {
			return err
		}
	}
	return nil
}

// CheckMessage is CheckThrows for the message m at index i, for a caller
// that reads a transcript one message at a time.
func CheckMessage(m ai.Message, i int, model *ai.Model, idThrows func(id jsonv.Value) bool, msgsPtr string) error {
	return CheckMessageIn(dialect.V0_80, m, i, model, idThrows, msgsPtr)
}

// CheckMessageIn is CheckMessage as Pi of dialect d throws.
func CheckMessageIn(d dialect.Dialect, m ai.Message, i int, model *ai.Model, idThrows func(id jsonv.Value) bool, msgsPtr string) error {
	// The content's pointer is built only for an error: this runs on
	// every message of every request.
	at := func() string { return jsonv.Index(msgsPtr, i) + "/content" }
	switch m := m.(type) {
	case *ai.AssistantMessage:
		return checkAssistant(m, model, idThrows, at, rulesOf.At(d))
	case *ai.UserMessage:
		if !model.AcceptsImages() && !m.Content.IsString && !m.Content.Verbatim {
			return noNull(m.Content.Blocks, at)
		}
	case *ai.ToolResultMessage:
		if model.AcceptsImages() {
			break
		}
		if c := m.Loose.Value("content", ""); m.Loose.Has("content") && c.Kind() != jsonv.String {
			return Throws(at(), "want an array or a string to iterate, got %s", c.Kind())
		}
		return noNull(m.Content, at)
	}
	return nil
}

func checkAssistant(a *ai.AssistantMessage, model *ai.Model, idThrows func(jsonv.Value) bool, content func() string, r rules) error {
	same := SameModel(a, model)
	for j, b := range a.Content {
		at := func() string { return jsonv.Index(content(), j) }
		switch b := b.(type) {
		case *ai.ForeignBlock:
			if b.Raw.Kind() == jsonv.Null {
				return Throws(at(), "want a block, got null")
			}
			if b.Raw.Kind() == jsonv.Array && !Dropped(a) {
				if err := noNull(b.Spliced(), at); err != nil {
					return err
				}
			}
		case *ai.ThinkingBlock:
			if !same && r.dropForeignThinking {
				break // dropped unread
			}
			if b.TextIsTruthyOther() && !b.IsRedacted() && !(same && b.IsSigned()) {
				return Throws(at()+"/thinking", "want a string to trim, got %s", b.Loose.Value("thinking", "").Kind())
			}
		case *ai.ToolCallBlock:
			if id := b.Loose.Value("id", b.ID); !same && idThrows != nil && idThrows(id) {
				return Throws(at()+"/id", "want a string to normalize, got %s", id.Kind())
			}
		}
	}
	return nil
}

// Dropped reports whether transformMessages drops the assistant message
// (an error or an abort) before a provider converts it.
func Dropped(a *ai.AssistantMessage) bool {
	return a.StopReason == ai.StopError || a.StopReason == ai.StopAborted
}

// NoNull refuses a null among blocks, whose type Pi reads.
func NoNull(blocks []ai.Block, at string) error {
	return noNull(blocks, func() string { return at })
}

// noNull is NoNull building the blocks' pointer only for an error.
func noNull(blocks []ai.Block, at func() string) error {
	for j, b := range blocks {
		if f, ok := b.(*ai.ForeignBlock); ok && f.Raw.Kind() == jsonv.Null {
			return Throws(jsonv.Index(at(), j), "want a block, got null")
		}
	}
	return nil
}

// NotAString reports an id that is not a string: what a normalizer that
// calls a string method throws on.
func NotAString(id jsonv.Value) bool { return id.Kind() != jsonv.String }
