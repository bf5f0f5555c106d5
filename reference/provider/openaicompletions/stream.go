package openaicompletions

import (
	"io"
	"slices"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/openaisdk"
	"github.com/piconform/piconform/reference/provider/sse"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
	"github.com/piconform/piconform/reference/wtf8"
)

// Texts Pi uses for stream failures.
const (
	NoFinishReasonText  = "Stream ended without finish_reason"
	ErrorStopReasonText = "Provider returned an error stop reason"
	FinishReasonPrefix  = "Provider finish_reason: "
)

// ParseStream is the stream.Parse of server-sent events carrying chat
// completion chunks, as Pi 0.80 reads them.
func ParseStream(r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	c, err := resolveCompat(model, dialect.V0_80)
	if err != nil {
		return nil, nil, err
	}
	return parseStream(dialect.V0_80, c, r, model, now)
}

// parseStream is ParseStream of dialect d, for a model whose settings are c.
func parseStream(d dialect.Dialect, c compat, r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	p := &parser{d: d, c: c, model: model, out: stream.NewOutputIn(d, model, model.API, now), byIndex: map[float64]int{}, byID: map[string]int{}, pending: map[string]string{}}
	p.sdk.Dialect = d
	p.emit(stream.Event{Type: stream.TypeStart})
	err := stream.Outcome(p.run(r), p.outside)
	return p.out, p.events, err
}

// ParseHTTPError is what Pi 0.80 produces for a non-2xx response: a lone
// error event (no start) whose errorMessage is the SDK's "<status>
// <message>": the body's error.message when the body is JSON with an error
// object that has a truthy message, the JSON of that error member when it
// has none, the raw text when the body is not JSON, and "<status> status
// code (no body)" otherwise. A truthy error.metadata.raw is appended after
// a newline; one with no string form is stream.ErrOutsideModel
// (errorMessage).
func ParseHTTPError(model *ai.Model, status int, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	return parseHTTPError(dialect.V0_80, model, status, body, now)
}

// parseHTTPError is ParseHTTPError of dialect d. Pi 1.6 words the SDK's
// error its own way (provider.ProviderErrorText): "<status>: <error member
// as JSON>" when the body has an error object.
func parseHTTPError(d dialect.Dialect, model *ai.Model, status int, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	errMember, message := openaisdk.BodyErrorAt(d, body)
	text, ok := errorMessage(d, status, errMember, message)
	msg, events := stream.ModelFailure(model, text, now)
	if !ok {
		return msg, events, stream.ErrOutsideModel
	}
	return msg, events, nil
}

// errorMessage is Pi's errorMessage for the SDK's error of an error
// member (status 0: an error the stream threw), with a truthy
// error.metadata.raw appended after a newline, as Pi's catch does (1.6:
// unless the message holds it already). Not ok when raw has no string
// form: the template throws inside the catch, the stream function's
// promise rejects unhandled, and Node ends the process with no message at
// all, which the reference does not model.
func errorMessage(d dialect.Dialect, status int, errMember, message jsonv.Value) (string, bool) {
	msg := openaisdk.ErrorMessage(status, errMember, message)
	wraps := providerErrorText.At(d)
	if wraps {
		msg = provider.ProviderErrorText(status, msg, openaisdk.ErrorBody(errMember), "")
	}
	raw := stream.Member(stream.Member(errMember, "metadata"), "raw")
	switch {
	case raw.ConversionThrows():
		return msg, false
	case raw.Truthy() && !(wraps && strings.Contains(msg, raw.JSString())):
		msg = wtf8.Concat(msg, "\n", raw.JSString())
	}
	return msg, true
}

// jsError is an exception thrown while Pi reads the stream.
type jsError = stream.JSError

// scratch is what Pi keeps on a tool-call block while it streams.
type scratch struct {
	args        stream.ToolCallArgs
	streamIndex *float64
}

type parser struct {
	d       dialect.Dialect
	c       compat
	model   *ai.Model
	out     *ai.AssistantMessage
	events  []stream.Event
	text    int // index of the text block, -1 before it exists
	think   int // index of the thinking block
	scratch map[int]*scratch
	byIndex map[float64]int
	byID    map[string]int
	pending map[string]string
	outside bool
	sawStop bool
	sdk     openaisdk.Stream
	body    io.Reader
	// details are the reasoning_details read so far (1.6), which become
	// the thinking block's signature when it ends; nil before any.
	details []jsonv.Value
}

