package stream

import (
	"errors"
	"fmt"
	"testing"
)

// TestMarkAfterAbortCheck: every failure of a builder that defers
// MarkAfterAbortCheck comes after the abort check (a refusal, a thrown
// conversion, a refused input), except one outside the model; the
// refusal's message is kept and a shared RequestError is not changed.
func TestMarkAfterAbortCheck(t *testing.T) {
	shared := &RequestError{Message: "shared"}
	plain := errors.New("refused input")
	for _, tc := range []struct {
		name    string
		run     func() error
		after   bool
		refusal string
	}{
		{"no error", func() error { return nil }, false, ""},
		{"a refusal", func() error { return shared }, true, "shared"},
		{"a thrown conversion", func() error { panic(JSError{NoPrimitiveText}) }, true, NoPrimitiveText},
		{"a refused input", func() error { return plain }, true, ""},
		{"outside the model", func() error { return fmt.Errorf("%w: x", ErrOutsideModel) }, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := func() (err error) {
				defer MarkAfterAbortCheck(&err)
				return tc.run()
			}()
			if got := errors.Is(err, ErrAfterAbortCheck); got != tc.after {
				t.Errorf("after the check %v, want %v (%v)", got, tc.after, err)
			}
			var re *RequestError
			if errors.As(err, &re) != (tc.refusal != "") || tc.refusal != "" && re.Message != tc.refusal {
				t.Errorf("refusal %v, want %q", err, tc.refusal)
			}
			if tc.name == "a refused input" && !errors.Is(err, plain) {
				t.Errorf("%v does not wrap the input's error", err)
			}
		})
	}
	if shared.AfterAbortCheck {
		t.Error("the shared refusal was changed")
	}
}
