package openairesponses

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// EventParser is the part of ParseStream that follows the reading of the
// body: Pi's processResponsesStream fed one event at a time. It is for the
// variants of this API that frame the body and screen its events
// themselves (openai-codex-responses) and hand the rest on.
type EventParser struct {
	p      *parser     // Pi 0.80's reader
	r      *slotReader // Pi 1.6's, when p is nil
	f      Flavor
	failed bool
}

// TierResolver picks the service tier that prices an answer from the
// answer's service_tier and the requested tier (nil when none was).
type TierResolver func(answer jsonv.Value, requested *string) jsonv.Value

// NewEventParser starts a message for model (its start event included).
// requested is the request's service tier; resolve, when not nil, replaces
// the rule that the answer's tier wins unless it is undefined or null.
func NewEventParser(model *ai.Model, requested *string, resolve TierResolver, now transform.Clock) *EventParser {
	return NewEventParserIn(dialect.V0_80, model, Flavor{Requested: requested, Resolve: resolve}, now)
}

// NewEventParserIn is NewEventParser with the reader of dialect d and the
// API's flavor f (its requested tier, tier resolver and, from 1.6 on, its
// texts).
func NewEventParserIn(d dialect.Dialect, model *ai.Model, f Flavor, now transform.Clock) *EventParser {
	if readsBySlot.At(d) {
		r := newSlotReader(model, now)
		r.configure(f)
		r.start(d)
		return &EventParser{r: r, f: f}
	}
	p := &parser{model: model, serviceTier: f.Requested, resolveTier: f.Resolve, noTier: f.NoTier}
	p.out, p.partial, p.block = stream.NewOutput(model, model.API, now), map[int]*string{}, -1
	p.emit(stream.Event{Type: stream.TypeStart})
	return &EventParser{p: p, f: f}
}

// Event handles one event's data as Pi's processResponsesStream does. An
// exception Pi would meet ends the message with an error event; later
// calls do nothing.
func (e *EventParser) Event(data jsonv.Value) {
	e.guard(func() {
		if e.r != nil {
			e.r.handle(data)
			return
		}
		e.p.handle(data)
	})
}

// Fail ends the message with an error event carrying msg, as an exception
// thrown while the events are read does.
func (e *EventParser) Fail(msg string) {
	if e.failed {
		return
	}
	e.failed = true
	if e.r != nil {
		e.r.fail(msg, e.f.Decorate)
		return
	}
	e.p.fail(msg)
}

// End is the end of the events: without a terminal event the message
// fails with EndedEarlyText, else a done event carries the stop reason the
// terminal event set, whatever it is (in 0.80; 1.6 checks more, see
// slotReader.end).
func (e *EventParser) End() {
	e.guard(func() {
		if e.r != nil {
			e.r.end(e.f.PendingText)
			return
		}
		if !e.p.terminal {
			panic(jsError{Msg: EndedEarlyText})
		}
		e.p.finishBlocks()
		e.p.emit(stream.DoneEvent(e.p.out))
	})
}

// SetEndTurn records a Codex response's end_turn on the message, as Pi
// 1.6 does (endTurn, after the members it has by then).
func (e *EventParser) SetEndTurn(v jsonv.Value) {
	out, _, _ := e.Result()
	if out == nil {
		return
	}
	for i, m := range out.Extra {
		if m.Key == "endTurn" {
			out.Extra[i].Value = v
			return
		}
	}
	out.Extra = append(out.Extra, jsonv.Member{Key: "endTurn", Value: v})
}

// Count is the number of events emitted so far (stream.Steps.Events).
func (e *EventParser) Count() int {
	if e.r != nil {
		return len(e.r.events)
	}
	return len(e.p.events)
}

// Failed reports whether the message ended with an error event.
func (e *EventParser) Failed() bool { return e.failed }

// Result is the message and events so far. err is stream.ErrOutsideModel when an
// event made Pi rely on JavaScript coercions the reference does not
// reproduce.
func (e *EventParser) Result() (*ai.AssistantMessage, []stream.Event, error) {
	out, events, outside := e.p.resultOrNil()
	if e.r != nil {
		out, events, outside = e.r.out, e.r.events, e.r.outside
	}
	var err error
	if outside {
		err = stream.ErrOutsideModel
	}
	return out, events, err
}

func (p *parser) resultOrNil() (*ai.AssistantMessage, []stream.Event, bool) {
	if p == nil {
		return nil, nil, false
	}
	return p.out, p.events, p.outside
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
