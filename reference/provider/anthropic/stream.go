package anthropic

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/sse"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
	"github.com/piconform/piconform/reference/wtf8"
)

// Texts Pi uses for stream failures and placeholders.
const (
	RedactedThinkingText  = "[Reasoning redacted]"
	RefusalText           = "The model refused to complete the request"
	EndedBeforeStopText   = "Anthropic stream ended before message_stop"
	CouldNotParseSSEEvent = "Could not parse Anthropic SSE event "
	// Pi 1.6's texts: a stream that gave no stop reason, a fallback to
	// another model after content, a stop its safety filters made.
	EndedWithoutStopReasonText = "Anthropic stream ended without a stop reason"
	MidOutputFallbackText      = "Anthropic performed an unsupported mid-output model fallback"
	SensitiveText              = "Provider stopped with: sensitive"
)

// ParseStream is the stream.Parse of the Messages API's server-sent events.
func ParseStream(r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	return parseStream(dialect.V0_80, r, model, nil, now)
}

// parseResponse turns the response to a request into Pi's message and
// events: a 2xx status is a stream (with OAuth tool names mapped back to
// the context's spelling), anything else is ParseHTTPError.
func parseResponse(d dialect.Dialect, model *ai.Model, oauth bool, tools []ai.Tool, resp *http.Response, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, err := io.ReadAll(resp.Body)
		msg, events := stream.Failure(stream.NewOutputIn(d, model, model.API, now), HTTPErrorText(resp.StatusCode, data))
		return msg, events, err
	}
	var names func(string) string
	if oauth {
		names = func(n string) string { return fromClaudeCodeName(n, tools) }
	}
	return parseStream(d, resp.Body, model, names, now)
}

// ParseHTTPError is what Pi produces for a non-2xx response: a lone error
// event (there is no start) whose errorMessage is the SDK's
// "<status> <body>", the body re-serialized when it is JSON (or just its
// "message" member when that is set), "<status> status code (no body)" for
// an empty body.
func ParseHTTPError(model *ai.Model, status int, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event) {
	return stream.ModelFailure(model, HTTPErrorText(status, body), now)
}

// HTTPErrorText is the SDK's message for a non-2xx response (ParseHTTPError).
func HTTPErrorText(status int, body []byte) string {
	text := sse.Text(body)
	var msg string
	parsed, err := stream.ParseJSON(text)
	if err != nil || !parsed.Truthy() {
		msg = text
	} else if m := stream.Member(parsed, "message"); m.Truthy() {
		if m.Kind() == jsonv.String {
			msg = m.Str()
		} else {
			msg = m.String()
		}
	} else {
		msg = parsed.String()
	}
	if msg == "" {
		return fmt.Sprintf("%d status code (no body)", status)
	}
	return fmt.Sprintf("%d %s", status, msg)
}

// jsError is an exception thrown while Pi reads the stream.
type jsError = stream.JSError

// scratch is what Pi keeps on a block while it streams: the provider's
// index (deleted at content_block_stop) and, for tool calls, the raw
// argument text.
type scratch struct {
	index       jsonv.Value
	partialJSON *string
}

type parser struct {
	d     dialect.Dialect
	model *ai.Model
	// usageModel is the model the usage is priced with: the model, or
	// in 1.6 the allowed fallback model that answered, with its prices.
	usageModel *ai.Model
	names      func(string) string
	out        *ai.AssistantMessage
	scratch    []scratch
	events     []stream.Event
	outside    bool
	sawStart   bool
	sawStop    bool
	now        transform.Clock
	// open maps the provider's block indexes to content positions (Pi
	// 1.6's openBlocks: the last block started under an index, until its
	// stop); args are the argument streams of the tool calls, by content
	// position (1.6).
	open []openBlock
	args map[int]*stream.ToolCallArgs
	// transformations is the last input_transformations array the server
	// reported (1.6), Absent when none.
	transformations jsonv.Value
	// errorMessage is the message's errorMessage as Pi holds it while
	// the stream is read: a refusal's explanation as the server sent it,
	// whatever its type; the end makes it an Error, which converts it.
	errorMessage jsonv.Value
}

func parseStream(d dialect.Dialect, r io.Reader, model *ai.Model, names func(string) string, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	p := &parser{d: d, model: model, usageModel: model, names: names, out: stream.NewOutputIn(d, model, model.API, now), args: map[int]*stream.ToolCallArgs{}, now: now}
	p.emit(stream.Event{Type: stream.TypeStart})
	readErr := p.run(r)
	var err error
	switch {
	case readErr != nil:
		err = readErr
	case p.outside:
		err = stream.ErrOutsideModel
	}
	return p.out, p.events, err
}

