package run

import (
	"fmt"

	"github.com/piconform/piconform/harness/compare"
)

// Bounds on what a result keeps of the texts an implementation wrote (an
// error message, a skip reason, a note), so that a hostile or broken
// implementation that answers with 16 MiB costs each report at most a few
// hundred KiB of a case and the run little memory. A difference's values
// and path are bounded by compare (Diff.Bounded).
const (
	MaxMessageBytes = 16 << 10
	MaxNoteBytes    = 2 << 10
	MaxNotes        = 20
)

// bound cuts what r holds to the bounds above, saying where it cut.
func bound(r *Result) {
	r.Message = clipText(r.Message, MaxMessageBytes)
	r.Link = compare.Clip(r.Link, MaxNoteBytes)
	if len(r.Notes) > MaxNotes {
		more := len(r.Notes) - MaxNotes
		r.Notes = append(r.Notes[:MaxNotes:MaxNotes], fmt.Sprintf("… and %d more notes", more))
	}
	for i, n := range r.Notes {
		r.Notes[i] = clipText(n, MaxNoteBytes)
	}
	for i := range r.Diffs {
		r.Diffs[i] = r.Diffs[i].Bounded()
	}
	if m := r.Mismatch; m != nil {
		for i := range m.Diffs {
			m.Diffs[i] = m.Diffs[i].Bounded()
		}
		m.Path = compare.Clip(m.Path, compare.MaxPathBytes)
		m.Want, m.Got = clipText(m.Want, compare.MaxValueBytes), clipText(m.Got, compare.MaxValueBytes)
		m.Diff = clipText(m.Diff, MaxMessageBytes)
	}
}

// clipText is s cut to at most n bytes and a note of how long it was.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return fmt.Sprintf("%s (%d bytes in all)", compare.Clip(s, n), len(s))
}
