package azureopenairesponses

import (
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

// Pi 1.6 takes *.ai.azure.com for an Azure host and normalizes the path
// /openai/v1/responses too (azure-openai-config.js of 1.6.0).
func TestNormalizeBaseURLIn(t *testing.T) {
	for _, tc := range []struct {
		in, v080, v16 string
	}{
		{"https://r.services.ai.azure.com/openai/v1/responses", "https://r.services.ai.azure.com/openai/v1/responses", "https://r.services.ai.azure.com/openai/v1"},
		{"https://r.services.ai.azure.com", "https://r.services.ai.azure.com", "https://r.services.ai.azure.com/openai/v1"},
		{"https://r.openai.azure.com/openai/v1/responses?x=1", "https://r.openai.azure.com/openai/v1/responses?x=1", "https://r.openai.azure.com/openai/v1"},
		{"https://r.openai.azure.com/openai/", "https://r.openai.azure.com/openai/v1", "https://r.openai.azure.com/openai/v1"},
		{"http://127.0.0.1:8/openai/v1/responses", "http://127.0.0.1:8/openai/v1/responses", "http://127.0.0.1:8/openai/v1/responses"},
	} {
		for _, d := range []struct {
			d    dialect.Dialect
			want string
		}{{dialect.V0_80, tc.v080}, {dialect.V1_6, tc.v16}} {
			if got, err := NormalizeBaseURLIn(d.d, tc.in); err != nil || got != d.want {
				t.Errorf("%s %s: %q, %v; want %q", d.d, tc.in, got, err, d.want)
			}
		}
	}
}

// The provider that keeps the call|item pairing is the API's name in 0.80
// and "azure" in 1.6.
func TestPairedProviders(t *testing.T) {
	foreign := &ai.AssistantMessage{API: "anthropic-messages", Provider: "anthropic", Model: "claude"}
	for _, tc := range []struct {
		d        dialect.Dialect
		provider string
		want     string
	}{
		{dialect.V0_80, API, "call_c|fc_"},
		{dialect.V0_80, "azure", "call_c_fc_c"},
		{dialect.V1_6, API, "call_c_fc_c"},
		{dialect.V1_6, "azure", "call_c|fc_"},
	} {
		m := &ai.Model{ID: "gpt-5", API: API, Provider: tc.provider}
		if got := normalizeToolCallID(tc.d)("call_c|fc_c", m, foreign); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s %s: %q, want %s…", tc.d, tc.provider, got, tc.want)
		}
	}
}

// Azure's body in 1.6: tool_choice, the output floor, strict kept unless
// the compat turns strict mode off, and promptCacheKeyMode.
func TestBody16(t *testing.T) {
	const model = `{"id":"gpt-5","api":"azure-openai-responses","provider":"azure-openai-responses","baseUrl":"http://h/openai/v1","reasoning":true,"input":["text"]}`
	const ctx = `{"messages":[{"role":"user","content":"hi","timestamp":1}],"tools":[{"name":"f","description":"d","parameters":{}}]}`
	for _, tc := range []struct {
		name, model, opts, want string
	}{
		{"defaults", model, `{"toolChoice":"auto","maxTokens":1,"sessionId":"s"}`,
			`{"model":"gpt-5","input":[{"role":"user","content":[{"type":"input_text","text":"hi"}]}],"stream":true,"prompt_cache_key":"s","store":false,"max_output_tokens":16,
			"tools":[{"type":"function","name":"f","description":"d","parameters":{},"strict":false}],"tool_choice":"auto","reasoning":{"effort":"none"}}`},
		{"strict off, key disabled", strings.Replace(model, `"reasoning":true`, `"reasoning":true,"compat":{"supportsStrictMode":false,"promptCacheKeyMode":"disabled"}`, 1), `{"sessionId":"s"}`,
			`{"model":"gpt-5","input":[{"role":"user","content":[{"type":"input_text","text":"hi"}]}],"stream":true,"store":false,
			"tools":[{"type":"function","name":"f","description":"d","parameters":{}}],"reasoning":{"effort":"none"}}`},
	} {
		call, err := capturetest.BuildCallIn(t, Driver, dialect.V1_6, tc.model, ctx, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := call.Body.String(), jsonvtest.Parse(t, tc.want).String(); got != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, want)
		}
	}
}