func (p *parser) emit(e stream.Event) { p.events = append(p.events, e) }

// emitted is the number of events emitted so far (stream.Steps.Events).
func (p *parser) emitted() int { return len(p.events) }

// run drives the whole stream and ends it with done or error.
func (p *parser) run(r io.Reader) error {
	sse := &sse.Reader{}
	feed := func(data []byte, eof bool) bool {
		for _, ev := range sse.Feed(data, eof) {
			p.dispatch(ev)
		}
		return false
	}
	return stream.Run(r, stream.Steps{Feed: feed, End: p.end, Fail: func(msg string) {
		for i := range p.scratch {
			p.scratch[i] = scratch{}
		}
		p.finishBlocks()
		p.emit(stream.ErrorEvent(p.out, msg))
	}, Events: p.emitted})
}

// end is Pi's check of how the stream ended.
func (p *parser) end() {
	if p.sawStart && !p.sawStop {
		panic(jsError{Msg: EndedBeforeStopText})
	}
	stream.RequireStop(p.out, EndedWithoutStopReasonText)
	if p.out.StopReason == ai.StopError || p.out.StopReason == ai.StopAborted {
		msg := stream.UnknownErrorText
		if p.errorMessage.Truthy() {
			msg = stream.ToString(p.errorMessage)
		}
		panic(jsError{Msg: msg})
	}
	p.finishBlocks()
	p.noteTransformations()
	p.emit(stream.DoneEvent(p.out))
}

// finishBlocks writes leftover scratch members into the blocks: Pi leaks
// them into the final message when a block never got content_block_stop
// (ANT-043). On the error path fail cleared them first.
func (p *parser) finishBlocks() {
	if !leaksScratch.At(p.d) {
		return
	}
	for i, b := range p.out.Content {
		s := p.scratch[i]
		stream.Leak(b, s.partialJSON, s.index)
	}
}

// anthropicEvents are the SSE event names Pi reads; it ignores the others.
var anthropicEvents = map[string]bool{
	"message_start": true, "message_delta": true, "message_stop": true,
	"content_block_start": true, "content_block_delta": true, "content_block_stop": true,
}

// dispatch is Pi's iterateAnthropicEvents for one SSE event, then the
// handling of the event it yields.
func (p *parser) dispatch(ev sse.Event) {
	if ev.Name != nil && *ev.Name == "error" {
		panic(jsError{Msg: ev.Data})
	}
	if ev.Name == nil || !anthropicEvents[*ev.Name] {
		return
	}
	data, err := stream.ParseJSONWithRepair(ev.Data)
	if err == nil && data.Kind() == jsonv.Null {
		err = errors.New(stream.PropertyTypeError(data, "type").Msg)
	}
	if err != nil {
		panic(jsError{Msg: CouldNotParseSSEEvent + *ev.Name + ": " + err.Error() + "; data=" + ev.Data + "; raw=" + strings.Join(ev.Raw, `\n`)})
	}
	typ := stream.Member(data, "type")
	if typ.Kind() != jsonv.String {
		return
	}
	switch typ.Str() {
	case "message_start":
		p.sawStart = true
		p.messageStart(data)
	case "message_stop":
		p.sawStop = true
	case "content_block_start":
		p.blockStart(data)
	case "content_block_delta":
		p.blockDelta(data)
	case "content_block_stop":
		p.blockStop(data)
	case "message_delta":
		p.messageDelta(data)
	}
}

func (p *parser) messageStart(ev jsonv.Value) {
	msg := stream.Member(ev, "message")
	id := stream.Prop(msg, "id")
	p.out.ResponseID = nil
	switch id.Kind() {
	case jsonv.String:
		s := id.Str()
		p.out.ResponseID = &s
	case jsonv.Absent:
	default:
		p.outside = true
	}
	if answersModel.At(p.d) {
		if t := stream.Member(msg, "input_transformations"); t.Kind() == jsonv.Array {
			p.transformations = t
		}
		p.answeringModel(stream.Member(msg, "model"))
	}
	// The counts are kept as sent (`count || 0`), whatever their type.
	usage, u := stream.Member(msg, "usage"), &p.out.Usage
	u.Input = stream.Count(stream.Prop(usage, "input_tokens"))
	u.Output = stream.Count(stream.Member(usage, "output_tokens"))
	u.CacheRead = stream.Count(stream.Member(usage, "cache_read_input_tokens"))
	u.CacheWrite = stream.Count(stream.Member(usage, "cache_creation_input_tokens"))
	u.CacheWrite1h = stream.Count(stream.Member(stream.Member(usage, "cache_creation"), "ephemeral_1h_input_tokens"))
	p.updateUsage()
}

