package google

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/sse"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// IncompleteJSONText is the SDK's error for a stream that ends inside a
// JSON segment.
const IncompleteJSONText = "Incomplete JSON segment at the end"

// Answers reads the answers of an API whose answers Pi reads with this
// API's code: this one, or one built on it (google-vertex). Each keeps its
// own count of the tool-call ids Pi makes up, as each of Pi's modules
// does.
type Answers struct {
	// API is the api the messages name, whatever model.api says.
	API string
	// Name is what Pi calls the API in its own errors ("Google").
	Name    string
	counter atomic.Int64
}

// Made is how many tool-call ids Pi made up for a's answers so far.
func (a *Answers) Made() int64 { return a.counter.Load() }

// answer reads this API's answers.
var answer = &Answers{API: API, Name: "Google"}

// ParseStream is the stream.Parse of streamGenerateContent's server-sent
// events in dialect 0.80; now also stamps any tool-call id Pi has to make
// up (Pi takes Date.now() for it too).
func ParseStream(r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	return answer.Parse(dialect.V0_80, r, model, now)
}

// Parse reads a 2xx body as Pi of dialect d does.
func (a *Answers) Parse(d dialect.Dialect, r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	if now == nil {
		now = transform.SystemClock
	}
	p := &parser{model: model, now: now, out: stream.NewOutputIn(d, model, a.API, now), answers: a, rules: rules(d)}
	p.emit(stream.Event{Type: stream.TypeStart})
	err := stream.Outcome(p.run(r), p.outside)
	return p.out, p.events, err
}

// Read turns a response into Pi's message and events in dialect d: a 2xx
// status is a stream, anything else is ParseHTTPErrorAs with the reason
// phrase and the content-type.
func (a *Answers) Read(d dialect.Dialect, model *ai.Model, resp *http.Response, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, err := io.ReadAll(resp.Body)
		msg, events := ParseHTTPErrorAs(a.API, model, resp.StatusCode, provider.StatusText(resp), strings.Join(resp.Header.Values("Content-Type"), ", "), data, now)
		return msg, events, err
	}
	return a.Parse(d, resp.Body, model, now)
}

// ParseHTTPError is what Pi produces for a non-2xx response: a lone error
// event (there is no start) whose errorMessage is the SDK's error body
// written with JSON.stringify. A body whose content-type contains
// "application/json" is that body re-serialized (or, when it is not JSON,
// JSON.parse's message); any other body becomes
// {"error":{"message":<text>,"code":<status>,"status":<statusText>}}.
func ParseHTTPError(model *ai.Model, status int, statusText, contentType string, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event) {
	return ParseHTTPErrorAs(API, model, status, statusText, contentType, body, now)
}

// ParseHTTPErrorAs is ParseHTTPError for an API whose error bodies are this
// one's (google-vertex); the message names api.
func ParseHTTPErrorAs(api string, model *ai.Model, status int, statusText, contentType string, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event) {
	text := sse.Text(body)
	var errorBody jsonv.Value
	if strings.Contains(contentType, "application/json") {
		v, err := stream.ParseJSON(text)
		if err != nil {
			return failureAs(api, model, err.Error(), now)
		}
		errorBody = v
	} else {
		inner := new(jsonv.ObjectBuilder).SetString("message", text).Set("code", jsonv.FloatValue(float64(status))).SetString("status", statusText)
		errorBody = new(jsonv.ObjectBuilder).Set("error", inner.Value()).Value()
	}
	return failureAs(api, model, string(errorBody.AppendJSON(nil)), now)
}

// failureAs is the message and lone error event of a request that failed
// before a response arrived, in a message that names api.
func failureAs(api string, model *ai.Model, message string, now transform.Clock) (*ai.AssistantMessage, []stream.Event) {
	return stream.Failure(stream.NewOutput(model, api, now), message)
}

// The message names this API (or the variant's), whatever model.api says,
// as Pi does.

// jsError is an exception thrown while Pi reads the stream.
type jsError = stream.JSError

