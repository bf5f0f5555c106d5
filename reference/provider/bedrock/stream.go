package bedrock

import (
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/eventstream"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
	"github.com/piconform/piconform/reference/wtf8"
)

// Texts Pi uses for stream failures.
const (
	UnexpectedRoleText   = "Unexpected assistant message start but got user message start instead"
	DataRetentionDocsURL = "https://docs.aws.amazon.com/bedrock/latest/userguide/data-retention.html"
	// Pi 1.6's: a stream without a stop reason, a stop reason it does not
	// take for an ending, and the thinking a redacted payload stands for.
	EndedWithoutStopReasonText = "Bedrock stream ended without a stop reason"
	ProviderStoppedText        = "Provider stopped with: "
	RedactedThinkingText       = "[Reasoning redacted]"
)

// FailureDiagnostic is the type of the diagnostic Pi 1.6 adds to a failed
// answer with what it knows of the failure.
const FailureDiagnostic = "bedrock_response_failure"

// noteFailure adds Pi 1.6's failure diagnostic to a failed message: the
// HTTP status (Absent for an exception inside the stream), the SDK's error
// code (Absent when it does not name an exception) and the request id
// ("" when none came); none when all three are unknown.
func noteFailure(out *ai.AssistantMessage, now transform.Clock, status, code jsonv.Value, requestID string) {
	details := new(jsonv.ObjectBuilder).Set("status", status).Set("errorCode", code)
	if requestID != "" {
		details.SetString("requestId", requestID)
	}
	if len(details.Members()) == 0 {
		return
	}
	d := new(jsonv.ObjectBuilder).SetString("type", FailureDiagnostic).Set("timestamp", now()).Set("details", details.Value())
	out.Diagnostics = jsonv.ArrayValue(append(out.Diagnostics.Elems(), d.Value())...)
}

// errorCode is the SDK error name as a diagnostic's errorCode: only a name
// that ends in "Exception" (a modelled Bedrock error) is one, trimmed, and
// at most 200 characters long.
func errorCode(name string) jsonv.Value {
	if i := strings.IndexByte(name, ':'); i >= 0 {
		name = name[:i]
	}
	if !strings.HasSuffix(name, "Exception") {
		return jsonv.Value{}
	}
	if v := diagnosticValue(name); v != "" {
		return jsonv.StringValue(v)
	}
	return jsonv.Value{}
}

// diagnosticValue is a header value as Pi 1.6 puts it in a diagnostic:
// trimmed, and "" (left out) when blank or longer than 200 characters.
func diagnosticValue(v string) string {
	v = stream.JSTrim(v)
	if v == "" || len(wtf8.ToUTF16(v)) > 200 {
		return ""
	}
	return v
}

// ErrorPrefixes are the readable prefixes Pi puts before the SDK's error
// names; any other name is used as it is.
var ErrorPrefixes = map[string]string{
	"InternalServerException":     "Internal server error",
	"ModelStreamErrorException":   "Model stream error",
	"ValidationException":         "Validation error",
	"ThrottlingException":         "Throttling error",
	"ServiceUnavailableException": "Service unavailable",
}

// streamExceptions are the exceptions a Converse stream can carry as
// frames, by their :exception-type, with the SDK's error name.
var streamExceptions = map[string]string{
	"internalServerException":     "InternalServerException",
	"modelStreamErrorException":   "ModelStreamErrorException",
	"validationException":         "ValidationException",
	"throttlingException":         "ThrottlingException",
	"serviceUnavailableException": "ServiceUnavailableException",
}

var dataRetention = regexp.MustCompile(`(?i)data retention mode`)

// formatError is Pi's formatBedrockError for an SDK service error called
// name (empty for a plain Error).
func formatError(name, message string) string {
	hint := ""
	if dataRetention.MatchString(message) {
		hint = " See " + DataRetentionDocsURL + " for supported data retention modes."
	}
	if name == "" {
		return message + hint
	}
	prefix, ok := ErrorPrefixes[name]
	if !ok {
		prefix = name
	}
	return prefix + ": " + message + hint
}

