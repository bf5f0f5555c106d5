package provider_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/httpheader"
)

// TestIdentityHeaders: Pi 1.6's identity layer (SHR16-02), expected
// values printed by pi-ai 1.6.0's getIdentityHeaders under Node 22 on
// Linux x64; 0.80 has none.
func TestIdentityHeaders(t *testing.T) {
	const (
		local = "http://127.0.0.1:1"
		ua    = `"User-Agent":"pi/1.6.0 (linux; node/v22.23.3; x64)"`
		attr  = `{"attribution":{"name":"pi","url":"https://pi.dev","categories":["cli-agent","x"]}}`
	)
	for _, tc := range []struct {
		name, provider, baseURL, identity, want string
	}{
		{"no option", "anthropic", local, ``, `{` + ua + `}`},
		{"short", "anthropic", local, `{"userAgent":"short"}`, `{"User-Agent":"pi"}`},
		{"custom", "anthropic", local, `{"userAgent":{"custom":"my-app/2"}}`, `{"User-Agent":"my-app/2"}`},
		{"version", "anthropic", local, `{"version":"9.9.9"}`, `{"User-Agent":"pi/9.9.9 (linux; node/v22.23.3; x64)"}`},
		{"another mode, a number version", "anthropic", local, `{"userAgent":"other","version":7}`, `{"User-Agent":"pi/7 (linux; node/v22.23.3; x64)"}`},
		{"attribution where no provider reads it", "anthropic", local, attr, `{` + ua + `}`},
		{"OpenRouter by name", "openrouter", local, attr, `{` + ua + `,"HTTP-Referer":"https://pi.dev","X-OpenRouter-Title":"pi","X-OpenRouter-Categories":"cli-agent,x"}`},
		{"OpenRouter by URL, no categories", "x", "https://openrouter.ai/api/v1", `{"attribution":{"name":"n","url":"u","categories":[]}}`, `{` + ua + `,"HTTP-Referer":"u","X-OpenRouter-Title":"n"}`},
		{"NVIDIA capitalizes", "nvidia", local, `{"attribution":{"name":"pi","url":"u"}}`, `{` + ua + `,"X-BILLING-INVOKE-ORIGIN":"Pi"}`},
		{"NVIDIA by host, empty name", "x", "https://integrate.api.nvidia.com/v1", `{"attribution":{"name":"","url":"u"}}`, `{` + ua + `,"X-BILLING-INVOKE-ORIGIN":""}`},
		{"OpenCode by name", "opencode-go", local, `{"attribution":{"name":"pi"}}`, `{` + ua + `,"x-opencode-client":"pi"}`},
		{"OpenCode by host", "x", "https://opencode.ai/zen", `{"attribution":{"name":"pi"}}`, `{` + ua + `,"x-opencode-client":"pi"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var identity jsonv.Value
			if tc.identity != "" {
				var err error
				if identity, err = jsonv.ParseString(tc.identity); err != nil {
					t.Fatal(err)
				}
			}
			model := &ai.Model{Provider: tc.provider, BaseURL: tc.baseURL}
			hs, err := provider.IdentityHeaders(dialect.V1_6, model, identity)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, httpheader.JSON(hs).String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if hs, err := provider.IdentityHeaders(dialect.V0_80, model, identity); hs != nil || err != nil {
				t.Errorf("0.80: %v, %v; want none", hs, err)
			}
		})
	}
}
