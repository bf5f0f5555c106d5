package wire

import (
	"fmt"

	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/stream"
)

// CheckOutput implements run.OutputChecker: the output's events must keep
// the stream grammar (stream.Validate: one start, blocks opened, fed and
// closed in order, one terminal event last) whenever the golden's events
// keep it. A golden that breaks the grammar records a quirk of Pi's, and the
// comparison with it is then the whole check.
func (f *Fixture) CheckOutput(_ *suite.Case, want, got jsonv.Value) error {
	wantEvents, _ := want.Get("events")
	if GrammarError(wantEvents) != nil {
		return nil
	}
	gotEvents, ok := got.Get("events")
	if !ok || gotEvents.Kind() != jsonv.Array {
		return nil // the comparison with the golden reports it
	}
	if err := GrammarError(gotEvents); err != nil {
		return fmt.Errorf("the events break the stream grammar: %w", err)
	}
	return nil
}

// GrammarError checks a JSON array of events against the stream grammar.
// Only what the grammar needs is read (type, contentIndex, reason and the
// final message's stopReason), so an event that is wrong in other ways does
// not hide the order.
func GrammarError(events jsonv.Value) error {
	if events.Kind() != jsonv.Array {
		return fmt.Errorf("events: want an array, got %s", events.Kind())
	}
	evs := make([]stream.Event, len(events.Elems()))
	for i, e := range events.Elems() {
		typ, _ := e.Get("type")
		ev := stream.Event{Type: typ.Str(), ContentIndex: -1}
		if n, ok := e.Get("contentIndex"); ok {
			if f, ok := n.Float64(); ok && f == float64(int(f)) {
				ev.ContentIndex = int(f)
			}
		}
		reason, _ := e.Get("reason")
		ev.Reason = reason.Str()
		key := "message"
		if ev.Type == stream.TypeError {
			key = "error"
		}
		if m, ok := e.Get(key); ok && m.Kind() == jsonv.Object {
			stop, _ := m.Get("stopReason")
			ev.Message = &ai.AssistantMessage{StopReason: stop.Str()}
		}
		evs[i] = ev
	}
	return stream.Validate(evs)
}
