package openaicodexresponses

import (
	"errors"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/transform"
)

// captures replays testdata/requests.json and testdata/streams.json, which
// capture.mjs recorded from real Pi 0.80.2.
var captures = capturetest.Captures{
	Driver: Driver,
	// Pi itself emits these streams' events out of grammar.
	Quirks: map[string]bool{
		"status failed ends with done and reason error":       true,
		"status cancelled with a tool call":                   true,
		"tool call left open at completion leaks partialJson": true,
		// No output_item.done closes its message.
		"invalid UTF-8 becomes replacement characters": true,
	},
	ShortCase: "example: text with usage",
	Edges: capturetest.StreamEdges{
		Parse: parseUntiered, Provider: "openai-codex",
		ReadError: "data: {\"type\":\"response.created\",\"response\":{\"id\":\"r\"}}\n\n",
	},
}

func TestMatchesPi(t *testing.T) { captures.Check(t) }

func TestTransportMustBeSSE(t *testing.T) {
	model := &ai.Model{ID: "m", API: API, Provider: "openai-codex"}
	ctx := &ai.Context{}
	key := "x.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYSJ9fQ.y"
	for _, tr := range []jsonv.Value{{}, jsonv.StringValue("auto"), jsonv.StringValue("websocket"), jsonv.NumberValue("7"), jsonv.NullValue()} {
		_, err := BuildRequest(model, ctx, Options{StreamOptions: provider.StreamOptions{APIKey: &key, Transport: tr}}, capturetest.Clock)
		if !errors.Is(err, ErrNotModelled) {
			t.Errorf("transport %v: err = %v, want ErrNotModelled", tr, err)
		}
	}
	req, err := BuildRequest(model, ctx, Options{StreamOptions: provider.StreamOptions{APIKey: &key, Transport: jsonv.StringValue("sse")}}, capturetest.Clock)
	if err != nil || req.Header.Get(AccountHeader) != "a" {
		t.Fatalf("sse: %v, %+v", err, req)
	}
}

func TestResolveURL(t *testing.T) {
	for in, want := range map[string]string{
		"":                                 "https://chatgpt.com/backend-api/codex/responses",
		"   ":                              "https://chatgpt.com/backend-api/codex/responses",
		"https://chatgpt.com/backend-api/": "https://chatgpt.com/backend-api/codex/responses",
		"https://h/x/codex":                "https://h/x/codex/responses",
		"https://h/x/codex///":             "https://h/x/codex/responses",
		"https://h/x/codex/responses/":     "https://h/x/codex/responses",
		"https://h/codexy":                 "https://h/codexy/codex/responses",
	} {
		if got := ResolveURL(in); got != want {
			t.Errorf("ResolveURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAccountID(t *testing.T) {
	for _, tc := range []struct {
		payload string
		want    string
		ok      bool
	}{
		{"eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYSJ9fQ", "a", true},
		{"eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYSJ9fQ==", "a", true},
		{"eyJodHRw czovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYSJ9fQ", "a", true},
		{"eyJ-_", "", false},
		{"e", "", false},
		{"bm9wZQ", "", false}, // "nope"
		{"bnVsbA", "", false}, // "null"
	} {
		got, ok := AccountID("h." + tc.payload + ".s")
		if got != tc.want || ok != tc.ok {
			t.Errorf("AccountID(%q) = %q, %v; want %q, %v", tc.payload, got, ok, tc.want, tc.ok)
		}
	}
	if _, ok := AccountID("a.b"); ok {
		t.Error("two parts accepted")
	}
}

func TestNormalizeToolCallID(t *testing.T) {
	codex := &ai.Model{ID: "gpt-5.1-codex", API: API, Provider: "openai-codex"}
	azure := &ai.Model{ID: "gpt-5.1-codex", API: API, Provider: "azure-openai-responses"}
	foreign := &ai.AssistantMessage{API: "anthropic-messages", Provider: "anthropic", Model: "claude"}
	for _, tc := range []struct {
		in    string
		model *ai.Model
		want  string
	}{
		{"call_9|item+/=long", codex, "call_9|fc_" + transform.ShortHash("item+/=long")},
		{"call_9|item+/=long", azure, "call_9_item___long"},
		{"toolu_01A.b", codex, "toolu_01A_b"},
	} {
		if got := NormalizeToolCallID(tc.in, tc.model, foreign); got != tc.want {
			t.Errorf("NormalizeToolCallID(%q, %s) = %q, want %q", tc.in, tc.model.Provider, got, tc.want)
		}
	}
}

func TestDecodeOptionsPathErrors(t *testing.T) {
	capturetest.CheckDecodeOptions(t, Driver, capturetest.OptionErrors{}, `{"apiKey":"k","transport":"sse","textVerbosity":"high","serviceTier":"flex","maxTokens":5,"cacheRetention":"none","headers":{"a":"1","b":null}}`)
}
