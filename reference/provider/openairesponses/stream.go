package openairesponses

import (
	"fmt"
	"io"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/openaisdk"
	"github.com/piconform/piconform/reference/provider/sse"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
	"github.com/piconform/piconform/reference/wtf8"
)

// Texts Pi uses for stream failures.
const (
	EndedEarlyText     = "OpenAI Responses stream ended before a terminal response event"
	NoErrorDetailsText = "Unknown error (no error details in response)"
)

// ParseStream is the stream.Parse of the Responses API's server-sent
// events.
func ParseStream(r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	return parseStream(r, model, nil, now)
}

// ParseStreamUnpriced is ParseStream for the variants of this API that
// never scale the cost by a service tier, not even one the answer names.
func ParseStreamUnpriced(r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	return parseStreamWith(&parser{model: model, noTier: true}, r, now)
}

// ParseHTTPError is what Pi produces for a non-2xx response: a lone error
// event whose errorMessage is "OpenAI API error (<status>): " followed by
// the SDK's message, "<status> <text>" (the text from the body's "error"
// member, or the body when it is not JSON) or "<status> status code (no
// body)". Its error, the shape provider.Answer reads, is always nil.
func ParseHTTPError(model *ai.Model, status int, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	msg, events := stream.ModelFailure(model, fmt.Sprintf("OpenAI API error (%d): %s", status, HTTPErrorText(status, body)), now)
	return msg, events, nil
}

// HTTPErrorText is the openai SDK's message for a non-2xx response,
// without Pi's prefix: "<status> <text>" or "<status> status code (no
// body)".
func HTTPErrorText(status int, body []byte) string {
	errMember, message := openaisdk.BodyError(body)
	return openaisdk.ErrorMessage(status, errMember, message)
}

// jsError is an exception thrown while Pi reads the stream.
type jsError = stream.JSError

// item is what Pi keeps of the output item being streamed: its type and
// the summary or content parts recorded so far (nil while the item's own
// member is missing).
type item struct {
	typ   string
	parts *[]jsonv.Value
	// appended is 1 + the index of the last part Pi has appended a delta
	// to: that part's text is a string from then on.
	appended int
}

type parser struct {
	model       *ai.Model
	serviceTier *string
	out         *ai.AssistantMessage
	events      []stream.Event
	// partial is the raw argument text of each tool-call block, nil once
	// the call is done.
	partial  map[int]*string
	cur      item
	block    int // the block being streamed, -1 for none
	terminal bool
	sdk      openaisdk.Stream
	outside  bool
	// noTier turns the service-tier pricing off entirely.
	noTier bool
	// resolveTier, when set, picks the tier that prices the answer from
	// the answer's service_tier and the requested one (serviceTier);
	// unset, the answer's wins unless it is undefined or null.
	resolveTier func(answer jsonv.Value, requested *string) jsonv.Value
}

func parseStream(r io.Reader, model *ai.Model, tier *string, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	return parseStreamWith(&parser{model: model, serviceTier: tier}, r, now)
}

func parseStreamWith(p *parser, r io.Reader, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	p.out, p.partial, p.block = stream.NewOutput(p.model, p.model.API, now), map[int]*string{}, -1
	p.emit(stream.Event{Type: stream.TypeStart})
	err := stream.Outcome(p.run(r), p.outside)
	return p.out, p.events, err
}

func (p *parser) emit(e stream.Event) { p.events = append(p.events, e) }

// emitted is the number of events emitted so far (stream.Steps.Events).
func (p *parser) emitted() int { return len(p.events) }

func (p *parser) last() int { return len(p.out.Content) - 1 }

func (p *parser) run(r io.Reader) error {
	sse := &sse.Reader{BOMEachLine: true, DropUnfinished: true}
	feed := func(data []byte, eof bool) bool {
		for _, ev := range sse.Feed(data, eof) {
			p.dispatch(ev)
		}
		return false
	}
	return stream.Run(r, stream.Steps{Feed: feed, End: p.end, Fail: p.fail, Events: p.emitted})
}

