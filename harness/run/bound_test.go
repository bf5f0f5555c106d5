package run

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/reference/jsonv"
)

// TestBound: what a result keeps of an implementation's texts is cut to
// the bounds, saying how long it was; what fits is kept as it is.
func TestBound(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("x", 1<<20)
	notes := make([]string, 30)
	for i := range notes {
		notes[i] = fmt.Sprint("note ", i)
	}
	type kept struct {
		Message   string
		Notes     []string
		DiffBytes []int
	}
	tests := []struct {
		name string
		r    Result
		want kept
	}{
		{"short texts kept", Result{Message: "boom", Notes: []string{"n"}}, kept{Message: "boom", Notes: []string{"n"}}},
		{"a message of 1 MiB", Result{Message: huge}, kept{Message: huge[:MaxMessageBytes] + "… (1048576 bytes in all)"}},
		{"a note of 1 MiB", Result{Notes: []string{huge}}, kept{Notes: []string{huge[:MaxNoteBytes] + "… (1048576 bytes in all)"}}},
		{"30 notes", Result{Notes: notes}, kept{Notes: append(notes[:MaxNotes:MaxNotes], "… and 10 more notes")}},
		{"a difference of 1 MiB", Result{Diffs: []compare.Diff{{Path: "/a", Got: jsonv.StringValue(huge)}}}, kept{DiffBytes: []int{1<<20 + 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.r
			bound(&r)
			got := kept{Message: r.Message, Notes: r.Notes}
			for _, d := range r.Diffs {
				got.DiffBytes = append(got.DiffBytes, d.GotBytes)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("bound (-want +got):\n%s", diff)
			}
		})
	}
}
