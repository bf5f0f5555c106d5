package bedrock

import (
	"encoding/base64"
	"errors"
	"regexp"
	"slices"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/anthropic"
	"github.com/piconform/piconform/reference/provider/internal/lenient"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// NormalizeToolCallID is this API's tool-call id normalizer, the same as
// anthropic-messages': UTF-16 units outside [a-zA-Z0-9_-] become "_", cut
// to 64 units. transform applies it to calls made by other models only.
var NormalizeToolCallID = anthropic.NormalizeToolCallID

// candidates are the lower-cased model id and name, each also with runs
// of whitespace, "_", "." and ":" turned into "-". Callers have refused a
// name Pi would throw on (isClaude, supportsCaching).
func candidates(model *ai.Model) []string {
	values := []string{model.ID}
	if model.Name != "" {
		values = append(values, model.Name)
	}
	var out []string
	for _, v := range values {
		l := strings.ToLower(v)
		out = append(out, l, separators.ReplaceAllString(l, "-"))
	}
	return out
}

var separators = regexp.MustCompile(`[\s_.:]+`)

func anyContains(list []string, subs ...string) bool {
	for _, s := range list {
		for _, sub := range subs {
			if strings.Contains(s, sub) {
				return true
			}
		}
	}
	return false
}

// looseName is the model's name when it is not a string (Absent when it
// is one, or when there is none): Pi lower-cases the name only where it
// asks what the model is, so the name is refused there (isClaude,
// supportsCaching) and nowhere else.
func looseName(model *ai.Model) jsonv.Value {
	if !model.Loose.Has("name") {
		return jsonv.Value{}
	}
	return model.Loose.Value("name", "")
}

// isClaude is Pi's isAnthropicClaudeModel, which lower-cases the name
// behind ?.: a name that is neither a string nor null or absent throws.
func isClaude(model *ai.Model) (bool, error) {
	if name := looseName(model); !name.IsNullish() {
		return false, lenient.Throws("the model's name is %s, which has no toLowerCase", name.Kind())
	}
	id, name := strings.ToLower(model.ID), strings.ToLower(model.Name)
	return strings.Contains(id, "anthropic.claude") || strings.Contains(id, "anthropic/claude") ||
		strings.Contains(name, "anthropic.claude") || strings.Contains(name, "anthropic/claude") || strings.Contains(name, "claude"), nil
}

// supportsCaching is Pi's supportsPromptCaching. It lower-cases the name
// when it is truthy (candidates), so a truthy name of another type throws
// and a falsy one counts as none.
func supportsCaching(model *ai.Model, opts Options) (bool, error) {
	if name := looseName(model); name.Truthy() {
		return false, lenient.Throws("the model's name is %s, which has no toLowerCase", name.Kind())
	}
	c := candidates(model)
	if !anyContains(c, "claude") {
		return opts.EnvValue("AWS_BEDROCK_FORCE_CACHE") == "1", nil
	}
	return anyContains(c, append([]string{"-4-", "claude-3-7-sonnet", "claude-3-5-haiku"}, cachingClaude5.At(opts.Dialect)...)...), nil
}

// supportsAdaptive tells the Claude models that think adaptively
// (adaptiveModels).
func supportsAdaptive(d dialect.Dialect, model *ai.Model) bool {
	return anyContains(candidates(model), adaptiveModels.At(d)...)
}

// cachePoint is the content block that marks a cache breakpoint.
func cachePoint(retention string) jsonv.Value {
	cp := new(jsonv.ObjectBuilder).SetString("type", "default")
	if retention == "long" {
		cp.SetString("ttl", "1h")
	}
	return new(jsonv.ObjectBuilder).Set("cachePoint", cp.Value()).Value()
}

func textBlock(text string) jsonv.Value {
	return new(jsonv.ObjectBuilder).SetString("text", text).Value()
}

// nonBlankText is a text block of the sanitized text, or Absent when that
// is blank.
func nonBlankText(text string) jsonv.Value {
	t := ai.SanitizeSurrogates(text)
	if stream.IsBlank(t) {
		return jsonv.Value{}
	}
	return textBlock(t)
}

// requiredText is nonBlankText, with the placeholder for blank text.
func requiredText(text string) jsonv.Value {
	if b := nonBlankText(text); !b.IsAbsent() {
		return b
	}
	return textBlock(EmptyTextPlaceholder)
}

// imageFormats maps the MIME types Pi knows to Converse image formats.
var imageFormats = map[string]string{"image/jpeg": "jpeg", "image/jpg": "jpeg", "image/png": "png", "image/gif": "gif", "image/webp": "webp"}

// imageBlock is {"image":{format, source:{bytes}}} for an image's mimeType
// and data as written. Only a string names a format (Pi's error writes any
// other value with String()); data is read by atob, which takes String()
// of it. The SDK sends the decoded bytes again as base64, so the data
// comes out canonical.
func imageBlock(mimeType, data jsonv.Value) (jsonv.Value, error) {
	format, ok := imageFormats[mimeType.Str()]
	if !ok || mimeType.Kind() != jsonv.String {
		return jsonv.Value{}, &stream.RequestError{Message: "Unknown image type: " + stream.ToString(mimeType)}
	}
	bytes, err := decodeBase64(stream.ToString(data))
	if err != nil {
		return jsonv.Value{}, &stream.RequestError{Message: err.Error()}
	}
	source := new(jsonv.ObjectBuilder).SetString("bytes", base64.StdEncoding.EncodeToString(bytes)).Value()
	image := new(jsonv.ObjectBuilder).SetString("format", format).Set("source", source).Value()
	return new(jsonv.ObjectBuilder).Set("image", image).Value(), nil
}

// decodeBase64 is Node's atob: ASCII whitespace is ignored, padding is
// optional, and the error says which way the text is wrong (a character
// out of place, or a length no base64 has).
func decodeBase64(s string) ([]byte, error) {
	var b strings.Builder
	count, equals := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r':
			continue
		case c == '=':
			equals++
			if equals > 2 {
				return nil, errBase64Character
			}
		case equals > 0 || !isBase64Char(c):
			// Only "=" may follow "=".
			return nil, errBase64Character
		default:
			b.WriteByte(c)
		}
		count++
	}
	rest := count % 4
	switch {
	case rest == 0:
		rest = (count - equals) % 4
	case equals > 0:
		return nil, errBase64Character
	}
	if rest == 1 {
		return nil, errBase64Length
	}
	return base64.RawStdEncoding.DecodeString(b.String())
}

