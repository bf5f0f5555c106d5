// Package lenient is what the provider conversions share when they read a
// context decoded leniently (spec input.lenient, provider.Driver's
// LenientContext): where Pi's transformMessages throws on members of other
// types, and how JavaScript turns such a member into text.
package lenient

import (
	"fmt"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// Throws is a transform.ErrThrows naming what Pi trips on, where no one
// JSON Pointer says it (transform.Throws when one does).
func Throws(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{transform.ErrThrows}, args...)...)
}

// IsNull tells whether b is a null element of content, whose type Pi
// reads.
func IsNull(b ai.Block) bool {
	f, ok := b.(*ai.ForeignBlock)
	return ok && f.Raw.Kind() == jsonv.Null
}

// MessagePointer is the JSON Pointer of the i-th message of a wire case's
// context.
func MessagePointer(i int) string { return jsonv.Index("/context/messages", i) }

// Conversion is what a provider's conversion of the messages reads of
// values of other types beyond what every one reads (UserContent,
// AssistantTexts, ToolResultContent).
type Conversion struct {
	// IDThrows reports the tool-call ids the API's normalizer throws on.
	IDThrows func(id jsonv.Value) bool
	// SanitizesResults is set when the conversion sanitizes each text of a
	// tool result, so that a text of another type throws, rather than
	// joining them as Array#join does.
	SanitizesResults bool
	// Foreign refuses a message of a role outside the three that the
	// conversion cannot read; nil when it skips such messages.
	Foreign func(m *ai.ForeignMessage, at string) error
	// UserTextKept, when set, is the test the conversion puts each element
	// of type "text" of a user message's content to before it converts
	// any: only the elements it keeps are sanitized, the others are left
	// out unread. It returns an error where the test itself throws. nil
	// keeps every element.
	UserTextKept func(text jsonv.Value) (bool, error)
}

// Checks refuse a message of a wire case's context where Pi of dialect d
// throws while it normalizes it for model or converts it as c says: the
// two steps, in Pi's order (provider.Steps.Checks).
func (c Conversion) Checks(d dialect.Dialect, model *ai.Model) []func(m ai.Message, i int) error {
	return []func(ai.Message, int) error{
		provider.TransformCheck(d, model, c.IDThrows),
		func(m ai.Message, i int) error { return c.convertible(m, i, model) },
	}
}

// convertible refuses m, the i-th message, where Pi throws converting it.
func (c Conversion) convertible(m ai.Message, i int, model *ai.Model) error {
	at := MessagePointer(i) + "/content"
	switch m := m.(type) {
	case *ai.UserMessage:
		if c.UserTextKept != nil {
			return c.filteredUserContent(m, at)
		}
		return UserContent(m, at)
	case *ai.AssistantMessage:
		return AssistantTexts(m, model, at)
	case *ai.ToolResultMessage:
		err := ToolResultContent(m, model, at)
		if err == nil && c.SanitizesResults {
			err = StringTexts(m.Content, at)
		}
		return err
	case *ai.ForeignMessage:
		if c.Foreign != nil {
			return c.Foreign(m, at)
		}
	}
	return nil
}

// TextOf is the text of a block whose type is "text": a text block's, or
// the text member of another element of that type (Absent when it has
// none). ok is false for a block of another type.
func TextOf(b ai.Block) (text jsonv.Value, ok bool) {
	switch b := b.(type) {
	case *ai.TextBlock:
		return jsonv.StringValue(b.Text), true
	case *ai.ForeignBlock:
		if b.Type() == "text" {
			return stream.Member(b.Raw, "text"), true
		}
	}
	return jsonv.Value{}, false
}

// IsImage reports whether Pi takes b for an image: its type is "image".
func IsImage(b ai.Block) bool {
	if f, ok := b.(*ai.ForeignBlock); ok {
		return f.Type() == "image"
	}
	_, ok := b.(*ai.ImageBlock)
	return ok
}

// ImageURL is the data URL Pi writes for any block it takes for an image:
// a well-formed one, or another element, whose mimeType and data it
// writes as String() writes them ("undefined" when missing).
func ImageURL(b ai.Block) string {
	mime, data := "undefined", "undefined"
	switch b := b.(type) {
	case *ai.ImageBlock:
		mime, data = b.MimeType, b.Data
	case *ai.ForeignBlock:
		mime, data = stream.ToString(stream.Member(b.Raw, "mimeType")), stream.ToString(stream.Member(b.Raw, "data"))
	}
	return "data:" + mime + ";base64," + data
}