// Failure is the message and lone error event of a request that failed
// before a response arrived.
func Failure(model *ai.Model, message string, now transform.Clock) (*ai.AssistantMessage, []stream.Event) {
	return stream.Failure(stream.NewOutput(model, API, now), message)
}

// readResponse turns a response into Pi's message and events: a 2xx
// status is an event stream, anything else ParseHTTPError, with the error
// name the x-amzn-errortype header gives.
func readResponse(d dialect.Dialect, model *ai.Model, resp *http.Response, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	requestID := diagnosticValue(resp.Header.Get("x-amzn-requestid"))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, nil, err
		}
		msg, events, err := parseHTTPError(d, model, resp.StatusCode, resp.Header.Get("x-amzn-errortype"), data, now)
		if msg != nil && reportsFailures.At(d) {
			noteFailure(msg, now, jsonv.NumberValue(strconv.Itoa(resp.StatusCode)), errorCode(resp.Header.Get("x-amzn-errortype")), requestID)
		}
		return msg, events, err
	}
	return parseStream(d, resp.Body, model, now, requestID)
}

type block struct {
	b ai.Block
	// index is the provider's contentBlockIndex, until contentBlockStop.
	index       jsonv.Value
	partialJSON *string
}

// openBlock is an entry of Pi 1.6's openBlocks: the provider's block index,
// the content position of the block last opened under it, a tool call's
// arguments, and a thinking block's redacted chunks (nil when none came).
type openBlock struct {
	index    jsonv.Value
	at       int
	args     *stream.ToolCallArgs
	redacted [][]byte
}

type parser struct {
	d       dialect.Dialect
	model   *ai.Model
	out     *ai.AssistantMessage
	blocks  []block
	open    []*openBlock
	events  []stream.Event
	outside bool
	now     transform.Clock
	// errName is the SDK error name of the exception being thrown ("" for
	// a plain Error).
	errName string
	// requestID is the response's request id, for a failure's diagnostic
	// (Pi 1.6); "" when it had none.
	requestID string
	failed    bool
}

// ParseStream is the stream.Parse of ConverseStream's event-stream body.
func ParseStream(r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	return parseStream(dialect.V0_80, r, model, now, "")
}

func parseStream(d dialect.Dialect, r io.Reader, model *ai.Model, now transform.Clock, requestID string) (*ai.AssistantMessage, []stream.Event, error) {
	if now == nil {
		now = transform.SystemClock
	}
	p := &parser{d: d, model: model, out: stream.NewOutputIn(d, model, API, now), now: now, requestID: requestID}
	err := p.run(r)
	if p.failed && !errors.Is(err, stream.ErrAborted) && reportsFailures.At(d) {
		// An exception in the stream has no status of its own; only a
		// modelled exception names a code.
		noteFailure(p.out, now, jsonv.Value{}, errorCode(p.errName), requestID)
	}
	if err == nil && p.outside {
		err = stream.ErrOutsideModel
	}
	return p.out, p.events, err
}

func (p *parser) emit(e stream.Event) { p.events = append(p.events, e) }

// emitted is the number of events emitted so far (stream.Steps.Events).
func (p *parser) emitted() int { return len(p.events) }

func (p *parser) run(r io.Reader) error {
	var dec eventstream.Decoder
	feed := func(data []byte, eof bool) bool {
		if eof {
			return false
		}
		frames, derr := dec.Feed(data)
		for _, f := range frames {
			p.frame(f)
		}
		if derr != nil {
			p.outside = true
			panic(stream.JSError{Msg: derr.Error()})
		}
		return false
	}
	end := func() {
		if dec.Pending() > 0 {
			p.outside = true
			panic(stream.JSError{Msg: "Truncated event message received."})
		}
		stream.RequireStop(p.out, EndedWithoutStopReasonText)
		if p.out.StopReason == ai.StopError {
			msg := stream.UnknownErrorText
			if p.out.ErrorMessage != nil && *p.out.ErrorMessage != "" {
				msg = *p.out.ErrorMessage
			}
			panic(stream.JSError{Msg: msg})
		}
		p.finishBlocks()
		p.emit(stream.DoneEvent(p.out))
	}
	return stream.Run(r, stream.Steps{Feed: feed, End: end, Fail: func(msg string) {
		for i := range p.blocks {
			p.blocks[i].index, p.blocks[i].partialJSON = jsonv.Value{}, nil
		}
		p.finishBlocks()
		p.emit(stream.ErrorEvent(p.out, formatError(p.errName, msg)))
		p.failed = true
	}, Events: p.emitted})
}

