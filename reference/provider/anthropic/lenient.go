package anthropic

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
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
