package anthropic

import (
	"strings"
	"unicode"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/internal/lenient"
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

// wireMessage is one message of the request while it is being built: a
// later tool result may still join it, or cache_control go on it.
type wireMessage struct {
	role   string
	text   *string
	blocks []*jsonv.ObjectBuilder
	// trailer follows the blocks: the images of the error tool results
	// among them (errorImagesLast).
	trailer []*jsonv.ObjectBuilder
	// effort, when set, is an effort marker's output_config.effort.
	effort jsonv.Value
}

// effortMarker is a system message of no content that sets the effort of
// the reply after it (managed effort, Pi 1.6).
func effortMarker(level jsonv.Value) *wireMessage {
	return &wireMessage{role: ai.RoleSystem, blocks: []*jsonv.ObjectBuilder{}, effort: level}
}

func (m *wireMessage) json() jsonv.Value {
	var content jsonv.Value
	if m.text != nil {
		content = jsonv.StringValue(*m.text)
	} else {
		bs := make([]jsonv.Value, 0, len(m.blocks)+len(m.trailer))
		for _, b := range append(m.blocks, m.trailer...) {
			bs = append(bs, b.Value())
		}
		content = jsonv.ArrayValue(bs...)
	}
	o := new(jsonv.ObjectBuilder).SetString("role", m.role).Set("content", content)
	if !m.effort.IsAbsent() {
		o.Set("output_config", new(jsonv.ObjectBuilder).Set("effort", stream.JSValue(m.effort)).Value())
	}
	return o.Value()
}

func block(typ string) *jsonv.ObjectBuilder { return new(jsonv.ObjectBuilder).SetString("type", typ) }

// converter is Pi's convertMessages, fed one transformed message at a time:
// one wire message per Pi message, with consecutive tool results in one
// user message, blank text left out, and the cache breakpoint on the last
// message if it is a user's. It holds back the last wire message, the only
// one a later message can change. Members of other types are read as Pi
// reads them (wire.anthropic-messages.lenient); a transform.ErrThrows error
// is where Pi throws.
type converter struct {
	d                          dialect.Dialect
	oauth, allowEmptySignature bool
	body                       provider.BodySink
	held                       *wireMessage
	inRun                      bool // the message before was a tool result
	// pendingSystem are the system messages kept mid-conversation (Pi
	// 1.6) that wait for the next assistant message that is sent.
	pendingSystem []*wireMessage
	// markers, when set, are the effort markers of managed effort (Pi 1.6).
	markers *effortMarkers
}

// convertMessages hands the body the wire messages of msgs, transformed
// for model.
func convertMessages(d dialect.Dialect, msgs provider.Transcript, model *ai.Model, oauth bool, cc jsonv.Value, allowEmptySignature bool, markers *effortMarkers, now transform.Clock, body provider.BodySink) error {
	c := &converter{d: d, oauth: oauth, allowEmptySignature: allowEmptySignature, markers: markers, body: body}
	steps := provider.Steps{Dialect: d, Checks: []func(ai.Message, int) error{provider.TransformCheck(d, model, transform.NotAString)},
		Normalize: NormalizeToolCallID, Convert: c.convert, Close: func() error { return c.close(cc) }}
	return steps.Run(msgs, model, now)
}

func (c *converter) convert(m ai.Message) error {
	tr, isResult := m.(*ai.ToolResultMessage)
	joins := isResult && c.inRun
	c.inRun = isResult
	if isResult {
		split, isSplit := provider.ErrorImages{}, false
		if errorImagesLast.At(c.d) {
			split, isSplit = provider.SplitErrorImages(tr)
		}
		if isSplit {
			tr = &ai.ToolResultMessage{ToolCallID: tr.ToolCallID, ToolName: tr.ToolName, Content: split.Content, IsError: tr.IsError, Loose: tr.Loose}
		}
		content, err := toolResultContent(tr)
		if err != nil {
			return err
		}
		b := block("tool_result").Set("tool_use_id", tr.Loose.Value("toolCallId", tr.ToolCallID)).Set("content", content).Set("is_error", tr.IsError)
		if !joins {
			c.hold(&wireMessage{role: "user"})
		}
		c.held.blocks = append(c.held.blocks, b)
		if isSplit {
			c.held.trailer = append(c.held.trailer, block("text").SetString("text", split.Caption))
			for _, img := range split.Images {
				wb, err := contentBlock(img, "tool-result content")
				if err != nil {
					return err
				}
				c.held.trailer = append(c.held.trailer, wb)
			}
		}
		return nil
	}
	var wm *wireMessage
	var err error
	switch m := m.(type) {
	case *ai.UserMessage:
		wm, err = convertUser(m)
	case *ai.AssistantMessage:
		wm, err = convertAssistant(c.d, m, c.oauth, c.allowEmptySignature)
		if wm != nil {
			c.flushSystem()
			if level, ok := c.markers.replayed(m); ok {
				c.hold(effortMarker(level))
			}
		}
	case *ai.SystemMessage:
		// Kept only for a model that takes it where it stands: held back
		// until the next assistant message that is sent, or the end.
		text, err := provider.SystemMessageUpdate(m, "/context/messages")
		if err != nil {
			return transform.Throws("/context/messages", "%v", err)
		}
		if text != "" {
			t := ai.SanitizeSurrogates(text)
			c.pendingSystem = append(c.pendingSystem, &wireMessage{role: ai.RoleSystem, blocks: []*jsonv.ObjectBuilder{block("text").SetString("text", t)}})
		}
		return nil
	}
	if err != nil || wm == nil {
		return err
	}
	c.hold(wm)
	return nil
}

// flushSystem hands on the system messages held back, in order.
func (c *converter) flushSystem() {
	for _, wm := range c.pendingSystem {
		c.hold(wm)
	}
	c.pendingSystem = nil
}

// hold hands the body the message held so far and holds wm.
func (c *converter) hold(wm *wireMessage) {
	if c.held != nil {
		c.body.Element(c.held.json())
	}
	c.held = wm
}

// close puts the cache breakpoint cc (unless Absent) on the last message
// if it is a user's (or, in 1.6, a system message's), and hands it over,
// followed by the final effort marker of managed effort.
func (c *converter) close(cc jsonv.Value) error {
	c.flushSystem()
	last := c.held
	if last == nil && c.markers == nil {
		return nil
	}
	if last == nil {
		c.body.Element(effortMarker(c.markers.active).json())
		return nil
	}
	if !cc.IsAbsent() && (last.role == "user" || last.role == ai.RoleSystem) {
		switch {
		case last.text != nil:
			last.blocks = []*jsonv.ObjectBuilder{block("text").SetString("text", *last.text)}
			last.text = nil
			last.blocks[0].Set("cache_control", cc)
		case len(last.trailer) > 0:
			last.trailer[len(last.trailer)-1].Set("cache_control", cc)
		case len(last.blocks) > 0:
			last.blocks[len(last.blocks)-1].Set("cache_control", cc)
		}
	}
	c.body.Element(last.json())
	if c.markers != nil {
		// The marker of the effort asked for now comes after the
		// breakpoint's message.
		c.body.Element(effortMarker(c.markers.active).json())
	}
	return nil
}

// convertUser turns one user message into a wire message, or nil when
// nothing but blank text is left. Content that is neither a string nor an
// array has no map: Pi throws.
func convertUser(m *ai.UserMessage) (*wireMessage, error) {
	switch {
	case m.Content.Verbatim:
		return nil, lenient.Throws("a user message's content is %s, neither a string nor an array", m.Content.Raw.Kind())
	case m.Content.IsString:
		if stream.IsBlank(m.Content.Text) {
			return nil, nil
		}
		text := ai.SanitizeSurrogates(m.Content.Text)
		return &wireMessage{role: "user", text: &text}, nil
	}
	var blocks []*jsonv.ObjectBuilder
	for _, b := range m.Content.Blocks {
		wb, err := contentBlock(b, "user content")
		if err != nil {
			return nil, err
		}
		if text, ok := wb.Value().Get("text"); !ok || !stream.IsBlank(text.Str()) {
			blocks = append(blocks, wb)
		}
	}
	if len(blocks) == 0 {
		return nil, nil
	}
	return &wireMessage{role: "user", blocks: blocks}, nil
}

// contentBlock is a user or tool-result content element on the wire: a
// text block (its text sanitized, so it must be a string), or else an image
// whose media_type and data are the element's mimeType and data as they
// are (none for an element that is not an object).
func contentBlock(b ai.Block, where string) (*jsonv.ObjectBuilder, error) {
	switch b := b.(type) {
	case *ai.TextBlock:
		return block("text").SetString("text", ai.SanitizeSurrogates(b.Text)), nil
	case *ai.ImageBlock:
		return imageBlock(jsonv.StringValue(b.MimeType), jsonv.StringValue(b.Data)), nil
	}
	raw := b.JSON()
	switch typ := stream.Member(raw, "type"); {
	case raw.Kind() == jsonv.Null:
		return nil, lenient.Throws("%s holds null, whose type Pi reads", where)
	case typ.Kind() == jsonv.String && typ.Str() == "text":
		text, err := textOf(raw, where)
		if err != nil {
			return nil, err
		}
		return block("text").SetString("text", ai.SanitizeSurrogates(text)), nil
	}
	return imageBlock(stream.Member(raw, "mimeType"), stream.Member(raw, "data")), nil
}

func imageBlock(mimeType, data jsonv.Value) *jsonv.ObjectBuilder {
	source := block("base64").Set("media_type", stream.JSValue(mimeType)).Set("data", stream.JSValue(data))
	return block("image").Set("source", source.Value())
}

// convertAssistant turns one assistant message into wire blocks, or nil
// when nothing is left. Text and thinking are sanitized, so Pi throws when
// either is not a string; tool-call ids, names (unless OAuth renames them)
// and arguments, signatures and redacted payloads are sent as they are.
// Blocks of other types, and images, are left out.
func convertAssistant(d dialect.Dialect, m *ai.AssistantMessage, oauth, allowEmptySignature bool) (*wireMessage, error) {
	var blocks []*jsonv.ObjectBuilder
	for _, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextBlock:
			if stream.IsBlank(b.Text) {
				continue
			}
			blocks = append(blocks, block("text").SetString("text", ai.SanitizeSurrogates(b.Text)))
		case *ai.ForeignBlock:
			if b.Raw.Kind() == jsonv.Null {
				return nil, lenient.Throws("assistant content holds null, whose type Pi reads")
			}
			if b.Type() != "text" {
				continue
			}
			text, err := textOf(b.Raw, "assistant content")
			if err != nil {
				return nil, err
			}
			if !stream.IsBlank(text) {
				blocks = append(blocks, block("text").SetString("text", ai.SanitizeSurrogates(text)))
			}
		case *ai.ThinkingBlock:
			tb, err := thinkingBlock(d, b, allowEmptySignature)
			if err != nil {
				return nil, err
			}
			if tb != nil {
				blocks = append(blocks, tb)
			}
		case *ai.ToolCallBlock:
			name := b.Loose.Value("name", b.Name)
			if oauth {
				if b.Loose.Has("name") {
					return nil, lenient.Throws("a tool call's name is %s, which has no toLowerCase", name.Kind())
				}
				name = jsonv.StringValue(toClaudeCodeName(b.Name))
			}
			input := b.Arguments
			if input.IsNullish() {
				input = jsonv.ObjectValue()
			}
			blocks = append(blocks, block("tool_use").Set("id", stream.JSValue(b.Loose.Value("id", b.ID))).Set("name", stream.JSValue(name)).Set("input", stream.JSValue(input)))
		}
	}
	if len(blocks) == 0 {
		return nil, nil
	}
	return &wireMessage{role: "assistant", blocks: blocks}, nil
}