// prop is `base.key` that throws like V8 when base is null.
func prop(base jsonv.Value, key string) jsonv.Value {
	if base.Kind() == jsonv.Null {
		panic(jsError{Msg: fmt.Sprintf("Cannot read properties of null (reading '%s')", key)})
	}
	return stream.Member(base, key)
}

// sdkMember is a member the SDK copies from the wire object into its
// response object: kept only when it is neither null nor missing.
func sdkMember(base jsonv.Value, key string) jsonv.Value {
	return stream.Member(base, key).NullAsAbsent()
}

type parser struct {
	model   *ai.Model
	now     transform.Clock
	out     *ai.AssistantMessage
	events  []stream.Event
	current ai.Block // the open text or thinking block, or nil
	outside bool
	// answers numbers the tool-call ids Pi makes up and names the API.
	answers *Answers
	rules   *release
}

func (p *parser) emit(e stream.Event) { p.events = append(p.events, e) }

// emitted is the number of events emitted so far (stream.Steps.Events).
func (p *parser) emitted() int { return len(p.events) }

func (p *parser) fail(msg string) { p.emit(stream.ErrorEvent(p.out, msg)) }

// run drives the whole stream and ends it with done or error.
func (p *parser) run(r io.Reader) error {
	var whole []byte
	sse := &sse.Splitter{}
	feed := func(data []byte, eof bool) bool {
		whole = append(whole, data...)
		for _, ev := range sse.Feed(data) {
			p.event(ev)
		}
		return false
	}
	end := func() {
		// The SDK tries each network read as a whole JSON object; a read
		// that is {"error":{...,"code":400..599}} fails the stream. The
		// reference treats the body as one read.
		if msg, ok := p.errorObject(whole); ok {
			panic(jsError{Msg: msg})
		}
		if !stream.IsBlank(sse.Rest()) {
			panic(jsError{Msg: IncompleteJSONText})
		}
		p.closeCurrent()
		if p.rules.finishRequired {
			stream.RequireStop(p.out, p.answers.Name+" stream ended without a finish reason")
		}
		if p.out.StopReason == ai.StopError || p.out.StopReason == ai.StopAborted {
			msg := stream.UnknownErrorText
			if p.rules.finishRequired && p.out.RawStopReason.Truthy() {
				msg = "Provider stopped with: " + stream.ToString(p.out.RawStopReason)
			}
			panic(jsError{Msg: msg})
		}
		p.emit(stream.DoneEvent(p.out))
	}
	return stream.Run(r, stream.Steps{Feed: feed, End: end, Fail: p.fail, Events: p.emitted})
}

// errorObject is the SDK's check of a read: JSON whose "error" member has
// a code from 400 to 599 makes the message "got status: <status>. <json>".
// SDK 1.x compares a code of any type (a string one the reference does not
// model); 2.x only takes a number code in an error that is an object.
// Either ignores the error when its status has no string form.
func (p *parser) errorObject(body []byte) (string, bool) {
	return p.errorJSON(sse.DecodeUTF8(sse.TrimIncomplete(sse.StripBOM(body))))
}

// errorJSON is errorObject of a text.
func (p *parser) errorJSON(text string) (string, bool) {
	v, err := stream.ParseJSON(text)
	if err != nil || v.Kind() != jsonv.Object {
		return "", false
	}
	e, ok := v.Get("error")
	if !ok || e.Kind() == jsonv.Null || p.rules.eventErrorObjects && e.Kind() != jsonv.Object && e.Kind() != jsonv.Array {
		return "", false
	}
	if stream.Member(e, "status").ConversionThrows() {
		// The SDK writes its message before it tests the code, and its
		// catch lets through nothing but its own error: the TypeError of
		// a status with no string form leaves the chunk unchecked.
		return "", false
	}
	code := stream.Member(e, "code")
	if code.Kind() == jsonv.String && !p.rules.eventErrorObjects {
		p.outside = true
	}
	f, isNum := code.Float64()
	if code.Kind() != jsonv.Number || !isNum || f < 400 || f >= 600 {
		return "", false
	}
	return "got status: " + stream.ToString(stream.Member(e, "status")) + ". " + string(v.AppendJSON(nil)), true
}