// finishBlocks writes leftover scratch members into the blocks: a block
// that never got contentBlockStop keeps partialJson and index in the done
// message (BED-034).
func (p *parser) finishBlocks() {
	if tracksOpenBlocks.At(p.d) {
		// Pi 1.6 leaves nothing on the blocks; a thinking block still open
		// gets its redacted payload.
		for _, o := range p.open {
			p.flushRedacted(o)
		}
		p.open = nil
		return
	}
	for _, s := range p.blocks {
		stream.Leak(s.b, s.partialJSON, s.index)
	}
}

// frame handles one event-stream message as the SDK and then Pi do.
func (p *parser) frame(m eventstream.Message) {
	msgType, _ := m.Get(":message-type")
	switch msgType {
	case "event":
	case "exception":
		typ, _ := m.Get(":exception-type")
		name, ok := streamExceptions[typ]
		if !ok {
			p.outside = true
			name = typ
		}
		payload, err := jsonv.Parse(m.Payload)
		if err != nil {
			p.outside = true
		}
		msg := stream.Member(payload, "message")
		if msg.Kind() != jsonv.String {
			p.outside = true
		}
		p.errName = name
		panic(stream.JSError{Msg: msg.Str()})
	default:
		p.outside = true
		return
	}
	typ, _ := m.Get(":event-type")
	handlers := map[string]func(jsonv.Value){
		"messageStart": p.messageStart, "contentBlockStart": p.blockStart, "contentBlockDelta": p.blockDelta,
		"contentBlockStop": p.blockStop, "messageStop": p.messageStop, "metadata": p.metadata,
	}
	h, ok := handlers[typ]
	if !ok {
		return // the SDK keeps it as $unknown, which Pi ignores
	}
	payload := jsonv.ObjectValue() // the SDK reads an empty payload as {}
	if len(m.Payload) > 0 {
		v, err := jsonv.Parse(m.Payload)
		if err != nil {
			p.outside = true
			panic(stream.JSError{Msg: "the event payload is not JSON"})
		}
		payload = v
	}
	if typ == "contentBlockDelta" && !revivedAsNumber(stream.Member(payload, "contentBlockIndex")) {
		p.outside = true
	}
	// A payload that is no object reaches Pi as it is: a falsy one is no
	// event, a truthy one an event without members.
	if ev := read(eventShapes[typ], stream.JSValue(payload)); ev.Truthy() {
		h(ev)
	}
}

func (p *parser) messageStart(ev jsonv.Value) {
	if role := stream.Member(ev, "role"); role.Kind() != jsonv.String || role.Str() != "assistant" {
		panic(stream.JSError{Msg: UnexpectedRoleText})
	}
	p.emit(stream.Event{Type: stream.TypeStart})
}

// find is the position of the block an event's index names, or -1: in
// 0.80 the first block whose index is index, compared as Pi compares them
// (===), so that an event without an index finds the first block whose
// index is gone, a stopped one or one opened by another event without an
// index; in 1.6 the block last opened under index and not stopped since
// (openBlocks).
func (p *parser) find(index jsonv.Value) int {
	if o := p.openAt(index); tracksOpenBlocks.At(p.d) {
		if o == nil {
			return -1
		}
		return o.at
	}
	for i, b := range p.blocks {
		if jsonv.StrictEqual(b.index, index) {
			return i
		}
	}
	return -1
}

