// Package ai is Pi's Message layer (pi-ai): the three roles a provider
// adapter accepts, their content blocks, usage and cost, the model and the
// context. Every type decodes from JSON as leniently as Pi reads it and no
// more (spec input.strict and input.lenient: a member no step reads, or reads
// as JavaScript would, keeps any value; a wrong type elsewhere is an error
// naming the JSON path), keeps members it does not know in Extra, and encodes
// back to the JSON Pi would write. Strings are WTF-8 (see package wtf8), so
// lone surrogates survive; numbers are jsonv values that keep their literal.
package ai

import "github.com/piconform/piconform/reference/jsonv"

// Block is one content block. The interface is sealed: the only blocks are
// TextBlock, ThinkingBlock, ImageBlock and ToolCallBlock.
type Block interface {
	BlockType() string
	JSON() jsonv.Value
	isBlock()
}

// TextBlock is {type:"text", text, textSignature?}.
type TextBlock struct {
	Text string
	// TextSignature is an opaque provider string, replayed to the same provider.
	TextSignature *string
	Extra         []jsonv.Member
}

// ThinkingBlock is {type:"thinking", thinking, thinkingSignature?, redacted?}.
type ThinkingBlock struct {
	Thinking string
	// ThinkingSignature holds the provider's signature; for a redacted block it
	// holds the encrypted payload.
	ThinkingSignature *string
	Redacted          *bool
	Extra             []jsonv.Member
	// Loose holds thinking, thinkingSignature or redacted of another type
	// (AllowForeign).
	Loose Loose
}

// IsRedacted reports whether the block is redacted thinking: redacted is
// true, or, of another type, truthy.
func (b *ThinkingBlock) IsRedacted() bool {
	return b.Redacted != nil && *b.Redacted || b.Loose.Value("redacted", "").Truthy()
}

// IsSigned reports whether the block has a signature JavaScript calls truthy.
func (b *ThinkingBlock) IsSigned() bool {
	return b.ThinkingSignature != nil && *b.ThinkingSignature != "" || b.Loose.Value("thinkingSignature", "").Truthy()
}

// TextIsTruthyOther reports whether thinking holds a truthy value that is
// not a string, which has no trim: Pi throws where it trims one.
func (b *ThinkingBlock) TextIsTruthyOther() bool {
	return b.Loose.Has("thinking") && b.Loose.Value("thinking", "").Truthy()
}

// ImageBlock is {type:"image", data, mimeType}; data is base64 without a data: prefix.
type ImageBlock struct {
	Data     string
	MimeType string
	Extra    []jsonv.Member
}

// ToolCallBlock is {type:"toolCall", id, name, arguments, thoughtSignature?}.
type ToolCallBlock struct {
	ID   string
	Name string
	// Arguments is a JSON object, kept exactly as written.
	Arguments        jsonv.Value
	ThoughtSignature *string
	Extra            []jsonv.Member
	// Loose holds id, name or thoughtSignature of another type (AllowForeign).
	Loose Loose
}

// ForeignBlock is a content element the Message layer has no type for, kept
// as written: an object of an unknown type (or none), a value that is not an
// object (null and arrays included), a known block where it may not stand,
// or a text or image block whose members have other types than declared.
// Only decoding with AllowForeign makes one: normalization passes such an
// element on as Pi does (input.lenient), and refuses a null only where Pi
// reads its members. BlockType is "".
type ForeignBlock struct{ Raw jsonv.Value }

func (*ForeignBlock) BlockType() string   { return "" }
func (b *ForeignBlock) JSON() jsonv.Value { return b.Raw }
func (*ForeignBlock) isBlock()            {}

// Type is the element's type member when it is a string ("" otherwise).
func (b *ForeignBlock) Type() string {
	t, _ := b.Raw.Get("type")
	return t.Str()
}

// Text is the element's text member when it is a string, as JavaScript's
// block.text reads it ("" otherwise).
func (b *ForeignBlock) Text() (string, bool) {
	t, _ := b.Raw.Get("text")
	return t.Str(), t.Kind() == jsonv.String
}

