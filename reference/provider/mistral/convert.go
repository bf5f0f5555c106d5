package mistral

import (
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// ToolCallIDLength is the length of the tool-call ids Pi makes for
// Mistral.
const ToolCallIDLength = 9

// Placeholder texts Pi writes into messages.
const (
	ImageOmittedText     = "(image omitted: model does not support images)"
	ToolImageOmittedText = "[tool image omitted: model does not support images]"
	NoToolOutputText     = "(no tool output)"
	ToolErrorPrefix      = "[tool error] "
)

// alnum keeps the ASCII letters and digits of id: JavaScript's
// id.replace(/[^a-zA-Z0-9]/g, ""). Bytes of multi-byte characters are
// never ASCII, so working on bytes gives the same result.
func alnum(id string) string {
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		c := id[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// DeriveToolCallID is Pi's candidate id for attempt n: the id's letters
// and digits when they are exactly nine on the first attempt, else the
// first nine letters and digits of the short hash of those letters and
// digits (the whole id when there are none), with ":n" appended to the
// seed on later attempts.
func DeriveToolCallID(id string, attempt int) string {
	n := alnum(id)
	if attempt == 0 && len(n) == ToolCallIDLength {
		return n
	}
	seed := n
	if seed == "" {
		seed = id
	}
	if attempt != 0 {
		seed += ":" + itoa(attempt)
	}
	h := alnum(transform.ShortHash(seed))
	if len(h) > ToolCallIDLength {
		h = h[:ToolCallIDLength]
	}
	return h
}

func itoa(n int) string {
	var buf [20]byte
	i := len(buf)
	neg := n < 0
	if neg {
		n = -n
	}
	for {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return string(buf[i:])
}

// NewToolCallIDNormalizer returns the tool-call id normalizer of one
// request (NORM-019). It remembers every id it mapped: the same id always
// gets the same answer, and an id whose candidate another id already took
// moves on to the next attempt. Pi makes a fresh one for every request, so
// the answers depend on the order ids are met within the request.
func NewToolCallIDNormalizer() transform.IDNormalizer {
	ids := map[string]string{}
	owners := map[string]string{}
	return func(id string, _ *ai.Model, _ *ai.AssistantMessage) string {
		if got, ok := ids[id]; ok && got != "" {
			return got
		}
		for attempt := 0; ; attempt++ {
			c := DeriveToolCallID(id, attempt)
			if owner, ok := owners[c]; !ok || owner == "" || owner == id {
				ids[id] = c
				owners[c] = id
				return c
			}
		}
	}
}

func textChunk(text string) jsonv.Value {
	return new(jsonv.ObjectBuilder).SetString("type", "text").SetString("text", text).Value()
}

func imageChunk(b *ai.ImageBlock) jsonv.Value {
	return new(jsonv.ObjectBuilder).SetString("type", "image_url").SetString("image_url", "data:"+b.MimeType+";base64,"+b.Data).Value()
}

// convertMessages is Pi's toChatMessages after transform, written as the
// SDK's request schema writes each message.
func convertMessages(msgs []ai.Message, images bool) []jsonv.Value {
	out := []jsonv.Value{}
	for _, msg := range msgs {
		switch m := msg.(type) {
		case *ai.UserMessage:
			if m.Content.IsString {
				out = append(out, userMessage(jsonv.StringValue(ai.SanitizeSurrogates(m.Content.Text))))
				continue
			}
			var parts []jsonv.Value
			hadImages := false
			for _, b := range m.Content.Blocks {
				switch b := b.(type) {
				case *ai.TextBlock:
					parts = append(parts, textChunk(ai.SanitizeSurrogates(b.Text)))
				case *ai.ImageBlock:
					hadImages = true
					if images {
						parts = append(parts, imageChunk(b))
					}
				}
			}
			switch {
			case len(parts) > 0:
				out = append(out, userMessage(jsonv.ArrayValue(parts...)))
			case hadImages && !images:
				out = append(out, userMessage(jsonv.StringValue(ImageOmittedText)))
			}
		case *ai.AssistantMessage:
			if v, ok := assistantMessage(m); ok {
				out = append(out, v)
			}
		case *ai.ToolResultMessage:
			out = append(out, toolMessage(m, images))
		}
	}
	return out
}

func userMessage(content jsonv.Value) jsonv.Value {
	return new(jsonv.ObjectBuilder).SetString("role", "user").Set("content", content).Value()
}

// assistantMessage keeps text and thinking that are not blank, as content
// chunks in block order, and every tool call, with its arguments as JSON
// text; the SDK adds index 0 to each call and prefix false to the message.
func assistantMessage(m *ai.AssistantMessage) (jsonv.Value, bool) {
	var parts, calls []jsonv.Value
	for _, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextBlock:
			if !stream.IsBlank(b.Text) {
				parts = append(parts, textChunk(ai.SanitizeSurrogates(b.Text)))
			}
		case *ai.ThinkingBlock:
			if !stream.IsBlank(b.Thinking) {
				thinking := jsonv.ArrayValue(textChunk(ai.SanitizeSurrogates(b.Thinking)))
				parts = append(parts, new(jsonv.ObjectBuilder).SetString("type", "thinking").Set("thinking", thinking).Value())
			}
		case *ai.ToolCallBlock:
			args := b.Arguments
			if !args.Truthy() {
				args = jsonv.ObjectValue()
			}
			fn := new(jsonv.ObjectBuilder).SetString("name", b.Name).SetString("arguments", string(stream.JSValue(args).AppendJSON(nil)))
			calls = append(calls, new(jsonv.ObjectBuilder).SetString("id", b.ID).SetString("type", "function").
				Set("function", fn.Value()).Set("index", jsonv.NumberValue("0")).Value())
		}
	}
	if len(parts) == 0 && len(calls) == 0 {
		return jsonv.Value{}, false
	}
	out := new(jsonv.ObjectBuilder).SetString("role", "assistant")
	if len(parts) > 0 {
		out.Set("content", jsonv.ArrayValue(parts...))
	}
	if len(calls) > 0 {
		out.Set("tool_calls", jsonv.ArrayValue(calls...))
	}
	return out.SetBool("prefix", false).Value(), true
}

// toolMessage is one tool result: a text chunk (the texts sanitized,
// joined with "\n" and trimmed, or a placeholder) and, for models that
// take images, the images.
func toolMessage(m *ai.ToolResultMessage, images bool) jsonv.Value {
	var texts []string
	var imgs []*ai.ImageBlock
	for _, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextBlock:
			texts = append(texts, ai.SanitizeSurrogates(b.Text))
		case *ai.ImageBlock:
			imgs = append(imgs, b)
		}
	}
	content := []jsonv.Value{textChunk(toolResultText(strings.Join(texts, "\n"), len(imgs) > 0, images, m.IsError.Truthy()))}
	if images {
		for _, img := range imgs {
			content = append(content, imageChunk(img))
		}
	}
	return new(jsonv.ObjectBuilder).SetString("role", "tool").Set("content", jsonv.ArrayValue(content...)).
		SetString("tool_call_id", m.ToolCallID).SetString("name", m.ToolName).Value()
}

// toolResultText is Pi's buildToolResultText.
func toolResultText(text string, hasImages, images, isError bool) string {
	prefix := ""
	if isError {
		prefix = ToolErrorPrefix
	}
	if trimmed := stream.JSTrim(text); trimmed != "" {
		if hasImages && !images {
			return prefix + trimmed + "\n" + ToolImageOmittedText
		}
		return prefix + trimmed
	}
	switch {
	case hasImages && images:
		return prefix + provider.SeeAttachedImageText
	case hasImages:
		return prefix + ImageOmittedText
	}
	return prefix + NoToolOutputText
}
