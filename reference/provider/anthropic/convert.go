package anthropic

import (
	"strings"
	"unicode"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
	"github.com/piconform/piconform/reference/wtf8"
)

// NormalizeToolCallID is this API's tool-call id normalizer, applied by
// transform to calls made by other models: every UTF-16 code unit outside
// [a-zA-Z0-9_-] becomes "_" (so an emoji becomes "__"), and the result is
// cut to 64 units.
func NormalizeToolCallID(id string, _ *ai.Model, _ *ai.AssistantMessage) string {
	return provider.SanitizeID(id, 64)
}

// claudeCodeTools are Claude Code's tool names; with an OAuth token Pi
// sends a tool whose name matches one of them, ignoring case, under that
// spelling.
var claudeCodeTools = []string{
	"Read", "Write", "Edit", "Bash", "Grep", "Glob", "AskUserQuestion", "EnterPlanMode", "ExitPlanMode",
	"KillShell", "NotebookEdit", "Skill", "Task", "TaskOutput", "TodoWrite", "WebFetch", "WebSearch",
}

func toClaudeCodeName(name string) string {
	lower := jsLower(name)
	for _, t := range claudeCodeTools {
		if strings.ToLower(t) == lower {
			return t
		}
	}
	return name
}

// fromClaudeCodeName maps a tool name in an OAuth answer back to the
// context's spelling; a name no tool matches is kept.
func fromClaudeCodeName(name string, tools []ai.Tool) string {
	lower := jsLower(name)
	for _, t := range tools {
		if jsLower(t.Name) == lower {
			return t.Name
		}
	}
	return name
}

// jsLower is String.prototype.toLowerCase for comparing names: lone
// surrogates stay, and U+0130 becomes "i" plus a combining dot, as in
// JavaScript (Go's simple mapping would give a bare "i").
func jsLower(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		r, n := wtf8.Next(s)
		switch {
		case r >= 0xD800 && r <= 0xDFFF:
			b.WriteString(s[:n])
		case r == 0x130:
			b.WriteString("i\u0307")
		default:
			b.WriteRune(unicode.ToLower(r))
		}
		s = s[n:]
	}
	return b.String()
}

// wireMessage is one message of the request while it is being built;
// cache_control is added to the last one at the end.
type wireMessage struct {
	role   string
	text   *string
	blocks []*jsonv.ObjectBuilder
}

func block(typ string) *jsonv.ObjectBuilder { return new(jsonv.ObjectBuilder).SetString("type", typ) }

// convertMessages is Pi's convertMessages: transform for the target model,
// then one wire message per Pi message, with consecutive tool results in
// one user message, blank text left out, and the cache breakpoint on the
// last user message.
func convertMessages(msgs []ai.Message, model *ai.Model, oauth bool, cc jsonv.Value, allowEmptySignature bool, now transform.Clock) jsonv.Value {
	msgs = transform.Messages(msgs, model, NormalizeToolCallID, now)
	var out []*wireMessage
	for i := 0; i < len(msgs); i++ {
		switch m := msgs[i].(type) {
		case *ai.UserMessage:
			if m.Content.IsString {
				if !stream.IsBlank(m.Content.Text) {
					text := ai.SanitizeSurrogates(m.Content.Text)
					out = append(out, &wireMessage{role: "user", text: &text})
				}
				continue
			}
			var blocks []*jsonv.ObjectBuilder
			for _, b := range m.Content.Blocks {
				switch b := b.(type) {
				case *ai.TextBlock:
					text := ai.SanitizeSurrogates(b.Text)
					if !stream.IsBlank(text) {
						blocks = append(blocks, block("text").SetString("text", text))
					}
				case *ai.ImageBlock:
					blocks = append(blocks, imageBlock(b))
				}
			}
			if len(blocks) > 0 {
				out = append(out, &wireMessage{role: "user", blocks: blocks})
			}
		case *ai.AssistantMessage:
			if wm := convertAssistant(m, oauth, allowEmptySignature); wm != nil {
				out = append(out, wm)
			}
		case *ai.ToolResultMessage:
			wm := &wireMessage{role: "user"}
			for ; i < len(msgs); i++ {
				tr, ok := msgs[i].(*ai.ToolResultMessage)
				if !ok {
					break
				}
				wm.blocks = append(wm.blocks, block("tool_result").SetString("tool_use_id", tr.ToolCallID).
					Set("content", toolResultContent(tr.Content)).Set("is_error", tr.IsError))
			}
			i--
			out = append(out, wm)
		}
	}
	if !cc.IsAbsent() && len(out) > 0 {
		if last := out[len(out)-1]; last.role == "user" {
			switch {
			case last.text != nil:
				last.blocks = []*jsonv.ObjectBuilder{block("text").SetString("text", *last.text)}
				last.text = nil
				last.blocks[0].Set("cache_control", cc)
			case len(last.blocks) > 0:
				last.blocks[len(last.blocks)-1].Set("cache_control", cc)
			}
		}
	}
	elems := make([]jsonv.Value, len(out))
	for i, m := range out {
		var content jsonv.Value
		if m.text != nil {
			content = jsonv.StringValue(*m.text)
		} else {
			bs := make([]jsonv.Value, len(m.blocks))
			for j, b := range m.blocks {
				bs[j] = b.Value()
			}
			content = jsonv.ArrayValue(bs...)
		}
		elems[i] = new(jsonv.ObjectBuilder).SetString("role", m.role).Set("content", content).Value()
	}
	return jsonv.ArrayValue(elems...)
}