// updateUsage writes the counts' sum (JavaScript's +, which joins text) and
// the cost into the message.
func (p *parser) updateUsage() {
	u := &p.out.Usage
	u.TotalTokens = stream.Sum(u.Input, u.Output, u.CacheRead, u.CacheWrite)
	stream.PriceIn(p.d, p.usageModel, u)
}

// answeringModel notes the model message_start names (Pi 1.6): one other
// than the request's is the message's responseModel (none when the member
// is missing), and when it is one of the model's allowed fallback models
// of the same provider with prices of its own, the usage is priced with
// those.
func (p *parser) answeringModel(name jsonv.Value) {
	p.usageModel = p.model
	if jsonv.StrictEqual(name, p.model.IDValue()) {
		return
	}
	p.out.ResponseModel = p.optString(name)
	for _, f := range fallbacksOfAnswer(p.model) {
		if !jsonv.StrictEqual(stream.Member(f, "provider"), p.model.ProviderValue()) || !jsonv.StrictEqual(stream.Member(f, "model"), name) {
			continue
		}
		if cost := stream.Member(f, "cost"); cost.Truthy() {
			prices, _ := ai.DecodeModelCost(jsonv.ObjectValue(jsonv.Member{Key: "cost", Value: cost}), "")
			m := *p.model
			m.ID, m.Cost = name.Str(), prices
			p.usageModel = &m
		}
		return
	}
}

// noteTransformations records, on a finished answer, the changes the
// server reported making to the input (Pi 1.6): a diagnostic listing each
// one's type, path and reason (those that are set).
func (p *parser) noteTransformations() {
	list := p.transformations.Elems()
	if len(list) == 0 {
		return
	}
	items := make([]jsonv.Value, len(list))
	for i, t := range list {
		b := new(jsonv.ObjectBuilder)
		for _, key := range []string{"type", "path", "reason"} {
			if v := stream.Member(t, key); !v.IsNullish() {
				b.Set(key, stream.JSValue(v))
			}
		}
		items[i] = b.Value()
	}
	details := new(jsonv.ObjectBuilder).Set("transformations", jsonv.ArrayValue(items...)).Value()
	d := new(jsonv.ObjectBuilder).SetString("type", "anthropic_input_transformations").Set("timestamp", p.now()).Set("details", details)
	p.out.Diagnostics = jsonv.ArrayValue(append(p.out.Diagnostics.Elems(), d.Value())...)
}

func (p *parser) messageDelta(ev jsonv.Value) {
	delta := stream.Member(ev, "delta")
	reason := stream.Prop(delta, "stop_reason")
	if reason.Truthy() {
		stream.SetRawStopReason(p.out, stream.JSValue(reason))
		stop, errMsg := mapStopReason(p.d, reason, stream.Member(delta, "stop_details"))
		p.out.StopReason = stop
		if errMsg.Truthy() {
			p.errorMessage = errMsg
		}
	}
	// A count that is sent replaces the one before, whatever its type.
	usage, u := stream.Member(ev, "usage"), &p.out.Usage
	set := func(dst *jsonv.Value, v jsonv.Value) {
		if !v.IsNullish() {
			*dst = stream.JSValue(v)
		}
	}
	if readsFullDelta.At(p.d) {
		if t := stream.Member(ev, "input_transformations"); t.Kind() == jsonv.Array {
			p.transformations = t
		}
		if !usage.Truthy() {
			p.updateUsage()
			return
		}
	}
	set(&u.Input, stream.Prop(usage, "input_tokens"))
	set(&u.Output, stream.Member(usage, "output_tokens"))
	set(&u.CacheRead, stream.Member(usage, "cache_read_input_tokens"))
	set(&u.CacheWrite, stream.Member(usage, "cache_creation_input_tokens"))
	if readsFullDelta.At(p.d) {
		set(&u.CacheWrite1h, stream.Member(stream.Member(usage, "cache_creation"), "ephemeral_1h_input_tokens"))
		set(&u.Reasoning, stream.Member(stream.Member(usage, "output_tokens_details"), "thinking_tokens"))
	}
	p.updateUsage()
	if readsFullDelta.At(p.d) && stream.IsOpenRouter(p.model) {
		stream.ApplyOpenRouterCost(u, usage)
	}
}