func isBase64Char(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/'
}

// atob's errors.
var (
	errBase64Character = errors.New("Invalid character")
	errBase64Length    = errors.New("The string to be decoded is not correctly encoded.")
)

// contentBlock is a user or tool-result content element on the wire: an
// image when its type is "image"; else in user content a text block of a
// "text" element and nothing for any other, and in a tool result a text
// block of whatever element it is. Text is sanitized, so it must be a
// string; blank text is Absent.
func contentBlock(b ai.Block, user bool, where string) (jsonv.Value, error) {
	switch b := b.(type) {
	case *ai.TextBlock:
		return nonBlankText(b.Text), nil
	case *ai.ImageBlock:
		return imageBlock(jsonv.StringValue(b.MimeType), jsonv.StringValue(b.Data))
	}
	raw := b.JSON()
	if raw.Kind() == jsonv.Null {
		return jsonv.Value{}, lenient.Throws("%s holds null, whose type Pi reads", where)
	}
	switch typ := stream.Member(raw, "type"); {
	case typ.Kind() == jsonv.String && typ.Str() == "image":
		return imageBlock(stream.Member(raw, "mimeType"), stream.Member(raw, "data"))
	case user && (typ.Kind() != jsonv.String || typ.Str() != "text"):
		return jsonv.Value{}, nil
	}
	text := stream.Member(raw, "text")
	if text.Kind() != jsonv.String {
		return jsonv.Value{}, lenient.Throws("%s holds an element whose text is %s, not a string", where, text.Kind())
	}
	return nonBlankText(text.Str()), nil
}

