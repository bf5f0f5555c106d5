package google

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
	"github.com/piconform/piconform/reference/wtf8"
)

// ToolResultImageText leads the extra user turn that carries a tool
// result's images for models before Gemini 3.
const ToolResultImageText = "Tool result image:"

// RequiresToolCallID reports whether Pi sends tool-call ids in
// functionCall and functionResponse for this model id: only for Claude and
// gpt-oss models served through Google.
func RequiresToolCallID(modelID string) bool {
	return strings.HasPrefix(modelID, "claude-") || strings.HasPrefix(modelID, "gpt-oss-")
}

// NormalizeToolCallID is this API's tool-call id normalizer, applied by
// transform to calls made by other models. For models that take ids
// (RequiresToolCallID) every UTF-16 code unit outside [a-zA-Z0-9_-] becomes
// "_" and the result is cut to 64 units; for the others the id is kept
// (it is never sent).
func NormalizeToolCallID(id string, model *ai.Model, _ *ai.AssistantMessage) string {
	if model == nil || !RequiresToolCallID(model.ID) {
		return id
	}
	return provider.SanitizeID(id, 64)
}

var (
	base64Signature = regexp.MustCompile(`^[A-Za-z0-9+/]+={0,2}$`)
	geminiVersion   = regexp.MustCompile(`^gemini(?:-live)?-(\d+)`)
)

// validSignature is Pi's check that a thought signature is base64: not
// empty, a length divisible by four, and only the base64 alphabet.
func validSignature(sig *string) bool {
	return sig != nil && *sig != "" && len(*sig)%4 == 0 && base64Signature.MatchString(*sig)
}

// multimodalFunctionResponse reports whether images of a tool result go
// inside functionResponse.parts: Gemini 3 and later, and any model whose
// id does not name a Gemini version.
func multimodalFunctionResponse(modelID string) bool {
	m := geminiVersion.FindStringSubmatch(strings.ToLower(modelID))
	if m == nil {
		return true
	}
	n, err := strconv.Atoi(m[1])
	return err != nil || n >= 3
}

func content(role string, parts []jsonv.Value) jsonv.Value {
	return new(jsonv.ObjectBuilder).Set("parts", jsonv.ArrayValue(parts...)).SetString("role", role).Value()
}

func textPart(text string) *jsonv.ObjectBuilder {
	return new(jsonv.ObjectBuilder).SetString("text", text)
}

// inlineData is an image part as the SDK writes a part (data first).
func inlineData(b *ai.ImageBlock) jsonv.Value {
	blob := new(jsonv.ObjectBuilder).SetString("data", b.Data).SetString("mimeType", b.MimeType).Value()
	return new(jsonv.ObjectBuilder).Set("inlineData", blob).Value()
}

// nestedInlineData is an image inside functionResponse.parts, which the
// SDK passes through as Pi built it (mimeType first).
func nestedInlineData(b *ai.ImageBlock) jsonv.Value {
	blob := new(jsonv.ObjectBuilder).SetString("mimeType", b.MimeType).SetString("data", b.Data).Value()
	return new(jsonv.ObjectBuilder).Set("inlineData", blob).Value()
}

// wireContent is one content while it is being built; tool results may
// still be appended to it.
type wireContent struct {
	role      string
	parts     []jsonv.Value
	functions bool // holds a functionResponse
}

// convertMessages is Pi's convertMessages of google-shared.js: transform
// for the target model, then one content per message, with consecutive
// tool results in one user content.
func convertMessages(msgs []ai.Message, model *ai.Model, now transform.Clock) []jsonv.Value {
	msgs = transform.Messages(msgs, model, NormalizeToolCallID, now)
	withIDs := RequiresToolCallID(model.ID)
	var out []*wireContent
	for _, msg := range msgs {
		switch m := msg.(type) {
		case *ai.UserMessage:
			if m.Content.IsString {
				out = append(out, &wireContent{role: "user", parts: []jsonv.Value{textPart(ai.SanitizeSurrogates(m.Content.Text)).Value()}})
				continue
			}
			var parts []jsonv.Value
			for _, b := range m.Content.Blocks {
				switch b := b.(type) {
				case *ai.TextBlock:
					parts = append(parts, textPart(ai.SanitizeSurrogates(b.Text)).Value())
				case *ai.ImageBlock:
					parts = append(parts, inlineData(b))
				}
			}
			if len(parts) > 0 {
				out = append(out, &wireContent{role: "user", parts: parts})
			}
		case *ai.AssistantMessage:
			if parts := assistantParts(m, model, withIDs); len(parts) > 0 {
				out = append(out, &wireContent{role: "model", parts: parts})
			}
		case *ai.ToolResultMessage:
			out = appendToolResult(out, m, model, withIDs)
		}
	}
	contents := make([]jsonv.Value, len(out))
	for i, c := range out {
		contents[i] = content(c.role, c.parts)
	}
	return contents
}