func (p *parser) emit(e stream.Event) { p.events = append(p.events, e) }

// emitted is the number of events emitted so far (stream.Steps.Events).
func (p *parser) emitted() int { return len(p.events) }

// run drives the whole stream and ends it with done or error.
func (p *parser) run(r io.Reader) error {
	p.body = r
	p.text, p.think = -1, -1
	p.scratch = map[int]*scratch{}
	sse := openaisdk.NewReader(p.d)
	feed := func(data []byte, eof bool) bool {
		for _, ev := range sse.Feed(data, eof) {
			p.dispatch(ev)
		}
		return false
	}
	fail := func(msg string) {
		p.signThinking()
		p.emit(stream.ErrorEvent(p.out, msg))
	}
	return stream.Run(r, stream.Steps{Feed: feed, End: p.end, Fail: fail, Events: p.emitted})
}

// signThinking stores the reasoning details read so far (1.6) as the
// thinking block's signature, a JSON array.
func (p *parser) signThinking() {
	if p.details == nil || p.think < 0 {
		return
	}
	sig := string(jsonv.ArrayValue(p.details...).AppendJSON(nil))
	p.out.Content[p.think].(*ai.ThinkingBlock).ThinkingSignature = &sig
}

// end is Pi's check of how the stream ended.
func (p *parser) end() {
	p.finishBlocks()
	switch {
	case stream.Fired(p.body):
		// The SDK ends its stream quietly on an abort; Pi checks the
		// signal before anything else.
		panic(jsError{Msg: provider.PiAbortedText})
	}
	requireFinish := true
	if optionalFinishReason.At(p.d) && !p.sawStop && !p.c.truthy("supportsFinishReason") {
		// compat.supportsFinishReason false: a stream may end without one.
		requireFinish = false
		p.out.StopReason = ai.StopStop
		if slices.ContainsFunc(p.out.Content, func(b ai.Block) bool { _, ok := b.(*ai.ToolCallBlock); return ok }) {
			p.out.StopReason = ai.StopToolUse
		}
	}
	switch {
	case p.out.StopReason == ai.StopError:
		msg := ErrorStopReasonText
		if p.out.ErrorMessage != nil && *p.out.ErrorMessage != "" {
			msg = *p.out.ErrorMessage
		}
		panic(jsError{Msg: msg})
	case requireFinish && !p.sawStop:
		panic(jsError{Msg: NoFinishReasonText})
	}
	stream.RequireStop(p.out, NoFinishReasonText)
	p.emit(stream.DoneEvent(p.out))
}

// finishBlocks closes every block in content order once the stream is
// over, parsing each tool call's arguments one last time.
func (p *parser) finishBlocks() {
	for i, b := range p.out.Content {
		switch b := b.(type) {
		case *ai.TextBlock:
			p.emit(stream.Event{Type: stream.TypeTextEnd, ContentIndex: i, Content: b.Text})
		case *ai.ThinkingBlock:
			p.signThinking()
			p.emit(stream.Event{Type: stream.TypeThinkingEnd, ContentIndex: i, Content: b.Thinking})
		case *ai.ToolCallBlock:
			stream.FinishArguments(p.d, b, p.scratch[i].args.Text())
			snapshot := *b
			p.emit(stream.Event{Type: stream.TypeToolCallEnd, ContentIndex: i, ToolCall: &snapshot})
		}
	}
}

// dispatch is the SDK's Stream iterator for one server-sent event, then
// Pi's handling of the chunk it yields.
func (p *parser) dispatch(ev sse.Event) {
	data, errMember, ok := p.sdk.Next(ev)
	switch {
	case !ok:
	case !errMember.IsAbsent():
		msg, ok := errorMessage(p.d, 0, errMember, jsonv.Value{})
		p.outside = p.outside || !ok
		panic(jsError{Msg: msg})
	default:
		p.chunk(openaisdk.ChatChunk(p.d, data))
	}
}

