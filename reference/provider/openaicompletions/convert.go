package openaicompletions

import (
	"fmt"
	"math"
	"slices"
	"strconv"
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

// Texts Pi puts into the conversation for the provider's sake.
const (
	// ToolImagesIntro leads the user message that carries tool-result images.
	ToolImagesIntro = "Attached image(s) from tool result:"
	// BridgeText is the assistant turn Pi inserts after tool results where
	// the provider wants one (compat.requiresAssistantAfterToolResult).
	BridgeText = "I have processed the tool results."
)

// NormalizeToolCallID is this API's tool-call id normalizer of Pi 0.80
// (normalizer), applied by transform to calls made by other models: an id
// with "|" keeps the part before the first "|", with every UTF-16 code
// unit outside [a-zA-Z0-9_-] replaced by "_", cut to 40 units; for
// provider "openai" any other id is cut to 40 units; everything else is
// kept.
func NormalizeToolCallID(id string, model *ai.Model, src *ai.AssistantMessage) string {
	return normalizer(dialect.V0_80)(id, model, src)
}

// maxToolCallID is the longest id Chat Completions takes (UTF-16 units).
const maxToolCallID = 40

// normalizer is the tool-call id normalizer of dialect d. Pi 1.6 keeps the
// item part of a "call|item" id too: both parts cleaned as above and
// joined with "_" (the call part alone when the item part is empty), and
// when that is longer than 40 the call part cut to leave room for "_" and
// the first 8 characters of shortHash of the whole id.
func normalizer(d dialect.Dialect) transform.IDNormalizer {
	return func(id string, model *ai.Model, _ *ai.AssistantMessage) string {
		return normalizeID(d, id, model)
	}
}

func normalizeID(d dialect.Dialect, id string, model *ai.Model) string {
	if before, after, ok := strings.Cut(id, "|"); ok {
		if !keepsItemID.At(d) {
			return provider.SanitizeID(before, maxToolCallID)
		}
		call, item := provider.SanitizeID(before, math.MaxInt), provider.SanitizeID(after, math.MaxInt)
		joined := call
		if item != "" {
			joined = call + "_" + item
		}
		if len(joined) <= maxToolCallID {
			return joined
		}
		hash := transform.ShortHash(id)
		hash = hash[:min(8, len(hash))]
		return call[:min(len(call), max(1, maxToolCallID-len(hash)-1))] + "_" + hash
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

// markable reports whether markText finds a place for the cache marker:
// non-empty string content, or a text part.
func (m *wireMessage) markable() bool {
	if !m.isParts {
		return m.content.Kind() == jsonv.String && m.content.Str() != ""
	}
	return slices.Contains(m.partTypes, "text")
}

// markText puts the cache marker on the message's text, where it is
// markable: non-empty string content becomes one text part carrying it,
// otherwise the last text part gets it.
func (m *wireMessage) markText(cc jsonv.Value) {
	if !m.isParts {
		if m.markable() {
			m.addPart("text", textPart(m.content.Str()).Set("cache_control", cc))
		}
		return
	}
	for i := len(m.parts) - 1; i >= 0; i-- {
		if m.partTypes[i] == "text" {
			m.parts[i].Set("cache_control", cc)
			return
		}
	}
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

func stringMessage(role, text string) *wireMessage {
	return &wireMessage{role: role, content: jsonv.StringValue(text)}
}

// converter is Pi's convertMessages, fed one transformed message at a
// time: the system prompt, then one chat message per Pi message, with the
// bridges and image carriers some providers need, and the Anthropic-style
// cache marker (cc, unless Absent) on the first system or developer
// message and on the last user or assistant message that has text. It
// holds back the images of a run of tool results until the run ends, and,
// when it marks, the messages from the last markable user or assistant
// message on: a later one takes the marker from it.
type converter struct {
	d      dialect.Dialect
	model  *ai.Model
	c      compat
	cc     jsonv.Value
	bridge bool
	body   provider.BodySink

	// toolHistory is set once a message as given is a tool result or has
	// a tool call (hasToolHistory).
	toolHistory bool
	lastRole    string
	inRun       bool
	images      []*jsonv.ObjectBuilder
	sysMarked   bool
	held        []*wireMessage
}

// convertMessages hands the body the system prompt and the chat messages
// of msgs, transformed for model, after Pi's checks of them; pending is
// an error Pi raises after those checks and before the conversion. It
// returns the converter, whose toolHistory is the transcript's.
func convertMessages(d dialect.Dialect, msgs provider.Transcript, model *ai.Model, ctx *ai.Context, c compat, cc jsonv.Value, now transform.Clock, pending error, body provider.BodySink) (*converter, error) {
	cv := &converter{d: d, model: model, c: c, cc: cc, bridge: c.truthy("requiresAssistantAfterToolResult"), body: body}
	if pending == nil && ctx.SystemPrompt != nil && *ctx.SystemPrompt != "" {
		role := "system"
		if model.Reasoning && c.truthy("supportsDeveloperRole") {
			role = "developer"
		}
		cv.put(stringMessage(role, ai.SanitizeSurrogates(*ctx.SystemPrompt)))
	}
	msgs = provider.Tap(msgs, func(m ai.Message) { cv.toolHistory = cv.toolHistory || hasToolHistory(m) })
	steps := provider.Steps{Dialect: d, Checks: conversionIn(d).Checks(d, model), Prepare: func(m ai.Message) ai.Message { return cutArrayIDs(m, model) },
		Normalize: normalizer(d), Pending: pending, Convert: cv.convert, Close: cv.close}
	err := steps.Run(msgs, model, now)
	return cv, err
}

func (cv *converter) convert(msg ai.Message) error {
	if _, ok := msg.(*ai.SystemMessage); ok {
		// Only a model with compat.supportsMidConvoSystemMessages keeps one
		// where it stands (Pi 1.6), which Pi renders as an update.
		return fmt.Errorf("%w: a system message kept mid-conversation", stream.ErrOutsideModel)
	}
	if tr, ok := msg.(*ai.ToolResultMessage); ok {
		cv.toolResult(tr)
		return nil
	}
	cv.endRun()
	if cv.bridge && cv.lastRole == ai.RoleToolResult && msg.Role() == ai.RoleUser {
		cv.put(stringMessage("assistant", BridgeText))
	}
	switch m := msg.(type) {
	case *ai.UserMessage:
		if m.Content.IsString {
			cv.put(stringMessage("user", ai.SanitizeSurrogates(m.Content.Text)))
			break
		}
		if len(m.Content.Blocks) == 0 {
			return nil
		}
		// Every element that is not of type "text" is taken for an
		// image (conversion's checks refused what Pi cannot read).
		wm := &wireMessage{role: "user"}
		for _, b := range m.Content.Blocks {
			if text, ok := lenient.TextOf(b); ok {
				if keep, _ := jsonv.LengthAboveZero(text); filtersUserText.At(cv.d) && !keep {
					continue
				}
				wm.addPart("text", textPart(ai.SanitizeSurrogates(text.Str())))
			} else {
				wm.addPart("image_url", imagePart(b))
			}
		}
		if len(wm.parts) == 0 {
			return nil
		}
		cv.put(wm)
	case *ai.AssistantMessage:
		wm := convertAssistant(cv.d, m, cv.model, cv.c)
		if wm == nil {
			return nil
		}
		cv.put(wm)
	}
	cv.lastRole = msg.Role()
	return nil
}

// toolResult sends one tool result of a run as a tool message, keeping
// its images for the user message after the run.
func (cv *converter) toolResult(tr *ai.ToolResultMessage) {
	cv.inRun = true
	// Texts of any type are joined as Array#join writes them.
	var texts []string
	hasImage := false
	for _, b := range tr.Content {
		if text, ok := lenient.TextOf(b); ok {
			texts = append(texts, stream.ToJoinString(text))
		}
		hasImage = hasImage || lenient.IsImage(b)
	}
	text := wtf8.Concat(strings.Join(texts, "\n"))
	switch {
	case !blankToolResultPlaceholder.At(cv.d):
		if text == "" {
			text = provider.SeeAttachedImageText
		}
	case stream.IsBlank(text) && hasImage:
		text = provider.SeeAttachedImageText
	case stream.IsBlank(text):
		text = NoToolOutputText
	}
	wm := stringMessage("tool", ai.SanitizeSurrogates(text))
	wm.set("tool_call_id", tr.Loose.Value("toolCallId", tr.ToolCallID))
	if name := tr.Loose.Value("toolName", tr.ToolName); cv.c.truthy("requiresToolResultName") && name.Truthy() {
		wm.set("name", name)
	}
	cv.put(wm)
	if hasImage && cv.model.AcceptsImages() {
		for _, b := range tr.Content {
			if lenient.IsImage(b) {
				cv.images = append(cv.images, imagePart(b))
			}
		}
	}
}

// endRun ends a run of tool results, if one is open: its images go in
// one user message, after a bridge where the provider wants one.
func (cv *converter) endRun() {
	if !cv.inRun {
		return
	}
	cv.inRun = false
	if len(cv.images) == 0 {
		cv.lastRole = ai.RoleToolResult
		return
	}
	if cv.bridge {
		cv.put(stringMessage("assistant", BridgeText))
	}
	wm := &wireMessage{role: "user"}
	wm.addPart("text", textPart(ToolImagesIntro))
	for _, img := range cv.images {
		wm.addPart("image_url", img)
	}
	cv.images = nil
	cv.put(wm)
	cv.lastRole = ai.RoleUser
}

// put hands wm to the body, or holds it when it marks: from the last
// markable user or assistant message on, where the marker may go.
func (cv *converter) put(wm *wireMessage) {
	if !cv.cc.IsAbsent() {
		switch {
		case (wm.role == "system" || wm.role == "developer") && !cv.sysMarked:
			wm.markText(cv.cc)
			cv.sysMarked = true
		case cv.conversational(wm) && wm.markable():
			cv.release()
		}
		if len(cv.held) > 0 || cv.conversational(wm) && wm.markable() {
			cv.held = append(cv.held, wm)
			return
		}
	}
	cv.body.Element(wm.json())
}

// conversational reports whether wm may carry the marker of the last
// conversation message: a user or assistant message, and from 1.6 on a
// tool result.
func (cv *converter) conversational(wm *wireMessage) bool {
	return wm.role == "user" || wm.role == "assistant" || wm.role == "tool" && marksToolResults.At(cv.d)
}

// release hands the body the held messages.
func (cv *converter) release() {
	for _, wm := range cv.held {
		cv.body.Element(wm.json())
	}
	cv.held = cv.held[:0]
}

// close ends the last run of tool results and marks the last markable user
// or assistant message (the first held one).
func (cv *converter) close() error {
	cv.endRun()
	if len(cv.held) > 0 {
		cv.held[0].markText(cv.cc)
	}
	cv.release()
	return nil
}

// convertAssistant turns one assistant message into a chat message, or nil
// when it has neither content nor tool calls. Text is sanitized; the
// reasoning field, tool-call ids, names and arguments are sent as they are,
// whatever their types.
func convertAssistant(d dialect.Dialect, m *ai.AssistantMessage, model *ai.Model, c compat) *wireMessage {
	replays := replaysReasoningDetails.At(d)
	wm := &wireMessage{role: "assistant", content: jsonv.NullValue()}
	// requiresNonNullAssistantContent is a setting of 1.6 on (compatMembers).
	if c.truthy("requiresAssistantAfterToolResult") || c.truthy("requiresNonNullAssistantContent") {
		wm.content = jsonv.StringValue("")
	}
	var preserved []jsonv.Value
	if replays {
		preserved = preservedReasoningDetails(m)
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
		var sig string
		var ok bool
		if replays {
			// reasoning_details stand for the raw field; only the three
			// reasoning fields are written, found by includes, which
			// converts nothing: a signature of another type names none.
			if t := thinking[0]; preserved == nil && !t.Loose.Has("thinkingSignature") && t.ThinkingSignature != nil {
				sig = *t.ThinkingSignature
				if model.Provider == "opencode-go" && sig == "reasoning" {
					sig = "reasoning_content"
				}
				ok = slices.Contains(reasoningFields, sig)
			}
		} else {
			sig, ok = signatureKey(thinking[0])
			if ok && model.Provider == "opencode-go" && sig == "reasoning" && !thinking[0].Loose.Has("thinkingSignature") {
				sig = "reasoning_content" // a string only: Pi compares with ===
			}
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
			if replays {
				continue
			}
			if d, ok := reasoningDetail(tc); ok {
				details = append(details, d)
			}
		}
		wm.set("tool_calls", jsonv.ArrayValue(elems...))
		if len(details) > 0 {
			wm.set("reasoning_details", jsonv.ArrayValue(details...))
		}
	}
	if preserved != nil {
		wm.set("reasoning_details", jsonv.ArrayValue(preserved...))
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
// length is positive) passes too, and names its String() form, which
// throws where String() does.
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
	if !sig.Truthy() || length.IsAbsent() || !(stream.ToNumber(length) > 0) {
		return "", false
	}
	return stream.ToString(sig), true
}

// preservedReasoningDetails is what Pi 1.6 replays as reasoning_details:
// the details of the first thinking block whose signature is a JSON array
// of reasoning details (reasoningDetails), else those of the tool calls
// whose thoughtSignature is one encrypted detail with an id and data (as
// Pi 0.80 stored them), else none.
func preservedReasoningDetails(m *ai.AssistantMessage) []jsonv.Value {
	var legacy []jsonv.Value
	for _, b := range m.Content {
		switch b := b.(type) {
		case *ai.ThinkingBlock:
			v, ok := parseSignature(b.Loose.Value("thinkingSignature", ptrString(b.ThinkingSignature)))
			if ok && v.Kind() == jsonv.Array && len(v.Elems()) > 0 && !slices.ContainsFunc(v.Elems(), func(e jsonv.Value) bool { return !isReasoningDetail(e) }) {
				return v.Elems()
			}
		case *ai.ToolCallBlock:
			v, ok := parseSignature(b.Loose.Value("thoughtSignature", ptrString(b.ThoughtSignature)))
			if !ok || !isReasoningDetail(v) || !strictString(stream.Member(v, "type"), "reasoning.encrypted") {
				continue
			}
			// data.length > 0, where reading a length that throws is
			// caught as the parse is.
			id := stream.Member(v, "id")
			long, err := jsonv.LengthAboveZero(stream.Member(v, "data"))
			if id.Kind() == jsonv.String && id.Str() != "" && long && err == nil {
				legacy = append(legacy, v)
			}
		}
	}
	return legacy
}

// ptrString is *s as a string, "" when s is nil.
func ptrString(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// parseSignature is Pi 1.6's reading of a signature it replays: nothing
// for a falsy one, else JSON.parse of its String(), within a try that
// catches a conversion that throws as it catches bad JSON (ok false).
func parseSignature(sig jsonv.Value) (jsonv.Value, bool) {
	if !sig.Truthy() || sig.ConversionThrows() {
		return jsonv.Value{}, false
	}
	text := sig.JSString()
	v, err := stream.ParseJSON(text)
	return v, err == nil
}

// isReasoningDetail is Pi 1.6's check of one OpenAI reasoning detail: an
// object whose id is a string or null (or missing), format a string and
// index a number (or missing), of type reasoning.summary with a string
// summary, reasoning.encrypted with string data, or reasoning.text with a
// string text and a signature that is a string or null (or missing).
func isReasoningDetail(d jsonv.Value) bool {
	if d.Kind() != jsonv.Object {
		return false
	}
	m := func(k string) jsonv.Value { return stream.Member(d, k) }
	opt := func(v jsonv.Value, kinds ...jsonv.Kind) bool { return v.IsAbsent() || slices.Contains(kinds, v.Kind()) }
	if !opt(m("id"), jsonv.String, jsonv.Null) || !opt(m("format"), jsonv.String) || !opt(m("index"), jsonv.Number) {
		return false
	}
	switch t := m("type"); {
	case strictString(t, "reasoning.summary"):
		return m("summary").Kind() == jsonv.String
	case strictString(t, "reasoning.encrypted"):
		return m("data").Kind() == jsonv.String
	case strictString(t, "reasoning.text"):
		return m("text").Kind() == jsonv.String && opt(m("signature"), jsonv.String, jsonv.Null)
	}
	return false
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

// conversionIn is what the conversion of dialect d reads of values of
// other types (lenient.Conversion): the id normalizer calls includes("|"),
// tool-result texts are joined, messages of other roles are skipped; in
// 1.6 a user text is sanitized only when its length is above zero.
func conversionIn(d dialect.Dialect) lenient.Conversion {
	c := lenient.Conversion{IDThrows: idThrows}
	if filtersUserText.At(d) {
		c.UserTextKept = jsonv.LengthAboveZero
	}
	return c
}

// cutArrayIDs is the one normalization transform leaves to this API for an
// id of another type: for provider "openai", Pi's normalizer cuts an id
// longer than 40 to its first 40, and an array has a length and a slice
// too. The cut array is a new value, which the call and its synthetic
// result carry. m, a message as given, is returned as it is when there is
// nothing to cut.
func cutArrayIDs(m ai.Message, model *ai.Model) ai.Message {
	a, ok := m.(*ai.AssistantMessage)
	if model.Provider != "openai" || !ok || transform.SameModel(a, model) {
		return m
	}
	var out *ai.AssistantMessage
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
			c := *a
			c.Content = slices.Clone(a.Content)
			out = &c
		}
		cut := *tc
		cut.Loose = append(tc.Loose.Without("id"), jsonv.Member{Key: "id", Value: jsonv.ArrayValue(id.Elems()[:40]...)})
		out.Content[j] = &cut
	}
	if out == nil {
		return m
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
