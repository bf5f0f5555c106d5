package google

import (
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

// captures replays testdata/requests.json and testdata/streams.json, which
// capture.mjs recorded from real Pi 0.80.2.
var captures = capturetest.GenAI(Driver, capturetest.StreamEdges{
	Parse: ParseStream, Provider: "google",
	ReadError: `data: {"candidates":[{"content":{"parts":[{"text":"a"}]}}],"responseId":"r"}` + "\n\n",
	Outside: []string{
		`data: {"candidates":[{"content":{"parts":[{"text":5}]}}]}` + "\n\n",
		`data: {"candidates":[{"content":{"parts":"abc"}}]}` + "\n\n",
		`data: {"candidates":{"0":{}}}` + "\n\n",
		// Members Pi keeps as they are, with no string form: no conversion throws.
		`data: {"candidates":[{"content":{"parts":[{"functionCall":{"id":{"toString":"x"},"name":"f"}}]}}]}` + "\n\n",
		`data: {"candidates":[{"content":{"parts":[{"functionCall":{"id":"c1","name":{"toString":"x"}}}]}}]}` + "\n\n",
		`data: {"candidates":[{"content":{"parts":[{"functionCall":{"id":"c1","name":"f"},"thoughtSignature":{"toString":"x"}}]}}]}` + "\n\n",
	},
})

func TestMatchesPi(t *testing.T) { captures.Check(t) }

func TestIncidentalHeadersNameTheSDK(t *testing.T) {
	key := "k"
	req, err := BuildRequest(&ai.Model{ID: "gemini-2.5-pro", Provider: "google", BaseURL: "http://h"},
		&ai.Context{Messages: []ai.Message{&ai.UserMessage{Content: ai.Content{IsString: true, Text: "hi"}}}}, Options{StreamOptions: provider.StreamOptions{APIKey: &key}}, capturetest.Clock)
	if err != nil {
		t.Fatal(err)
	}
	want := "google-genai-sdk/" + SDKVersion(dialect.V0_80) + " gl-node/" + NodeVersion
	for _, h := range Driver.IncidentalHeaders {
		if got := req.Header.Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
}

func TestNormalizeToolCallID(t *testing.T) {
	claude := &ai.Model{ID: "claude-sonnet-4-5"}
	gemini := &ai.Model{ID: "gemini-2.5-pro"}
	for _, tc := range []struct {
		model   *ai.Model
		in, out string
	}{
		{claude, "call.1.2", "call_1_2"},
		{claude, "emoji😀", "emoji__"}, // two UTF-16 units, two underscores
		{claude, "lone\xed\xa0\xbd", "lone_"},
		{claude, strings.Repeat("x", 70), strings.Repeat("x", 64)},
		{&ai.Model{ID: "gpt-oss-20b"}, "a|b", "a_b"},
		{gemini, "a|b.c", "a|b.c"},
	} {
		if got := NormalizeToolCallID(tc.in, tc.model, nil); got != tc.out {
			t.Errorf("NormalizeToolCallID(%q, %s) = %q, want %q", tc.in, tc.model.ID, got, tc.out)
		}
	}
}

func TestDecodeOptionsPathErrors(t *testing.T) {
	capturetest.CheckDecodeOptions(t, Driver, capturetest.OptionErrors{
		`{"env":[]}`: "/options/env: want object, got array",
	}, `{"apiKey":"k","signal":{},"headers":{"a":"1","b":null},"toolChoice":"any","thinking":{"enabled":true,"level":"LOW","x":1}}`)
}
