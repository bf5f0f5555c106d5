package openaicompletions

import (
	"slices"
	"strconv"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/internal/lenient"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
	"github.com/piconform/piconform/reference/wtf8"
)

// Texts Pi puts into the conversation for the provider's sake.
const (
	// ToolImagesIntro leads the user message that carries tool-result images.
	ToolImagesIntro = "Attached image(s) from tool result:"
	// BridgeText is the assistant turn Pi inserts after tool results where
	// the provider wants one (compat.requiresAssistantAfterToolResult).
	BridgeText = "I have processed the tool results."
)

// NormalizeToolCallID is this API's tool-call id normalizer, applied by
// transform to calls made by other models: an id with "|" keeps the part
// before the first "|", with every UTF-16 code unit outside [a-zA-Z0-9_-]
// replaced by "_", cut to 40 units; for provider "openai" any other id is
// cut to 40 units; everything else is kept.
func NormalizeToolCallID(id string, model *ai.Model, _ *ai.AssistantMessage) string {
	if before, _, ok := strings.Cut(id, "|"); ok {
		return provider.SanitizeID(before, 40)
	}
	if model.Provider == "openai" {
		if units := wtf8.ToUTF16(id); len(units) > 40 {
			return wtf8.FromUTF16(units[:40])
		}
	}
	return id
}

// wireMessage is one chat message while the request is built; the
// Anthropic-style cache marker may still turn string content into parts.
type wireMessage struct {
	role string
	// content is a string or null unless parts is set.
	content jsonv.Value
	parts   []*jsonv.ObjectBuilder
	isParts bool
	// partTypes are the parts' "type" members.
	partTypes []string
	// rest are the members after content, in order.
	rest []jsonv.Member
}

func (m *wireMessage) set(key string, v jsonv.Value) {
	for i := range m.rest {
		if m.rest[i].Key == key {
			m.rest[i].Value = v
			return
		}
	}
	m.rest = append(m.rest, jsonv.Member{Key: key, Value: v})
}

func (m *wireMessage) has(key string) bool {
	for _, r := range m.rest {
		if r.Key == key {
			return true
		}
	}
	return false
}

func (m *wireMessage) addPart(typ string, b *jsonv.ObjectBuilder) {
	m.isParts = true
	m.parts = append(m.parts, b)
	m.partTypes = append(m.partTypes, typ)
}

func textPart(text string) *jsonv.ObjectBuilder {
	return new(jsonv.ObjectBuilder).SetString("type", "text").SetString("text", text)
}

// imagePart is the image_url part Pi makes of any block it takes for an
// image.
func imagePart(b ai.Block) *jsonv.ObjectBuilder {
	url := new(jsonv.ObjectBuilder).SetString("url", lenient.ImageURL(b))
	return new(jsonv.ObjectBuilder).SetString("type", "image_url").Set("image_url", url.Value())
}

// markText puts the cache marker on the message's text: non-empty string
// content becomes one text part carrying it, otherwise the last text part
// gets it. It reports whether it found a place.
func (m *wireMessage) markText(cc jsonv.Value) bool {
	if !m.isParts {
		if m.content.Kind() != jsonv.String || m.content.Str() == "" {
			return false
		}
		text := m.content.Str()
		m.addPart("text", textPart(text).Set("cache_control", cc))
		return true
	}
	for i := len(m.parts) - 1; i >= 0; i-- {
		if m.partTypes[i] == "text" {
			m.parts[i].Set("cache_control", cc)
			return true
		}
	}
	return false
}

func (m *wireMessage) hasContent() bool {
	if m.isParts {
		return len(m.parts) > 0
	}
	return m.content.Kind() == jsonv.String && m.content.Str() != ""
}

func (m *wireMessage) json() jsonv.Value {
	content := m.content
	if m.isParts {
		elems := make([]jsonv.Value, len(m.parts))
		for i, p := range m.parts {
			elems[i] = p.Value()
		}
		content = jsonv.ArrayValue(elems...)
	}
	b := new(jsonv.ObjectBuilder).SetString("role", m.role).Set("content", content)
	for _, r := range m.rest {
		b.Set(r.Key, r.Value) // an undefined member is left out, as JSON.stringify does
	}
	return b.Value()
}

