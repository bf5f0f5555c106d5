package session_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/codingagent/session"
)

// FuzzLoad: any text, from any leaf, loads without a panic, fails only
// where Pi throws or outside the model, and never shows a made-up id.
func FuzzLoad(f *testing.F) {
	f.Add(lines(header3, user("a", "null", "one")), "a")
	f.Add(lines(`{"type":"session"}`, `{"type":"compaction","firstKeptEntryIndex":0}`, "[]", `{"type":"message","message":{"role":"hookMessage"}}`), "")
	f.Add("\ufeff\r\n{\"type\":\"custom_message\",\"timestamp\":\"2025-02-30\"}", "x")
	f.Fuzz(func(t *testing.T, text, leafID string) {
		const mark = "zq9made"
		for _, leaf := range []session.Leaf{{}, {Null: true}, {ID: leafID}} {
			ctx, err := session.Load(text, leaf, session.Options{NewID: func() string { return mark }})
			if err != nil {
				if _, thrown := errors.AsType[*session.Thrown](err); !thrown && !errors.Is(err, session.ErrOutsideModel) {
					t.Fatalf("error that is neither Thrown nor outside the model: %v", err)
				}
				continue
			}
			if out := contextJSON(ctx); strings.Contains(out, mark) && !strings.Contains(text, mark) {
				t.Fatalf("a made-up id reached the output: %s", out)
			}
		}
	})
}