// fail ends the message with an error event carrying msg; the blocks
// keep no scratch members.
func (p *parser) fail(msg string) {
	p.partial = map[int]*string{}
	p.finishBlocks()
	p.emit(stream.ErrorEvent(p.out, msg))
}

// end is Pi's check of how the stream ended.
func (p *parser) end() {
	if !p.terminal {
		panic(jsError{Msg: EndedEarlyText})
	}
	if p.out.StopReason == ai.StopError || p.out.StopReason == ai.StopAborted {
		panic(jsError{Msg: stream.UnknownErrorText})
	}
	p.finishBlocks()
	p.emit(stream.DoneEvent(p.out))
}

// finishBlocks leaves the raw argument text of a tool call that never got
// its output_item.done in the final message, as Pi does.
func (p *parser) finishBlocks() {
	for i, b := range p.out.Content {
		if tc, ok := b.(*ai.ToolCallBlock); ok {
			tc.Extra = nil
			if s := p.partial[i]; s != nil {
				tc.Extra = []jsonv.Member{{Key: "partialJson", Value: jsonv.StringValue(*s)}}
			}
		}
	}
}

// dispatch is the SDK's handling of one server-sent event, then Pi's.
func (p *parser) dispatch(ev sse.Event) {
	data, errMember, ok := p.sdk.Next(ev)
	switch {
	case !ok:
	case errMember.Truthy():
		panic(jsError{Msg: openaisdk.ErrorMessage(0, errMember, jsonv.Value{})})
	default:
		p.handle(data)
	}
}

// typeOf is `v.type` where Pi switches on it: V8's TypeError when v is
// undefined or null, and "" (which no case names) when it is not a string.
func typeOf(v jsonv.Value) string {
	if t := stream.Prop(v, "type"); t.Kind() == jsonv.String {
		return t.Str()
	}
	return ""
}

// handle is Pi's processResponsesStream step for one event's data.
func (p *parser) handle(data jsonv.Value) {
	switch typeOf(data) {
	case "response.created":
		p.setResponseID(stream.Prop(stream.Member(data, "response"), "id"), true)
	case "response.output_item.added":
		p.itemAdded(stream.Member(data, "item"))
	case "response.reasoning_summary_part.added":
		if p.cur.typ == "reasoning" {
			p.ensureParts()
			*p.cur.parts = append(*p.cur.parts, stream.Member(data, "part"))
		}
	case "response.reasoning_summary_text.delta":
		if p.inReasoning() && p.lastPartOK("") {
			p.thinkingDelta(stream.Member(data, "delta"), true)
		}
	case "response.reasoning_summary_part.done":
		if p.inReasoning() && p.lastPartOK("") {
			p.thinkingDelta(jsonv.StringValue("\n\n"), true)
		}
	case "response.reasoning_text.delta":
		if p.inReasoning() {
			p.thinkingDelta(stream.Member(data, "delta"), false)
		}
	case "response.content_part.added":
		if p.cur.typ == "message" {
			p.ensureParts()
			part := stream.Member(data, "part")
			if t := stream.Prop(part, "type"); t.Kind() == jsonv.String && (t.Str() == "output_text" || t.Str() == "refusal") {
				*p.cur.parts = append(*p.cur.parts, part)
			}
		}
	case "response.output_text.delta":
		p.textDelta(data, "output_text")
	case "response.refusal.delta":
		p.textDelta(data, "refusal")
	case "response.function_call_arguments.delta":
		if tc := p.currentToolCall(); tc != nil && p.cur.typ == "function_call" {
			acc := p.partialText()
			p.partial[p.block] = &acc
			p.emit(stream.AppendArgs(tc, &acc, p.last(), p.str(stream.Member(data, "delta"))))
		}
	case "response.function_call_arguments.done":
		if tc := p.currentToolCall(); tc != nil && p.cur.typ == "function_call" {
			prev := wtf8.ToUTF16(p.partialText())
			args := stream.Kept(stream.Member(data, "arguments"), &p.outside)
			p.partial[p.block] = &args
			tc.Arguments = stream.ParseStreamingJSON(args)
			units := wtf8.ToUTF16(args)
			if len(units) > len(prev) && equalUnits(units[:len(prev)], prev) {
				p.emit(stream.Event{Type: stream.TypeToolCallDelta, ContentIndex: p.last(), Delta: wtf8.FromUTF16(units[len(prev):])})
			}
		}
	case "response.output_item.done":
		p.itemDone(stream.Member(data, "item"))
	case "response.completed", "response.incomplete":
		p.finalize(stream.Member(data, "response"))
	case "error":
		panic(jsError{Msg: errorEventText(data)})
	case "response.failed":
		p.terminal = true
		panic(jsError{Msg: failedText(stream.Member(data, "response"))})
	}
}