func messagesJSON(msgs []*wireMessage) jsonv.Value {
	elems := make([]jsonv.Value, len(msgs))
	for i, m := range msgs {
		elems[i] = m.json()
	}
	return jsonv.ArrayValue(elems...)
}

func stringMessage(role, text string) *wireMessage {
	return &wireMessage{role: role, content: jsonv.StringValue(text)}
}

// convertMessages is Pi's convertMessages: transform for the target model,
// the system prompt, then one chat message per Pi message, with the bridges
// and image carriers some providers need.
func convertMessages(model *ai.Model, ctx *ai.Context, c compat, now transform.Clock) []*wireMessage {
	msgs := transform.Messages(cutArrayIDs(ctx.Messages, model), model, NormalizeToolCallID, now)
	var out []*wireMessage
	if ctx.SystemPrompt != nil && *ctx.SystemPrompt != "" {
		role := "system"
		if model.Reasoning && c.truthy("supportsDeveloperRole") {
			role = "developer"
		}
		out = append(out, stringMessage(role, ai.SanitizeSurrogates(*ctx.SystemPrompt)))
	}
	bridge := c.truthy("requiresAssistantAfterToolResult")
	lastRole := ""
	for i := 0; i < len(msgs); i++ {
		msg := msgs[i]
		if bridge && lastRole == ai.RoleToolResult && msg.Role() == ai.RoleUser {
			out = append(out, stringMessage("assistant", BridgeText))
		}
		switch m := msg.(type) {
		case *ai.UserMessage:
			if m.Content.IsString {
				out = append(out, stringMessage("user", ai.SanitizeSurrogates(m.Content.Text)))
			} else {
				if len(m.Content.Blocks) == 0 {
					continue
				}
				// Every element that is not of type "text" is taken for an
				// image (conversion.Check refused what Pi cannot read).
				wm := &wireMessage{role: "user"}
				for _, b := range m.Content.Blocks {
					if text, ok := lenient.TextOf(b); ok {
						wm.addPart("text", textPart(ai.SanitizeSurrogates(text.Str())))
					} else {
						wm.addPart("image_url", imagePart(b))
					}
				}
				out = append(out, wm)
			}
		case *ai.AssistantMessage:
			wm := convertAssistant(m, model, c)
			if wm == nil {
				continue
			}
			out = append(out, wm)
		case *ai.ToolResultMessage:
			var images []*jsonv.ObjectBuilder
			j := i
			for ; j < len(msgs); j++ {
				tr, ok := msgs[j].(*ai.ToolResultMessage)
				if !ok {
					break
				}
				// Texts of any type are joined as Array#join writes them.
				var texts []string
				hasImage := false
				for _, b := range tr.Content {
					if text, ok := lenient.TextOf(b); ok {
						texts = append(texts, text.JoinString())
					}
					hasImage = hasImage || lenient.IsImage(b)
				}
				text := wtf8.Concat(strings.Join(texts, "\n"))
				if text == "" {
					text = provider.SeeAttachedImageText
				}
				wm := stringMessage("tool", ai.SanitizeSurrogates(text))
				wm.set("tool_call_id", tr.Loose.Value("toolCallId", tr.ToolCallID))
				if name := tr.Loose.Value("toolName", tr.ToolName); c.truthy("requiresToolResultName") && name.Truthy() {
					wm.set("name", name)
				}
				out = append(out, wm)
				if hasImage && model.AcceptsImages() {
					for _, b := range tr.Content {
						if lenient.IsImage(b) {
							images = append(images, imagePart(b))
						}
					}
				}
			}
			i = j - 1
			if len(images) > 0 {
				if bridge {
					out = append(out, stringMessage("assistant", BridgeText))
				}
				wm := &wireMessage{role: "user"}
				wm.addPart("text", textPart(ToolImagesIntro))
				for _, img := range images {
					wm.addPart("image_url", img)
				}
				out = append(out, wm)
				lastRole = ai.RoleUser
			} else {
				lastRole = ai.RoleToolResult
			}
			continue
		}
		lastRole = msg.Role()
	}
	return out
}

