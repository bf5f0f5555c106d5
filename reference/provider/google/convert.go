package google

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
	"github.com/piconform/piconform/reference/wtf8"
)

// ToolResultImageText leads the extra user turn that carries a tool
// result's images for models before Gemini 3.
const ToolResultImageText = "Tool result image:"

// RequiresToolCallID reports whether Pi of dialect d sends tool-call ids
// in functionCall and functionResponse for this model id: for Claude and
// gpt-oss models served through Google, and from 1.6 on for Gemini 3 and
// later too.
func RequiresToolCallID(d dialect.Dialect, modelID string) bool {
	if strings.HasPrefix(modelID, "claude-") || strings.HasPrefix(modelID, "gpt-oss-") {
		return true
	}
	n, ok := geminiMajor(modelID)
	return rules(d).gemini3ToolCallIDs && ok && n >= 3
}

// NormalizeToolCallID is this API's tool-call id normalizer in 0.80
// (ToolCallIDNormalizer).
func NormalizeToolCallID(id string, model *ai.Model, source *ai.AssistantMessage) string {
	return ToolCallIDNormalizer(dialect.V0_80)(id, model, source)
}

// ToolCallIDNormalizer is this API's tool-call id normalizer in dialect d,
// applied by transform to calls made by other models. For models that take
// ids (RequiresToolCallID) every UTF-16 code unit outside [a-zA-Z0-9_-]
// becomes "_" and the result is cut to 64 units; for the others the id is
// kept (it is never sent).
func ToolCallIDNormalizer(d dialect.Dialect) transform.IDNormalizer {
	return func(id string, model *ai.Model, _ *ai.AssistantMessage) string {
		if model == nil || !RequiresToolCallID(d, model.ID) {
			return id
		}
		return provider.SanitizeID(id, 64)
	}
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

// geminiMajor is the major version a model id names ("gemini-3-…",
// "gemini-live-2…", compared in lower case); ok is false for an id that
// names none. A version too long for an int counts as a large one.
func geminiMajor(modelID string) (n int, ok bool) {
	m := geminiVersion.FindStringSubmatch(strings.ToLower(modelID))
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		n = math.MaxInt
	}
	return n, true
}

// multimodalFunctionResponse reports whether images of a tool result go
// inside functionResponse.parts: Gemini 3 and later, and any model whose
// id does not name a Gemini version.
func multimodalFunctionResponse(modelID string) bool {
	n, ok := geminiMajor(modelID)
	return !ok || n >= 3
}

func content(role string, parts []jsonv.Value) jsonv.Value {
	return new(jsonv.ObjectBuilder).Set("parts", jsonv.ArrayValue(parts...)).SetString("role", role).Value()
}

func textPart(text string) *jsonv.ObjectBuilder {
	return new(jsonv.ObjectBuilder).SetString("text", text)
}

// inlineData is an image as Pi builds it: {mimeType, data}, each member
// copied as it is (a null kept, a missing one left out).
func inlineData(mimeType, data jsonv.Value) jsonv.Value {
	blob := new(jsonv.ObjectBuilder).Set("mimeType", stream.JSValue(mimeType)).Set("data", stream.JSValue(data)).Value()
	return new(jsonv.ObjectBuilder).Set("inlineData", blob).Value()
}

// imageData is inlineData of an image block, or of an element Pi takes for
// one, whose mimeType and data may be anything (input.lenient).
func imageData(b ai.Block) jsonv.Value {
	switch b := b.(type) {
	case *ai.ImageBlock:
		return inlineData(jsonv.StringValue(b.MimeType), jsonv.StringValue(b.Data))
	case *ai.ForeignBlock:
		mimeType, _ := b.Raw.Get("mimeType")
		data, _ := b.Raw.Get("data")
		return inlineData(mimeType, data)
	}
	return inlineData(jsonv.Value{}, jsonv.Value{})
}

// wireContent is one content while it is being built.
type wireContent struct {
	role      string
	parts     []jsonv.Value
	functions bool // holds a functionResponse, so later tool results join it
}

