package openairesponses

import (
	"io"
	"math"
	"strconv"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/openaisdk"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// Texts of Pi 1.6's Responses reader.
const (
	// UnfinishedCallText starts the error of a response that stops for
	// tool use while a call never got its output_item.done; the call's
	// name and id follow: "<name> (<id>)".
	UnfinishedCallText = "OpenAI Responses stream completed with an unfinished tool call: "
	// IncompleteText starts the error of an incomplete response whose
	// reason is not max_output_tokens; the reason follows.
	IncompleteText = "Response incomplete: "
	// IncompleteNoReasonText is the error of an incomplete response that
	// gives no reason.
	IncompleteNoReasonText = "Response incomplete without a provider reason"
	// InputTransformationsDiagnostic is the type of the diagnostic that
	// lists replayed reasoning the API removed.
	InputTransformationsDiagnostic = "openai_input_transformations"
)

// slot is an output item being streamed, by its output_index: its block
// and, for a function call, its argument text.
type slot struct {
	typ   string // "thinking", "text" or "toolCall"
	block int
	args  *stream.ToolCallArgs
}

// slotReader is Pi 1.6's processResponsesStream: every output item has a
// slot keyed by its output_index, so items may interleave, a text delta
// needs no content part, and an output_item.done makes the block of an
// item never added. Tool-call arguments stream through a
// stream.ToolCallArgs and are parsed once when the call is done. The end
// of the stream is checked as Pi 1.6 does (end).
type slotReader struct {
	model       *ai.Model
	serviceTier *string
	resolveTier TierResolver
	noTier      bool
	// fastTier prices the "fast" service tier like "priority".
	fastTier bool
	now      transform.Clock

	out      *ai.AssistantMessage
	events   []stream.Event
	slots    map[string]*slot
	objects  int   // object and array output indexes seen (each its own key)
	open     []int // tool calls (content indexes) not done yet, in order
	reasoned map[string]int
	terminal bool
	outside  bool
}

func newSlotReader(model *ai.Model, now transform.Clock) *slotReader {
	return &slotReader{model: model, now: now, slots: map[string]*slot{}, reasoned: map[string]int{}}
}

// start begins the message (its start event included), as a stream of
// dialect d does.
func (r *slotReader) start(d dialect.Dialect) {
	r.out = stream.NewOutputIn(d, r.model, r.model.API, r.now)
	r.emit(stream.Event{Type: stream.TypeStart})
}

func (r *slotReader) emit(e stream.Event) { r.events = append(r.events, e) }

// indexKey is an output_index as a key of JavaScript's Map: numbers by
// value, strings apart from numbers, undefined and null each one key, and
// every object or array its own.
func (r *slotReader) indexKey(v jsonv.Value) string {
	switch v.Kind() {
	case jsonv.Absent:
		return "u"
	case jsonv.Null:
		return "n"
	case jsonv.Bool:
		return "b" + v.String()
	case jsonv.Number:
		f, _ := v.Float64()
		return "#" + jsonv.FormatFloat(f)
	case jsonv.String:
		return "s" + v.Str()
	}
	r.objects++
	return "o" + strconv.Itoa(r.objects)
}

// get is the slot at index when it holds a block of type typ.
func (r *slotReader) get(index jsonv.Value, typ string) *slot {
	if s := r.slots[r.indexKey(index)]; s != nil && s.typ == typ {
		return s
	}
	return nil
}

// str is a delta Pi appends with += and pushes as it is: another type
// than a string is outside the model (the event would carry it).
func (r *slotReader) str(v jsonv.Value) string {
	if v.Kind() != jsonv.String {
		r.outside = true
	}
	return stream.ToString(v)
}

// finalAnswer is Pi's rule that a message item in the final_answer phase
// stops the response.
func (r *slotReader) finalAnswer(item jsonv.Value) {
	if t := stream.Prop(item, "type"); t.Kind() == jsonv.String && t.Str() == "message" {
		if p := stream.Member(item, "phase"); p.Kind() == jsonv.String && p.Str() == "final_answer" {
			r.out.StopReason = ai.StopStop
		}
	}
}

// create makes the slot and block of an added item; nil for an item of a
// type Pi does not stream.
func (r *slotReader) create(index, item jsonv.Value) *slot {
	key := r.indexKey(index)
	var s *slot
	switch typeOf(item) {
	case "reasoning":
		s = &slot{typ: "thinking"}
		r.push(&ai.ThinkingBlock{}, stream.TypeThinkingStart, s)
	case "message":
		r.finalAnswer(item)
		s = &slot{typ: "text"}
		r.push(&ai.TextBlock{}, stream.TypeTextStart, s)
	case "function_call":
		s = &slot{typ: "toolCall", args: new(stream.ToolCallArgs)}
		args := jsonv.ObjectValue()
		if a := stream.Member(item, "arguments"); a.Truthy() {
			args = s.args.Append(stream.Kept(a, &r.outside))
		}
		b := &ai.ToolCallBlock{ID: callID(item), Name: stream.Kept(stream.Member(item, "name"), &r.outside), Arguments: args}
		if ns := stream.Member(item, "namespace"); !ns.IsAbsent() {
			b.Extra = []jsonv.Member{{Key: "namespace", Value: ns}}
		}
		r.push(b, stream.TypeToolCallStart, s)
		r.open = append(r.open, s.block)
	case "custom_tool_call":
		// Grammar tools (an opt-in of the model's compat) are not modelled.
		r.outside = true
		return nil
	default:
		return nil
	}
	r.slots[key] = s
	return s
}

func (r *slotReader) push(b ai.Block, start string, s *slot) {
	r.emit(stream.Push(r.out, b, start))
	s.block = len(r.out.Content) - 1
}

// handle is Pi 1.6's step for one event's data.
func (r *slotReader) handle(data jsonv.Value) {
	index := func() jsonv.Value { return stream.Member(data, "output_index") }
	switch typeOf(data) {
	case "response.created":
		setResponseID(r.out, stream.Prop(stream.Member(data, "response"), "id"), true, &r.outside)
	case "response.output_item.added":
		r.create(index(), stream.Member(data, "item"))
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		if s := r.get(index(), "thinking"); s != nil {
			r.emit(stream.AppendThinking(r.out.Content[s.block].(*ai.ThinkingBlock), s.block, r.str(stream.Member(data, "delta"))))
		}
	case "response.reasoning_summary_part.done":
		if s := r.get(index(), "thinking"); s != nil {
			r.emit(stream.AppendThinking(r.out.Content[s.block].(*ai.ThinkingBlock), s.block, "\n\n"))
		}
	case "response.output_text.delta", "response.refusal.delta":
		if s := r.get(index(), "text"); s != nil {
			r.emit(stream.AppendText(r.out.Content[s.block].(*ai.TextBlock), s.block, r.str(stream.Member(data, "delta"))))
		}
	case "response.function_call_arguments.delta":
		if s := r.get(index(), "toolCall"); s != nil {
			delta := stream.Member(data, "delta")
			if delta.Kind() != jsonv.String {
				r.outside = true // appended as text, pushed as it is
			}
			text := stream.ToString(delta)
			r.out.Content[s.block].(*ai.ToolCallBlock).Arguments = s.args.Append(text)
			if !delta.IsAbsent() {
				r.emit(stream.Event{Type: stream.TypeToolCallDelta, ContentIndex: s.block, Delta: text})
			}
		}
	case "response.function_call_arguments.done":
		if s := r.get(index(), "toolCall"); s != nil {
			a := stream.Member(data, "arguments")
			if a.Kind() != jsonv.String {
				if a.IsNullish() {
					panic(stream.PropertyTypeError(a, "startsWith"))
				}
				r.outside = true // text.startsWith is not a function
			}
			delta, ok, args := s.args.Replace(stream.ToString(a))
			r.out.Content[s.block].(*ai.ToolCallBlock).Arguments = args
			if ok && delta != "" {
				r.emit(stream.Event{Type: stream.TypeToolCallDelta, ContentIndex: s.block, Delta: delta})
			}
		}
	case "response.output_item.done":
		r.itemDone(index(), stream.Member(data, "item"))
	case "response.completed", "response.incomplete":
		r.finalize(stream.Member(data, "response"))
	case "error":
		panic(jsError{Msg: errorEventText(data)})
	case "response.failed":
		r.terminal = true
		resp := stream.Member(data, "response")
		stream.SetRawStopReason(r.out, stream.Member(resp, "status"))
		panic(jsError{Msg: failedText(resp)})
	}
}

// itemDone is Pi 1.6's output_item.done: the item's slot (made now when
// the item was never added) takes the item's final text, signature or
// arguments, when its type matches, and is closed.
func (r *slotReader) itemDone(index, item jsonv.Value) {
	r.finalAnswer(item)
	key := r.indexKey(index)
	s := r.slots[key]
	if s == nil {
		s = r.create(index, item)
	}
	if s == nil {
		return
	}
	typ := typeOf(item)
	switch {
	case typ == "reasoning" && s.typ == "thinking":
		b := r.out.Content[s.block].(*ai.ThinkingBlock)
		finishThinking(b, item, &r.outside)
		if id := stream.Member(item, "id"); id.Kind() == jsonv.String {
			r.reasoned[id.Str()] = s.block
		} else {
			r.outside = true // a Map key of another type
		}
		r.emit(stream.Event{Type: stream.TypeThinkingEnd, ContentIndex: s.block, Content: b.Thinking})
	case typ == "message" && s.typ == "text":
		b := r.out.Content[s.block].(*ai.TextBlock)
		finishText(b, item, &r.outside)
		r.emit(stream.Event{Type: stream.TypeTextEnd, ContentIndex: s.block, Content: b.Text})
	case typ == "function_call" && s.typ == "toolCall":
		b := r.out.Content[s.block].(*ai.ToolCallBlock)
		if a := stream.Member(item, "arguments"); a.Truthy() {
			s.args.Replace(stream.Kept(a, &r.outside))
		}
		args, argsErr := s.args.Finish()
		b.Arguments = args
		if argsErr != nil {
			b.Extra = setMember(b.Extra, "argumentsError", jsonv.StringValue(*argsErr))
		}
		if ns := stream.Member(item, "namespace"); !ns.IsAbsent() {
			b.Extra = setMember(b.Extra, "namespace", ns)
		}
		for i, c := range r.open {
			if c == s.block {
				r.open = append(r.open[:i:i], r.open[i+1:]...)
				break
			}
		}
		snapshot := *b
		snapshot.Extra = append([]jsonv.Member(nil), b.Extra...)
		r.emit(stream.Event{Type: stream.TypeToolCallEnd, ContentIndex: s.block, ToolCall: &snapshot})
	default:
		return
	}
	delete(r.slots, key)
}

// setMember is `obj[key] = v` on members: in place when key is there,
// else last.
func setMember(ms []jsonv.Member, key string, v jsonv.Value) []jsonv.Member {
	for i := range ms {
		if ms[i].Key == key {
			out := append([]jsonv.Member(nil), ms...)
			out[i].Value = v
			return out
		}
	}
	return append(ms[:len(ms):len(ms)], jsonv.Member{Key: key, Value: v})
}

// finishThinking makes b what a done reasoning item makes of its block:
// the item's summary texts joined by a blank line, else its content
// texts, else what streamed; the whole item as its signature.
func finishThinking(b *ai.ThinkingBlock, item jsonv.Value, outside *bool) {
	text := func(v jsonv.Value) jsonv.Value { return stream.Prop(v, "text") }
	summary := joinMember(stream.Member(item, "summary"), "\n\n", text, outside)
	content := joinMember(stream.Member(item, "content"), "\n\n", text, outside)
	switch {
	case summary != "":
		b.Thinking = summary
	case content != "":
		b.Thinking = content
	}
	sig := item.String()
	b.ThinkingSignature = &sig
}

// finishText makes b what a done message item makes of its block: its
// parts' texts (a refusal's refusal) joined, and its signature.
func finishText(b *ai.TextBlock, item jsonv.Value, outside *bool) {
	b.Text = joinMember(stream.Member(item, "content"), "", func(c jsonv.Value) jsonv.Value {
		if t := stream.Prop(c, "type"); t.Kind() == jsonv.String && t.Str() == "output_text" {
			return stream.Member(c, "text")
		}
		return stream.Member(c, "refusal")
	}, outside)
	sig := textSignatureOf(item)
	b.TextSignature = &sig
}

// textSignatureOf is the signature Pi writes for a message item:
// {"v":1,"id":…} and its phase when truthy.
func textSignatureOf(item jsonv.Value) string {
	sig := new(jsonv.ObjectBuilder).Set("v", jsonv.NumberValue("1")).Set("id", stream.Member(item, "id"))
	if phase := stream.Member(item, "phase"); phase.Truthy() {
		sig.Set("phase", phase)
	}
	return sig.Value().String()
}

// finalize is Pi 1.6's handling of response.completed and
// response.incomplete.
func (r *slotReader) finalize(resp jsonv.Value) {
	r.terminal = true
	r.backfill(stream.Nullish(stream.Prop(resp, "output"), jsonv.ArrayValue()))
	r.removals(stream.Member(resp, "input_transformations"))
	if id := stream.Member(resp, "id"); id.Truthy() {
		setResponseID(r.out, id, false, &r.outside)
	}
	if usage := stream.Member(resp, "usage"); usage.Truthy() {
		details := stream.Member(usage, "input_tokens_details")
		cached := stream.Count(stream.Member(details, "cached_tokens"))
		written := stream.Count(stream.Member(details, "cache_write_tokens"))
		input := stream.Minus(stream.Minus(stream.Count(stream.Member(usage, "input_tokens")), cached), written)
		if f, _ := input.Float64(); input.Kind() == jsonv.Number && !(f >= 0) && !math.IsNaN(f) {
			input = stream.Zero
		}
		zero := stream.Zero
		r.out.Usage = ai.Usage{
			Input: input, Output: stream.Count(stream.Member(usage, "output_tokens")), CacheRead: cached, CacheWrite: written,
			Reasoning:   stream.Count(stream.Member(stream.Member(usage, "output_tokens_details"), "reasoning_tokens")),
			TotalTokens: stream.Count(stream.Member(usage, "total_tokens")),
			Cost:        ai.Cost{Input: zero, Output: zero, CacheRead: zero, CacheWrite: zero, Total: zero},
		}
	}
	stream.PriceIn(r.out.Dialect, r.model, &r.out.Usage)
	if !r.noTier {
		tier := resolvedTier(stream.Member(resp, "service_tier"), r.serviceTier, r.resolveTier)
		scaleCost(&r.out.Usage.Cost, tierMultiplierOf(r.model, tier, r.fastTier))
	}
	status := stream.Member(resp, "status")
	reason := stream.Member(stream.Member(resp, "incomplete_details"), "reason")
	raw := status
	if reason.Kind() == jsonv.String && reason.Str() != "" {
		raw = jsonv.StringValue(stream.ToString(status) + "." + reason.Str())
	}
	stream.SetRawStopReason(r.out, raw)
	stop, msg := mapStatus16(status, reason)
	r.out.StopReason, r.out.ErrorMessage = stop, msg
	if stop == ai.StopStop {
		for _, b := range r.out.Content {
			if _, ok := b.(*ai.ToolCallBlock); ok {
				r.out.StopReason = ai.StopToolUse
				break
			}
		}
	}
}

// mapStatus16 is Pi 1.6's status table: an incomplete response stops for
// length only when the reason is max_output_tokens, and is an error
// otherwise; an unknown status throws.
func mapStatus16(status, reason jsonv.Value) (string, *string) {
	if !status.Truthy() {
		return ai.StopStop, nil
	}
	if status.Kind() == jsonv.String {
		switch status.Str() {
		case "completed", "in_progress", "queued":
			return ai.StopStop, nil
		case "incomplete":
			if reason.Kind() != jsonv.String || reason.Str() == "" {
				msg := IncompleteNoReasonText
				return ai.StopError, &msg
			}
			if reason.Str() == "max_output_tokens" {
				return ai.StopLength, nil
			}
			msg := IncompleteText + reason.Str()
			return ai.StopError, &msg
		case "failed", "cancelled":
			return ai.StopError, nil
		}
	}
	panic(jsError{Msg: stream.UnhandledStopReason + stream.ToString(status)})
}

// backfill gives a reasoning block whose stored item lacks
// encrypted_content the one the final response's output holds for the
// same item id.
func (r *slotReader) backfill(output jsonv.Value) {
	if output.Kind() != jsonv.Array {
		r.outside = true // another iterable, or a TypeError
		return
	}
	for _, item := range output.Elems() {
		enc := stream.Member(item, "encrypted_content")
		if typeOf(item) != "reasoning" || !enc.Truthy() {
			continue
		}
		id := stream.Member(item, "id")
		if id.Kind() != jsonv.String {
			continue
		}
		i, ok := r.reasoned[id.Str()]
		if !ok {
			continue
		}
		b := r.out.Content[i].(*ai.ThinkingBlock)
		if b.ThinkingSignature == nil || *b.ThinkingSignature == "" {
			continue
		}
		stored, err := stream.ParseJSON(*b.ThinkingSignature)
		if err != nil {
			panic(jsError{Msg: err.Error()})
		}
		if stream.Member(stored, "encrypted_content").Truthy() {
			continue
		}
		var ms []jsonv.Member
		if stored.Kind() == jsonv.Object {
			ms = stored.Members()
		}
		sig := jsonv.ObjectValue(setMember(ms, "encrypted_content", enc)...).String()
		b.ThinkingSignature = &sig
	}
}

// removals records the replayed reasoning the API says it removed (but
// for turn_boundary removals) as a diagnostic on the message.
func (r *slotReader) removals(transformations jsonv.Value) {
	if transformations.Kind() != jsonv.Array {
		return
	}
	var kept []jsonv.Value
	for _, t := range transformations.Elems() {
		is := func(key, want string) bool {
			v := stream.Member(t, key)
			return v.Kind() == jsonv.String && v.Str() == want
		}
		if is("type", "reasoning") && is("action", "removed") && !is("reason", "turn_boundary") {
			b := new(jsonv.ObjectBuilder)
			for _, k := range []string{"type", "id", "action", "reason"} {
				b.Set(k, stream.Member(t, k))
			}
			kept = append(kept, b.Value())
		}
	}
	if len(kept) == 0 {
		return
	}
	d := jsonv.ObjectValue(
		jsonv.Member{Key: "type", Value: jsonv.StringValue(InputTransformationsDiagnostic)},
		jsonv.Member{Key: "timestamp", Value: r.now()},
		jsonv.Member{Key: "details", Value: jsonv.ObjectValue(jsonv.Member{Key: "transformations", Value: jsonv.ArrayValue(kept...)})},
	)
	r.out.Diagnostics = jsonv.ArrayValue(append(append([]jsonv.Value(nil), r.out.Diagnostics.Elems()...), d)...)
}

// end is Pi 1.6's check once the events are read (processResponsesStream's,
// then the API's): a terminal event must have come, a response that stops
// for tool use must have finished every call, the message must have a stop
// reason (else the API's pendingText), and one that stops with an error
// fails with its errorMessage. Then the done event.
func (r *slotReader) end(pendingText string) {
	if !r.terminal {
		panic(jsError{Msg: EndedEarlyText})
	}
	if r.out.StopReason == ai.StopToolUse && len(r.open) > 0 {
		b := r.out.Content[r.open[0]].(*ai.ToolCallBlock)
		panic(jsError{Msg: UnfinishedCallText + b.Name + " (" + b.ID + ")"})
	}
	stream.RequireStop(r.out, pendingText)
	if r.out.StopReason == ai.StopError || r.out.StopReason == ai.StopAborted {
		msg := stream.UnknownErrorText
		if r.out.ErrorMessage != nil && *r.out.ErrorMessage != "" {
			msg = *r.out.ErrorMessage
		}
		panic(jsError{Msg: msg})
	}
	r.emit(stream.DoneEvent(r.out))
}

// fail ends the message with an error event carrying msg, which Pi 1.6's
// catch words as the API does (decorate, when set).
func (r *slotReader) fail(msg string, decorate func(string) string) {
	if decorate != nil {
		msg = decorate(msg)
	}
	r.emit(stream.ErrorEvent(r.out, msg))
}

// tierMultiplierOf scales the cost for the flex and priority tiers (and
// "fast", priced as priority, where fast is set).
func tierMultiplierOf(model *ai.Model, tier jsonv.Value, fast bool) float64 {
	if fast && tier.Kind() == jsonv.String && tier.Str() == "fast" {
		tier = jsonv.StringValue("priority")
	}
	return tierMultiplier(model, tier)
}

// resolvedTier is the service tier that prices an answer: resolve's pick
// of the answer's and the requested one when set, else the answer's unless
// it is undefined or null, else the requested one.
func resolvedTier(answer jsonv.Value, requested *string, resolve TierResolver) jsonv.Value {
	switch {
	case resolve != nil:
		return resolve(answer, requested)
	case answer.IsNullish() && requested != nil:
		return jsonv.StringValue(*requested)
	}
	return answer
}

// scaleCost multiplies every cost by m and sums them again, as Pi's
// applyServiceTierPricing does (1 leaves the cost alone).
func scaleCost(c *ai.Cost, m float64) {
	if m == 1 {
		return
	}
	// A null cost is the NaN a price of another type gave.
	num := func(v jsonv.Value) float64 {
		if v.Kind() == jsonv.Null {
			return math.NaN()
		}
		f, _ := v.Float64()
		return f
	}
	in, out, cr, cw := num(c.Input)*m, num(c.Output)*m, num(c.CacheRead)*m, num(c.CacheWrite)*m
	c.Input, c.Output, c.CacheRead, c.CacheWrite = jsonv.FloatValue(in), jsonv.FloatValue(out), jsonv.FloatValue(cr), jsonv.FloatValue(cw)
	c.Total = jsonv.FloatValue(in + out + cr + cw)
}

// Flavor is what one Responses API (this one, Azure's, Codex's) adds to
// the shared reading of its answer.
type Flavor struct {
	// Requested is the request's service tier (nil when none was).
	Requested *string
	// NoTier turns the service-tier pricing off entirely (Azure).
	NoTier bool
	// Resolve, when set, picks the tier that prices the answer (Codex);
	// unset, the answer's wins unless it is undefined or null.
	Resolve TierResolver
	// PendingText is Pi 1.6's error of a stream that ends without a stop
	// reason, which names the API.
	PendingText string
	// FastTier prices the "fast" tier like "priority" (openai-responses of
	// Pi 1.6).
	FastTier bool
	// Decorate, when set, is the API's last word on an error message (Pi
	// 1.6's openai-responses adds a hint to ChatGPT usage limits).
	Decorate func(msg string) string
}

// ParseStreamIn reads a 2xx response body of a Responses API (flavor f)
// as Pi of dialect d does: its openai SDK frames and screens the events,
// then the reader of d (parser for 0.80, slotReader from 1.6 on) makes the
// message and events.
func ParseStreamIn(d dialect.Dialect, r io.Reader, model *ai.Model, f Flavor, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	if !readsBySlot.At(d) {
		return parseStreamWith(&parser{model: model, serviceTier: f.Requested, noTier: f.NoTier, resolveTier: f.Resolve}, r, now)
	}
	sr := newSlotReader(model, now)
	sr.configure(f)
	sr.start(d)
	sdk := openaisdk.Stream{Dialect: d}
	sse := openaisdk.NewReader(d)
	feed := func(data []byte, eof bool) bool {
		for _, ev := range sse.Feed(data, eof) {
			data, errMember, ok := sdk.Next(ev)
			switch {
			case !ok:
			case !errMember.IsAbsent():
				panic(jsError{Msg: openaisdk.ErrorMessage(0, errMember, jsonv.Value{})})
			default:
				sr.handle(data)
			}
		}
		return false
	}
	err := stream.Run(r, stream.Steps{
		Feed: feed, End: func() { sr.end(f.PendingText) }, Fail: func(msg string) { sr.fail(msg, f.Decorate) },
		Events: func() int { return len(sr.events) },
	})
	return sr.out, sr.events, stream.Outcome(err, sr.outside)
}

func (r *slotReader) configure(f Flavor) {
	r.serviceTier, r.noTier, r.resolveTier, r.fastTier = f.Requested, f.NoTier, f.Resolve, f.FastTier
}