// convertAssistant turns one assistant message into a chat message, or nil
// when it has neither content nor tool calls. Text is sanitized; the
// reasoning field, tool-call ids, names and arguments are sent as they are,
// whatever their types.
func convertAssistant(m *ai.AssistantMessage, model *ai.Model, c compat) *wireMessage {
	wm := &wireMessage{role: "assistant", content: jsonv.NullValue()}
	if c.truthy("requiresAssistantAfterToolResult") {
		wm.content = jsonv.StringValue("")
	}
	var texts []string
	var thinking []*ai.ThinkingBlock
	var calls []*ai.ToolCallBlock
	for _, b := range m.Content {
		// conversion.Check refused a text or thinking of another type: Pi trims it.
		if text, ok := lenient.TextOf(b); ok {
			if !stream.IsBlank(text.Str()) {
				texts = append(texts, ai.SanitizeSurrogates(text.Str()))
			}
			continue
		}
		switch b := b.(type) {
		case *ai.ThinkingBlock:
			if !stream.IsBlank(b.Thinking) {
				thinking = append(thinking, b)
			}
		case *ai.ToolCallBlock:
			calls = append(calls, b)
		}
	}
	text := wtf8.Concat(texts...)
	switch {
	case len(thinking) > 0 && c.truthy("requiresThinkingAsText"):
		parts := make([]string, len(thinking))
		for i, t := range thinking {
			parts[i] = ai.SanitizeSurrogates(t.Thinking)
		}
		wm.addPart("text", textPart(wtf8.Concat(strings.Join(parts, "\n\n"))))
		for _, t := range texts {
			wm.addPart("text", textPart(t))
		}
	case len(thinking) > 0:
		if text != "" {
			wm.content = jsonv.StringValue(text)
		}
		sig, ok := signatureKey(thinking[0])
		if ok && model.Provider == "opencode-go" && sig == "reasoning" && !thinking[0].Loose.Has("thinkingSignature") {
			sig = "reasoning_content" // a string only: Pi compares with ===
		}
		if ok {
			parts := make([]string, len(thinking))
			for i, t := range thinking {
				parts[i] = t.Thinking
			}
			joined := wtf8.Concat(strings.Join(parts, "\n"))
			if sig == "role" || sig == "content" {
				// Pi would overwrite the member itself; keep the reference
				// simple and faithful for the members that matter.
				if sig == "content" {
					wm.content = jsonv.StringValue(joined)
				} else {
					wm.role = joined
				}
			} else {
				wm.set(sig, jsonv.StringValue(joined))
			}
		}
	case text != "":
		wm.content = jsonv.StringValue(text)
	}
	if len(calls) > 0 {
		elems := make([]jsonv.Value, len(calls))
		var details []jsonv.Value
		for i, tc := range calls {
			args := tc.Arguments
			fn := new(jsonv.ObjectBuilder).Set("name", tc.Loose.Value("name", tc.Name))
			if !args.IsAbsent() {
				// JSON.stringify(undefined) is undefined: no member at all.
				fn.SetString("arguments", string(stream.JSValue(args).AppendJSON(nil)))
			}
			elems[i] = new(jsonv.ObjectBuilder).Set("id", tc.Loose.Value("id", tc.ID)).SetString("type", "function").Set("function", fn.Value()).Value()
			if d, ok := reasoningDetail(tc); ok {
				details = append(details, d)
			}
		}
		wm.set("tool_calls", jsonv.ArrayValue(elems...))
		if len(details) > 0 {
			wm.set("reasoning_details", jsonv.ArrayValue(details...))
		}
	}
	if c.truthy("requiresReasoningContentOnAssistantMessages") && model.Reasoning && !wm.has("reasoning_content") {
		wm.set("reasoning_content", jsonv.StringValue(""))
	}
	if !wm.hasContent() && len(calls) == 0 {
		return nil
	}
	return wm
}