// Spliced is what JavaScript's flatMap puts in place of the element when a
// callback returns it unchanged: the elements of an array, one level deep,
// each read as an assistant block would be (a null or an array stays
// foreign); any other element stands for itself.
func (b *ForeignBlock) Spliced() []Block {
	if b.Raw.Kind() != jsonv.Array {
		return []Block{b}
	}
	out := make([]Block, 0, len(b.Raw.Elems()))
	for _, e := range b.Raw.Elems() {
		blk, err := DecodeBlock(e, "", AssistantBlocks|AllowForeign)
		if err != nil {
			blk = &ForeignBlock{Raw: e}
		}
		out = append(out, blk)
	}
	return out
}

func (*TextBlock) BlockType() string     { return "text" }
func (*ThinkingBlock) BlockType() string { return "thinking" }
func (*ImageBlock) BlockType() string    { return "image" }
func (*ToolCallBlock) BlockType() string { return "toolCall" }

func (*TextBlock) isBlock()     {}
func (*ThinkingBlock) isBlock() {}
func (*ImageBlock) isBlock()    {}
func (*ToolCallBlock) isBlock() {}

func (b *TextBlock) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("type", "text").SetString("text", b.Text)
	return o.SetOptString("textSignature", b.TextSignature).Extend(b.Extra).Value()
}

func (b *ThinkingBlock) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("type", "thinking").SetString("thinking", b.Thinking)
	o.SetOptString("thinkingSignature", b.ThinkingSignature).SetOptBool("redacted", b.Redacted)
	return b.Loose.over(o.Extend(b.Extra).Value())
}

func (b *ImageBlock) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("type", "image").SetString("data", b.Data).SetString("mimeType", b.MimeType)
	return o.Extend(b.Extra).Value()
}

func (b *ToolCallBlock) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("type", "toolCall").SetString("id", b.ID).SetString("name", b.Name)
	o.Set("arguments", b.Arguments).SetOptString("thoughtSignature", b.ThoughtSignature)
	return b.Loose.over(o.Extend(b.Extra).Value())
}

// BlockSet names the block types a content array may hold.
type BlockSet uint8

const (
	AllowText BlockSet = 1 << iota
	AllowThinking
	AllowImage
	AllowToolCall
)

// AllowForeign keeps, as a *ForeignBlock, an element that is not a block of
// a type the set allows (null and arrays included), instead of refusing it.
const AllowForeign BlockSet = 1 << 7

// UserBlocks are the blocks of user and tool-result content.
const UserBlocks = AllowText | AllowImage

// AssistantBlocks are the blocks of assistant content. Image is accepted too:
// Pi's types leave it out, but Pi carries such a block through untouched.
const AssistantBlocks = AllowText | AllowThinking | AllowToolCall | AllowImage