// thinkingBlock is one thinking block on the wire, or nil when it is
// blank (and, where signedBlankThinking holds, unsigned). Redacted thinking sends its signature, whatever it is, as data;
// thinking that is not a string cannot be trimmed, nor can a truthy
// signature that is not one.
func thinkingBlock(d dialect.Dialect, b *ai.ThinkingBlock, allowEmptySignature bool) (*jsonv.ObjectBuilder, error) {
	if b.IsRedacted() {
		return block("redacted_thinking").Set("data", stream.JSValue(signatureValue(b))), nil
	}
	if !signedBlankThinking.At(d) {
		if b.Loose.Has("thinking") {
			return nil, lenient.Throws("a thinking block's thinking is %s, which has no trim", b.Loose.Value("thinking", "").Kind())
		}
		if stream.IsBlank(b.Thinking) {
			return nil, nil
		}
	}
	if sig := b.Loose.Value("thinkingSignature", ""); sig.Truthy() {
		return nil, lenient.Throws("a thinking block's thinkingSignature is %s, which has no trim", sig.Kind())
	}
	signed := b.ThinkingSignature != nil && !stream.IsBlank(*b.ThinkingSignature)
	if signedBlankThinking.At(d) {
		if b.Loose.Has("thinking") {
			return nil, lenient.Throws("a thinking block's thinking is %s, which has no trim", b.Loose.Value("thinking", "").Kind())
		}
		if stream.IsBlank(b.Thinking) && !signed {
			return nil, nil
		}
	}
	thinking := ai.SanitizeSurrogates(b.Thinking)
	switch {
	case signed:
		return block("thinking").SetString("thinking", thinking).SetString("signature", *b.ThinkingSignature), nil
	case allowEmptySignature:
		return block("thinking").SetString("thinking", thinking).SetString("signature", ""), nil
	}
	// A thinking block without a signature (an aborted stream) cannot be
	// replayed as thinking; Pi keeps its text.
	return block("text").SetString("text", thinking), nil
}

