package stream

import (
	"errors"
	"io"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// Steps are what one provider's parser plugs into Run.
type Steps struct {
	// Feed takes the bytes of one read; after the last read it is called
	// once more with eof set and no bytes. It frames the bytes its own way
	// (SSE, an AWS event stream, ...) and handles each complete piece. It
	// returns true when the stream is over and nothing more is read.
	Feed func(data []byte, eof bool) (stop bool)
	// End runs once the body is read: it checks how the stream ended and
	// emits the done event.
	End func()
	// Fail ends the stream with an error event whose errorMessage is msg.
	Fail func(msg string)
	// Outside, when set, is told that Feed or End threw Outside; the
	// stream then fails with OutsideText.
	Outside func()
	// Events, when set, counts the events emitted so far, for a caller
	// who aborts after some of them (AbortAfter).
	Events func() int
}

// Outside is thrown (a panic) by a parser that meets input outside the
// modelled semantics, where it cannot say what Pi would do.
type Outside struct{}

// OutsideText is the errorMessage of a stream that went Outside.
const OutsideText = "outside the model"

// Run reads r through s as Pi reads a response body: Feed and End may
// throw a JSError (a panic), which ends the stream with s.Fail, as Pi's
// catch does (and returns ErrAborted when the caller's abort was due by
// then); a read error does the same with the error's text and is
// returned. When r is an *AbortAfter, Run stops once s.Events reaches its
// count, before reading on, and returns ErrAborted: the read Pi was waiting
// on throws the abort's text, or, without one, the stream ends there (End).
func Run(r io.Reader, s Steps) (readErr error) {
	defer func() {
		if x := recover(); x != nil {
			switch e := x.(type) {
			case JSError:
				s.Fail(e.Msg)
				// A caller that aborts on its k-th event does so as the
				// event is pushed, before a throw later in the same chunk:
				// Pi's catch then finds the signal aborted.
				if _, ok := abortDue(r, s); ok {
					readErr = ErrAborted
				}
			case Outside:
				if s.Outside == nil {
					panic(x)
				}
				s.Outside()
				s.Fail(OutsideText)
			default:
				panic(x)
			}
		}
	}()
	buf := make([]byte, 32*1024)
	for {
		if a, ok := abortDue(r, s); ok {
			readErr = ErrAborted
			if a.Text != "" {
				s.Fail(a.Text)
				return readErr
			}
			break
		}
		n, err := r.Read(buf)
		if s.Feed(buf[:n], false) {
			break
		}
		if err == io.EOF {
			s.Feed(nil, true)
			break
		}
		if err != nil {
			s.Fail(err.Error())
			return err
		}
	}
	s.End()
	return readErr
}

// ErrorEvent makes out the message of a stream that failed with msg and
// returns its error event.
func ErrorEvent(out *ai.AssistantMessage, msg string) Event {
	out.StopReason = ai.StopError
	out.ErrorMessage = &msg
	return Event{Type: TypeError, Reason: ai.StopError, Message: out}
}

// DoneEvent is the done event of a stream that ended well.
func DoneEvent(out *ai.AssistantMessage) Event {
	return Event{Type: TypeDone, Reason: out.StopReason, Message: out}
}

// Outcome is the error a parser returns: the read error, if any, else
// ErrOutsideModel when the stream went outside the modelled semantics.
func Outcome(readErr error, outside bool) error {
	if readErr == nil && outside {
		return ErrOutsideModel
	}
	return readErr
}

// Count is `v || 0` for a token count: the value as sent when it is
// truthy, whatever its type (Plus, Minus and Price compute with it as
// JavaScript does).
func Count(v jsonv.Value) jsonv.Value { return JSValue(Or(v, Zero)) }

// Zero is the number 0.
var Zero = jsonv.NumberValue("0")

// Price is PriceIn for Pi 0.80.
func Price(model *ai.Model, usage *ai.Usage) { PriceIn(dialect.V0_80, model, usage) }

// PriceIn is Pi's calculateCost(model, usage) of dialect d in a stream
// reader: where it throws (a model without prices, a price or count with
// no number form, in 1.6 unreadable price tiers) it panics with V8's text
// as a JSError, which the reader's catch makes the stream's error, the
// costs written before the throw kept.
func PriceIn(d dialect.Dialect, model *ai.Model, usage *ai.Usage) {
	if _, err := ai.CalculateCostIn(d, model, usage); err != nil {
		var ce *ai.CostError
		if !errors.As(err, &ce) {
			panic(err)
		}
		panic(JSError{ce.Msg})
	}
}

// Push appends block to out and returns its start event.
func Push(out *ai.AssistantMessage, block ai.Block, start string) Event {
	out.Content = append(out.Content, block)
	return Event{Type: start, ContentIndex: len(out.Content) - 1}
}

// AppendText adds delta to the text block b at index i, as Pi's += does
// on JavaScript strings, and returns the delta event.
func AppendText(b *ai.TextBlock, i int, delta string) Event {
	b.Text = wtf8.Concat(b.Text, delta)
	return Event{Type: TypeTextDelta, ContentIndex: i, Delta: delta}
}

// AppendThinking is AppendText for a thinking block.
func AppendThinking(b *ai.ThinkingBlock, i int, delta string) Event {
	b.Thinking = wtf8.Concat(b.Thinking, delta)
	return Event{Type: TypeThinkingDelta, ContentIndex: i, Delta: delta}
}

// AppendArgs adds delta to *partial, a tool call's raw argument text, as
// Pi's += does, parses the text so far into b's arguments, and returns the
// delta event of the call at index i.
func AppendArgs(b *ai.ToolCallBlock, partial *string, i int, delta string) Event {
	*partial = wtf8.Concat(*partial, delta)
	b.Arguments = ParseStreamingJSON(*partial)
	return Event{Type: TypeToolCallDelta, ContentIndex: i, Delta: delta}
}

// EndOf is the end event of the text or thinking block b at index i; ok
// is false for any other block.
func EndOf(b ai.Block, i int) (e Event, ok bool) {
	switch b := b.(type) {
	case *ai.TextBlock:
		return Event{Type: TypeTextEnd, ContentIndex: i, Content: b.Text}, true
	case *ai.ThinkingBlock:
		return Event{Type: TypeThinkingEnd, ContentIndex: i, Content: b.Thinking}, true
	}
	return Event{}, false
}

// Leak writes the scratch members Pi keeps on a block while it streams
// (the provider's index, a tool call's raw argument text) into b, where Pi
// leaves them when the block is never closed; nil and Absent ones are
// left out.
func Leak(b ai.Block, partialJSON *string, index jsonv.Value) {
	var extra []jsonv.Member
	if partialJSON != nil {
		extra = append(extra, jsonv.Member{Key: "partialJson", Value: jsonv.StringValue(*partialJSON)})
	}
	if !index.IsAbsent() {
		extra = append(extra, jsonv.Member{Key: "index", Value: index})
	}
	switch b := b.(type) {
	case *ai.TextBlock:
		b.Extra = extra
	case *ai.ThinkingBlock:
		b.Extra = extra
	case *ai.ToolCallBlock:
		b.Extra = extra
	}
}