// mapStopReason is Pi's stop-reason table. Refusal and sensitive are
// errors, a refusal's message its explanation as sent when that is
// truthy; a reason Pi does not know throws.
func mapStopReason(d dialect.Dialect, reason, details jsonv.Value) (stop string, errMsg jsonv.Value) {
	if reason.Kind() == jsonv.String {
		switch reason.Str() {
		case "end_turn", "pause_turn", "stop_sequence":
			return ai.StopStop, jsonv.Value{}
		case "max_tokens":
			return ai.StopLength, jsonv.Value{}
		case "tool_use":
			return ai.StopToolUse, jsonv.Value{}
		case "refusal":
			if e := stream.Member(details, "explanation"); e.Truthy() {
				return ai.StopError, e
			}
			return ai.StopError, jsonv.StringValue(RefusalText)
		case "sensitive":
			if text := sensitiveText.At(d); text != "" {
				return ai.StopError, jsonv.StringValue(text)
			}
			return ai.StopError, jsonv.Value{}
		}
	}
	panic(jsError{Msg: stream.UnhandledStopReason + stream.ToString(reason)})
}

func (p *parser) push(b ai.Block, s scratch, start string) {
	p.out.Content = append(p.out.Content, b)
	p.scratch = append(p.scratch, s)
	i := len(p.out.Content) - 1
	if tracksOpenBlocks.At(p.d) {
		p.track(s.index, i)
	}
	p.emit(stream.Event{Type: start, ContentIndex: i})
}

// openBlock is an entry of Pi 1.6's openBlocks: the provider's block
// index and the content position of the block last started under it.
type openBlock struct {
	index jsonv.Value
	at    int
}

// track makes index name content position i (Map.set).
func (p *parser) track(index jsonv.Value, i int) {
	for j := range p.open {
		if jsonv.SameValueZero(p.open[j].index, index) {
			p.open[j].at = i
			return
		}
	}
	p.open = append(p.open, openBlock{index: index, at: i})
}

// untrack forgets index (Map.delete).
func (p *parser) untrack(index jsonv.Value) {
	for j := range p.open {
		if jsonv.SameValueZero(p.open[j].index, index) {
			p.open = append(p.open[:j:j], p.open[j+1:]...)
			return
		}
	}
}

func (p *parser) blockStart(ev jsonv.Value) {
	cb := stream.Member(ev, "content_block")
	typ := stream.Prop(cb, "type")
	index := stream.JSValue(stream.Member(ev, "index"))
	if typ.Kind() != jsonv.String {
		return
	}
	initial := startsWithContent.At(p.d)
	switch typ.Str() {
	case "fallback":
		if initial && len(p.out.Content) > 0 {
			panic(jsError{Msg: MidOutputFallbackText})
		}
	case "text":
		b := &ai.TextBlock{}
		if initial {
			b.Text = p.initial(stream.Member(cb, "text"))
		}
		p.push(b, scratch{index: index}, stream.TypeTextStart)
	case "thinking":
		empty := ""
		b := &ai.ThinkingBlock{ThinkingSignature: &empty}
		if initial {
			b.Thinking = p.initial(stream.Member(cb, "thinking"))
			sig := p.initial(stream.Member(cb, "signature"))
			b.ThinkingSignature = &sig
		}
		p.push(b, scratch{index: index}, stream.TypeThinkingStart)
	case "redacted_thinking":
		redacted := true
		b := &ai.ThinkingBlock{Thinking: RedactedThinkingText, Redacted: &redacted}
		b.ThinkingSignature = p.optString(stream.Member(cb, "data"))
		p.push(b, scratch{index: index}, stream.TypeThinkingStart)
	case "tool_use":
		name := p.str(stream.Member(cb, "name"))
		if p.names != nil {
			name = p.names(name)
		}
		args := stream.Member(cb, "input")
		if args.IsNullish() {
			args = jsonv.ObjectValue()
		}
		empty := ""
		b := &ai.ToolCallBlock{ID: p.str(stream.Member(cb, "id")), Name: name, Arguments: stream.JSValue(args)}
		p.args[len(p.out.Content)] = new(stream.ToolCallArgs)
		p.push(b, scratch{index: index, partialJSON: &empty}, stream.TypeToolCallStart)
	}
}