// event handles one piece of the body between two event delimiters: only
// a piece that starts with "data:" (after trimming) counts, and its rest
// is one JSON response chunk.
func (p *parser) event(piece string) {
	piece = stream.JSTrim(piece)
	if !strings.HasPrefix(piece, "data:") {
		return
	}
	data := stream.JSTrim(piece[len("data:"):])
	// SDK 2.x checks each event's data for an error object too.
	if p.rules.eventErrorObjects {
		if msg, ok := p.errorJSON(data); ok {
			panic(jsError{Msg: msg})
		}
	}
	chunk, err := stream.ParseJSON(data)
	if err != nil {
		panic(jsError{Msg: err.Error()})
	}
	p.chunk(chunk)
}

// chunk is one iteration of Pi's loop over GenerateContentResponse chunks.
func (p *parser) chunk(chunk jsonv.Value) {
	if !stream.KeepResponseID(p.out, sdkMember(chunk, "responseId")) {
		p.outside = true
	}
	var candidate jsonv.Value
	switch cands := sdkMember(chunk, "candidates"); cands.Kind() {
	case jsonv.Array:
		if len(cands.Elems()) > 0 {
			candidate = cands.Elems()[0]
		}
	case jsonv.Absent:
	default:
		p.outside = true
	}
	parts := stream.Member(sdkMember(candidate, "content"), "parts")
	switch {
	case parts.Kind() == jsonv.Array:
		for _, part := range parts.Elems() {
			p.part(part)
		}
	case parts.Truthy():
		p.outside = true
	}
	if reason := sdkMember(candidate, "finishReason"); reason.Truthy() {
		stream.SetRawStopReason(p.out, reason)
		p.out.StopReason = mapStopReason(reason, p.rules)
		// From 1.6 on only a clean stop becomes toolUse.
		upgrade := p.out.StopReason == ai.StopStop || !p.rules.finishRequired
		for _, b := range p.out.Content {
			if _, ok := b.(*ai.ToolCallBlock); ok && upgrade {
				p.out.StopReason = ai.StopToolUse
				break
			}
		}
	}
	if usage := sdkMember(chunk, "usageMetadata"); usage.Truthy() {
		cached := stream.Count(stream.Member(usage, "cachedContentTokenCount"))
		u := ai.ZeroUsage()
		u.Input = stream.Minus(stream.Count(stream.Member(usage, "promptTokenCount")), cached)
		u.Output = stream.Plus(stream.Count(stream.Member(usage, "candidatesTokenCount")), stream.Count(stream.Member(usage, "thoughtsTokenCount")))
		u.CacheRead = cached
		if p.rules.reasoningUsage {
			u.Reasoning = stream.Count(stream.Member(usage, "thoughtsTokenCount"))
		}
		u.TotalTokens = stream.Count(stream.Member(usage, "totalTokenCount"))
		// Pi stores the counts before it prices them: they stay when that throws.
		p.out.Usage = u
		stream.PriceIn(p.out.Dialect, p.model, &p.out.Usage)
	}
}

// mapStopReason is Pi's finishReason table of release r; a reason it does
// not know throws.
func mapStopReason(reason jsonv.Value, r *release) string {
	if reason.Kind() == jsonv.String {
		switch reason.Str() {
		case "STOP":
			return ai.StopStop
		case "MAX_TOKENS":
			return ai.StopLength
		case "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "SAFETY", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT",
			"IMAGE_RECITATION", "IMAGE_OTHER", "RECITATION", "FINISH_REASON_UNSPECIFIED", "OTHER", "LANGUAGE",
			"MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "NO_IMAGE":
			return ai.StopError
		case "CONTINUATION":
			if r.moreFinishReasons {
				return ai.StopLength
			}
		case "TOO_MANY_TOOL_CALLS":
			if r.moreFinishReasons {
				return ai.StopError
			}
		}
	}
	panic(jsError{Msg: stream.UnhandledStopReason + stream.ToString(reason)})
}

