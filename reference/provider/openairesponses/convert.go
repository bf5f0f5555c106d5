package openairesponses

import (
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/internal/lenient"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
	"github.com/piconform/piconform/reference/wtf8"
)

// PairedIDProviders are the providers whose tool-call ids keep the
// "<call id>|<item id>" pairing when they come from another model.
var PairedIDProviders = []string{"openai", "openai-codex", "opencode"}

// normalizeIDPart turns every UTF-16 unit outside [A-Za-z0-9_-] into "_",
// keeps the first 64 units and drops trailing underscores.
func normalizeIDPart(s string) string {
	return strings.TrimRight(provider.SanitizeID(s, 64), "_")
}

// NormalizeToolCallID is this API's tool-call id normalizer, which
// transform applies to calls of other models (model is the target).
//
// For a target provider outside PairedIDProviders, or an id without "|",
// the whole id is normalized as one part. Otherwise the call id and the
// item id are normalized apart: the item id of another provider or API is
// replaced by "fc_" and its short hash; an item id that does not start with
// "fc_" gets that prefix.
func NormalizeToolCallID(id string, model *ai.Model, source *ai.AssistantMessage) string {
	return normalizeToolCallID(id, model, source, PairedIDProviders)
}

// ToolCallIDNormalizer is NormalizeToolCallID with another list of the
// target providers that keep the "<call id>|<item id>" pairing, for the
// variants of this API that allow more providers.
func ToolCallIDNormalizer(paired []string) transform.IDNormalizer {
	return func(id string, model *ai.Model, source *ai.AssistantMessage) string {
		return normalizeToolCallID(id, model, source, paired)
	}
}

func normalizeToolCallID(id string, model *ai.Model, source *ai.AssistantMessage, pairedProviders []string) string {
	paired := false
	for _, p := range pairedProviders {
		if model.Provider == p {
			paired = true
		}
	}
	if !paired || !strings.Contains(id, "|") {
		return normalizeIDPart(id)
	}
	parts := strings.Split(id, "|")
	callID, itemID := normalizeIDPart(parts[0]), parts[1]
	if !jsonv.StrictEqual(source.ProviderValue(), model.ProviderValue()) || !jsonv.StrictEqual(source.APIValue(), model.APIValue()) {
		itemID = wtf8.Slice("fc_"+transform.ShortHash(itemID), 64)
	} else {
		itemID = normalizeIDPart(itemID)
	}
	if !strings.HasPrefix(itemID, "fc_") {
		itemID = normalizeIDPart("fc_" + itemID)
	}
	return callID + "|" + itemID
}

func obj(typ string) *jsonv.ObjectBuilder { return new(jsonv.ObjectBuilder).SetString("type", typ) }

func inputText(text string) jsonv.Value {
	return obj("input_text").SetString("text", ai.SanitizeSurrogates(text)).Value()
}

func inputImage(b *ai.ImageBlock) jsonv.Value {
	return imageItem(jsonv.StringValue(b.MimeType), jsonv.StringValue(b.Data))
}

// imageItem is an input_image whose data URL is templated from mimeType
// and data, whatever they hold (String(v), "undefined" for a missing one).
func imageItem(mimeType, data jsonv.Value) jsonv.Value {
	return obj("input_image").SetString("detail", "auto").
		SetString("image_url", "data:"+stream.ToString(mimeType)+";base64,"+stream.ToString(data)).Value()
}

// foreignImage is the input_image Pi makes of a content element that is
// neither a text nor an image block: it reads mimeType and data of any
// value but null.
func foreignImage(raw jsonv.Value) jsonv.Value {
	return imageItem(stream.Member(raw, "mimeType"), stream.Member(raw, "data"))
}

// textSignature is a parsed textSignature: the message item id and, for
// the two phases Pi knows, the phase.
type textSignature struct {
	id    string
	phase *string
}

