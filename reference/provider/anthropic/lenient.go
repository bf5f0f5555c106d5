package anthropic

import (
	"fmt"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// Throws is a transform.ErrThrows naming what Pi trips on.
func Throws(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{transform.ErrThrows}, args...)...)
}

// CheckTransform refuses what transformMessages throws on, for an API that
// normalizes the ids of other models' tool calls (this one and Bedrock) with
// string methods (transform.CheckThrows).
func CheckTransform(msgs []ai.Message, model *ai.Model) error {
	return transform.CheckThrows(msgs, model, transform.NotAString, "/context/messages")
}

func isNull(b ai.Block) bool {
	f, ok := b.(*ai.ForeignBlock)
	return ok && f.Raw.Kind() == jsonv.Null
}

// textOf is the text of a block of type "text" that is not a
// *ai.TextBlock, which Pi sanitizes or trims as a string: any other value
// throws.
func textOf(raw jsonv.Value, where string) (string, error) {
	text := stream.Member(raw, "text")
	if text.Kind() != jsonv.String {
		return "", Throws("%s holds a text block whose text is %s, not a string", where, text.Kind())
	}
	return text.Str(), nil
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
	if v.IsNullish() {
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