// str reads a member Pi expects to be a string (String() of another,
// which throws where String() does).
func (p *parser) str(v jsonv.Value) string {
	if v.Kind() != jsonv.String {
		s := stream.ToString(v)
		p.outside = true
		return s
	}
	return v.Str()
}

// signature is retainThoughtSignature: a non-empty string replaces the
// block's signature, anything else keeps it.
func signature(existing *string, incoming jsonv.Value) *string {
	if incoming.Kind() == jsonv.String && incoming.Str() != "" {
		s := incoming.Str()
		return &s
	}
	return existing
}

// part handles one part: text (thinking when thought is true) extends the
// open block of its kind or opens a new one; a functionCall closes the
// open block and is a whole tool call at once.
func (p *parser) part(part jsonv.Value) {
	if text := prop(part, "text"); !text.IsAbsent() {
		thinking := false
		if t := stream.Member(part, "thought"); t.Kind() == jsonv.Bool && t.Bool() {
			thinking = true
		}
		if _, isThinking := p.current.(*ai.ThinkingBlock); p.current == nil || isThinking != thinking {
			p.closeCurrent()
			if thinking {
				p.current = &ai.ThinkingBlock{}
				p.push(p.current, stream.TypeThinkingStart)
			} else {
				p.current = &ai.TextBlock{}
				p.push(p.current, stream.TypeTextStart)
			}
		}
		// += converts the text once the block is open.
		delta := p.str(text)
		sig := stream.Member(part, "thoughtSignature")
		i := len(p.out.Content) - 1
		switch b := p.current.(type) {
		case *ai.ThinkingBlock:
			e := stream.AppendThinking(b, i, delta)
			b.ThinkingSignature = signature(b.ThinkingSignature, sig)
			p.emit(e)
		case *ai.TextBlock:
			e := stream.AppendText(b, i, delta)
			b.TextSignature = signature(b.TextSignature, sig)
			p.emit(e)
		}
	}
	fc := stream.Member(part, "functionCall")
	if !fc.Truthy() {
		return
	}
	if fc.Kind() != jsonv.Object {
		p.outside = true
	}
	p.closeCurrent()
	name := stream.Member(fc, "name")
	provided := stream.Member(fc, "id")
	id := ""
	needsNew := !provided.Truthy()
	if !needsNew {
		id = stream.Kept(provided, &p.outside)
		for _, b := range p.out.Content {
			if tc, ok := b.(*ai.ToolCallBlock); ok && tc.ID == id {
				needsNew = true
			}
		}
	}
	if needsNew {
		id = stream.ToString(name) + "_" + p.now().JSString() + "_" + strconv.FormatInt(p.answers.counter.Add(1), 10)
	}
	tc := &ai.ToolCallBlock{ID: id}
	if name.Truthy() {
		tc.Name = stream.Kept(name, &p.outside)
	}
	args := stream.Member(fc, "args")
	if args.IsNullish() {
		args = jsonv.ObjectValue()
	}
	tc.Arguments = stream.JSValue(args)
	if sig := stream.Member(part, "thoughtSignature"); sig.Truthy() {
		s := stream.Kept(sig, &p.outside)
		tc.ThoughtSignature = &s
	}
	p.push(tc, stream.TypeToolCallStart)
	i := len(p.out.Content) - 1
	p.emit(stream.Event{Type: stream.TypeToolCallDelta, ContentIndex: i, Delta: string(tc.Arguments.AppendJSON(nil))})
	snapshot := *tc
	p.emit(stream.Event{Type: stream.TypeToolCallEnd, ContentIndex: i, ToolCall: &snapshot})
}

func (p *parser) push(b ai.Block, start string) { p.emit(stream.Push(p.out, b, start)) }

// closeCurrent sends the end event of the open text or thinking block.
func (p *parser) closeCurrent() {
	if e, ok := stream.EndOf(p.current, len(p.out.Content)-1); ok {
		p.emit(e)
	}
	p.current = nil
}
