package stream

import (
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
)

// TestToolArgsCorpus checks ToolCallArgs against what Pi 1.6.0's
// ToolCallArgumentsStream gave under Node 22 for the same pieces
// (testdata/toolargs-corpus.json, captured from the real class): the
// partial arguments after each piece, a replace of the whole text, and the
// final parse with its argumentsError.
func TestToolArgsCorpus(t *testing.T) {
	corpus, err := jsonv.ReadFile("testdata/toolargs-corpus.json")
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range corpus.Elems() {
		f := jsonv.ReadFields(c, jsonv.Index("", i))
		pieces, partials := f.Any("pieces"), f.Any("partials")
		replace, replaced := f.OptString("replace"), f.Any("replaced")
		finish, argsErr := f.String("finish"), f.OptString("argumentsError")
		if err := f.Err(); err != nil {
			t.Fatal(err)
		}
		var a ToolCallArgs
		for j, p := range pieces.Elems() {
			if got, want := a.Append(p.Str()).String(), partials.Elems()[j].Str(); got != want {
				t.Errorf("case %d %q: partial after piece %d = %s, want %s", i, pieces.String(), j, got, want)
			}
		}
		if replace != nil {
			delta, ok, args := a.Replace(*replace)
			wantDelta, _ := replaced.Get("delta")
			wantArgs, _ := replaced.Get("arguments")
			gotDelta := jsonv.NullValue()
			if ok {
				gotDelta = jsonv.StringValue(delta)
			}
			if gotDelta.String() != wantDelta.String() || args.String() != wantArgs.Str() {
				t.Errorf("case %d: replace(%q) = %s, %s; want %s, %s", i, *replace, gotDelta, args, wantDelta, wantArgs.Str())
			}
		}
		args, gotErr := a.Finish()
		if args.String() != finish {
			t.Errorf("case %d %q: finish = %s, want %s", i, pieces.String(), args, finish)
		}
		if (gotErr == nil) != (argsErr == nil) || gotErr != nil && *gotErr != *argsErr {
			t.Errorf("case %d %q: argumentsError = %v, want %v", i, pieces.String(), deref(gotErr), deref(argsErr))
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "<none>"
	}
	return *s
}
