// Package transform is pi-ai's last step before a provider adapter turns a
// conversation into a request: it rewrites a []ai.Message for one target
// model (transformMessages in Pi).
//
// Messages runs three passes, in this order:
//
//  1. Image downgrade. When the model does not list "image" among its
//     inputs, every image in user array content and in tool results becomes a
//     text placeholder, and a run of images becomes a single placeholder.
//  2. Per-message rewrite. Assistant messages made by another model lose what
//     only their own model can read (signatures, redacted thinking), their
//     thinking becomes text, and their tool-call ids go through the
//     normalizer. Tool results that come after a renamed call take the new id.
//  3. Repair. Assistants that ended in error or were aborted are dropped, and
//     every tool call left without a result gets a synthetic error result.
//
// The input is never modified. Messages and blocks that change are copied;
// the ones that do not are shared between input and output, so callers must
// treat messages and blocks as immutable once built.
//
// Pi 1.6 changed three things, each a member of rules (rulesOf, in
// dialects.go): absent or null content becomes [] before the passes (FillContent,
// on the messages as written), thinking of another model is dropped instead
// of becoming text, and a system message that comes while tool calls wait
// for results is held until their turn is closed.
package transform

import (
	"strconv"
	"time"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// Placeholder texts that stand for images a model cannot read.
const (
	// UserImagePlaceholder replaces images in user messages.
	UserImagePlaceholder = "(image omitted: model does not support images)"
	// ToolImagePlaceholder replaces images in tool results.
	ToolImagePlaceholder = "(tool image omitted: model does not support images)"
)

// NoResultText is the text of a synthetic tool result.
const NoResultText = "No result provided"

// IDNormalizer maps a tool-call id for the target model; source is the
// assistant message the call came from.
type IDNormalizer func(id string, model *ai.Model, source *ai.AssistantMessage) string

// Clock returns the current time in Unix milliseconds as a JSON number.
// Synthetic tool results carry it as their timestamp.
type Clock func() jsonv.Value

// SystemClock reads the real clock.
func SystemClock() jsonv.Value {
	return jsonv.NumberValue(strconv.FormatInt(time.Now().UnixMilli(), 10))
}

// Messages rewrites msgs for model. normalize may be nil, in which case tool
// call ids are kept; now may be nil, in which case the system clock is used.
// The result is always a new slice.
//
// Messages of a role outside the three (such as *ai.ForeignMessage) pass
// through every pass untouched and do not end a tool-call turn.
func Messages(msgs []ai.Message, model *ai.Model, normalize IDNormalizer, now Clock) []ai.Message {
	return MessagesIn(dialect.V0_80, msgs, model, normalize, now)
}

// MessagesIn is Messages as Pi of dialect d does it. For 1.6 the messages
// must have been read from what FillContent made of them.
func MessagesIn(d dialect.Dialect, msgs []ai.Message, model *ai.Model, normalize IDNormalizer, now Clock) []ai.Message {
	out := make([]ai.Message, 0, len(msgs))
	s := NewStreamIn(d, model, normalize, now, func(m ai.Message) { out = append(out, m) })
	for _, m := range msgs {
		s.Push(m)
	}
	s.Close()
	return out
}

// Stream is Messages for a transcript that arrives one message at a time,
// so that a caller need not hold all of it. Each pass of Messages looks
// only at the messages before the one it rewrites, so the three passes run
// message by message and give the same output in the same order: Push
// hands emit the message's rewrite at once, preceded by the synthetic
// results of the tool calls it ends; Close hands over the ones the last
// turn left without results.
type Stream struct {
	model     *ai.Model
	normalize IDNormalizer
	now       Clock
	emit      func(ai.Message)
	images    bool
	ids       map[string]string // pass 2: renamed call ids
	pending   []*ai.ToolCallBlock
	seen      map[sameValue]bool // pass 3: results of the pending calls
	held      []ai.Message       // pass 3: system messages waiting for the pending calls' results
	rules     rules
}

// NewStream starts a Stream of 0.80 whose output goes to emit; normalize
// and now are as in Messages.
func NewStream(model *ai.Model, normalize IDNormalizer, now Clock, emit func(ai.Message)) *Stream {
	return NewStreamIn(dialect.V0_80, model, normalize, now, emit)
}

// NewStreamIn is NewStream as Pi of dialect d does it.
func NewStreamIn(d dialect.Dialect, model *ai.Model, normalize IDNormalizer, now Clock, emit func(ai.Message)) *Stream {
	if now == nil {
		now = SystemClock
	}
	return &Stream{model: model, normalize: normalize, now: now, emit: emit, images: model.AcceptsImages(),
		ids: map[string]string{}, seen: map[sameValue]bool{}, rules: rulesOf.At(d)}
}

// Push runs the three passes on the transcript's next message.
func (s *Stream) Push(m ai.Message) {
	if !s.images {
		m = downgradeImages(m)
	}
	s.repair(s.rewrite(m))
}

// Close ends the transcript.
func (s *Stream) Close() { s.flush() }

// downgradeImages is pass 1, for a model without images.
func downgradeImages(m ai.Message) ai.Message {
	switch m := m.(type) {
	case *ai.UserMessage:
		if m.Content.IsString || m.Content.Verbatim {
			return m
		}
		c := *m
		c.Content = ai.Content{Blocks: replaceImages(m.Content.Blocks, UserImagePlaceholder)}
		return &c
	case *ai.ToolResultMessage:
		c := *m
		blocks := m.Content
		if m.Loose.Has("content") {
			// Content that is not an array is iterated as it is: a
			// string gives its characters (callers refuse the rest).
			blocks = codePoints(m.Loose.Value("content", "").Str())
			c.Loose = m.Loose.Without("content")
		}
		c.Content = replaceImages(blocks, ToolImagePlaceholder)
		return &c
	}
	return m
}

// replaceImages turns each run of images into one placeholder text. A run
// that follows a text block already equal to the placeholder adds nothing,
// which is how Pi decides: it remembers whether the block before was a
// placeholder, and only a block whose text is a string can be one.
func replaceImages(blocks []ai.Block, placeholder string) []ai.Block {
	out := make([]ai.Block, 0, len(blocks))
	prevPlaceholder := false
	for _, b := range blocks {
		if isImage(b) {
			if !prevPlaceholder {
				out = append(out, &ai.TextBlock{Text: placeholder})
			}
			prevPlaceholder = true
			continue
		}
		out = append(out, b)
		switch b := b.(type) {
		case *ai.TextBlock:
			prevPlaceholder = jsEqual(b.Text, placeholder)
		case *ai.ForeignBlock:
			text, ok := b.Text()
			prevPlaceholder = ok && jsEqual(text, placeholder)
		default:
			prevPlaceholder = false
		}
	}
	return out
}

// codePoints is a string as JavaScript's for-of iterates it: one string per
// code point, a lone surrogate on its own.
func codePoints(s string) []ai.Block {
	s = wtf8.Canonical(s)
	var out []ai.Block
	for len(s) > 0 {
		_, n := wtf8.Next(s)
		out = append(out, &ai.ForeignBlock{Raw: jsonv.StringValue(s[:n])})
		s = s[n:]
	}
	return out
}

// isImage reports whether b is an image, well formed or not: Pi looks at the
// type alone.
func isImage(b ai.Block) bool {
	if f, ok := b.(*ai.ForeignBlock); ok {
		return f.Type() == "image"
	}
	_, ok := b.(*ai.ImageBlock)
	return ok
}

// rewrite is pass 2. The id map lives for one transcript; a tool result
// takes the id recorded for its call at the moment it is reached, so only
// results after their assistant are renamed.
func (s *Stream) rewrite(m ai.Message) ai.Message {
	switch m := m.(type) {
	case *ai.ToolResultMessage:
		// An empty new id is falsy in Pi, so it renames the call but not the result.
		if id, ok := s.ids[wtf8.Canonical(m.ToolCallID)]; ok && id != "" && !jsEqual(id, m.ToolCallID) && !m.Loose.Has("toolCallId") {
			c := *m
			c.ToolCallID = id
			return &c
		}
	case *ai.AssistantMessage:
		return rewriteAssistant(m, s.model, s.normalize, s.ids, s.rules.dropForeignThinking)
	}
	return m
}

// ToolResults is the run of tool results msgs starts with, which the APIs
// that have no tool role (Anthropic's Messages, Bedrock's Converse) send
// as one user message.
func ToolResults(msgs []ai.Message) []*ai.ToolResultMessage {
	var run []*ai.ToolResultMessage
	for _, m := range msgs {
		tr, ok := m.(*ai.ToolResultMessage)
		if !ok {
			break
		}
		run = append(run, tr)
	}
	return run
}

// SameModel reports whether m was produced by model: provider, API and
// model id must all be equal.
func SameModel(m *ai.AssistantMessage, model *ai.Model) bool {
	if len(m.Loose) == 0 && len(model.Loose) == 0 {
		return jsEqual(m.Provider, model.Provider) && jsEqual(m.API, model.API) && jsEqual(m.Model, model.ID)
	}
	return jsonv.StrictEqual(m.ProviderValue(), model.ProviderValue()) &&
		jsonv.StrictEqual(m.APIValue(), model.APIValue()) && jsonv.StrictEqual(m.ModelValue(), model.IDValue())
}

// rewriteAssistant always returns a copy of m with a new content slice.
func rewriteAssistant(m *ai.AssistantMessage, model *ai.Model, normalize IDNormalizer, ids map[string]string, dropForeignThinking bool) *ai.AssistantMessage {
	same := SameModel(m, model)
	content := make([]ai.Block, 0, len(m.Content))
	for _, b := range m.Content {
		switch b := b.(type) {
		case *ai.ThinkingBlock:
			if !same && dropForeignThinking {
				continue
			}
			if nb := rewriteThinking(b, same); nb != nil {
				content = append(content, nb)
			}
		case *ai.TextBlock:
			if same {
				content = append(content, b)
			} else {
				content = append(content, &ai.TextBlock{Text: b.Text})
			}
		case *ai.ToolCallBlock:
			content = append(content, rewriteToolCall(b, same, model, m, normalize, ids))
		case *ai.ForeignBlock:
			// A text block of other member types: for another model, a new
			// block of its type and text, whatever the text holds.
			if b.Type() == "text" && !same {
				text, _ := b.Raw.Get("text")
				b = &ai.ForeignBlock{Raw: new(jsonv.ObjectBuilder).SetString("type", "text").Set("text", text).Value()}
			}
			// An array is returned unchanged, and flatMap splices it in.
			content = append(content, b.Spliced()...)
		default:
			content = append(content, b)
		}
	}
	c := *m
	c.Content = content
	return &c
}

// rewriteThinking applies the thinking rules in Pi's order; nil drops the block.
func rewriteThinking(b *ai.ThinkingBlock, same bool) ai.Block {
	signed := b.IsSigned()
	switch {
	case b.IsRedacted():
		// The payload is encrypted for one model only.
		if same {
			return b
		}
		return nil
	case same && signed:
		return b
	case jsTrimEmpty(b.Thinking):
		return nil
	case same:
		return b
	}
	return &ai.TextBlock{Text: b.Thinking}
}

func rewriteToolCall(b *ai.ToolCallBlock, same bool, model *ai.Model, source *ai.AssistantMessage, normalize IDNormalizer, ids map[string]string) *ai.ToolCallBlock {
	if same {
		return b
	}
	out := b
	// Only a truthy signature is removed; "" stays.
	if b.ThoughtSignature != nil && *b.ThoughtSignature != "" || b.Loose.Value("thoughtSignature", "").Truthy() {
		c := *b
		c.ThoughtSignature = nil
		c.Loose = b.Loose.Without("thoughtSignature")
		out = &c
	}
	if normalize != nil && !b.Loose.Has("id") {
		id := normalize(b.ID, model, source)
		if !jsEqual(id, b.ID) {
			ids[wtf8.Canonical(b.ID)] = id
			c := *out
			c.ID = id
			out = &c
		}
	}
	return out
}

// repair is pass 3: it drops error and aborted assistants and gives each
// tool call that got no result a synthetic one, just before the message
// that ends its turn.
func (s *Stream) repair(m ai.Message) {
	switch m := m.(type) {
	case *ai.AssistantMessage:
		s.flush()
		if m.StopReason == ai.StopError || m.StopReason == ai.StopAborted {
			return
		}
		var calls []*ai.ToolCallBlock
		for _, b := range m.Content {
			if tc, ok := b.(*ai.ToolCallBlock); ok {
				calls = append(calls, tc)
			}
		}
		if len(calls) > 0 {
			s.pending = calls
			clear(s.seen)
		}
	case *ai.ToolResultMessage:
		if key, ok := sameValueKey(m.Loose.Value("toolCallId", m.ToolCallID)); ok {
			s.seen[key] = true
		}
	case *ai.UserMessage:
		s.flush()
	case *ai.SystemMessage:
		if s.rules.holdSystem && len(s.pending) > 0 {
			s.held = append(s.held, m)
			return
		}
	}
	s.emit(m)
}

// flush ends the pending calls' turn, and then lets the held system
// messages go.
func (s *Stream) flush() {
	for _, tc := range s.pending {
		if key, ok := sameValueKey(tc.Loose.Value("id", tc.ID)); !ok || !s.seen[key] {
			s.emit(syntheticResult(tc, s.now()))
		}
	}
	s.pending = nil
	clear(s.seen)
	for _, m := range s.held {
		s.emit(m)
	}
	s.held = s.held[:0]
}

// sameValue is a map key under which two values JSON.parse made meet when
// JavaScript's Set (SameValueZero) takes them for the same: strings as
// UTF-16, numbers as doubles. A string's key is the string itself, which
// costs nothing to make.
type sameValue struct {
	kind jsonv.Kind
	text string
}

// sameValueKey is v's sameValue. An object or array equals only itself, so
// it has no key.
func sameValueKey(v jsonv.Value) (sameValue, bool) {
	switch v.Kind() {
	case jsonv.String:
		return sameValue{jsonv.String, wtf8.Canonical(v.Str())}, true
	case jsonv.Number:
		f, _ := v.Float64()
		return sameValue{jsonv.Number, jsonv.FormatFloat(f)}, true
	case jsonv.Object, jsonv.Array:
		return sameValue{}, false
	}
	return sameValue{v.Kind(), v.JSString()}, true
}

// syntheticResult is the error result Pi invents for a tool call that never
// got one. It has no details.
func syntheticResult(tc *ai.ToolCallBlock, timestamp jsonv.Value) *ai.ToolResultMessage {
	// An id or name of another type is copied as it is.
	var loose ai.Loose
	for _, key := range [][2]string{{"id", "toolCallId"}, {"name", "toolName"}} {
		if tc.Loose.Has(key[0]) {
			loose = append(loose, jsonv.Member{Key: key[1], Value: tc.Loose.Value(key[0], "")})
		}
	}
	return &ai.ToolResultMessage{
		Loose:      loose,
		ToolCallID: tc.ID,
		ToolName:   tc.Name,
		Content:    []ai.Block{&ai.TextBlock{Text: NoResultText}},
		IsError:    jsonv.BoolValue(true),
		Timestamp:  timestamp,
	}
}

// jsEqual compares two WTF-8 strings the way JavaScript's === compares strings.
func jsEqual(a, b string) bool {
	return a == b || wtf8.Canonical(a) == wtf8.Canonical(b)
}