// parseTextSignature reads the v1 JSON form {"v":1,"id":…,"phase"?} or,
// for anything else, takes the whole string as the id.
func parseTextSignature(sig *string) *textSignature {
	if sig == nil || *sig == "" {
		return nil
	}
	if strings.HasPrefix(*sig, "{") {
		if v, err := stream.ParseJSON(*sig); err == nil && v.Kind() == jsonv.Object {
			ver, _ := v.Get("v")
			id, _ := v.Get("id")
			if f, _ := ver.Float64(); ver.Kind() == jsonv.Number && f == 1 && id.Kind() == jsonv.String {
				ts := &textSignature{id: id.Str()}
				if p, _ := v.Get("phase"); p.Kind() == jsonv.String && (p.Str() == "commentary" || p.Str() == "final_answer") {
					s := p.Str()
					ts.phase = &s
				}
				return ts
			}
		}
	}
	return &textSignature{id: *sig}
}

// ConvertInput is Pi's convertResponsesMessages, with the tool-call id
// normalizer of this API or a variant of it (see ToolCallIDNormalizer):
// the system prompt, then the messages of msgs, transformed, as Responses
// input items handed to body, whose Begin the caller has called. No item
// depends on a later message, so each goes as soon as it is made. The
// error is a *stream.RequestError for a thinking signature that is not
// JSON; a transform.ErrThrows error is where Pi throws.
func ConvertInput(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, normalize transform.IDNormalizer, now transform.Clock, body provider.BodySink) error {
	return convertItems(dialect.V0_80, model, ctx, msgs, normalize, now, body, true)
}

// ConvertInputIn is ConvertInput as Pi of dialect d converts.
func ConvertInputIn(d dialect.Dialect, model *ai.Model, ctx *ai.Context, msgs provider.Transcript, normalize transform.IDNormalizer, now transform.Clock, body provider.BodySink) error {
	return convertItems(d, model, ctx, msgs, normalize, now, body, true)
}

// ConvertInputWithoutSystemPrompt is ConvertInput for the variants of this
// API that send the system prompt elsewhere: no system or developer item.
func ConvertInputWithoutSystemPrompt(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, normalize transform.IDNormalizer, now transform.Clock, body provider.BodySink) error {
	return convertItems(dialect.V0_80, model, ctx, msgs, normalize, now, body, false)
}

// convertItems leads with the system item when systemItem is set: Pi
// sanitizes the system prompt after transformMessages and before the
// messages' items, so its error ranks between the two (Steps.Pending).
func convertItems(d dialect.Dialect, model *ai.Model, ctx *ai.Context, msgs provider.Transcript, normalize transform.IDNormalizer, now transform.Clock, body provider.BodySink, systemItem bool) error {
	var pending error
	if systemItem {
		var system string
		if system, pending = ctx.SystemText(); system != "" {
			role := "system"
			if model.Reasoning && !provider.CompatOf(model).IsFalse("supportsDeveloperRole") {
				role = "developer"
			}
			body.Element(new(jsonv.ObjectBuilder).SetString("role", role).SetString("content", ai.SanitizeSurrogates(system)).Value())
		}
	}
	c := &converter{d: d, model: model, body: body}
	steps := provider.Steps{Checks: []func(ai.Message, int) error{provider.TransformCheck(d, model, transform.NotAString)},
		Normalize: normalize, Pending: pending, Convert: c.convert, Dialect: d}
	return steps.Run(msgs, model, now)
}

// converter turns transformed messages into input items one at a time.
type converter struct {
	d     dialect.Dialect
	model *ai.Model
	body  provider.BodySink
	// i counts the transformed messages; msgIndex, the ids' counter, counts
	// every message Pi reaches, a role it skips included, but not one that
	// made no item.
	i, msgIndex int
}

func (c *converter) convert(m ai.Message) error {
	// After transform the index no longer names the input message
	// exactly; it still points near what Pi trips on.
	at := lenient.MessagePointer(c.i)
	c.i++
	var items []jsonv.Value
	switch m := m.(type) {
	case *ai.UserMessage:
		content, err := userContent(m.Content, at+"/content")
		if err != nil || len(content) == 0 {
			return err
		}
		items = []jsonv.Value{new(jsonv.ObjectBuilder).SetString("role", "user").Set("content", jsonv.ArrayValue(content...)).Value()}
	case *ai.AssistantMessage:
		var err error
		items, err = convertAssistant(c.d, m, c.model, c.msgIndex, at+"/content")
		if err != nil || len(items) == 0 {
			return err
		}
	case *ai.ToolResultMessage:
		item, err := convertToolResult(c.d, m, c.model, at)
		if err != nil {
			return err
		}
		items = []jsonv.Value{item}
	}
	for _, item := range items {
		c.body.Element(item)
	}
	c.msgIndex++
	return nil
}