// errorEventText is Pi's error for an event of type error.
func errorEventText(data jsonv.Value) string {
	return "Error Code " + stream.ToString(stream.Member(data, "code")) + ": " + stream.ToString(stream.Member(data, "message"))
}

// failedText is Pi's error for response.failed: the error's code and
// message, else the reason it is incomplete, else NoErrorDetailsText.
func failedText(resp jsonv.Value) string {
	if e := stream.Member(resp, "error"); e.Truthy() {
		code := stream.Or(stream.Member(e, "code"), jsonv.StringValue("unknown"))
		msg := stream.Or(stream.Member(e, "message"), jsonv.StringValue("no message"))
		return stream.ToString(code) + ": " + stream.ToString(msg)
	}
	if reason := stream.Member(stream.Member(resp, "incomplete_details"), "reason"); reason.Truthy() {
		return "incomplete: " + stream.ToString(reason)
	}
	return NoErrorDetailsText
}

func equalUnits(a, b []uint16) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (p *parser) setResponseID(id jsonv.Value, always bool) {
	setResponseID(p.out, id, always, &p.outside)
}

// setResponseID is Pi's `output.responseId = id`: always set (undefined
// clears it) or, without always, only ever given a truthy id. An id of
// another type than a string sets outside.
func setResponseID(out *ai.AssistantMessage, id jsonv.Value, always bool, outside *bool) {
	switch id.Kind() {
	case jsonv.String:
		s := id.Str()
		out.ResponseID = &s
	case jsonv.Absent:
		if always {
			out.ResponseID = nil
		}
	default:
		*outside = true
	}
}

// str reads a member Pi expects to be a string, as `+=` would turn it into
// one (and throw where String() does).
func (p *parser) str(v jsonv.Value) string {
	s := stream.ToString(v)
	if v.Kind() != jsonv.String {
		p.outside = true
	}
	return s
}

func (p *parser) ensureParts() {
	if p.cur.parts == nil {
		empty := []jsonv.Value{}
		p.cur.parts = &empty
	}
}

// lastPartOK reports whether the current item's last recorded part is
// truthy and, when typ is set, of that type.
func (p *parser) lastPartOK(typ string) bool {
	p.ensureParts()
	parts := *p.cur.parts
	if len(parts) == 0 {
		return false
	}
	last := parts[len(parts)-1]
	if typ == "" {
		if last.Truthy() && last.Kind() != jsonv.Object {
			p.outside = true
		}
		return last.Truthy()
	}
	t := stream.Member(last, "type")
	return t.Kind() == jsonv.String && t.Str() == typ
}

func (p *parser) inReasoning() bool {
	if p.cur.typ != "reasoning" || p.block < 0 {
		return false
	}
	_, ok := p.out.Content[p.block].(*ai.ThinkingBlock)
	return ok
}

// thinkingDelta appends v to the thinking block and, for a summary delta
// (toPart), to the last summary part's text.
func (p *parser) thinkingDelta(v jsonv.Value, toPart bool) {
	b := p.out.Content[p.block].(*ai.ThinkingBlock)
	e := stream.AppendThinking(b, p.last(), p.str(v))
	if toPart {
		p.appendToLastPart("text")
	}
	p.emit(e)
}

