package openairesponses

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// EventParser is the part of ParseStream that follows the reading of the
// body: Pi's processResponsesStream fed one event at a time. It is for the
// variants of this API that frame the body and screen its events
// themselves (openai-codex-responses) and hand the rest on.
type EventParser struct {
	p      *parser
	failed bool
}

// TierResolver picks the service tier that prices an answer from the
// answer's service_tier and the requested tier (nil when none was).
type TierResolver func(answer jsonv.Value, requested *string) jsonv.Value

// NewEventParser starts a message for model (its start event included).
// requested is the request's service tier; resolve, when not nil, replaces
// the rule that the answer's tier wins unless it is undefined or null.
func NewEventParser(model *ai.Model, requested *string, resolve TierResolver, now transform.Clock) *EventParser {
	p := &parser{model: model, serviceTier: requested, resolveTier: resolve}
	p.out, p.partial, p.block = stream.NewOutput(model, model.API, now), map[int]*string{}, -1
	p.emit(stream.Event{Type: stream.TypeStart})
	return &EventParser{p: p}
}

// Event handles one event's data as Pi's processResponsesStream does. An
// exception Pi would meet ends the message with an error event; later
// calls do nothing.
func (e *EventParser) Event(data jsonv.Value) {
	e.guard(func() { e.p.handle(data) })
}

// Fail ends the message with an error event carrying msg, as an exception
// thrown while the events are read does.
func (e *EventParser) Fail(msg string) {
	if e.failed {
		return
	}
	e.failed = true
	e.p.fail(msg)
}

// End is the end of the events: without a terminal event the message
// fails with EndedEarlyText, else a done event carries the stop reason the
// terminal event set, whatever it is.
func (e *EventParser) End() {
	e.guard(func() {
		if !e.p.terminal {
			panic(jsError{Msg: EndedEarlyText})
		}
		e.p.finishBlocks()
		e.p.emit(stream.DoneEvent(e.p.out))
	})
}

// Count is the number of events emitted so far (stream.Steps.Events).
func (e *EventParser) Count() int { return len(e.p.events) }

// Failed reports whether the message ended with an error event.
func (e *EventParser) Failed() bool { return e.failed }

// Result is the message and events so far. err is stream.ErrOutsideModel when an
// event made Pi rely on JavaScript coercions the reference does not
// reproduce.
func (e *EventParser) Result() (*ai.AssistantMessage, []stream.Event, error) {
	var err error
	if e.p.outside {
		err = stream.ErrOutsideModel
	}
	return e.p.out, e.p.events, err
}

func (e *EventParser) guard(f func()) {
	if e.failed {
		return
	}
	defer func() {
		if x := recover(); x != nil {
			je, ok := x.(jsError)
			if !ok {
				panic(x)
			}
			e.Fail(je.Msg)
		}
	}()
	f()
}