// initial is a block's starting text as content_block_start sends it
// (`?? ""`), which Pi expects to be a string.
func (p *parser) initial(v jsonv.Value) string {
	if v.IsNullish() {
		return ""
	}
	return p.str(v)
}

// str reads a member that Pi expects to be a string.
func (p *parser) str(v jsonv.Value) string {
	if v.Kind() != jsonv.String {
		p.outside = true
	}
	return v.Str()
}

func (p *parser) optString(v jsonv.Value) *string {
	if v.IsAbsent() {
		return nil
	}
	s := p.str(v)
	return &s
}

// find is the content position of the block an event names by its
// index: Pi 0.80's blocks.findIndex(b => b.index === event.index), Pi
// 1.6's openBlocks.get(event.index); -1 for none.
func (p *parser) find(ev jsonv.Value) int {
	index := stream.JSValue(stream.Member(ev, "index"))
	if tracksOpenBlocks.At(p.d) {
		for _, o := range p.open {
			if jsonv.SameValueZero(o.index, index) {
				return o.at
			}
		}
		return -1
	}
	for i, s := range p.scratch {
		if jsonv.StrictEqual(s.index, index) {
			return i
		}
	}
	return -1
}

// delta is a delta that Pi expects to be a string, as its += makes it one.
func (p *parser) delta(v jsonv.Value) string {
	s := stream.ToString(v)
	if v.Kind() != jsonv.String {
		p.outside = true
	}
	return s
}

func (p *parser) blockDelta(ev jsonv.Value) {
	delta := stream.Member(ev, "delta")
	typ := stream.Prop(delta, "type")
	if typ.Kind() != jsonv.String {
		return
	}
	i := p.find(ev)
	if i < 0 {
		return
	}
	switch typ.Str() {
	case "text_delta":
		if b, ok := p.out.Content[i].(*ai.TextBlock); ok {
			p.emit(stream.AppendText(b, i, p.delta(stream.Member(delta, "text"))))
		}
	case "thinking_delta":
		if b, ok := p.out.Content[i].(*ai.ThinkingBlock); ok {
			p.emit(stream.AppendThinking(b, i, p.delta(stream.Member(delta, "thinking"))))
		}
	case "input_json_delta":
		if b, ok := p.out.Content[i].(*ai.ToolCallBlock); ok && tracksOpenBlocks.At(p.d) {
			delta := p.delta(stream.Member(delta, "partial_json"))
			b.Arguments = p.args[i].Append(delta)
			p.emit(stream.Event{Type: stream.TypeToolCallDelta, ContentIndex: i, Delta: delta})
		} else if ok {
			acc := "undefined" // the member was deleted by an earlier stop
			if s := p.scratch[i].partialJSON; s != nil {
				acc = *s
			}
			p.scratch[i].partialJSON = &acc
			p.emit(stream.AppendArgs(b, &acc, i, p.delta(stream.Member(delta, "partial_json"))))
		}
	case "signature_delta":
		if b, ok := p.out.Content[i].(*ai.ThinkingBlock); ok {
			sig := ""
			if b.ThinkingSignature != nil {
				sig = *b.ThinkingSignature
			}
			sig = wtf8.Concat(sig, p.delta(stream.Member(delta, "signature")))
			b.ThinkingSignature = &sig
		}
	}
}

func (p *parser) blockStop(ev jsonv.Value) {
	i := p.find(ev)
	if i < 0 {
		return
	}
	if tracksOpenBlocks.At(p.d) {
		p.untrack(stream.JSValue(stream.Member(ev, "index")))
	}
	p.scratch[i].index = jsonv.Value{}
	switch b := p.out.Content[i].(type) {
	case *ai.TextBlock:
		p.emit(stream.Event{Type: stream.TypeTextEnd, ContentIndex: i, Content: b.Text})
	case *ai.ThinkingBlock:
		p.emit(stream.Event{Type: stream.TypeThinkingEnd, ContentIndex: i, Content: b.Thinking})
	case *ai.ToolCallBlock:
		acc := ""
		if s := p.scratch[i].partialJSON; s != nil {
			acc = *s
		}
		if a := p.args[i]; tracksOpenBlocks.At(p.d) {
			acc = a.Text()
		}
		stream.FinishArguments(p.d, b, acc)
		p.scratch[i].partialJSON = nil
		snapshot := *b
		p.emit(stream.Event{Type: stream.TypeToolCallEnd, ContentIndex: i, ToolCall: &snapshot})
	}
}