// userContent is the input parts of a user message. Content that is
// neither a string nor an array, and a null element, throw; an element of
// type "text" needs a string text; any other element is read as an image.
func userContent(c ai.Content, at string) ([]jsonv.Value, error) {
	if c.IsString {
		return []jsonv.Value{inputText(c.Text)}, nil
	}
	if c.Verbatim {
		return nil, transform.Throws(at, "want a string or an array to map, got %s", c.Raw.Kind())
	}
	var out []jsonv.Value
	for j, b := range c.Blocks {
		switch b := b.(type) {
		case *ai.TextBlock:
			out = append(out, inputText(b.Text))
		case *ai.ImageBlock:
			out = append(out, inputImage(b))
		case *ai.ForeignBlock:
			at := jsonv.Index(at, j)
			if lenient.IsNull(b) {
				return nil, transform.Throws(at, "want a block, got null")
			}
			if b.Type() != "text" {
				out = append(out, foreignImage(b.Raw))
				continue
			}
			text, ok := b.Text()
			if !ok {
				return nil, transform.Throws(at+"/text", "want a string to sanitize, got %s", stream.Member(b.Raw, "text").Kind())
			}
			out = append(out, inputText(text))
		}
	}
	return out, nil
}

// convertAssistant turns one assistant message into items, in block order.
// A thinking signature that is not JSON fails the whole request.
func convertAssistant(d dialect.Dialect, m *ai.AssistantMessage, model *ai.Model, msgIndex int, at string) ([]jsonv.Value, error) {
	var out []jsonv.Value
	differentModel := !jsonv.StrictEqual(m.ModelValue(), model.IDValue()) &&
		jsonv.StrictEqual(m.ProviderValue(), model.ProviderValue()) && jsonv.StrictEqual(m.APIValue(), model.APIValue())
	textIndex := 0
	message := func(text string, signature *string) {
		out = append(out, messageItem(text, signature, msgIndex, textIndex))
		textIndex++
	}
	for j, b := range m.Content {
		at := jsonv.Index(at, j)
		switch b := b.(type) {
		case *ai.ThinkingBlock:
			if b.IsSigned() {
				// JSON.parse reads String(signature).
				sig := b.Loose.Value("thinkingSignature", provider.OrEmpty(b.ThinkingSignature))
				item, err := stream.ParseJSON(stream.ToString(sig))
				if err != nil {
					return nil, &stream.RequestError{Message: err.Error()}
				}
				out = append(out, item)
			}
		case *ai.TextBlock:
			message(b.Text, b.TextSignature)
		case *ai.ForeignBlock:
			if lenient.IsNull(b) {
				return nil, transform.Throws(at, "want a block, got null")
			}
			if b.Type() != "text" {
				continue // Pi skips a block of any other type
			}
			var sig *string
			if v := stream.Member(b.Raw, "textSignature"); v.Truthy() {
				if v.Kind() != jsonv.String {
					return nil, transform.Throws(at+"/textSignature", "want a string to parse, got %s", v.Kind())
				}
				s := v.Str()
				sig = &s
			}
			text, ok := b.Text()
			if !ok {
				return nil, transform.Throws(at+"/text", "want a string to sanitize, got %s", stream.Member(b.Raw, "text").Kind())
			}
			message(text, sig)
		case *ai.ToolCallBlock:
			if b.Loose.Has("id") {
				return nil, transform.Throws(at+"/id", "want a string to split, got %s", b.Loose.Value("id", "").Kind())
			}
			parts := strings.Split(b.ID, "|")
			var itemID *string
			if len(parts) > 1 {
				itemID = &parts[1]
			}
			if dropsItemID(d, itemID, differentModel) {
				itemID = nil
			}
			// The name is copied as it is, whatever it holds.
			item := obj("function_call").SetOptString("id", itemID).SetString("call_id", parts[0]).
				Set("name", stream.JSValue(b.Loose.Value("name", b.Name)))
			if !b.Arguments.IsAbsent() {
				item.SetString("arguments", stream.JSValue(b.Arguments).String())
			}
			out = append(out, item.Value())
		}
	}
	return out, nil
}