// appendToLastPart is Pi's `lastPart[key] += delta` after the block has
// taken the delta: the first append converts the part's own value, which
// throws for one with no string form, the delta event then unsent.
func (p *parser) appendToLastPart(key string) {
	parts := *p.cur.parts
	if p.cur.appended == len(parts) {
		return
	}
	p.cur.appended = len(parts)
	if stream.Member(parts[len(parts)-1], key).ConversionThrows() {
		panic(jsError{Msg: stream.NoPrimitiveText})
	}
}

func (p *parser) textDelta(data jsonv.Value, typ string) {
	if p.cur.typ != "message" || p.block < 0 {
		return
	}
	b, ok := p.out.Content[p.block].(*ai.TextBlock)
	if !ok || p.cur.parts == nil || len(*p.cur.parts) == 0 || !p.lastPartOK(typ) {
		return
	}
	e := stream.AppendText(b, p.last(), p.str(stream.Member(data, "delta")))
	key := "text"
	if typ == "refusal" {
		key = "refusal"
	}
	p.appendToLastPart(key)
	p.emit(e)
}

func (p *parser) currentToolCall() *ai.ToolCallBlock {
	if p.block < 0 {
		return nil
	}
	tc, _ := p.out.Content[p.block].(*ai.ToolCallBlock)
	return tc
}

func (p *parser) partialText() string {
	if s := p.partial[p.block]; s != nil {
		return *s
	}
	return "undefined"
}

// listOf reads an item's summary or content as Pi finds it: nil when the
// member is missing or falsy.
func (p *parser) listOf(v jsonv.Value) *[]jsonv.Value {
	switch {
	case v.Kind() == jsonv.Array:
		elems := append([]jsonv.Value{}, v.Elems()...)
		return &elems
	case v.Truthy():
		p.outside = true
	}
	return nil
}

func (p *parser) push(b ai.Block, start string) {
	p.out.Content = append(p.out.Content, b)
	p.block = p.last()
	p.emit(stream.Event{Type: start, ContentIndex: p.last()})
}

func (p *parser) itemAdded(it jsonv.Value) {
	switch typeOf(it) {
	case "reasoning":
		p.cur = item{typ: "reasoning", parts: p.listOf(stream.Member(it, "summary"))}
		p.push(&ai.ThinkingBlock{}, stream.TypeThinkingStart)
	case "message":
		p.cur = item{typ: "message", parts: p.listOf(stream.Member(it, "content"))}
		p.push(&ai.TextBlock{}, stream.TypeTextStart)
	case "function_call":
		p.cur = item{typ: "function_call"}
		raw := ""
		if a := stream.Member(it, "arguments"); a.Truthy() {
			raw = stream.Kept(a, &p.outside)
		}
		p.push(&ai.ToolCallBlock{ID: callID(it), Name: stream.Kept(stream.Member(it, "name"), &p.outside), Arguments: jsonv.ObjectValue()}, stream.TypeToolCallStart)
		p.partial[p.block] = &raw
	}
}

// callID is Pi's "<call_id>|<id>" for a function_call item.
func callID(it jsonv.Value) string {
	return stream.ToString(stream.Member(it, "call_id")) + "|" + stream.ToString(stream.Member(it, "id"))
}

// joinMember is `list?.map(x => x[key]).join(sep)`, "" for a missing list;
// a list that is not an array sets outside.
func joinMember(list jsonv.Value, sep string, pick func(jsonv.Value) jsonv.Value, outside *bool) string {
	switch list.Kind() {
	case jsonv.Absent, jsonv.Null:
		return ""
	case jsonv.Array:
	default:
		*outside = true
		return ""
	}
	parts := make([]string, len(list.Elems()))
	for i, e := range list.Elems() {
		v := pick(e)
		if k := v.Kind(); k != jsonv.Absent && k != jsonv.Null {
			parts[i] = stream.ToString(v)
		}
	}
	return wtf8.Concat(strings.Join(parts, sep))
}