// assistantParts converts one assistant message. Signatures are replayed
// only to the same provider and model id, and only when they are base64.
func assistantParts(m *ai.AssistantMessage, model *ai.Model, withIDs bool) []jsonv.Value {
	same := jsonv.StrictEqual(m.ProviderValue(), model.ProviderValue()) && jsonv.StrictEqual(m.ModelValue(), model.IDValue())
	signature := func(sig *string) *string {
		if same && validSignature(sig) {
			return sig
		}
		return nil
	}
	var parts []jsonv.Value
	for _, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextBlock:
			if stream.IsBlank(b.Text) {
				continue
			}
			parts = append(parts, textPart(ai.SanitizeSurrogates(b.Text)).SetOptString("thoughtSignature", signature(b.TextSignature)).Value())
		case *ai.ThinkingBlock:
			if stream.IsBlank(b.Thinking) {
				continue
			}
			p := textPart(ai.SanitizeSurrogates(b.Thinking))
			if same {
				p.SetBool("thought", true).SetOptString("thoughtSignature", signature(b.ThinkingSignature))
			}
			parts = append(parts, p.Value())
		case *ai.ToolCallBlock:
			args := b.Arguments
			if args.IsAbsent() || args.Kind() == jsonv.Null {
				args = jsonv.ObjectValue()
			}
			call := new(jsonv.ObjectBuilder)
			if withIDs {
				call.SetString("id", b.ID)
			}
			call.Set("args", stream.JSValue(args)).SetString("name", b.Name)
			p := new(jsonv.ObjectBuilder).Set("functionCall", call.Value()).SetOptString("thoughtSignature", signature(b.ThoughtSignature))
			parts = append(parts, p.Value())
		}
	}
	return parts
}

// appendToolResult adds one functionResponse: to the last content when it
// is a user turn already holding one, else as a new user turn. For models
// before Gemini 3 the images follow in a user turn of their own.
func appendToolResult(out []*wireContent, m *ai.ToolResultMessage, model *ai.Model, withIDs bool) []*wireContent {
	var texts []string
	var images []*ai.ImageBlock
	for _, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextBlock:
			texts = append(texts, b.Text)
		case *ai.ImageBlock:
			if model.AcceptsImages() {
				images = append(images, b)
			}
		}
	}
	joined := wtf8.Concat(strings.Join(texts, "\n"))
	value := ""
	switch {
	case joined != "":
		value = ai.SanitizeSurrogates(joined)
	case len(images) > 0:
		value = provider.SeeAttachedImageText
	}
	key := "output"
	if m.IsError.Truthy() {
		key = "error"
	}
	nested := multimodalFunctionResponse(model.ID)
	fr := new(jsonv.ObjectBuilder).SetString("name", m.ToolName).Set("response", new(jsonv.ObjectBuilder).SetString(key, value).Value())
	if len(images) > 0 && nested {
		parts := make([]jsonv.Value, len(images))
		for i, img := range images {
			parts[i] = nestedInlineData(img)
		}
		fr.Set("parts", jsonv.ArrayValue(parts...))
	}
	if withIDs {
		fr.SetString("id", m.ToolCallID)
	}
	part := new(jsonv.ObjectBuilder).Set("functionResponse", fr.Value()).Value()
	if n := len(out); n > 0 && out[n-1].role == "user" && out[n-1].functions {
		out[n-1].parts = append(out[n-1].parts, part)
	} else {
		out = append(out, &wireContent{role: "user", parts: []jsonv.Value{part}, functions: true})
	}
	if len(images) > 0 && !nested {
		parts := []jsonv.Value{textPart(ToolResultImageText).Value()}
		for _, img := range images {
			parts = append(parts, inlineData(img))
		}
		out = append(out, &wireContent{role: "user", parts: parts})
	}
	return out
}
