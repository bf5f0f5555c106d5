package openaicodexresponses

import (
	"testing"

	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

func TestLenientOptions(t *testing.T) {
	// The key is a ChatGPT token naming an account; the transport must be SSE.
	const shared = `"apiKey":"x.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYSJ9fQ.y","transport":"sse",`
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
			model := `{"id":"gpt-5.1-codex","api":"openai-codex-responses","provider":"openai-codex","baseUrl":"","input":["text"]`
			if tc.levels {
				model += `,"thinkingLevelMap":{"7":"high","null":"low"}`
			}
			call, err := capturetest.BuildCall(t, Driver, model+"}", `{"messages":[]}`, "{"+shared+tc.opts[1:])
			if err != nil {
				t.Fatal(err)
			}
			for member, want := range tc.want {
				capturetest.CheckMember(t, call.Body, []string{member}, want)
			}
		})
	}
}