// converter is Pi's convertMessages of google-shared.js, fed one
// transformed message at a time: one content per message, with
// consecutive tool results in one user content. It holds back only a
// content of function responses, the one a later tool result can still
// join, and hands every other content to the body at once, through
// serialize (the SDK's rewrite of Pi's form, see mldevContent). Members of
// other types than declared are read as Pi reads them (input.lenient).
type converter struct {
	model     *ai.Model
	rules     *release
	withIDs   bool
	serialize func(jsonv.Value) jsonv.Value
	body      provider.BodySink
	held      *wireContent
	converted int // transformed messages seen
	contents  int // contents handed over or held
}

// StreamContents is Pi's convertMessages of dialect d for a transcript read
// one message at a time: it begins body's "contents" array (the first
// member of the body) and hands it ctx's messages, transformed for model,
// as contents in Pi's form rewritten by serialize (nil: as they are). now
// stamps the synthetic tool results transform adds. Then Pi reads the
// system prompt and maps the tools, which may throw too. It returns how
// many contents there are; an error wraps transform.ErrThrows.
func StreamContents(d dialect.Dialect, model *ai.Model, ctx *ai.Context, msgs provider.Transcript, now transform.Clock, body provider.BodySink, serialize func(jsonv.Value) jsonv.Value) (int, error) {
	if serialize == nil {
		serialize = func(v jsonv.Value) jsonv.Value { return v }
	}
	withIDs := RequiresToolCallID(d, model.ID)
	// The normalizer reads the model's id as a string before the call's.
	idThrows := func(id jsonv.Value) bool { return model.Loose.Has("id") || withIDs && transform.NotAString(id) }
	c := &converter{model: model, rules: rules(d), withIDs: withIDs, serialize: serialize, body: body}
	body.Begin(nil, "contents")
	steps := provider.Steps{Dialect: d, Checks: []func(ai.Message, int) error{provider.TransformCheck(d, model, idThrows)},
		Normalize: ToolCallIDNormalizer(d), Convert: c.convert, Close: c.close}
	if err := steps.Run(msgs, model, now); err != nil {
		return 0, err
	}
	// Pi sanitizes the system prompt next, building the config, and
	// then maps the tools.
	if _, err := ctx.SystemText(); err != nil {
		return 0, err
	}
	if _, err := ctx.MappedTools(); err != nil {
		return 0, err
	}
	return c.contents, nil
}

func (c *converter) convert(msg ai.Message) error {
	i := c.converted
	c.converted++
	var err error
	switch m := msg.(type) {
	case *ai.UserMessage:
		var parts []jsonv.Value
		if parts, err = userParts(m); err == nil && len(parts) > 0 {
			c.add(&wireContent{role: "user", parts: parts})
		}
	case *ai.AssistantMessage:
		var parts []jsonv.Value
		if parts, err = assistantParts(m, c.model, c.rules, c.withIDs); err == nil && len(parts) > 0 {
			c.add(&wireContent{role: "model", parts: parts})
		}
	case *ai.ToolResultMessage:
		err = c.addToolResult(m)
	}
	if err != nil {
		return fmt.Errorf("%w: transformed message %d: %v", transform.ErrThrows, i, err)
	}
	return nil
}

// add makes wc the last content: the content held is final now, and so is
// wc unless a later tool result can join it.
func (c *converter) add(wc *wireContent) {
	c.close()
	c.contents++
	if wc.functions {
		c.held = wc
		return
	}
	c.body.Element(c.serialize(content(wc.role, wc.parts)))
}

// close hands the body the content held, if any.
func (c *converter) close() error {
	if c.held != nil {
		c.body.Element(c.serialize(content(c.held.role, c.held.parts)))
		c.held = nil
	}
	return nil
}