// toolResultContent is Pi's convertToolResultContent: images, and every
// other element as the text it holds. Content that is not an array is
// iterated as it is: "" holds nothing, any other value throws.
func toolResultContent(m *ai.ToolResultMessage) ([]jsonv.Value, error) {
	if c := m.Loose.Value("content", ""); m.Loose.Has("content") && (c.Kind() != jsonv.String || c.Str() != "") {
		return nil, lenient.Throws("a tool result's content is %s, whose elements have no text", c.Kind())
	}
	return contentBlocks(m.Content, false, "a tool result's content")
}

func toolResult(m *ai.ToolResultMessage) (jsonv.Value, error) {
	content, err := toolResultContent(m)
	if err != nil {
		return jsonv.Value{}, err
	}
	status := "success"
	if m.IsError.Truthy() {
		status = "error"
	}
	tr := new(jsonv.ObjectBuilder).Set("toolUseId", sdkValue(m.Loose.Value("toolCallId", m.ToolCallID))).Set("content", jsonv.ArrayValue(content...)).SetString("status", status)
	return new(jsonv.ObjectBuilder).Set("toolResult", tr.Value()).Value(), nil
}

// wireMessage is a user message of the request while a later tool
// result may still join it or the cache point go on it.
type wireMessage struct {
	role    string
	content []jsonv.Value
	// trailer follows the content: the images of the error tool results
	// among it (errorImagesLast).
	trailer []jsonv.Value
}

func (m *wireMessage) json() jsonv.Value {
	return new(jsonv.ObjectBuilder).SetString("role", m.role).Set("content", jsonv.ArrayValue(append(m.content, m.trailer...)...)).Value()
}

// converter is Pi's convertMessages, fed one transformed message at a
// time: one Converse message per Pi message (placeholders for empty user
// content, empty assistant messages skipped), consecutive tool results in
// one user message, and the cache point on a trailing user message. It
// holds back only the last user message, which a later tool result may
// join or the cache point go on; an assistant message is handed over at
// once. Members of other types are read as Pi reads them
// (wire.bedrock.lenient); a transform.ErrThrows error is where Pi throws.
type converter struct {
	d     dialect.Dialect
	model *ai.Model
	body  provider.BodySink
	held  *wireMessage
	inRun bool // the message before was a tool result
}

// convertMessages hands the body the Converse messages of msgs,
// transformed for model.
func convertMessages(msgs provider.Transcript, model *ai.Model, opts Options, retention string, now transform.Clock, body provider.BodySink) error {
	c := &converter{d: opts.Dialect, model: model, body: body}
	steps := provider.Steps{Dialect: opts.Dialect, Checks: []func(ai.Message, int) error{provider.TransformCheck(opts.Dialect, model, transform.NotAString)},
		Normalize: NormalizeToolCallID, Convert: c.convert, Close: func() error { return c.close(opts, retention) }}
	return steps.Run(msgs, model, now)
}

func (c *converter) convert(m ai.Message) error {
	_, isResult := m.(*ai.ToolResultMessage)
	joins := isResult && c.inRun
	c.inRun = isResult
	switch m := m.(type) {
	case *ai.UserMessage:
		content, err := userContent(m)
		if err != nil {
			return err
		}
		c.hold(&wireMessage{role: "user", content: content})
	case *ai.AssistantMessage:
		content, err := assistantContent(c.d, m, c.model)
		if err != nil || len(content) == 0 {
			return err
		}
		c.hold(nil)
		c.body.Element((&wireMessage{role: "assistant", content: content}).json())
	case *ai.ToolResultMessage:
		split, isSplit := provider.ErrorImages{}, false
		if errorImagesLast.At(c.d) {
			claude, err := isClaude(c.model)
			if err != nil {
				return err
			}
			if claude {
				split, isSplit = provider.SplitErrorImages(m)
			}
		}
		if isSplit {
			m = &ai.ToolResultMessage{ToolCallID: m.ToolCallID, ToolName: m.ToolName, Content: split.Content, IsError: m.IsError, Loose: m.Loose}
		}
		r, err := toolResult(m)
		if err != nil {
			return err
		}
		if !joins {
			c.hold(&wireMessage{role: "user"})
		}
		c.held.content = append(c.held.content, r)
		if isSplit {
			c.held.trailer = append(c.held.trailer, textBlock(split.Caption))
			for _, img := range split.Images {
				v, err := contentBlock(img, false, "a tool result's content")
				if err != nil {
					return err
				}
				c.held.trailer = append(c.held.trailer, v)
			}
		}
	}
	return nil
}