// signatureKey is the member the first thinking block's signature names,
// as Pi tests it: `signature && signature.length > 0`, then the signature
// as a property key. A string names itself; an array (or an object whose
// length is positive) passes too, and names its String() form.
func signatureKey(b *ai.ThinkingBlock) (string, bool) {
	if !b.Loose.Has("thinkingSignature") {
		if b.ThinkingSignature == nil || *b.ThinkingSignature == "" {
			return "", false
		}
		return *b.ThinkingSignature, true
	}
	sig := b.Loose.Value("thinkingSignature", "")
	var length jsonv.Value
	switch sig.Kind() {
	case jsonv.Array:
		length = jsonv.NumberValue(strconv.Itoa(len(sig.Elems())))
	case jsonv.Object:
		length = stream.Member(sig, "length")
	}
	if !sig.Truthy() || length.IsAbsent() || !(length.JSNumber() > 0) {
		return "", false
	}
	return sig.JSString(), true
}

// reasoningDetail is what Pi makes of a tool call's thoughtSignature when
// it is truthy: JSON.parse of its String() form, kept when that parses to
// a truthy value.
func reasoningDetail(tc *ai.ToolCallBlock) (jsonv.Value, bool) {
	sig := tc.Loose.Value("thoughtSignature", "")
	if !tc.Loose.Has("thoughtSignature") && tc.ThoughtSignature != nil {
		sig = jsonv.StringValue(*tc.ThoughtSignature)
	}
	if !sig.Truthy() {
		return jsonv.Value{}, false
	}
	d, err := stream.ParseJSON(sig.JSString())
	return d, err == nil && d.Truthy()
}

// conversion is what convertMessages reads of values of other types
// (lenient.Conversion): the id normalizer calls includes("|"), tool-result
// texts are joined, messages of other roles are skipped.
var conversion = lenient.Conversion{IDThrows: idThrows}

// cutArrayIDs is the one normalization transform leaves to this API for an
// id of another type: for provider "openai", Pi's normalizer cuts an id
// longer than 40 to its first 40, and an array has a length and a slice
// too. The cut array is a new value, which the call and its synthetic
// result carry. msgs is returned as it is when there is nothing to cut.
func cutArrayIDs(msgs []ai.Message, model *ai.Model) []ai.Message {
	if model.Provider != "openai" {
		return msgs
	}
	var out []ai.Message
	for i, m := range msgs {
		a, ok := m.(*ai.AssistantMessage)
		if !ok || transform.SameModel(a, model) {
			continue
		}
		for j, b := range a.Content {
			tc, ok := b.(*ai.ToolCallBlock)
			if !ok {
				continue
			}
			id := tc.Loose.Value("id", "")
			if !tc.Loose.Has("id") || id.Kind() != jsonv.Array || len(id.Elems()) <= 40 {
				continue
			}
			if out == nil {
				out = slices.Clone(msgs)
			}
			if out[i] == m {
				c := *a
				c.Content = slices.Clone(a.Content)
				out[i], a = &c, &c
			}
			cut := *tc
			cut.Loose = append(tc.Loose.Without("id"), jsonv.Member{Key: "id", Value: jsonv.ArrayValue(id.Elems()[:40]...)})
			a.Content[j] = &cut
		}
	}
	if out == nil {
		return msgs
	}
	return out
}

// idThrows reports the tool-call ids this API's normalizer throws on: it
// calls includes("|"), which only strings and arrays have, and an array
// that holds "|" is then split, which only strings can be.
func idThrows(id jsonv.Value) bool {
	switch id.Kind() {
	case jsonv.String:
		return false
	case jsonv.Array:
		return slices.ContainsFunc(id.Elems(), func(e jsonv.Value) bool { return e.Kind() == jsonv.String && e.Str() == "|" })
	}
	return true
}