// DecodeBlock reads one content block of a type in allowed.
func DecodeBlock(v jsonv.Value, ptr string, allowed BlockSet) (Block, error) {
	if allowed&AllowForeign != 0 {
		t, _ := v.Get("type")
		if kind := blockKinds[t.Str()]; v.Kind() != jsonv.Object || t.Kind() != jsonv.String || allowed&kind == 0 {
			return &ForeignBlock{Raw: v}, nil
		}
	}
	f := jsonv.ReadFields(v, ptr)
	typ := f.String("type")
	if err := f.Err(); err != nil {
		return nil, err
	}
	var b Block
	var kind BlockSet
	switch typ {
	case "text":
		kind = AllowText
		t := &TextBlock{Text: f.String("text"), TextSignature: f.OptString("textSignature")}
		t.Extra = f.Rest()
		b = t
	case "thinking":
		kind = AllowThinking
		var loose Loose
		foreign := allowed & AllowForeign
		t := &ThinkingBlock{Thinking: loose.string(f, "thinking", foreign), ThinkingSignature: loose.optString(f, "thinkingSignature", foreign)}
		if foreign == 0 {
			t.Redacted = f.OptBool("redacted")
		} else if r := f.Any("redacted"); r.Kind() == jsonv.Bool {
			v := r.Bool()
			t.Redacted = &v
		} else if !r.IsAbsent() {
			loose = append(loose, jsonv.Member{Key: "redacted", Value: r})
		}
		t.Extra, t.Loose = f.Rest(), loose
		b = t
	case "image":
		kind = AllowImage
		t := &ImageBlock{Data: f.String("data"), MimeType: f.String("mimeType")}
		t.Extra = f.Rest()
		b = t
	case "toolCall":
		kind = AllowToolCall
		var loose Loose
		foreign := allowed & AllowForeign
		t := &ToolCallBlock{ID: loose.string(f, "id", foreign), Name: loose.string(f, "name", foreign), ThoughtSignature: loose.optString(f, "thoughtSignature", foreign)}
		if foreign != 0 {
			t.Arguments = f.Any("arguments") // normalization never reads them
		} else {
			t.Arguments = f.Object("arguments")
		}
		t.Extra, t.Loose = f.Rest(), loose
		b = t
	default:
		return nil, jsonv.Errorf(f.At("type"), "unknown block type %q", typ)
	}
	if err := f.Err(); err != nil {
		// Normalization reads nothing of a text or image block but its type
		// and text, and copies the rest.
		if allowed&AllowForeign != 0 && (kind == AllowText || kind == AllowImage) {
			return &ForeignBlock{Raw: v}, nil
		}
		return nil, err
	}
	if allowed&kind == 0 {
		return nil, jsonv.Errorf(f.At("type"), "a %q block is not allowed here", typ)
	}
	return b, nil
}

var blockKinds = map[string]BlockSet{"text": AllowText, "thinking": AllowThinking, "image": AllowImage, "toolCall": AllowToolCall}

// DecodeBlocks reads a content array.
func DecodeBlocks(elems []jsonv.Value, ptr string, allowed BlockSet) ([]Block, error) {
	blocks := make([]Block, 0, len(elems))
	for i, e := range elems {
		// Only an error needs the block's JSON Pointer, and building it
		// cost an allocation a block: a block that fails is decoded again
		// with it, which gives the same error, named.
		b, err := DecodeBlock(e, "", allowed)
		if err != nil {
			_, err = DecodeBlock(e, jsonv.Index(ptr, i), allowed)
			return nil, err
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// BlocksJSON encodes a content array.
func BlocksJSON(blocks []Block) jsonv.Value {
	return jsonv.ArrayOf(blocks)
}

// Content is user-style content: a plain string or an array of blocks.
type Content struct {
	// IsString tells which form is used.
	IsString bool
	Text     string
	Blocks   []Block
	// Verbatim is set, and Raw holds the content as written, when it is
	// neither a string nor an array (or is absent) and the decoder allowed
	// foreign content (AllowForeign): normalization passes it on as Pi does.
	Verbatim bool
	Raw      jsonv.Value
}

// StringContent makes string content.
func StringContent(s string) Content { return Content{IsString: true, Text: s} }

// BlockContent makes array content.
func BlockContent(blocks ...Block) Content {
	if blocks == nil {
		blocks = []Block{}
	}
	return Content{Blocks: blocks}
}

// DecodeContent reads content that is either a string or an array of blocks.
func DecodeContent(v jsonv.Value, ptr string, allowed BlockSet) (Content, error) {
	switch v.Kind() {
	case jsonv.String:
		return StringContent(v.Str()), nil
	case jsonv.Array:
		blocks, err := DecodeBlocks(v.Elems(), ptr, allowed)
		return Content{Blocks: blocks}, err
	}
	if allowed&AllowForeign != 0 {
		return Content{Verbatim: true, Raw: v}, nil
	}
	if v.IsAbsent() {
		return Content{}, jsonv.Errorf(ptr, "missing required content")
	}
	return Content{}, jsonv.Errorf(ptr, "want a string or an array of blocks, got %s", v.Kind())
}

func (c Content) JSON() jsonv.Value {
	if c.Verbatim {
		return c.Raw
	}
	if c.IsString {
		return jsonv.StringValue(c.Text)
	}
	return BlocksJSON(c.Blocks)
}