// hold hands the body the message held so far and holds wm.
func (c *converter) hold(wm *wireMessage) {
	if c.held != nil {
		c.body.Element(c.held.json())
	}
	c.held = wm
}

// close puts the cache point on the last message if it is a user's and
// the model caches, and hands it over. Pi asks whether the model caches
// after converting every message, even when there are none.
func (c *converter) close(opts Options, retention string) error {
	if retention != "none" {
		caching, err := supportsCaching(c.model, opts)
		if err != nil {
			return err
		}
		if caching && c.held != nil {
			c.held.trailer = append(c.held.trailer, cachePoint(retention))
		}
	}
	c.hold(nil)
	return nil
}

// userContent is a user message's Converse content: the placeholder when
// nothing is left. Content that is neither a string nor an array cannot
// be iterated: Pi throws.
func userContent(m *ai.UserMessage) ([]jsonv.Value, error) {
	switch {
	case m.Content.Verbatim:
		return nil, lenient.Throws("a user message's content is %s, neither a string nor an array", m.Content.Raw.Kind())
	case m.Content.IsString:
		return []jsonv.Value{requiredText(m.Content.Text)}, nil
	}
	return contentBlocks(m.Content.Blocks, true, "user content")
}

// contentBlocks converts user or tool-result blocks (contentBlock), the
// placeholder text standing in for none.
func contentBlocks(blocks []ai.Block, user bool, where string) ([]jsonv.Value, error) {
	var out []jsonv.Value
	for _, b := range blocks {
		v, err := contentBlock(b, user, where)
		if err != nil {
			return nil, err
		}
		if !v.IsAbsent() {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		out = append(out, textBlock(EmptyTextPlaceholder))
	}
	return out, nil
}

// assistantContent is an assistant message's Converse content. Text and
// thinking are sanitized, so each must be a string, and a truthy
// signature of another type cannot be trimmed; a tool call's id, name and
// arguments go to the SDK as they are. Other blocks are left out.
func assistantContent(d dialect.Dialect, m *ai.AssistantMessage, model *ai.Model) ([]jsonv.Value, error) {
	var content []jsonv.Value
	for _, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextBlock:
			if t := nonBlankText(b.Text); !t.IsAbsent() {
				content = append(content, t)
			}
		case *ai.ForeignBlock:
			if b.Raw.Kind() == jsonv.Null {
				return nil, lenient.Throws("assistant content holds null, whose type Pi reads")
			}
			if b.Type() != "text" {
				continue
			}
			text, ok := b.Text()
			if !ok {
				return nil, lenient.Throws("assistant content holds a text block whose text is %s, not a string", stream.Member(b.Raw, "text").Kind())
			}
			if t := nonBlankText(text); !t.IsAbsent() {
				content = append(content, t)
			}
		case *ai.ToolCallBlock:
			input := b.Arguments
			if dropsEmptyKeys.At(d) {
				input = withoutEmptyKeys(input)
			}
			tu := new(jsonv.ObjectBuilder).Set("toolUseId", sdkValue(b.Loose.Value("id", b.ID))).Set("name", sdkValue(b.Loose.Value("name", b.Name))).Set("input", sdkDocument(input))
			content = append(content, new(jsonv.ObjectBuilder).Set("toolUse", tu.Value()).Value())
		case *ai.ThinkingBlock:
			if b.IsRedacted() && replaysRedacted.At(d) {
				// The stored payload goes back as it came, as bytes; one
				// that is not base64 is dropped. atob reads a truthy
				// payload of another type by its string form (true is
				// "true", valid base64), and one without a string form
				// throws inside the same catch: dropped too.
				sig := b.Loose.Value("thinkingSignature", "")
				switch {
				case b.Loose.Has("thinkingSignature") && (!sig.Truthy() || sig.ConversionThrows()):
					continue
				case b.Loose.Has("thinkingSignature"):
				case b.ThinkingSignature == nil || *b.ThinkingSignature == "":
					continue
				default:
					sig = jsonv.StringValue(*b.ThinkingSignature)
				}
				bytes, err := decodeBase64(sig.JSString())
				if err != nil || len(bytes) == 0 {
					continue
				}
				rc := new(jsonv.ObjectBuilder).SetString("redactedContent", base64.StdEncoding.EncodeToString(bytes)).Value()
				content = append(content, new(jsonv.ObjectBuilder).Set("reasoningContent", rc).Value())
				continue
			}
			if b.Loose.Has("thinking") {
				return nil, lenient.Throws("a thinking block's thinking is %s, not a string", b.Loose.Value("thinking", "").Kind())
			}
			thinking := ai.SanitizeSurrogates(b.Thinking)
			if stream.IsBlank(thinking) {
				continue
			}
			rt := new(jsonv.ObjectBuilder).SetString("text", thinking)
			claude, err := isClaude(model)
			if err != nil {
				return nil, err
			}
			if claude {
				if sig := b.Loose.Value("thinkingSignature", ""); sig.Truthy() {
					return nil, lenient.Throws("a thinking block's thinkingSignature is %s, which has no trim", sig.Kind())
				}
				if b.ThinkingSignature == nil || stream.IsBlank(*b.ThinkingSignature) {
					content = append(content, textBlock(thinking))
					continue
				}
				rt.SetString("signature", *b.ThinkingSignature)
			}
			rc := new(jsonv.ObjectBuilder).Set("reasoningText", rt.Value()).Value()
			content = append(content, new(jsonv.ObjectBuilder).Set("reasoningContent", rc).Value())
		}
	}
	return content, nil
}

