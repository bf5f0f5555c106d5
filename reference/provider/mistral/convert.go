package mistral

import (
	"fmt"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/internal/lenient"
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

// imageChunk is the chunk Pi makes of any block it takes for an image.
func imageChunk(b ai.Block) jsonv.Value {
	return new(jsonv.ObjectBuilder).SetString("type", "image_url").SetString("image_url", lenient.ImageURL(b)).Value()
}

// convertMessages is Pi's toChatMessages after transform, written as the
// SDK's request schema writes each message, and handed to body one at a
// time: no later message changes an earlier one. Pi converts a message of
// a role outside user and assistant as a tool result. An error is
// ErrOutsideRequest: the SDK's schema rejects a member Pi copied.
// conversion's checks, run first, refuse what Pi cannot read.
func convertMessages(msgs provider.Transcript, model *ai.Model, now transform.Clock, body provider.BodySink) error {
	return convertMessagesIn(dialect.V0_80, msgs, model, now, body)
}

// convertMessagesIn is convertMessages as Pi of dialect d does it. Pi 1.6
// writes each message itself (no SDK schema checks or orders it): an
// assistant message role, prefix, content, tool_calls; a tool result role,
// name, content, tool_call_id; and a tool call without an id has none.
func convertMessagesIn(d dialect.Dialect, msgs provider.Transcript, model *ai.Model, now transform.Clock, body provider.BodySink) error {
	images := model.AcceptsImages()
	convert := func(msg ai.Message) error {
		v, ok, err := convertMessage(d, msg, images)
		if ok {
			body.Element(v)
		}
		return err
	}
	steps := provider.Steps{Dialect: d, Checks: conversion.Checks(d, model), Normalize: NewToolCallIDNormalizer(), Convert: convert}
	return steps.Run(msgs, model, now)
}

// convertMessage is one transformed message as Pi converts it; ok is
// false for a message Pi leaves out.
func convertMessage(d dialect.Dialect, msg ai.Message, images bool) (jsonv.Value, bool, error) {
	own := ownFetch.At(d)
	switch m := msg.(type) {
	case *ai.UserMessage:
		v, ok := userMessage(m, images)
		return v, ok, nil
	case *ai.AssistantMessage:
		return assistantMessage(own, m)
	case *ai.ToolResultMessage:
		v, err := toolMessage(own, toolResultOf(m), images)
		return v, err == nil, err
	case *ai.ForeignMessage:
		v, err := toolMessage(own, foreignResult(m), images)
		return v, err == nil, err
	case *ai.SystemMessage:
		// Only a model with compat.supportsMidConvoSystemMessages keeps one
		// where it stands, which Pi renders as an update.
		return jsonv.Value{}, false, fmt.Errorf("%w: a system message kept mid-conversation", stream.ErrOutsideModel)
	}
	return jsonv.Value{}, false, nil
}

// userMessage is a user message as Pi converts it: a string sanitized;
// blocks as chunks, every element of type "text" a text chunk and, for a
// model that takes images, every other element an image chunk. A message
// left with no chunks is not sent, unless it had images a text-only model
// cannot take.
func userMessage(m *ai.UserMessage, images bool) (jsonv.Value, bool) {
	if m.Content.IsString {
		return userJSON(jsonv.StringValue(ai.SanitizeSurrogates(m.Content.Text))), true
	}
	var parts []jsonv.Value
	hadImages := false
	for _, b := range m.Content.Blocks {
		hadImages = hadImages || lenient.IsImage(b)
		if text, ok := lenient.TextOf(b); ok {
			parts = append(parts, textChunk(ai.SanitizeSurrogates(text.Str())))
		} else if images {
			parts = append(parts, imageChunk(b))
		}
	}
	switch {
	case len(parts) > 0:
		return userJSON(jsonv.ArrayValue(parts...)), true
	case hadImages && !images:
		return userJSON(jsonv.StringValue(ImageOmittedText)), true
	}
	return jsonv.Value{}, false
}

func userJSON(content jsonv.Value) jsonv.Value {
	return new(jsonv.ObjectBuilder).SetString("role", "user").Set("content", content).Value()
}

// assistantMessage keeps text and thinking that are not blank, as content
// chunks in block order, and makes a tool call of every other block, with
// its arguments as JSON text; the SDK adds index 0 to each call and prefix
// false to the message. A call's id and name are the block's own members:
// the SDK writes "null" for a missing id and rejects a name or an id that
// is not a string.
func assistantMessage(own bool, m *ai.AssistantMessage) (jsonv.Value, bool, error) {
	var parts, calls []jsonv.Value
	for _, b := range m.Content {
		if text, ok := lenient.TextOf(b); ok {
			if !stream.IsBlank(text.Str()) {
				parts = append(parts, textChunk(ai.SanitizeSurrogates(text.Str())))
			}
			continue
		}
		if b, ok := b.(*ai.ThinkingBlock); ok {
			if !stream.IsBlank(b.Thinking) {
				thinking := jsonv.ArrayValue(textChunk(ai.SanitizeSurrogates(b.Thinking)))
				parts = append(parts, new(jsonv.ObjectBuilder).SetString("type", "thinking").Set("thinking", thinking).Value())
			}
			continue
		}
		call, err := toolCall(own, b)
		if err != nil {
			return jsonv.Value{}, false, err
		}
		calls = append(calls, call)
	}
	if len(parts) == 0 && len(calls) == 0 {
		return jsonv.Value{}, false, nil
	}
	out := new(jsonv.ObjectBuilder).SetString("role", "assistant")
	if own {
		out.SetBool("prefix", false)
	}
	if len(parts) > 0 {
		out.Set("content", jsonv.ArrayValue(parts...))
	}
	if len(calls) > 0 {
		out.Set("tool_calls", jsonv.ArrayValue(calls...))
	}
	if !own {
		out.SetBool("prefix", false)
	}
	return out.Value(), true, nil
}

// toolCall is the call Pi makes of an assistant block that is neither
// text nor thinking, from its id, name and arguments members.
func toolCall(own bool, b ai.Block) (jsonv.Value, error) {
	var id, name, args jsonv.Value
	switch b := b.(type) {
	case *ai.ToolCallBlock:
		id, name, args = b.Loose.Value("id", b.ID), b.Loose.Value("name", b.Name), b.Arguments
	case *ai.ForeignBlock:
		id, name, args = stream.Member(b.Raw, "id"), stream.Member(b.Raw, "name"), stream.Member(b.Raw, "arguments")
	}
	if own {
		id, name = stream.JSValue(id), stream.JSValue(name)
	} else {
		if id.IsAbsent() {
			id = jsonv.StringValue("null")
		}
		if id.Kind() != jsonv.String || name.Kind() != jsonv.String {
			return jsonv.Value{}, fmt.Errorf("%w: a tool call's id and name must be strings", ErrOutsideRequest)
		}
	}
	if !args.Truthy() {
		args = jsonv.ObjectValue()
	}
	fn := new(jsonv.ObjectBuilder).Set("name", name).SetString("arguments", string(stream.JSValue(args).AppendJSON(nil)))
	return new(jsonv.ObjectBuilder).Set("id", id).SetString("type", "function").
		Set("function", fn.Value()).Set("index", jsonv.NumberValue("0")).Value(), nil
}

// toolResult is what Pi reads of a message it converts as a tool result.
type toolResult struct {
	content          []ai.Block
	toolCallID, name jsonv.Value
	isError          bool
}

func toolResultOf(m *ai.ToolResultMessage) toolResult {
	return toolResult{m.Content, m.Loose.Value("toolCallId", m.ToolCallID), m.Loose.Value("toolName", m.ToolName), m.IsError.Truthy()}
}

// foreignResult reads a message of another role as a tool result: its
// content array (conversion.Check refused any other), toolCallId, toolName and
// isError members.
func foreignResult(m *ai.ForeignMessage) toolResult {
	content, _ := m.Raw.Get("content")
	blocks := make([]ai.Block, len(content.Elems()))
	for i, e := range content.Elems() {
		blocks[i], _ = ai.DecodeBlock(e, "", ai.UserBlocks|ai.AllowForeign)
	}
	return toolResult{blocks, stream.Member(m.Raw, "toolCallId"), stream.Member(m.Raw, "toolName"), stream.Member(m.Raw, "isError").Truthy()}
}

// toolMessage is one tool result: a text chunk (the texts sanitized,
// joined with "\n" and trimmed, or a placeholder) and, for models that
// take images, the images. The SDK takes a tool_call_id and a name that
// are strings, null or missing.
func toolMessage(own bool, r toolResult, images bool) (jsonv.Value, error) {
	for _, v := range []jsonv.Value{r.toolCallID, r.name} {
		if k := v.Kind(); !own && k != jsonv.String && k != jsonv.Null && k != jsonv.Absent {
			return jsonv.Value{}, fmt.Errorf("%w: a tool result's toolCallId and toolName must be strings, null or missing", ErrOutsideRequest)
		}
	}
	var texts []string
	var imgs []ai.Block
	for _, b := range r.content {
		if text, ok := lenient.TextOf(b); ok {
			texts = append(texts, ai.SanitizeSurrogates(text.Str()))
		}
		if lenient.IsImage(b) {
			imgs = append(imgs, b)
		}
	}
	content := []jsonv.Value{textChunk(toolResultText(strings.Join(texts, "\n"), len(imgs) > 0, images, r.isError))}
	if images {
		for _, img := range imgs {
			content = append(content, imageChunk(img))
		}
	}
	if own {
		return new(jsonv.ObjectBuilder).SetString("role", "tool").Set("name", stream.JSValue(r.name)).
			Set("content", jsonv.ArrayValue(content...)).Set("tool_call_id", stream.JSValue(r.toolCallID)).Value(), nil
	}
	return new(jsonv.ObjectBuilder).SetString("role", "tool").Set("content", jsonv.ArrayValue(content...)).
		Set("tool_call_id", r.toolCallID).Set("name", r.name).Value(), nil
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

// conversion is what toChatMessages reads of values of other types
// (lenient.Conversion): the id normalizer calls replace, which only strings
// have; each tool-result text is sanitized; a message of a role outside
// the three is read as a tool result.
var conversion = lenient.Conversion{
	IDThrows:         func(id jsonv.Value) bool { return id.Kind() != jsonv.String },
	SanitizesResults: true,
	Foreign:          convertibleForeign,
}

// convertibleForeign refuses a message of another role whose content Pi
// cannot read as a tool result's.
func convertibleForeign(m *ai.ForeignMessage, at string) error {
	content := stream.Member(m.Raw, "content")
	if content.Kind() != jsonv.Array {
		return transform.Throws(at, "Pi filters the content of a message of another role as a tool result's, and it is a %s", content.Kind())
	}
	blocks := foreignResult(m).content
	if err := transform.NoNull(blocks, at); err != nil {
		return err
	}
	return lenient.StringTexts(blocks, at)
}