// userParts converts a user message: a string is one text part; in an
// array a text block is a text part and every other element Pi reads as
// an image (an element of no image type gives an empty inlineData).
func userParts(m *ai.UserMessage) ([]jsonv.Value, error) {
	switch {
	case m.Content.Verbatim:
		return nil, fmt.Errorf("content is %s, which has no map", describe(m.Content.Raw))
	case m.Content.IsString:
		return []jsonv.Value{textPart(ai.SanitizeSurrogates(m.Content.Text)).Value()}, nil
	}
	var parts []jsonv.Value
	for j, b := range m.Content.Blocks {
		switch b := b.(type) {
		case *ai.TextBlock:
			parts = append(parts, textPart(ai.SanitizeSurrogates(b.Text)).Value())
		case *ai.ForeignBlock:
			if b.Raw.Kind() == jsonv.Null {
				return nil, fmt.Errorf("content %d is null", j)
			}
			if b.Type() != "text" {
				parts = append(parts, imageData(b))
				continue
			}
			text, ok := b.Text()
			if !ok {
				return nil, fmt.Errorf("content %d: text is %s, which has no replace", j, describe(stream.Member(b.Raw, "text")))
			}
			parts = append(parts, textPart(ai.SanitizeSurrogates(text)).Value())
		default:
			parts = append(parts, imageData(b))
		}
	}
	return parts, nil
}

// assistantParts converts one assistant message. Signatures are replayed
// only to the same provider and model id, and only when they are base64
// strings. A text or thinking that is falsy is skipped like a blank one;
// a truthy one of another type has no trim, so Pi throws. From 1.6 on
// (signedBlanks) a blank text, or a blank thinking of the same model, is
// sent all the same when it carries a signature that is replayed; a falsy
// one of another type then has no replace, so Pi throws.
func assistantParts(m *ai.AssistantMessage, model *ai.Model, r *release, withIDs bool) ([]jsonv.Value, error) {
	same := jsonv.StrictEqual(m.ProviderValue(), model.ProviderValue()) && jsonv.StrictEqual(m.ModelValue(), model.IDValue())
	signature := func(sig *string) *string {
		if same && validSignature(sig) {
			return sig
		}
		return nil
	}
	// kept tells whether a blank text is sent all the same: only a signed
	// one, from 1.6 on.
	kept := func(sig *string) bool { return r.signedBlanks && sig != nil }
	var parts []jsonv.Value
	for j, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextBlock:
			sig := signature(b.TextSignature)
			if stream.IsBlank(b.Text) && !kept(sig) {
				continue
			}
			parts = append(parts, textPart(ai.SanitizeSurrogates(b.Text)).SetOptString("thoughtSignature", sig).Value())
		case *ai.ForeignBlock:
			if b.Raw.Kind() == jsonv.Null {
				return nil, fmt.Errorf("content %d is null", j)
			}
			if b.Type() != "text" {
				continue // no type Pi converts
			}
			// A text block with a member of another type: the text is
			// read as above, a signature that is no string is invalid.
			text, ok := b.Text()
			if v := stream.Member(b.Raw, "text"); !ok && v.Truthy() {
				return nil, fmt.Errorf("content %d: text is %s, which has no trim", j, describe(v))
			}
			raw, _ := b.Raw.Get("textSignature")
			sig := signature(stringOrNil(raw))
			switch {
			case ok && !stream.IsBlank(text), ok && kept(sig):
				parts = append(parts, textPart(ai.SanitizeSurrogates(text)).SetOptString("thoughtSignature", sig).Value())
			case !ok && kept(sig):
				return nil, fmt.Errorf("content %d: text is %s, which has no replace", j, describe(stream.Member(b.Raw, "text")))
			}
		case *ai.ThinkingBlock:
			if b.TextIsTruthyOther() {
				return nil, fmt.Errorf("content %d: thinking is %s, which has no trim", j, describe(b.Loose.Value("thinking", "")))
			}
			sig := signature(b.ThinkingSignature)
			blank := b.Loose.Has("thinking") || stream.IsBlank(b.Thinking)
			switch {
			case blank && !(same && kept(sig)):
				continue
			case b.Loose.Has("thinking"):
				return nil, fmt.Errorf("content %d: thinking is %s, which has no replace", j, describe(b.Loose.Value("thinking", "")))
			}
			p := textPart(ai.SanitizeSurrogates(b.Thinking))
			if same {
				p.SetBool("thought", true).SetOptString("thoughtSignature", sig)
			}
			parts = append(parts, p.Value())
		case *ai.ToolCallBlock:
			if err := idIsString(model, "startsWith"); err != nil {
				return nil, err
			}
			args := b.Arguments
			if args.IsNullish() {
				args = jsonv.ObjectValue()
			}
			call := new(jsonv.ObjectBuilder).Set("name", stream.JSValue(b.Loose.Value("name", b.Name))).Set("args", stream.JSValue(args))
			if withIDs {
				call.Set("id", stream.JSValue(b.Loose.Value("id", b.ID)))
			}
			p := new(jsonv.ObjectBuilder).Set("functionCall", call.Value()).SetOptString("thoughtSignature", signature(b.ThoughtSignature))
			parts = append(parts, p.Value())
		}
	}
	return parts, nil
}

