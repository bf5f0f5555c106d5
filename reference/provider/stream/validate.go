package stream

import (
	"fmt"

	"github.com/piconform/piconform/reference/ai"
)

// Validate checks the order of a stream's events, the contract every Pi
// provider keeps:
//
//   - The stream opens with exactly one start. The one exception is a request
//     that failed before any response arrived (an HTTP error status, a
//     missing API key): Pi then sends a lone error event and nothing else.
//   - It ends with exactly one terminal event, done or error, and nothing
//     follows it. done carries reason stop, length or toolUse; error carries
//     error or aborted; either way the reason equals the final message's
//     stopReason.
//   - Each block opens with its *_start at a content index not used before,
//     receives deltas of its own family only while open, and is closed by the
//     *_end of the same family and index.
//   - done requires every block to be closed. error does not: a stream that
//     breaks off mid-block leaves it open.
//
// Pi itself breaks the done rule in one case: when the provider sends
// message_stop without closing a block, done arrives with the block still
// open (ANT-043). Validate reports that.
func Validate(events []Event) error {
	fail := func(i int, format string, args ...any) error {
		return &GrammarError{Index: i, Msg: sprintf(format, args...)}
	}
	if len(events) == 0 {
		return fail(0, "empty stream: want start first")
	}
	if len(events) == 1 && events[0].Type == TypeError {
		return checkTerminal(events[0], 0)
	}
	if events[0].Type != TypeStart {
		return fail(0, "stream opens with %s, want start", events[0].Type)
	}
	open := map[int]string{} // content index -> family of the open block
	used := map[int]bool{}
	for i := 1; i < len(events); i++ {
		e := events[i]
		family, k := classify(e.Type)
		switch k {
		case kindUnknown:
			return fail(i, "unknown event type %q", e.Type)
		case kindBare:
			return fail(i, "a second start")
		case kindBlockStart:
			if used[e.ContentIndex] {
				return fail(i, "%s at content index %d, which was already used", e.Type, e.ContentIndex)
			}
			used[e.ContentIndex] = true
			open[e.ContentIndex] = family
		case kindBlockDelta, kindBlockEnd:
			have, ok := open[e.ContentIndex]
			if !ok {
				return fail(i, "%s at content index %d, where no block is open", e.Type, e.ContentIndex)
			}
			if have != family {
				return fail(i, "%s at content index %d, where a %s block is open", e.Type, e.ContentIndex, have)
			}
			if k == kindBlockEnd {
				delete(open, e.ContentIndex)
			}
		case kindTerminal:
			if i != len(events)-1 {
				return fail(i+1, "%s after the terminal %s event", events[i+1].Type, e.Type)
			}
			if e.Type == TypeDone && len(open) > 0 {
				for idx, fam := range open {
					return fail(i, "done while the %s block at content index %d is still open", fam, idx)
				}
			}
			return checkTerminal(e, i)
		}
	}
	return fail(len(events), "stream ends without done or error")
}

func checkTerminal(e Event, i int) error {
	fail := func(format string, args ...any) error {
		return &GrammarError{Index: i, Msg: sprintf(format, args...)}
	}
	switch e.Type {
	case TypeDone:
		if e.Reason != ai.StopStop && e.Reason != ai.StopLength && e.Reason != ai.StopToolUse {
			return fail("done with reason %q, want stop, length or toolUse", e.Reason)
		}
	case TypeError:
		if e.Reason != ai.StopError && e.Reason != ai.StopAborted {
			return fail("error with reason %q, want error or aborted", e.Reason)
		}
	default:
		return fail("%s where a terminal event belongs", e.Type)
	}
	if e.Message == nil {
		return fail("%s without its final message", e.Type)
	}
	if e.Message.StopReason != e.Reason {
		return fail("%s with reason %q but the message's stopReason is %q", e.Type, e.Reason, e.Message.StopReason)
	}
	return nil
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
