package anthropic

import (
	"errors"
	"fmt"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/transform"
)

// ErrPiThrows marks an input of other member types than Pi declares on
// which Pi throws a TypeError before it sends the request (it calls a
// string method on another type, or reads a member of null): Pi ends the
// stream in an error in V8's words, so the reference refuses the input
// (input.lenient).
var ErrPiThrows = errors.New("Pi throws a TypeError before sending")

// Throws is an ErrPiThrows naming what Pi trips on.
func Throws(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrPiThrows}, args...)...)
}

// CheckTransform refuses what transformMessages throws on, for an API that
// normalizes the ids of other models' tool calls (this one and Bedrock):
//   - a null in assistant content (its type is read), or in an array there
//     that is spliced in, unless the assistant is dropped as an error or an
//     abort before its tool calls are looked for;
//   - thinking that is truthy but not a string, where it is trimmed (not
//     redacted, and not signed for the same model);
//   - the id of another model's tool call that is not a string (the
//     normalizer calls a string method on it);
//   - for a model without images, a null in user array content or in a
//     tool result's content, and tool-result content that is neither an
//     array nor a string (the image downgrade iterates it and reads types).
//
// conformance's normalize kind makes the same checks for transform alone.
func CheckTransform(msgs []ai.Message, model *ai.Model) error {
	images := model.AcceptsImages()
	for i, m := range msgs {
		at := fmt.Sprintf("/context/messages/%d/content", i)
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
				err = Throws("%s: want an array or a string to iterate, got %s", at, c.Kind())
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
		at := fmt.Sprintf("%s/%d", at, j)
		switch b := b.(type) {
		case *ai.ForeignBlock:
			if b.Raw.Kind() == jsonv.Null {
				return Throws("%s: want a block, got null", at)
			}
			if b.Raw.Kind() == jsonv.Array && !dropped {
				if err := noNull(b.Spliced(), at); err != nil {
					return err
				}
			}
		case *ai.ThinkingBlock:
			if b.TextIsTruthyOther() && !b.IsRedacted() && !(same && b.IsSigned()) {
				return Throws("%s/thinking: want a string to trim, got %s", at, b.Loose.Value("thinking", "").Kind())
			}
		case *ai.ToolCallBlock:
			if !same && b.Loose.Has("id") {
				return Throws("%s/id: want a string to normalize, got %s", at, b.Loose.Value("id", "").Kind())
			}
		}
	}
	return nil
}

// noNull refuses a null among blocks, whose type Pi reads.
func noNull(blocks []ai.Block, at string) error {
	for j, b := range blocks {
		if isNull(b) {
			return Throws("%s/%d: want a block, got null", at, j)
		}
	}
	return nil
}

func isNull(b ai.Block) bool {
	f, ok := b.(*ai.ForeignBlock)
	return ok && f.Raw.Kind() == jsonv.Null
}

// textOf is the text of a block of type "text" that is not a
// *ai.TextBlock, which Pi sanitizes or trims as a string: any other value
// throws.
func textOf(raw jsonv.Value, where string) (string, error) {
	text := member(raw, "text")
	if text.Kind() != jsonv.String {
		return "", Throws("%s holds a text block whose text is %s, not a string", where, text.Kind())
	}
	return text.Str(), nil
}

// member is obj[key] as JavaScript reads it from any value: Absent for a
// member it does not have, and for every value that is not an object.
func member(v jsonv.Value, key string) jsonv.Value {
	m, _ := v.Get(key)
	return m
}

// signatureValue is a thinking block's thinkingSignature as written,
// whatever its type (Absent when left out).
func signatureValue(b *ai.ThinkingBlock) jsonv.Value {
	if b.Loose.Has("thinkingSignature") {
		return b.Loose.Value("thinkingSignature", "")
	}
	if b.ThinkingSignature == nil {
		return jsonv.Value{}
	}
	return jsonv.StringValue(*b.ThinkingSignature)
}

// TruthyOr is the truthiness of `v ?? def`: def when v is null or Absent.
func TruthyOr(v jsonv.Value, def bool) bool {
	if v.IsAbsent() || v.Kind() == jsonv.Null {
		return def
	}
	return v.Truthy()
}

// copilotHeaders are httpheader.Copilot's headers, where an element of
// type "image" asks for vision too when its other members have other
// types: Pi looks at the type alone.
func copilotHeaders(ctx *ai.Context) []httpheader.Header {
	out := httpheader.Copilot(ctx)
	if out[len(out)-1].Name == "Copilot-Vision-Request" {
		return out
	}
	for _, m := range ctx.Messages {
		var blocks []ai.Block
		switch m := m.(type) {
		case *ai.UserMessage:
			blocks = m.Content.Blocks
		case *ai.ToolResultMessage:
			blocks = m.Content
		}
		for _, b := range blocks {
			if f, ok := b.(*ai.ForeignBlock); ok && f.Type() == "image" {
				return append(out, httpheader.New("Copilot-Vision-Request", "true"))
			}
		}
	}
	return out
}