func (p *parser) push(b ai.Block, index jsonv.Value, partial *string, start string) int {
	p.out.Content = append(p.out.Content, b)
	p.blocks = append(p.blocks, block{b: b, index: stream.JSValue(index), partialJSON: partial})
	i := len(p.out.Content) - 1
	if tracksOpenBlocks.At(p.d) {
		o := &openBlock{index: stream.JSValue(index), at: i}
		if _, ok := b.(*ai.ToolCallBlock); ok {
			o.args = new(stream.ToolCallArgs)
		}
		p.track(o)
	}
	p.emit(stream.Event{Type: start, ContentIndex: i})
	return i
}

// openAt is the open block of index (Map.get), nil for none.
func (p *parser) openAt(index jsonv.Value) *openBlock {
	index = stream.JSValue(index)
	for _, o := range p.open {
		if jsonv.SameValueZero(o.index, index) {
			return o
		}
	}
	return nil
}

// track opens o under its index (Map.set: an entry of the same index keeps
// its place and takes o).
func (p *parser) track(o *openBlock) {
	for i, x := range p.open {
		if jsonv.SameValueZero(x.index, o.index) {
			p.open[i] = o
			return
		}
	}
	p.open = append(p.open, o)
}

// untrack closes the block of index (Map.delete).
func (p *parser) untrack(index jsonv.Value) {
	index = stream.JSValue(index)
	for i, x := range p.open {
		if jsonv.SameValueZero(x.index, index) {
			p.open = append(p.open[:i:i], p.open[i+1:]...)
			return
		}
	}
}

// flushRedacted writes the redacted payload an open thinking block
// gathered into its signature, as base64 of the chunks' bytes (Pi 1.6).
func (p *parser) flushRedacted(o *openBlock) {
	b, ok := p.out.Content[o.at].(*ai.ThinkingBlock)
	if !ok || o.redacted == nil {
		return
	}
	var all []byte
	for _, c := range o.redacted {
		all = append(all, c...)
	}
	sig := base64.StdEncoding.EncodeToString(all)
	b.ThinkingSignature = &sig
	o.redacted = nil
}

func (p *parser) str(v jsonv.Value) string {
	switch v.Kind() {
	case jsonv.String:
		return v.Str()
	case jsonv.Absent, jsonv.Null:
		return ""
	}
	p.outside = true
	return ""
}

func (p *parser) blockStart(ev jsonv.Value) {
	index := stream.Member(ev, "contentBlockIndex")
	// Pi tests toolUse for truthiness only, and the SDK passes it through
	// untyped: a string or a number opens a tool call with no id or name.
	tu := stream.Member(stream.Member(ev, "start"), "toolUse")
	if !tu.Truthy() {
		return
	}
	empty := ""
	b := &ai.ToolCallBlock{ID: p.str(stream.Member(tu, "toolUseId")), Name: p.str(stream.Member(tu, "name")), Arguments: jsonv.ObjectValue()}
	p.push(b, index, &empty, stream.TypeToolCallStart)
}

