package anthropic

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/internal/lenient"
	"github.com/piconform/piconform/reference/provider/stream"
)

// textOf is the text of a block of type "text" that is not a
// *ai.TextBlock, which Pi sanitizes or trims as a string: any other value
// throws.
func textOf(raw jsonv.Value, where string) (string, error) {
	text := stream.Member(raw, "text")
	if text.Kind() != jsonv.String {
		return "", lenient.Throws("%s holds a text block whose text is %s, not a string", where, text.Kind())
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
