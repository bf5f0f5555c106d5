package bedrock

import (
	"io"
	"net/http"
	"regexp"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/eventstream"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// Texts Pi uses for stream failures.
const (
	UnexpectedRoleText   = "Unexpected assistant message start but got user message start instead"
	DataRetentionDocsURL = "https://docs.aws.amazon.com/bedrock/latest/userguide/data-retention.html"
)

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
func readResponse(model *ai.Model, resp *http.Response, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, nil, err
		}
		return ParseHTTPError(model, resp.StatusCode, resp.Header.Get("x-amzn-errortype"), data, now)
	}
	return ParseStream(resp.Body, model, now)
}

type block struct {
	b ai.Block
	// index is the provider's contentBlockIndex, until contentBlockStop.
	index       jsonv.Value
	partialJSON *string
}

type parser struct {
	model   *ai.Model
	out     *ai.AssistantMessage
	blocks  []block
	events  []stream.Event
	outside bool
	// errName is the SDK error name of the exception being thrown ("" for
	// a plain Error).
	errName string
}

// ParseStream is the stream.Parse of ConverseStream's event-stream body.
func ParseStream(r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	p := &parser{model: model, out: stream.NewOutput(model, API, now)}
	err := p.run(r)
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
		if p.out.StopReason == ai.StopError {
			panic(stream.JSError{Msg: stream.UnknownErrorText})
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
	}, Events: p.emitted})
}

// finishBlocks writes leftover scratch members into the blocks: a block
// that never got contentBlockStop keeps partialJson and index in the done
// message (BED-034).
func (p *parser) finishBlocks() {
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

// find is the position of the first block whose index is index, or -1,
// compared as Pi compares them (===): an event without an index finds the
// first block whose index is gone, a stopped one or one opened by another
// event without an index.
func (p *parser) find(index jsonv.Value) int {
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
	p.emit(stream.Event{Type: start, ContentIndex: i})
	return i
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
			s := p.blocks[i].partialJSON
			*s += d
			b.Arguments = stream.ParseStreamingJSON(*s)
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
	if s := stream.Member(rc, "signature"); s.Truthy() {
		sig := provider.OrEmpty(b.ThinkingSignature) + p.str(s)
		b.ThinkingSignature = &sig
	}
}

func (p *parser) blockStop(ev jsonv.Value) {
	i := p.find(stream.Member(ev, "contentBlockIndex"))
	if i < 0 {
		return
	}
	p.blocks[i].index = jsonv.Value{}
	switch b := p.blocks[i].b.(type) {
	case *ai.TextBlock:
		p.emit(stream.Event{Type: stream.TypeTextEnd, ContentIndex: i, Content: b.Text})
	case *ai.ThinkingBlock:
		p.emit(stream.Event{Type: stream.TypeThinkingEnd, ContentIndex: i, Content: b.Thinking})
	case *ai.ToolCallBlock:
		b.Arguments = stream.ParseStreamingJSON(*p.blocks[i].partialJSON)
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
	stop, ok := StopReasons[reason.Str()]
	if reason.Kind() != jsonv.String || !ok {
		stop = ai.StopError
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
	total := stream.JSValue(stream.Member(usage, "totalTokens"))
	if !total.Truthy() {
		total = stream.Plus(u.Input, u.Output) // may throw: the total keeps its earlier value
	}
	u.TotalTokens = total
	stream.Price(p.model, u)
}

// ParseHTTPError is what Pi produces for a non-2xx answer: a lone error
// event whose message is the SDK error's name (from x-amzn-errortype, cut
// at ":") with Pi's prefix, and the body's message.
func ParseHTTPError(model *ai.Model, status int, errorType string, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
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