func (p *parser) blockDelta(ev jsonv.Value) {
	index := stream.Member(ev, "contentBlockIndex")
	delta := stream.Member(ev, "delta")
	i := p.find(index)
	if text := stream.Member(delta, "text"); !text.IsAbsent() {
		if i < 0 {
			i = p.push(&ai.TextBlock{}, index, nil, stream.TypeTextStart)
		}
		if b, ok := p.blocks[i].b.(*ai.TextBlock); ok {
			d := p.str(text)
			b.Text += d
			p.emit(stream.Event{Type: stream.TypeTextDelta, ContentIndex: i, Delta: d})
		}
		return
	}
	if tu := stream.Member(delta, "toolUse"); tu.Truthy() && i >= 0 {
		if b, ok := p.blocks[i].b.(*ai.ToolCallBlock); ok {
			d := p.str(stream.Member(tu, "input"))
			if o := p.openAt(index); tracksOpenBlocks.At(p.d) {
				b.Arguments = o.args.Append(d)
			} else {
				s := p.blocks[i].partialJSON
				*s += d
				b.Arguments = stream.ParseStreamingJSON(*s)
			}
			p.emit(stream.Event{Type: stream.TypeToolCallDelta, ContentIndex: i, Delta: d})
			return
		}
	}
	rc := stream.Member(delta, "reasoningContent")
	if rc.Kind() != jsonv.Object {
		return
	}
	if i < 0 {
		empty := ""
		i = p.push(&ai.ThinkingBlock{ThinkingSignature: &empty}, index, nil, stream.TypeThinkingStart)
	}
	b, ok := p.blocks[i].b.(*ai.ThinkingBlock)
	if !ok {
		return
	}
	if t := stream.Member(rc, "text"); t.Truthy() {
		d := p.str(t)
		b.Thinking += d
		p.emit(stream.Event{Type: stream.TypeThinkingDelta, ContentIndex: i, Delta: d})
	}
	redacted := b.Redacted != nil && *b.Redacted
	if s := stream.Member(rc, "signature"); s.Truthy() && !(readsRedacted.At(p.d) && redacted) {
		sig := provider.OrEmpty(b.ThinkingSignature) + p.str(s)
		b.ThinkingSignature = &sig
	}
	if rd := stream.Member(rc, "redactedContent"); readsRedacted.At(p.d) && rd.Kind() == jsonv.String && rd.Str() != "" {
		chunk, err := base64.StdEncoding.DecodeString(rd.Str())
		if err != nil {
			p.outside = true
		}
		if len(chunk) == 0 {
			return
		}
		if !redacted {
			t, empty := true, ""
			b.Redacted, b.ThinkingSignature = &t, &empty
			b.Thinking += RedactedThinkingText
			p.emit(stream.Event{Type: stream.TypeThinkingDelta, ContentIndex: i, Delta: RedactedThinkingText})
		}
		o := p.openAt(index)
		if o == nil {
			// An index of another type that keys no open block here:
			// where Pi keeps the chunks then is not modelled.
			p.outside = true
			return
		}
		o.redacted = append(o.redacted, chunk)
	}
}

func (p *parser) blockStop(ev jsonv.Value) {
	index := stream.Member(ev, "contentBlockIndex")
	i := p.find(index)
	if i < 0 {
		return
	}
	o := p.openAt(index)
	if tracksOpenBlocks.At(p.d) {
		p.untrack(index)
	}
	p.blocks[i].index = jsonv.Value{}
	switch b := p.blocks[i].b.(type) {
	case *ai.TextBlock:
		p.emit(stream.Event{Type: stream.TypeTextEnd, ContentIndex: i, Content: b.Text})
	case *ai.ThinkingBlock:
		if o != nil {
			p.flushRedacted(o)
		}
		p.emit(stream.Event{Type: stream.TypeThinkingEnd, ContentIndex: i, Content: b.Thinking})
	case *ai.ToolCallBlock:
		text := *p.blocks[i].partialJSON
		if o != nil && tracksOpenBlocks.At(p.d) {
			text = o.args.Text()
		}
		stream.FinishArguments(p.d, b, text)
		p.blocks[i].partialJSON = nil
		snapshot := *b
		p.emit(stream.Event{Type: stream.TypeToolCallEnd, ContentIndex: i, ToolCall: &snapshot})
	}
}

// StopReasons maps Converse stop reasons to Pi's; any other value is an error.
var StopReasons = map[string]string{
	"end_turn": ai.StopStop, "stop_sequence": ai.StopStop,
	"max_tokens": ai.StopLength, "model_context_window_exceeded": ai.StopLength,
	"tool_use": ai.StopToolUse,
}

func (p *parser) messageStop(ev jsonv.Value) {
	reason := stream.Member(ev, "stopReason")
	stream.SetRawStopReason(p.out, stream.JSValue(reason))
	stop, ok := StopReasons[reason.Str()]
	if reason.Kind() != jsonv.String || !ok {
		stop = ai.StopError
		if namesStopReason.At(p.d) && reason.Truthy() {
			msg := ProviderStoppedText + stream.ToString(reason)
			p.out.ErrorMessage = &msg
		}
	}
	p.out.StopReason = stop
}

