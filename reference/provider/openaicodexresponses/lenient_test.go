package openaicodexresponses

import (
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

func TestLenientOptions(t *testing.T) {
	key := "x.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYSJ9fQ.y"
	levels, _ := jsonv.Parse([]byte(`{"7":"high","null":"low"}`))
	for _, tc := range []struct {
		name, opts string
		levels     bool
		// want holds body members as JSON; "" means the member is absent.
		want map[string]string
	}{
		{"verbosity of another type", `{"textVerbosity":3}`, false, map[string]string{"text": `{"verbosity":3}`}},
		{"falsy verbosity", `{"textVerbosity":0}`, false, map[string]string{"text": `{"verbosity":"low"}`}},
		{"null service tier is given", `{"serviceTier":null}`, false, map[string]string{"service_tier": `null`}},
		{"null effort sends no reasoning", `{"reasoningEffort":null}`, false, map[string]string{"reasoning": ``}},
		{"null effort with a null entry", `{"reasoningEffort":null}`, true, map[string]string{"reasoning": `{"effort":"low","summary":"auto"}`}},
		{"effort looked up by String()", `{"reasoningEffort":7,"reasoningSummary":null}`, true, map[string]string{"reasoning": `{"effort":"high","summary":"auto"}`}},
		{"effort and summary of other types", `{"reasoningEffort":[],"reasoningSummary":false}`, false, map[string]string{"reasoning": `{"effort":[],"summary":false}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := &ai.Model{ID: "gpt-5.1-codex", API: API, Provider: "openai-codex"}
			if tc.levels {
				model.ThinkingLevelMap = levels
			}
			v := jsonvtest.Parse(t, tc.opts).With("apiKey", jsonv.StringValue(key)).With("transport", jsonv.StringValue(SSETransport))
			opts, err := DecodeOptions(v, "/options")
			if err != nil {
				t.Fatal(err)
			}
			call, err := BuildRequest(model, &ai.Context{}, opts, capturetest.Clock)
			if err != nil {
				t.Fatal(err)
			}
			for member, want := range tc.want {
				got, ok := call.Body.Get(member)
				switch {
				case want == "" && ok:
					t.Errorf("%s = %s, want none", member, got)
				case want != "" && got.String() != want:
					t.Errorf("%s = %s, want %s", member, got, want)
				}
			}
		})
	}
}
