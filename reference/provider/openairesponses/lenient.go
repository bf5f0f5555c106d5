package openairesponses

import (
	"errors"
	"fmt"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/transform"
)

// ErrPiThrows marks a context with members of other types than Pi declares
// on which Pi's conversion throws a TypeError (it calls a string method on
// another type, or reads a member of null): Pi sends nothing and ends the
// stream in an error, so the reference refuses the input (input.lenient,
// wire.openai-responses.lenient).
var ErrPiThrows = errors.New("openai-responses: Pi throws converting the context")

// throws is an ErrPiThrows naming the JSON Pointer Pi trips on.
func throws(ptr, format string, args ...any) error {
	return fmt.Errorf("%w: %w", ErrPiThrows, jsonv.Errorf(ptr, format, args...))
}

func messagePointer(i int) string { return jsonv.Index("/context/messages", i) }

// checkTransform refuses what transformMessages throws on before the
// conversion sees the messages, with this API's normalizer, which calls
// string methods on every id of another model's tool call:
//   - a null in assistant content (its type is read), or in an array there
//     that is spliced in, unless the assistant is an error or an abort,
//     dropped before its tool calls are looked for;
//   - thinking that is truthy but not a string, where it is trimmed (not
//     redacted, and not signed for the same model);
//   - the id of another model's tool call that is not a string;
//   - for a model without images, a null in user array content or in a
//     tool result's content, and tool-result content that is neither an
//     array nor a string (the image downgrade iterates it).
func checkTransform(msgs []ai.Message, model *ai.Model) error {
	images := model.AcceptsImages()
	for i, m := range msgs {
		at := messagePointer(i) + "/content"
		var err error
		switch m := m.(type) {
		case *ai.AssistantMessage:
			err = checkAssistant(m, model, at)
		case *ai.UserMessage:
			if !images && !m.Content.IsString && !m.Content.Verbatim {
				err = noNull(m.Content.Blocks, at)
			}
		case *ai.ToolResultMessage:
			if images {
				break
			}
			if c := m.Loose.Value("content", ""); m.Loose.Has("content") && c.Kind() != jsonv.String {
				err = throws(at, "the image downgrade iterates a %s", c.Kind())
			} else {
				err = noNull(m.Content, at)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func checkAssistant(a *ai.AssistantMessage, model *ai.Model, at string) error {
	same := transform.SameModel(a, model)
	dropped := a.StopReason == ai.StopError || a.StopReason == ai.StopAborted
	for j, b := range a.Content {
		at := jsonv.Index(at, j)
		switch b := b.(type) {
		case *ai.ForeignBlock:
			if isNull(b) {
				return throws(at, "want a block, got null")
			}
			if b.Raw.Kind() == jsonv.Array && !dropped {
				if err := noNull(b.Spliced(), at); err != nil {
					return err
				}
			}
		case *ai.ThinkingBlock:
			if b.TextIsTruthyOther() && !b.IsRedacted() && !(same && b.IsSigned()) {
				return throws(at+"/thinking", "want a string to trim, got %s", b.Loose.Value("thinking", "").Kind())
			}
		case *ai.ToolCallBlock:
			if !same && b.Loose.Has("id") {
				return throws(at+"/id", "want a string to normalize, got %s", b.Loose.Value("id", "").Kind())
			}
		}
	}
	return nil
}

// noNull refuses a null among blocks, whose type Pi reads.
func noNull(blocks []ai.Block, at string) error {
	for j, b := range blocks {
		if isNull(b) {
			return throws(jsonv.Index(at, j), "want a block, got null")
		}
	}
	return nil
}

func isNull(b ai.Block) bool {
	f, ok := b.(*ai.ForeignBlock)
	return ok && f.Raw.Kind() == jsonv.Null
}

// member is v[key] as JavaScript reads it from any value that is not null:
// Absent for a member it does not have, and on every value that is not an
// object.
func member(v jsonv.Value, key string) jsonv.Value {
	m, _ := v.Get(key)
	return m
}

// joinText is a value as Array#join writes an element: null and undefined
// as nothing, anything else as String(v).
func joinText(v jsonv.Value) string {
	if v.IsAbsent() || v.Kind() == jsonv.Null {
		return ""
	}
	return v.JSString()
}
