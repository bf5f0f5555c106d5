package azureopenairesponses

import (
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/transform"
)

// captures replays testdata/requests.json and testdata/streams.json, which
// capture.mjs recorded from real Pi 0.80.2.
var captures = capturetest.Captures{
	Driver: Driver,
}

func TestMatchesPi(t *testing.T) { captures.Check(t) }

// TestBaseURLsMatchPi replays testdata/urls.json: base URLs on Azure hosts,
// resolved by real Pi with fetch replaced, so they were never called.
func TestBaseURLsMatchPi(t *testing.T) { captures.CheckURLs(t, "testdata/urls.json") }

func TestNormalizeToolCallID(t *testing.T) {
	azure := &ai.Model{ID: "gpt-5", API: API, Provider: API}
	openai := &ai.Model{ID: "gpt-5", API: API, Provider: "openai"}
	other := &ai.Model{ID: "gpt-5", API: API, Provider: "my-azure"}
	foreign := &ai.AssistantMessage{API: "anthropic-messages", Provider: "anthropic", Model: "claude"}
	sibling := &ai.AssistantMessage{API: API, Provider: API, Model: "gpt-4.1"}
	for _, tc := range []struct {
		in     string
		model  *ai.Model
		source *ai.AssistantMessage
		want   string
	}{
		{"call_9|item+/=long", azure, foreign, "call_9|fc_" + transform.ShortHash("item+/=long")},
		{"call_9|item+/=long", openai, foreign, "call_9|fc_" + transform.ShortHash("item+/=long")},
		{"call_9|item+/=long", other, foreign, "call_9_item___long"},
		{"call_9|rs+x", azure, sibling, "call_9|fc_rs_x"},
		{"toolu_01A.b", azure, foreign, "toolu_01A_b"},
	} {
		if got := NormalizeToolCallID(tc.in, tc.model, tc.source); got != tc.want {
			t.Errorf("NormalizeToolCallID(%q, %s) = %q, want %q", tc.in, tc.model.Provider, got, tc.want)
		}
	}
}

func TestDecodeOptionsPathErrors(t *testing.T) {
	capturetest.CheckDecodeOptions(t, Driver, capturetest.OptionErrors{
		`{"env":{"AZURE_OPENAI_BASE_URL":true}}`: "/options/env/AZURE_OPENAI_BASE_URL: want a string, got boolean",
	}, `{"apiKey":"k","azureApiVersion":"v","azureResourceName":"r","azureBaseUrl":"u","azureDeploymentName":"d","serviceTier":"flex","cacheRetention":"none"}`)
}