// usage is Pi's parseChunkUsage: cached tokens are reads, cache_write_tokens
// writes, input what is left of the prompt, and the total is computed.
func (p *parser) usage(raw jsonv.Value) {
	prompt := stream.Count(stream.Member(raw, "prompt_tokens"))
	details := stream.Member(raw, "prompt_tokens_details")
	hits := stream.Member(raw, "prompt_cache_hit_tokens")
	if topLevelCachedTokens.At(p.d) {
		hits = stream.Nullish(hits, stream.Member(raw, "cached_tokens"))
	}
	cacheRead := stream.JSValue(stream.Nullish(stream.Member(details, "cached_tokens"), stream.Nullish(hits, stream.Zero)))
	cacheWrite := stream.Count(stream.Member(details, "cache_write_tokens"))
	input := jsonv.JSNumberValue(max(0, stream.Minus(stream.Minus(prompt, cacheRead), cacheWrite).JSNumber()))
	u := ai.ZeroUsage()
	u.Input = input
	u.Output = stream.Count(stream.Member(raw, "completion_tokens"))
	u.CacheRead = cacheRead
	u.CacheWrite = cacheWrite
	if countsReasoningTokens.At(p.d) {
		u.Reasoning = stream.Count(stream.Or(stream.Member(stream.Member(raw, "completion_tokens_details"), "reasoning_tokens"), stream.Member(raw, "reasoning_tokens")))
	}
	u.TotalTokens = stream.Sum(input, u.Output, cacheRead, cacheWrite)
	// Pi prices the usage before it stores it: a throw leaves the old one.
	stream.PriceIn(p.d, p.model, &u)
	if openRouterCost.At(p.d) && stream.IsOpenRouter(p.model) {
		stream.ApplyOpenRouterCost(&u, raw)
	}
	p.out.Usage = u
}

// mapStopReason is Pi's finish_reason table; anything it does not know is
// an error named after the reason.
func mapStopReason(reason jsonv.Value) (stop, errMsg string) {
	if reason.Kind() == jsonv.String {
		switch reason.Str() {
		case "stop", "end":
			return ai.StopStop, ""
		case "length":
			return ai.StopLength, ""
		case "function_call", "tool_calls":
			return ai.StopToolUse, ""
		}
	}
	return ai.StopError, FinishReasonPrefix + stream.ToString(reason)
}

// reasoningFields are the delta members Pi reads thinking from, in order.
var reasoningFields = []string{"reasoning_content", "reasoning", "reasoning_text"}

func (p *parser) chunk(c jsonv.Value) {
	if c.Kind() != jsonv.Object && c.Kind() != jsonv.Array {
		return
	}
	if !stream.KeepResponseID(p.out, stream.Member(c, "id")) {
		p.outside = true
	}
	if m := stream.Member(c, "model"); m.Kind() == jsonv.String && m.Str() != "" && m.Str() != p.model.ID && p.out.ResponseModel == nil {
		s := m.Str()
		p.out.ResponseModel = &s
	}
	usage := stream.Member(c, "usage")
	if usage.Truthy() {
		p.usage(usage)
	}
	choices := stream.Member(c, "choices")
	if choices.Kind() != jsonv.Array || len(choices.Elems()) == 0 {
		return
	}
	choice := choices.Elems()[0]
	if !choice.Truthy() {
		return
	}
	if cu := stream.Member(choice, "usage"); !usage.Truthy() && cu.Truthy() {
		p.usage(cu)
	}
	if fr := stream.Member(choice, "finish_reason"); fr.Truthy() {
		stream.SetRawStopReason(p.out, fr)
		stop, errMsg := mapStopReason(fr)
		p.out.StopReason = stop
		if errMsg != "" {
			p.out.ErrorMessage = &errMsg
		}
		p.sawStop = true
	}
	delta := stream.Member(choice, "delta")
	if !delta.Truthy() {
		return
	}
	if reasoningFirst.At(p.d) {
		p.reasoning(delta)
		p.reasoningDetails(delta)
		p.content(delta)
		p.toolCalls(delta)
		return
	}
	p.content(delta)
	p.reasoning(delta)
	p.toolCalls(delta)
	p.encryptedDetails(delta)
}

// content reads the delta's content into the text block.
func (p *parser) content(delta jsonv.Value) {
	switch content := stream.Member(delta, "content"); content.Kind() {
	case jsonv.String:
		if s := content.Str(); s != "" {
			i := p.ensureText()
			p.emit(stream.AppendText(p.out.Content[i].(*ai.TextBlock), i, s))
		}
	case jsonv.Array:
		if len(content.Elems()) > 0 {
			p.outside = true
		}
	case jsonv.Object:
		if stream.Member(content, "length").Truthy() {
			p.outside = true
		}
	}
}

