// Package lenient is what the provider conversions share when they read a
// context decoded leniently (spec input.lenient, provider.Driver's
// LenientContext): where Pi's transformMessages throws on members of other
// types, and how JavaScript turns such a member into text.
package lenient

import (
	"errors"
	"fmt"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/transform"
)

// ErrThrows marks an input on which Pi throws while it builds the request:
// it reads a member of null, or calls a method the value has not. Pi's
// stream ends with an error message; the reference refuses the input.
var ErrThrows = errors.New("Pi throws reading a value of another type")

// Throws is ErrThrows at the JSON Pointer ptr, with what Pi does there.
func Throws(ptr, format string, args ...any) error {
	return fmt.Errorf("%w: %w", ErrThrows, jsonv.Errorf(ptr, format, args...))
}

// MessagePointer is the JSON Pointer of the i-th message of a wire case's
// context.
func MessagePointer(i int) string { return jsonv.Index("/context/messages", i) }

// Transformable refuses what Pi's transformMessages throws on, for model
// and an id normalizer that throws on the ids idThrows reports:
//   - a null in assistant content (flatMap reads its type), or inside an
//     array there that flatMap splices in, unless the assistant is an error
//     or abort, dropped before its tool calls are looked up;
//   - thinking that is truthy but no string, where Pi trims it (not
//     redacted, and not signed for the same model);
//   - the id of another model's tool call that the normalizer cannot read;
//   - for a model without images, a null in user array content or in a tool
//     result's content, and tool-result content that is neither an array nor
//     a string (the image downgrade iterates it and reads each type).
func Transformable(msgs []ai.Message, model *ai.Model, idThrows func(id jsonv.Value) bool) error {
	images := model.AcceptsImages()
	for i, m := range msgs {
		at := MessagePointer(i) + "/content"
		var err error
		switch m := m.(type) {
		case *ai.AssistantMessage:
			err = transformableAssistant(m, model, idThrows, at)
		case *ai.UserMessage:
			if !images && !m.Content.IsString && !m.Content.Verbatim {
				err = NoNull(m.Content.Blocks, at)
			}
		case *ai.ToolResultMessage:
			if images {
				break
			}
			if c := m.Loose.Value("content", ""); m.Loose.Has("content") && c.Kind() != jsonv.String {
				err = Throws(at, "the image downgrade iterates a %s", c.Kind())
			} else {
				err = NoNull(m.Content, at)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func transformableAssistant(a *ai.AssistantMessage, model *ai.Model, idThrows func(jsonv.Value) bool, at string) error {
	same := transform.SameModel(a, model)
	for j, b := range a.Content {
		at := jsonv.Index(at, j)
		switch b := b.(type) {
		case *ai.ForeignBlock:
			if b.Raw.Kind() == jsonv.Null {
				return Throws(at, "transformMessages reads the type of null")
			}
			if b.Raw.Kind() == jsonv.Array && !Dropped(a) {
				if err := NoNull(b.Spliced(), at); err != nil {
					return err
				}
			}
		case *ai.ThinkingBlock:
			if b.TextIsTruthyOther() && !b.IsRedacted() && !(same && b.IsSigned()) {
				return Throws(at+"/thinking", "transformMessages trims a %s", b.Loose.Value("thinking", "").Kind())
			}
		case *ai.ToolCallBlock:
			if id := b.Loose.Value("id", b.ID); !same && idThrows(id) {
				return Throws(at+"/id", "the tool-call id normalizer cannot read a %s", id.Kind())
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
	for j, b := range blocks {
		if f, ok := b.(*ai.ForeignBlock); ok && f.Raw.Kind() == jsonv.Null {
			return Throws(jsonv.Index(at, j), "Pi reads the type of null")
		}
	}
	return nil
}

// Joined is v as Array.prototype.join writes an element: "" for null and
// undefined, String(v) otherwise.
func Joined(v jsonv.Value) string {
	if k := v.Kind(); k == jsonv.Null || k == jsonv.Absent {
		return ""
	}
	return v.JSString()
}