func imageBlock(b *ai.ImageBlock) *jsonv.ObjectBuilder {
	source := block("base64").SetString("media_type", b.MimeType).SetString("data", b.Data)
	return block("image").Set("source", source.Value())
}

// convertAssistant turns one assistant message into wire blocks, or nil
// when nothing is left. Text and thinking are sanitized; tool arguments,
// names, signatures and redacted payloads are sent as they are.
func convertAssistant(m *ai.AssistantMessage, oauth, allowEmptySignature bool) *wireMessage {
	var blocks []*jsonv.ObjectBuilder
	for _, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextBlock:
			if stream.IsBlank(b.Text) {
				continue
			}
			blocks = append(blocks, block("text").SetString("text", ai.SanitizeSurrogates(b.Text)))
		case *ai.ThinkingBlock:
			if b.IsRedacted() {
				blocks = append(blocks, block("redacted_thinking").SetOptString("data", b.ThinkingSignature))
				continue
			}
			if stream.IsBlank(b.Thinking) {
				continue
			}
			thinking := ai.SanitizeSurrogates(b.Thinking)
			switch {
			case b.ThinkingSignature != nil && !stream.IsBlank(*b.ThinkingSignature):
				blocks = append(blocks, block("thinking").SetString("thinking", thinking).SetString("signature", *b.ThinkingSignature))
			case allowEmptySignature:
				blocks = append(blocks, block("thinking").SetString("thinking", thinking).SetString("signature", ""))
			default:
				// A thinking block without a signature (an aborted stream)
				// cannot be replayed as thinking; Pi keeps its text.
				blocks = append(blocks, block("text").SetString("text", thinking))
			}
		case *ai.ToolCallBlock:
			name := b.Name
			if oauth {
				name = toClaudeCodeName(name)
			}
			input := b.Arguments
			if input.IsAbsent() || input.Kind() == jsonv.Null {
				input = jsonv.ObjectValue()
			}
			blocks = append(blocks, block("tool_use").SetString("id", b.ID).SetString("name", name).Set("input", stream.JSValue(input)))
		}
	}
	if len(blocks) == 0 {
		return nil
	}
	return &wireMessage{role: "assistant", blocks: blocks}
}

// toolResultContent is Pi's convertContentBlocks: text alone becomes one
// string joined with newlines; with images it is a block list in which
// blank text is kept, led by provider.SeeAttachedImageText when there is no text.
func toolResultContent(content []ai.Block) jsonv.Value {
	hasImage := false
	for _, b := range content {
		if _, ok := b.(*ai.ImageBlock); ok {
			hasImage = true
		}
	}
	if !hasImage {
		texts := make([]string, 0, len(content))
		for _, b := range content {
			if t, ok := b.(*ai.TextBlock); ok {
				texts = append(texts, t.Text)
			}
		}
		return jsonv.StringValue(ai.SanitizeSurrogates(wtf8.Concat(strings.Join(texts, "\n"))))
	}
	var blocks []jsonv.Value
	hasText := false
	for _, b := range content {
		switch b := b.(type) {
		case *ai.TextBlock:
			hasText = true
			blocks = append(blocks, block("text").SetString("text", ai.SanitizeSurrogates(b.Text)).Value())
		case *ai.ImageBlock:
			blocks = append(blocks, imageBlock(b).Value())
		}
	}
	if !hasText {
		blocks = append([]jsonv.Value{block("text").SetString("text", provider.SeeAttachedImageText).Value()}, blocks...)
	}
	return jsonv.ArrayValue(blocks...)
}