// reasoning reads the first reasoning field that holds text into the
// thinking block.
func (p *parser) reasoning(delta jsonv.Value) {
	for _, field := range reasoningFields {
		v := stream.Member(delta, field)
		if v.Kind() != jsonv.String || v.Str() == "" {
			continue
		}
		sig := field
		if p.model.Provider == "opencode-go" && field == "reasoning" {
			sig = "reasoning_content"
		}
		i := p.ensureThinking(sig)
		p.emit(stream.AppendThinking(p.out.Content[i].(*ai.ThinkingBlock), i, v.Str()))
		break
	}
}

// toolCalls reads the delta's tool calls.
func (p *parser) toolCalls(delta jsonv.Value) {
	if calls := stream.Member(delta, "tool_calls"); calls.Truthy() {
		if calls.Kind() != jsonv.Array {
			p.outside = true
		} else {
			for _, tc := range calls.Elems() {
				p.toolCallDelta(tc)
			}
		}
	}
}

// reasoningDetails (1.6) keeps each valid reasoning detail of the delta,
// opening a thinking block (signature "") for them: consecutive text and
// summary details are merged into one (appendDetail).
func (p *parser) reasoningDetails(delta jsonv.Value) {
	details := stream.Member(delta, "reasoning_details")
	if details.Kind() != jsonv.Array {
		return
	}
	for _, d := range details.Elems() {
		if !isReasoningDetail(d) {
			continue
		}
		p.ensureThinking("")
		if p.details == nil {
			p.details = []jsonv.Value{}
		}
		p.details = appendDetail(p.details, d)
	}
}

// appendDetail adds d to details as Pi 1.6 merges them: a text detail
// after a text detail, or a summary after a summary, extends the last one
// (its text or summary joined, signature, format and index filled where
// missing); any other is added as it is.
func appendDetail(details []jsonv.Value, d jsonv.Value) []jsonv.Value {
	typ := stream.Member(d, "type").Str()
	field := map[string]string{"reasoning.text": "text", "reasoning.summary": "summary"}[typ]
	n := len(details)
	if field == "" || n == 0 || stream.Member(details[n-1], "type").Str() != typ {
		return append(details, d)
	}
	last := details[n-1]
	set := func(key string, v jsonv.Value) {
		if !v.IsAbsent() {
			last = last.With(key, v)
			return
		}
		// Assigning undefined leaves the member out of the JSON.
		var kept []jsonv.Member
		for _, m := range last.Members() {
			if m.Key != key {
				kept = append(kept, m)
			}
		}
		last = jsonv.ObjectValue(kept...)
	}
	set(field, jsonv.StringValue(wtf8.Concat(stream.Member(last, field).Str(), stream.Member(d, field).Str())))
	if typ == "reasoning.text" {
		if sig := stream.Member(last, "signature"); !sig.Truthy() {
			set("signature", stream.Member(d, "signature"))
		}
	}
	if stream.Member(last, "id").IsNullish() {
		set("id", stream.Member(d, "id"))
	}
	if !stream.Member(last, "format").Truthy() {
		set("format", stream.Member(d, "format"))
	}
	if stream.Member(last, "index").IsNullish() {
		set("index", stream.Member(d, "index"))
	}
	details[n-1] = last
	return details
}

// encryptedDetails (0.80) keeps each encrypted reasoning detail with an
// id and data as the thoughtSignature of the tool call with that id,
// now or when it comes.
func (p *parser) encryptedDetails(delta jsonv.Value) {
	if details := stream.Member(delta, "reasoning_details"); details.Kind() == jsonv.Array {
		for _, d := range details.Elems() {
			id, data := stream.Member(d, "id"), stream.Member(d, "data")
			if !strictString(stream.Member(d, "type"), "reasoning.encrypted") || id.Kind() != jsonv.String || id.Str() == "" ||
				data.Kind() != jsonv.String || data.Str() == "" {
				continue
			}
			serialized := string(d.AppendJSON(nil))
			if i, ok := p.byID[id.Str()]; ok {
				p.out.Content[i].(*ai.ToolCallBlock).ThoughtSignature = &serialized
			} else {
				p.pending[id.Str()] = serialized
			}
		}
	}
}