// messageItem is the output message of one assistant text: its id is the
// signature's, or one made of the message's and the text's index.
func messageItem(text string, signature *string, msgIndex, textIndex int) jsonv.Value {
	sig := parseTextSignature(signature)
	id := "msg_pi_" + itoa(msgIndex)
	if textIndex > 0 {
		id += "_" + itoa(textIndex)
	}
	var phase *string
	if sig != nil {
		phase = sig.phase
		switch {
		case sig.id == "":
		case wtf8.Len(sig.id) > 64:
			id = "msg_" + transform.ShortHash(sig.id)
		default:
			id = sig.id
		}
	}
	part := obj("output_text").SetString("text", ai.SanitizeSurrogates(text)).Set("annotations", jsonv.ArrayValue()).Value()
	return obj("message").SetString("role", "assistant").Set("content", jsonv.ArrayValue(part)).
		SetString("status", "completed").SetString("id", id).SetOptString("phase", phase).Value()
}

// convertToolResult is one function_call_output: the texts joined with
// newlines as a string, or a list of parts when it holds images and the
// model reads them. Elements are told apart by their type alone: a text
// of another type is joined as Array#join writes it.
func convertToolResult(d dialect.Dialect, m *ai.ToolResultMessage, model *ai.Model, at string) (jsonv.Value, error) {
	// Pi splits the toolCallId, which throws for one that is not a
	// string, before (1.6) or after (0.80) it reads the content.
	splitThrow := func() error {
		if m.Loose.Has("toolCallId") {
			return transform.Throws(at+"/toolCallId", "want a string to split, got %s", m.Loose.Value("toolCallId", "").Kind())
		}
		return nil
	}
	if splitsCallIDFirst.At(d) {
		if err := splitThrow(); err != nil {
			return jsonv.Value{}, err
		}
	}
	if m.Loose.Has("content") {
		return jsonv.Value{}, transform.Throws(at+"/content", "want an array to filter, got %s", m.Loose.Value("content", "").Kind())
	}
	var texts []string
	hasImages := false
	for j, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextBlock:
			texts = append(texts, b.Text)
		case *ai.ImageBlock:
			hasImages = true
		case *ai.ForeignBlock:
			switch {
			case lenient.IsNull(b):
				return jsonv.Value{}, transform.Throws(jsonv.Index(at+"/content", j), "want a block, got null")
			case b.Type() == "text":
				texts = append(texts, stream.ToJoinString(stream.Member(b.Raw, "text")))
			case b.Type() == "image":
				hasImages = true
			}
		}
	}
	if err := splitThrow(); err != nil {
		return jsonv.Value{}, err
	}
	text := wtf8.Concat(strings.Join(texts, "\n"))
	callID := strings.Split(m.ToolCallID, "|")[0]
	hasText := text != "" && !(blankTextIsNone.At(d) && stream.IsBlank(text))
	var output jsonv.Value
	if hasImages && model.AcceptsImages() {
		var parts []jsonv.Value
		if hasText {
			parts = append(parts, inputText(text))
		}
		for _, b := range m.Content {
			switch b := b.(type) {
			case *ai.ImageBlock:
				parts = append(parts, inputImage(b))
			case *ai.ForeignBlock:
				if b.Type() == "image" {
					parts = append(parts, foreignImage(b.Raw))
				}
			}
		}
		output = jsonv.ArrayValue(parts...)
	} else {
		if !hasText {
			text = noTextOutput(d, hasImages)
		}
		output = jsonv.StringValue(ai.SanitizeSurrogates(text))
	}
	return obj("function_call_output").SetString("call_id", callID).Set("output", output).Value(), nil
}

func itoa(n int) string { return jsonv.FormatFloat(float64(n)) }