// sdkValue is a value Pi hands the SDK for a string member (an id, a name,
// a description, a requestMetadata value): the SDK's serializer leaves out
// null, writes a number as sdkNumber does, and an object or array with
// JSON.stringify (an infinity inside it is null).
func sdkValue(v jsonv.Value) jsonv.Value {
	if k := v.Kind(); k == jsonv.Array || k == jsonv.Object {
		return stream.JSValue(v)
	}
	return sdkNumber(v)
}

// sdkDocument is a value Pi hands the SDK for a document (tool arguments,
// a tool's schema): the SDK's serializer leaves out null, and writes any
// other value as it is, but for a number JavaScript reads as an infinity
// (1e400), which it writes, at any depth, as the string "Infinity" or
// "-Infinity" where JSON.stringify would write null.
func sdkDocument(v jsonv.Value) jsonv.Value {
	return stream.JSValue(v.NullAsAbsent()).ReplaceNonFinite(sdkNonFinite)
}

// effort is Pi's mapThinkingLevelToEffort on Bedrock: the models that
// have xhigh keep it (nativeXhighModels), the others map the level as
// anthropic-messages does.
func effort(d dialect.Dialect, model *ai.Model, reasoning jsonv.Value) string {
	if reasoning.Kind() == jsonv.String && reasoning.Str() == "xhigh" && anyContains(candidates(model), nativeXhighModels.At(d)...) {
		return "xhigh"
	}
	return provider.AdaptiveEffort(model, reasoning)
}

