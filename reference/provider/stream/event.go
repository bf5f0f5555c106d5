// Package stream holds what every provider adapter shares on the response
// side: the events Pi's stream() emits while an answer arrives (its
// AssistantMessageEvent, minus the mutable partial message), a checker for
// their order, and the JSON helpers Pi uses to read provider payloads the way
// JavaScript does.
package stream

import (
	"fmt"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
)

// Event types, as Pi spells them.
const (
	TypeStart         = "start"
	TypeTextStart     = "text_start"
	TypeTextDelta     = "text_delta"
	TypeTextEnd       = "text_end"
	TypeThinkingStart = "thinking_start"
	TypeThinkingDelta = "thinking_delta"
	TypeThinkingEnd   = "thinking_end"
	TypeToolCallStart = "toolcall_start"
	TypeToolCallDelta = "toolcall_delta"
	TypeToolCallEnd   = "toolcall_end"
	TypeDone          = "done"
	TypeError         = "error"
)

// Event is one stream event. Which fields mean something depends on Type:
//
//	start                                   nothing else
//	text_start, thinking_start, toolcall_start  ContentIndex
//	text_delta, thinking_delta, toolcall_delta  ContentIndex, Delta
//	text_end, thinking_end                  ContentIndex, Content
//	toolcall_end                            ContentIndex, ToolCall
//	done                                    Reason (stop|length|toolUse), Message
//	error                                   Reason (error|aborted), Message
//
// Pi's events also carry `partial`, the message being built. It is left out:
// it is one mutable object shared by every event, so its value at the time
// of an event is not something Pi promises.
type Event struct {
	Type string
	// ContentIndex is the position of the block in the message's content.
	ContentIndex int
	Delta        string
	Content      string
	// ToolCall is the finished tool call, as it was when the event was sent.
	ToolCall *ai.ToolCallBlock
	Reason   string
	// Message is the final message: `message` of done, `error` of error.
	Message *ai.AssistantMessage
}

// kind tells which group of fields an event type carries.
type kind uint8

const (
	kindUnknown kind = iota
	kindBare
	kindBlockStart
	kindBlockDelta
	kindBlockEnd
	kindTerminal
)

// block returns the block family of a block event ("text", "thinking",
// "toolcall") and its kind.
func classify(typ string) (family string, k kind) {
	switch typ {
	case TypeStart:
		return "", kindBare
	case TypeTextStart, TypeThinkingStart, TypeToolCallStart:
		return typ[:len(typ)-len("_start")], kindBlockStart
	case TypeTextDelta, TypeThinkingDelta, TypeToolCallDelta:
		return typ[:len(typ)-len("_delta")], kindBlockDelta
	case TypeTextEnd, TypeThinkingEnd, TypeToolCallEnd:
		return typ[:len(typ)-len("_end")], kindBlockEnd
	case TypeDone, TypeError:
		return "", kindTerminal
	}
	return "", kindUnknown
}

// JSON encodes the event the way Pi's JSON.stringify writes it, with the
// members in Pi's order and without `partial`.
func (e Event) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("type", e.Type)
	family, k := classify(e.Type)
	switch k {
	case kindBlockStart:
		o.Set("contentIndex", jsonv.FloatValue(float64(e.ContentIndex)))
	case kindBlockDelta:
		o.Set("contentIndex", jsonv.FloatValue(float64(e.ContentIndex))).SetString("delta", e.Delta)
	case kindBlockEnd:
		o.Set("contentIndex", jsonv.FloatValue(float64(e.ContentIndex)))
		if family == "toolcall" {
			if e.ToolCall != nil {
				o.Set("toolCall", e.ToolCall.JSON())
			}
		} else {
			o.SetString("content", e.Content)
		}
	case kindTerminal:
		o.SetString("reason", e.Reason)
		if e.Message != nil {
			key := "message"
			if e.Type == TypeError {
				key = "error"
			}
			o.Set(key, e.Message.JSON())
		}
	}
	return o.Value()
}

// EventsJSON encodes a list of events as a JSON array.
func EventsJSON(events []Event) jsonv.Value {
	return jsonv.ArrayOf(events)
}

// DecodeEvent reads one event written by Pi (or by EventJSON). A `partial`
// member is accepted and ignored.
func DecodeEvent(v jsonv.Value, ptr string) (Event, error) {
	f := jsonv.ReadFields(v, ptr)
	e := Event{Type: f.String("type")}
	f.Any("partial")
	if err := f.Err(); err != nil {
		return Event{}, err
	}
	family, k := classify(e.Type)
	if k == kindUnknown {
		return Event{}, jsonv.Errorf(f.At("type"), "unknown event type %q", e.Type)
	}
	if k == kindBlockStart || k == kindBlockDelta || k == kindBlockEnd {
		n := f.Number("contentIndex")
		if f.Err() == nil {
			idx, ok := n.Float64()
			if !ok || idx < 0 || idx != float64(int(idx)) {
				f.Fail("contentIndex", "want a non-negative integer, got %s", n)
			}
			e.ContentIndex = int(idx)
		}
	}
	switch {
	case k == kindBlockDelta:
		e.Delta = f.String("delta")
	case k == kindBlockEnd && family == "toolcall":
		tc := f.Object("toolCall")
		if f.Err() == nil {
			b, err := ai.DecodeBlock(tc, f.At("toolCall"), ai.AllowToolCall)
			if err != nil {
				return Event{}, err
			}
			e.ToolCall = b.(*ai.ToolCallBlock)
		}
	case k == kindBlockEnd:
		e.Content = f.String("content")
	case k == kindTerminal:
		e.Reason = f.String("reason")
		key := "message"
		if e.Type == TypeError {
			key = "error"
		}
		raw := f.Object(key)
		if f.Err() == nil {
			m, err := ai.DecodeMessage(withRole(raw), f.At(key))
			if err != nil {
				return Event{}, err
			}
			am, ok := m.(*ai.AssistantMessage)
			if !ok {
				return Event{}, jsonv.Errorf(f.At(key), "want an assistant message, got role %q", m.Role())
			}
			e.Message = am
		}
	}
	if rest := f.Rest(); f.Err() == nil && len(rest) > 0 {
		return Event{}, jsonv.Errorf(f.At(rest[0].Key), "unexpected member in a %s event", e.Type)
	}
	return e, f.Err()
}

// withRole supplies role "assistant" when a final message lacks it, so both
// Pi's messages and hand-written ones decode.
func withRole(v jsonv.Value) jsonv.Value {
	if _, ok := v.Get("role"); ok {
		return v
	}
	return jsonv.ObjectValue(append([]jsonv.Member{{Key: "role", Value: jsonv.StringValue(ai.RoleAssistant)}}, v.Members()...)...)
}

// DecodeEvents reads a JSON array of events.
func DecodeEvents(v jsonv.Value, ptr string) ([]Event, error) {
	if v.Kind() != jsonv.Array {
		return nil, jsonv.Errorf(ptr, "want an array of events, got %s", v.Kind())
	}
	events := make([]Event, 0, len(v.Elems()))
	for i, e := range v.Elems() {
		ev, err := DecodeEvent(e, jsonv.Index(ptr, i))
		if err != nil {
			return nil, err
		}
		events = append(events, ev)
	}
	return events, nil
}

// String renders the event as compact JSON.
func (e Event) String() string { return e.JSON().String() }

// GrammarError says which event broke the stream grammar and how.
type GrammarError struct {
	// Index is the position of the offending event, or len(events) when the
	// stream ended too early.
	Index int
	Msg   string
}

func (e *GrammarError) Error() string { return fmt.Sprintf("event %d: %s", e.Index, e.Msg) }