// addToolResult adds one functionResponse: to the last content when it
// is a user turn already holding one (the content held), else as a new
// user turn. For models
// before Gemini 3 the images follow in a user turn of their own. The
// texts are joined as JavaScript joins values (null and a missing one as
// ""), the tool name and call id are copied as they are. From 1.6 on a
// text that is only white space counts as none.
func (c *converter) addToolResult(m *ai.ToolResultMessage) error {
	if m.Loose.Has("content") {
		return fmt.Errorf("content is %s, which has no filter", describe(m.Loose.Value("content", "")))
	}
	var texts []string
	var images []ai.Block
	for j, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextBlock:
			texts = append(texts, b.Text)
		case *ai.ImageBlock:
			images = append(images, b)
		case *ai.ForeignBlock:
			switch {
			case b.Raw.Kind() == jsonv.Null:
				return fmt.Errorf("content %d is null", j)
			case b.Type() == "text":
				texts = append(texts, stream.ToJoinString(stream.Member(b.Raw, "text")))
			case b.Type() == "image":
				images = append(images, b)
			}
		}
	}
	if !c.model.AcceptsImages() {
		images = nil
	}
	joined := wtf8.Concat(strings.Join(texts, "\n"))
	hasText := joined != ""
	if c.rules.trimmedResultText {
		hasText = !stream.IsBlank(joined)
	}
	value := ""
	switch {
	case hasText:
		value = ai.SanitizeSurrogates(joined)
	case len(images) > 0:
		value = provider.SeeAttachedImageText
	}
	key := "output"
	if m.IsError.Truthy() {
		key = "error"
	}
	if err := idIsString(c.model, "toLowerCase"); err != nil {
		return err
	}
	nested := multimodalFunctionResponse(c.model.ID)
	imageParts := make([]jsonv.Value, len(images))
	for i, img := range images {
		imageParts[i] = imageData(img)
	}
	fr := new(jsonv.ObjectBuilder).Set("name", stream.JSValue(m.Loose.Value("toolName", m.ToolName)))
	fr.Set("response", new(jsonv.ObjectBuilder).SetString(key, value).Value())
	if len(images) > 0 && nested {
		fr.Set("parts", jsonv.ArrayValue(imageParts...))
	}
	if c.withIDs {
		fr.Set("id", stream.JSValue(m.Loose.Value("toolCallId", m.ToolCallID)))
	}
	part := new(jsonv.ObjectBuilder).Set("functionResponse", fr.Value()).Value()
	if c.held != nil {
		c.held.parts = append(c.held.parts, part)
	} else {
		c.add(&wireContent{role: "user", parts: []jsonv.Value{part}, functions: true})
	}
	if len(images) > 0 && !nested {
		parts := append([]jsonv.Value{textPart(ToolResultImageText).Value()}, imageParts...)
		c.add(&wireContent{role: "user", parts: parts})
	}
	return nil
}