// additionalFields is Pi's buildAdditionalModelRequestFields.
func additionalFields(model *ai.Model, opts Options) (jsonv.Value, error) {
	if !opts.Reasoning.Truthy() || !model.Reasoning {
		return jsonv.Value{}, nil
	}
	d := opts.Dialect
	if claude, err := isClaude(model); err != nil || !claude {
		if err == nil && reasonsForGPT.At(d) {
			return gptFields(model, opts.Reasoning), nil
		}
		return jsonv.Value{}, err
	}
	if opts.Region.Truthy() && opts.Region.Kind() != jsonv.String {
		// Pi lower-cases the region to tell GovCloud.
		return jsonv.Value{}, lenient.Throws("the region is %s, which has no toLowerCase", opts.Region.Kind())
	}
	configured, _ := opts.configuredRegion()
	gov := strings.HasPrefix(strings.ToLower(configured), "us-gov-")
	id := strings.ToLower(model.ID)
	gov = gov || strings.HasPrefix(id, "us-gov.") || strings.HasPrefix(id, "arn:aws-us-gov:")
	display := jsonv.Value{}
	if !gov {
		display = stream.JSValue(opts.ThinkingDisplay)
		if display.IsNullish() {
			display = jsonv.StringValue("summarized")
		}
	}
	thinking := new(jsonv.ObjectBuilder)
	out := new(jsonv.ObjectBuilder)
	if supportsAdaptive(d, model) {
		binding := !gov && anyContains(candidates(model), blockBindingModels.At(d)...)
		thinking.SetString("type", "adaptive").Set("display", display)
		if binding {
			thinking.Set("block_binding", new(jsonv.ObjectBuilder).SetString("prefix_mismatch_behavior", "drop_block").Value())
		}
		out.Set("thinking", thinking.Value())
		out.Set("output_config", new(jsonv.ObjectBuilder).SetString("effort", effort(d, model, opts.Reasoning)).Value())
		if binding {
			out.Set("anthropic_beta", jsonv.ArrayValue(jsonv.StringValue(ThinkingBindingBeta)))
		}
		return out.Value(), nil
	}
	// Pi looks the level up as a property key, which is its String().
	level := stream.ToString(opts.Reasoning)
	budgetLevel := level
	if opts.Reasoning.Kind() == jsonv.String && slices.Contains(highBudgetLevels.At(d), budgetLevel) {
		budgetLevel = "high"
	}
	budget, ok := opts.ThinkingBudgets.Get(budgetLevel)
	if !ok || budget.Kind() == jsonv.Null {
		// A level without a default budget ("off") sends no budget_tokens.
		budget = jsonv.Value{}
		if b, ok := defaultBudgets.At(d)[level]; ok {
			budget = jsonv.NumberValue(b)
		}
	}
	thinking.SetString("type", "enabled").Set("budget_tokens", stream.JSValue(budget)).Set("display", display)
	out.Set("thinking", thinking.Value())
	if anthropic.TruthyOr(opts.InterleavedThinking, true) {
		out.Set("anthropic_beta", jsonv.ArrayValue(jsonv.StringValue(InterleavedThinkingBeta)))
	}
	return out.Value(), nil
}

// toolConfig is Pi's convertToolConfig, Absent without tools or with
// toolChoice "none", which it tests before it maps the tools: then tools
// it could not map are never refused.
func toolConfig(d dialect.Dialect, ctx *ai.Context, choice jsonv.Value, strict bool) (jsonv.Value, error) {
	if choice.Kind() == jsonv.String && choice.Str() == "none" {
		return jsonv.Value{}, nil
	}
	tools, err := ctx.MappedTools()
	if err != nil || len(tools) == 0 {
		return jsonv.Value{}, err
	}
	specs := make([]jsonv.Value, len(tools))
	for i, t := range tools {
		if readsSampling.At(d) {
			if err := provider.JSONSchemaSampling(t, strict); err != nil {
				return jsonv.Value{}, err
			}
		}
		schema := new(jsonv.ObjectBuilder).Set("json", sdkDocument(t.Parameters)).Value()
		// The SDK's serializer writes the members in its schema's order,
		// each as it is (input.lenient) but null.
		spec := new(jsonv.ObjectBuilder).Set("name", sdkValue(t.NameValue())).Set("inputSchema", schema).Set("description", sdkValue(t.DescriptionValue()))
		specs[i] = new(jsonv.ObjectBuilder).Set("toolSpec", spec.Value()).Value()
	}
	tc := new(jsonv.ObjectBuilder).Set("tools", jsonv.ArrayValue(specs...))
	switch {
	case choice.Kind() == jsonv.String && (choice.Str() == "auto" || choice.Str() == "any"):
		tc.Set("toolChoice", new(jsonv.ObjectBuilder).Set(choice.Str(), jsonv.ObjectValue()).Value())
	case choice.Kind() == jsonv.Object:
		if typ, _ := choice.Get("type"); typ.Kind() == jsonv.String && typ.Str() == "tool" {
			name, _ := choice.Get("name")
			tool := new(jsonv.ObjectBuilder).Set("name", sdkValue(name)).Value()
			tc.Set("toolChoice", new(jsonv.ObjectBuilder).Set("tool", tool).Value())
		}
	}
	return tc.Value(), nil
}