func (p *parser) metadata(ev jsonv.Value) {
	usage := stream.Member(ev, "usage") // untyped, like toolUse: a string has no counts
	if !usage.Truthy() {
		return
	}
	u := &p.out.Usage
	u.Input, u.Output = stream.Count(stream.Member(usage, "inputTokens")), stream.Count(stream.Member(usage, "outputTokens"))
	u.CacheRead = stream.Count(stream.Member(usage, "cacheReadInputTokens"))
	u.CacheWrite = stream.Count(stream.Member(usage, "cacheWriteInputTokens"))
	if readsRedacted.At(p.d) {
		// Before the total: where the sum throws, neither the total nor
		// the cost is made.
		u.CacheWrite1h = oneHourWrites(stream.Member(usage, "cacheDetails"))
	}
	total := stream.JSValue(stream.Member(usage, "totalTokens"))
	if !total.Truthy() {
		total = stream.Plus(u.Input, u.Output) // may throw: the total keeps its earlier value
	}
	u.TotalTokens = total
	stream.PriceIn(p.d, p.model, u)
}

// oneHourWrites is Pi 1.6's sum of the cache writes with a one-hour TTL
// among cacheDetails, a JavaScript reduce from 0 that adds each entry's
// inputTokens (0 when nullish) where its ttl is "1h" and 0 elsewhere, with
// JavaScript's + (a string makes the sum text). It is Absent for nullish
// details, and throws as Pi does for details that are not an array (no
// reduce) and for a null entry (its ttl is read).
func oneHourWrites(details jsonv.Value) jsonv.Value {
	switch {
	case details.IsNullish():
		return jsonv.Value{}
	case details.Kind() != jsonv.Array:
		panic(stream.JSError{Msg: "event.usage.cacheDetails?.reduce is not a function"})
	}
	zero := jsonv.NumberValue("0")
	total := zero
	for _, d := range details.Elems() {
		add := zero
		if ttl := stream.Prop(d, "ttl"); ttl.Kind() == jsonv.String && ttl.Str() == "1h" {
			add = stream.Nullish(stream.Member(d, "inputTokens"), zero)
		}
		total = stream.Plus(total, add)
	}
	return total
}

// ParseHTTPError is what Pi produces for a non-2xx answer: a lone error
// event whose message is the SDK error's name (from x-amzn-errortype, cut
// at ":") with Pi's prefix, and the body's message.
func ParseHTTPError(model *ai.Model, status int, errorType string, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	return parseHTTPError(dialect.V0_80, model, status, errorType, body, now)
}

func parseHTTPError(d dialect.Dialect, model *ai.Model, status int, errorType string, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	Failure := func(model *ai.Model, message string, now transform.Clock) (*ai.AssistantMessage, []stream.Event) {
		return stream.Failure(stream.NewOutputIn(d, model, API, now), message)
	}
	name := errorType
	if i := indexByte(name, ':'); i >= 0 {
		name = name[:i]
	}
	v, err := jsonv.Parse(body)
	if err != nil || v.Kind() != jsonv.Object {
		msg, events := Failure(model, formatError(name, ""), now)
		return msg, events, stream.ErrOutsideModel
	}
	text := stream.Member(v, "message")
	if text.Kind() != jsonv.String {
		text = stream.Member(v, "Message")
	}
	if name == "" || text.Kind() != jsonv.String {
		msg, events := Failure(model, formatError(name, text.Str()), now)
		return msg, events, stream.ErrOutsideModel
	}
	msg, events := Failure(model, formatError(name, text.Str()), now)
	return msg, events, nil
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// ConnectionErrorText is Pi's error when the endpoint does not answer at
// all (the SDK's Node handler reports the socket error).
const ConnectionErrorText = "socket hang up"