// toolResultContent is Pi's convertContentBlocks: without images, every
// element's text joined with newlines into one string (String() of a text
// that is not a string, nothing for none); with images, each element a
// block as in user content, led by provider.SeeAttachedImageText when none
// is text. Content that is not an array, or holds null, throws.
func toolResultContent(m *ai.ToolResultMessage) (jsonv.Value, error) {
	if m.Loose.Has("content") {
		return jsonv.Value{}, lenient.Throws("a tool result's content is %s, not an array", m.Loose.Value("content", "").Kind())
	}
	hasImage := false
	for _, b := range m.Content {
		if lenient.IsNull(b) {
			return jsonv.Value{}, lenient.Throws("a tool result's content holds null, whose type Pi reads")
		}
		if b.BlockType() == "image" || isForeignType(b, "image") {
			hasImage = true
		}
	}
	if !hasImage {
		texts := make([]string, 0, len(m.Content))
		for _, b := range m.Content {
			switch b := b.(type) {
			case *ai.TextBlock:
				texts = append(texts, b.Text)
			default:
				texts = append(texts, stream.ToJoinString(stream.Member(b.JSON(), "text")))
			}
		}
		return jsonv.StringValue(ai.SanitizeSurrogates(wtf8.Concat(strings.Join(texts, "\n")))), nil
	}
	var blocks []jsonv.Value
	hasText := false
	for _, b := range m.Content {
		wb, err := contentBlock(b, "tool-result content")
		if err != nil {
			return jsonv.Value{}, err
		}
		v := wb.Value()
		if typ, _ := v.Get("type"); typ.Str() == "text" {
			hasText = true
		}
		blocks = append(blocks, v)
	}
	if !hasText {
		blocks = append([]jsonv.Value{block("text").SetString("text", provider.SeeAttachedImageText).Value()}, blocks...)
	}
	return jsonv.ArrayValue(blocks...), nil
}

func isForeignType(b ai.Block, typ string) bool {
	f, ok := b.(*ai.ForeignBlock)
	return ok && f.Type() == typ
}