// buildBody hands body the wire body: the SDK serializes Pi's command
// input without modelId (it goes in the path). messages is its first
// member, so no member waits on the transcript.
func buildBody(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, now transform.Clock, body provider.BodySink) error {
	retention := opts.Retention()
	// Pi settles maxTokens first, and asks whether the model is Claude
	// only when the caller gave none.
	maxTokens := opts.MaxTokens // Pi reads it with ??
	if maxTokens.IsNullish() {
		maxTokens = jsonv.Value{}
		claude, err := isClaude(model)
		if err != nil {
			return err
		}
		if claude {
			maxTokens = model.MaxTokens
		}
	}
	body.Begin(nil, "messages")
	if err := convertMessages(msgs, model, opts, retention, now, body); err != nil {
		return err
	}
	b := new(jsonv.ObjectBuilder)
	systemText, err := ctx.SystemText()
	if err != nil {
		return err
	}
	if systemText != "" {
		system := []jsonv.Value{textBlock(ai.SanitizeSurrogates(systemText))}
		if retention != "none" {
			caching, err := supportsCaching(model, opts)
			if err != nil {
				return err
			}
			if caching {
				system = append(system, cachePoint(retention))
			}
		}
		b.Set("system", jsonv.ArrayValue(system...))
	}
	inference := new(jsonv.ObjectBuilder)
	inference.Set("maxTokens", sdkNumber(maxTokens)).Set("temperature", sdkNumber(opts.Temperature))
	b.Set("inferenceConfig", inference.Value())
	tools, err := toolConfig(opts.Dialect, ctx, opts.ToolChoice, provider.CompatOf(model).Truthy("supportsStrictMode", false))
	if err != nil {
		return err
	}
	b.Set("toolConfig", tools)
	fields, err := additionalFields(model, opts)
	if err != nil {
		return err
	}
	// A document: the SDK writes NaN and the infinities in it as strings.
	b.Set("additionalModelRequestFields", sdkDocument(fields))
	b.Set("requestMetadata", requestMetadata(opts.RequestMetadata))
	body.End(b.Members())
	return nil
}

// requestMetadata is the SDK's serialization of options.requestMetadata,
// a map of strings that Pi hands over whatever it is: null is left out,
// as is a member that is null; any other value is written as it is.
func requestMetadata(v jsonv.Value) jsonv.Value {
	if v.Kind() != jsonv.Object {
		return sdkValue(v)
	}
	b := new(jsonv.ObjectBuilder)
	for _, m := range v.Members() {
		b.Set(m.Key, sdkValue(m.Value))
	}
	return b.Value()
}

// sdkNumber is the SDK's serialization of a number member: null is left
// out, and NaN and the infinities (which Pi computes from values of other
// types) are written as the strings "NaN", "Infinity" and "-Infinity".
func sdkNumber(v jsonv.Value) jsonv.Value {
	v = stream.JSValue(v.NullAsAbsent())
	if v.Kind() == jsonv.Number {
		return v.ReplaceNonFinite(sdkNonFinite)
	}
	return v
}

// sdkNonFinite is how the SDK's serializer writes NaN and the infinities:
// as strings.
func sdkNonFinite(n jsonv.Value) jsonv.Value { return jsonv.StringValue(n.JSString()) }

// withoutEmptyKeys is Pi 1.6's sanitizeBedrockDocument of tool-call
// arguments: members named "" are dropped, at any depth.
func withoutEmptyKeys(v jsonv.Value) jsonv.Value {
	switch v.Kind() {
	case jsonv.Array:
		out := make([]jsonv.Value, len(v.Elems()))
		for i, e := range v.Elems() {
			out[i] = withoutEmptyKeys(e)
		}
		return jsonv.ArrayValue(out...)
	case jsonv.Object:
		var out []jsonv.Member
		for _, m := range v.Members() {
			if m.Key != "" {
				out = append(out, jsonv.Member{Key: m.Key, Value: withoutEmptyKeys(m.Value)})
			}
		}
		return jsonv.ObjectValue(out...)
	}
	return v
}