// stringOrNil is v when it is a string; a signature of another type is
// never valid.
func stringOrNil(v jsonv.Value) *string {
	if v.Kind() != jsonv.String {
		return nil
	}
	s := v.Str()
	return &s
}

// idIsString refuses a model whose id is not a string where Pi calls a
// string method on it (RequiresToolCallID for each tool call,
// multimodalFunctionResponse for each tool result): a TypeError that
// comes before Pi checks the signal.
func idIsString(model *ai.Model, method string) error {
	if model.Loose.Has("id") {
		return fmt.Errorf("the model's id is %s, which has no %s", describe(model.Loose.Value("id", "")), method)
	}
	return nil
}

// describe names a value's type in an error.
func describe(v jsonv.Value) string {
	if v.IsAbsent() {
		return "missing"
	}
	return v.Kind().String()
}

// GeminiContent is the Gemini API's serializer of the SDK of dialect d:
// it rewrites a content in Pi's form as the SDK sends it. Version 1 makes
// a part's functionCall {id, args, name} and its inlineData {data,
// mimeType}, each without the members that are null; version 2 makes the
// functionCall {args, id, name} the same way and sends inlineData as Pi
// built it. What sits inside a functionResponse is sent as it is.
func GeminiContent(d dialect.Dialect) func(jsonv.Value) jsonv.Value {
	if rules(d).sdkMajor == 1 {
		return func(c jsonv.Value) jsonv.Value {
			return mapParts(c, func(p jsonv.Value) jsonv.Value {
				if fc, ok := p.Get("functionCall"); ok {
					p = p.With("functionCall", SDKCopy(fc, "id", "args", "name"))
				}
				if blob, ok := p.Get("inlineData"); ok {
					p = p.With("inlineData", SDKCopy(blob, "data", "mimeType"))
				}
				return p
			})
		}
	}
	return func(c jsonv.Value) jsonv.Value {
		return mapParts(c, func(p jsonv.Value) jsonv.Value {
			if fc, ok := p.Get("functionCall"); ok {
				p = p.With("functionCall", SDKCopy(fc, "args", "id", "name"))
			}
			return p
		})
	}
}

// VertexContent is the Vertex AI serializer of the SDK of dialect d.
// Version 1 sends the parts as Pi built them (nil); version 2 makes a
// part's functionResponse {id, name, parts, response} without the members
// that are null, each nested image part keeping only its inlineData.
func VertexContent(d dialect.Dialect) func(jsonv.Value) jsonv.Value {
	if rules(d).sdkMajor == 1 {
		return nil
	}
	return func(c jsonv.Value) jsonv.Value {
		return mapParts(c, func(p jsonv.Value) jsonv.Value {
			fr, ok := p.Get("functionResponse")
			if !ok {
				return p
			}
			fr = SDKCopy(fr, "id", "name", "parts", "response")
			if nested, ok := fr.Get("parts"); ok && nested.Kind() == jsonv.Array {
				elems := make([]jsonv.Value, len(nested.Elems()))
				for i, e := range nested.Elems() {
					elems[i] = SDKCopy(e, "inlineData")
				}
				fr = fr.With("parts", jsonv.ArrayValue(elems...))
			}
			return p.With("functionResponse", fr)
		})
	}
}

// mapParts is content c with f applied to each of its parts.
func mapParts(c jsonv.Value, f func(jsonv.Value) jsonv.Value) jsonv.Value {
	parts, _ := c.Get("parts")
	elems := make([]jsonv.Value, len(parts.Elems()))
	for j, p := range parts.Elems() {
		elems[j] = f(p)
	}
	return c.With("parts", jsonv.ArrayValue(elems...))
}

// SDKCopy is the members keys of obj in that order, leaving out those
// that are null or missing: the SDK's serializers copy a member only when
// it is != null.
func SDKCopy(obj jsonv.Value, keys ...string) jsonv.Value {
	b := new(jsonv.ObjectBuilder)
	for _, k := range keys {
		if v, ok := obj.Get(k); ok && v.Kind() != jsonv.Null {
			b.Set(k, v)
		}
	}
	return b.Value()
}