// UserContent refuses the user content Pi throws on when it converts it:
// content that is neither a string nor an array (Pi iterates it), a null
// element (Pi reads its type), and an element of type "text" whose text is
// no string (Pi sanitizes it).
func UserContent(m *ai.UserMessage, at string) error {
	if m.Content.Verbatim {
		return transform.Throws(at, "Pi iterates a %s", m.Content.Raw.Kind())
	}
	if err := transform.NoNull(m.Content.Blocks, at); err != nil {
		return err
	}
	return StringTexts(m.Content.Blocks, at)
}

// filteredUserContent is UserContent where the conversion first filters
// the elements of type "text" with UserTextKept: a text the test throws on
// is refused, and of the others only those it keeps must be strings.
func (c Conversion) filteredUserContent(m *ai.UserMessage, at string) error {
	if m.Content.Verbatim {
		return transform.Throws(at, "Pi iterates a %s", m.Content.Raw.Kind())
	}
	if err := transform.NoNull(m.Content.Blocks, at); err != nil {
		return err
	}
	var kept []ai.Block
	var where []int
	for j, b := range m.Content.Blocks {
		text, ok := TextOf(b)
		if !ok {
			continue
		}
		keep, err := c.UserTextKept(text)
		if err != nil {
			return transform.Throws(jsonv.Index(at, j)+"/text", "Pi filters the text: %v", err)
		}
		if keep {
			kept, where = append(kept, b), append(where, j)
		}
	}
	for k, b := range kept {
		if text, _ := TextOf(b); text.Kind() != jsonv.String {
			return transform.Throws(jsonv.Index(at, where[k])+"/text", "Pi sanitizes a %s as a string", text.Kind())
		}
	}
	return nil
}

// StringTexts refuses an element of type "text" whose text is no string,
// where Pi sanitizes it.
func StringTexts(blocks []ai.Block, at string) error {
	for j, b := range blocks {
		if text, ok := TextOf(b); ok && text.Kind() != jsonv.String {
			return transform.Throws(jsonv.Index(at, j)+"/text", "Pi sanitizes a %s as a string", text.Kind())
		}
	}
	return nil
}

// ToolResultContent refuses the tool-result content Pi throws on when it
// converts it: content that is not an array, unless normalization made an
// array of a string's characters (a model without images), and a null
// element.
func ToolResultContent(m *ai.ToolResultMessage, model *ai.Model, at string) error {
	if c := m.Loose.Value("content", ""); m.Loose.Has("content") && (model.AcceptsImages() || c.Kind() != jsonv.String) {
		return transform.Throws(at, "Pi filters a %s", c.Kind())
	}
	return transform.NoNull(m.Content, at)
}

// AssistantTexts refuses an assistant message that normalization keeps
// and whose text or thinking Pi trims though it is no string: a block of
// type "text" (also one flatMap splices in from an array), a thinking
// block normalization passes on (redacted, signed or truthy ones of the
// same model), and a spliced thinking block, which normalization does not
// look at.
func AssistantTexts(m *ai.AssistantMessage, model *ai.Model, at string) error {
	if transform.Dropped(m) {
		return nil
	}
	same := transform.SameModel(m, model)
	check := func(b ai.Block, at string, spliced bool) error {
		if text, ok := TextOf(b); ok && text.Kind() != jsonv.String {
			return transform.Throws(at+"/text", "Pi trims a %s", text.Kind())
		}
		t, ok := b.(*ai.ThinkingBlock)
		if !ok || !t.Loose.Has("thinking") {
			return nil
		}
		if spliced || same && (t.IsRedacted() || t.IsSigned() || t.TextIsTruthyOther()) {
			return transform.Throws(at+"/thinking", "Pi trims a %s", t.Loose.Value("thinking", "").Kind())
		}
		return nil
	}
	for j, b := range m.Content {
		at := jsonv.Index(at, j)
		if f, ok := b.(*ai.ForeignBlock); ok && f.Raw.Kind() == jsonv.Array {
			for k, e := range f.Spliced() {
				if err := check(e, jsonv.Index(at, k), true); err != nil {
					return err
				}
			}
			continue
		}
		if err := check(b, at, false); err != nil {
			return err
		}
	}
	return nil
}