// appendArgs adds delta to a call's argument text and gives the arguments
// shown meanwhile: 0.80's partial parse of the whole text, 1.6's preview.
func (p *parser) appendArgs(a *stream.ToolCallArgs, delta string) jsonv.Value {
	args := a.Append(delta)
	if !previewsArguments.At(p.d) {
		return stream.ParseStreamingJSON(a.Text())
	}
	return args
}

func (p *parser) push(b ai.Block, start string) int {
	p.emit(stream.Push(p.out, b, start))
	return len(p.out.Content) - 1
}

func (p *parser) ensureText() int {
	if p.text < 0 {
		p.text = p.push(&ai.TextBlock{}, stream.TypeTextStart)
	}
	return p.text
}

func (p *parser) ensureThinking(sig string) int {
	if p.think < 0 {
		p.think = p.push(&ai.ThinkingBlock{ThinkingSignature: &sig}, stream.TypeThinkingStart)
	}
	return p.think
}

// keptProp reads a member Pi keeps as it is when truthy (an id, a name).
func (p *parser) keptProp(v jsonv.Value) string {
	if !v.Truthy() {
		return ""
	}
	return stream.Kept(v, &p.outside)
}

// strProp reads a member Pi appends to a string when truthy.
func (p *parser) strProp(v jsonv.Value) string {
	if !v.Truthy() {
		return ""
	}
	if v.Kind() != jsonv.String {
		s := stream.ToString(v)
		p.outside = true
		return s
	}
	return v.Str()
}

// toolCallDelta is Pi's handling of one tool_calls entry: find the block by
// index, then by id, or open a new one; fill a missing id or name; append
// the argument text. Every entry emits a toolcall_delta.
func (p *parser) toolCallDelta(tc jsonv.Value) {
	if k := tc.Kind(); k == jsonv.Null {
		panic(jsError{Msg: "Cannot read properties of null (reading 'index')"})
	}
	var streamIndex *float64
	if idx := stream.Member(tc, "index"); idx.Kind() == jsonv.Number {
		f, _ := idx.Float64()
		streamIndex = &f
	}
	id := p.keptProp(stream.Member(tc, "id"))
	fn := stream.Member(tc, "function")
	i := -1
	if streamIndex != nil {
		if j, ok := p.byIndex[*streamIndex]; ok {
			i = j
		}
	}
	if i < 0 && id != "" {
		if j, ok := p.byID[id]; ok {
			i = j
		}
	}
	if i < 0 {
		b := &ai.ToolCallBlock{ID: id, Name: p.keptProp(stream.Member(fn, "name")), Arguments: jsonv.ObjectValue()}
		p.out.Content = append(p.out.Content, b)
		i = len(p.out.Content) - 1
		p.scratch[i] = &scratch{streamIndex: streamIndex}
		if streamIndex != nil {
			p.byIndex[*streamIndex] = i
		}
		if id != "" {
			p.byID[id] = i
		}
		p.emit(stream.Event{Type: stream.TypeToolCallStart, ContentIndex: i})
	}
	s := p.scratch[i]
	b := p.out.Content[i].(*ai.ToolCallBlock)
	if streamIndex != nil && s.streamIndex == nil {
		s.streamIndex = streamIndex
		p.byIndex[*streamIndex] = i
	}
	if id != "" {
		p.byID[id] = i
	}
	if b.ID != "" {
		if sig, ok := p.pending[b.ID]; ok {
			b.ThoughtSignature = &sig
			delete(p.pending, b.ID)
		}
	}
	if b.ID == "" && id != "" {
		b.ID = id
		p.byID[id] = i
	}
	if name := p.keptProp(stream.Member(fn, "name")); b.Name == "" && name != "" {
		b.Name = name
	}
	if args := stream.Member(fn, "arguments"); args.Truthy() {
		delta := p.strProp(args)
		b.Arguments = p.appendArgs(&s.args, delta)
		p.emit(stream.Event{Type: stream.TypeToolCallDelta, ContentIndex: i, Delta: delta})
	} else {
		p.emit(stream.Event{Type: stream.TypeToolCallDelta, ContentIndex: i})
	}
}