func (p *parser) itemDone(it jsonv.Value) {
	var cur ai.Block
	if p.block >= 0 {
		cur = p.out.Content[p.block]
	}
	switch typeOf(it) {
	case "reasoning":
		b, ok := cur.(*ai.ThinkingBlock)
		if !ok {
			return
		}
		finishThinking(b, it, &p.outside)
		p.emit(stream.Event{Type: stream.TypeThinkingEnd, ContentIndex: p.last(), Content: b.Thinking})
		p.block = -1
	case "message":
		b, ok := cur.(*ai.TextBlock)
		if !ok {
			return
		}
		finishText(b, it, &p.outside)
		p.emit(stream.Event{Type: stream.TypeTextEnd, ContentIndex: p.last(), Content: b.Text})
		p.block = -1
	case "function_call":
		tc, isCall := cur.(*ai.ToolCallBlock)
		var args jsonv.Value
		if isCall && p.partial[p.block] != nil && *p.partial[p.block] != "" {
			args = stream.ParseStreamingJSON(*p.partial[p.block])
		} else {
			raw := "{}"
			if a := stream.Member(it, "arguments"); a.Truthy() {
				raw = stream.Kept(a, &p.outside)
			}
			args = stream.ParseStreamingJSON(raw)
		}
		if isCall {
			tc.Arguments = args
			p.partial[p.block] = nil
		} else {
			tc = &ai.ToolCallBlock{ID: callID(it), Name: stream.Kept(stream.Member(it, "name"), &p.outside), Arguments: args}
		}
		p.block = -1
		snapshot := *tc
		snapshot.Extra = nil
		p.emit(stream.Event{Type: stream.TypeToolCallEnd, ContentIndex: p.last(), ToolCall: &snapshot})
	}
}

// finalize is Pi's handling of response.completed and response.incomplete.
func (p *parser) finalize(resp jsonv.Value) {
	p.terminal = true
	if id := stream.Member(resp, "id"); id.Truthy() {
		p.setResponseID(id, false)
	}
	if usage := stream.Member(resp, "usage"); usage.Truthy() {
		cached := stream.Count(stream.Member(stream.Member(usage, "input_tokens_details"), "cached_tokens"))
		input := stream.Minus(stream.Count(stream.Member(usage, "input_tokens")), cached)
		zero := stream.Zero
		p.out.Usage = ai.Usage{
			Input:       input,
			Output:      stream.Count(stream.Member(usage, "output_tokens")),
			CacheRead:   cached,
			CacheWrite:  zero,
			TotalTokens: stream.Count(stream.Member(usage, "total_tokens")),
			Cost:        ai.Cost{Input: zero, Output: zero, CacheRead: zero, CacheWrite: zero, Total: zero},
		}
	}
	stream.Price(p.model, &p.out.Usage)
	if !p.noTier {
		tier := resolvedTier(stream.Member(resp, "service_tier"), p.serviceTier, p.resolveTier)
		scaleCost(&p.out.Usage.Cost, tierMultiplier(p.model, tier))
	}
	p.out.StopReason = mapStatus(stream.Member(resp, "status"))
	if p.out.StopReason == ai.StopStop {
		for _, b := range p.out.Content {
			if _, ok := b.(*ai.ToolCallBlock); ok {
				p.out.StopReason = ai.StopToolUse
				break
			}
		}
	}
}

// tierMultiplier scales the cost for the flex and priority tiers.
func tierMultiplier(model *ai.Model, tier jsonv.Value) float64 {
	if tier.Kind() != jsonv.String {
		return 1
	}
	switch tier.Str() {
	case "flex":
		return 0.5
	case "priority":
		if model.ID == "gpt-5.5" {
			return 2.5
		}
		return 2
	}
	return 1
}

// mapStatus is Pi's status table; an unknown status throws.
func mapStatus(status jsonv.Value) string {
	if !status.Truthy() {
		return ai.StopStop
	}
	if status.Kind() == jsonv.String {
		switch status.Str() {
		case "completed", "in_progress", "queued":
			return ai.StopStop
		case "incomplete":
			return ai.StopLength
		case "failed", "cancelled":
			return ai.StopError
		}
	}
	panic(jsError{Msg: stream.UnhandledStopReason + stream.ToString(status)})
}
