package googlevertex

import (
	"errors"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

// captures replays testdata/requests.json and testdata/streams.json, which
// capture.mjs recorded from real Pi 0.80.2.
var captures = capturetest.GenAI(Driver, capturetest.StreamEdges{})

func TestMatchesPi(t *testing.T) { captures.Check(t) }

// TestEndpointsMatchPi replays testdata/urls.json: base URLs that lead to
// Google's hosts, resolved by real Pi with fetch replaced.
func TestEndpointsMatchPi(t *testing.T) { captures.CheckURLs(t, "testdata/urls.json") }

func TestOutsideTheModel(t *testing.T) {
	hi := &ai.Context{Messages: []ai.Message{&ai.UserMessage{Content: ai.Content{IsString: true, Text: "hi"}}}}
	model := &ai.Model{ID: "gemini-2.5-pro", API: API, Provider: API, BaseURL: "http://h"}
	project, location := jsonv.StringValue("p"), jsonv.StringValue("us-central1")
	if _, err := BuildRequest(model, hi, Options{Project: project, Location: location}, capturetest.Clock); !errors.Is(err, ErrCredentials) {
		t.Errorf("credentials mode: err = %v, want ErrCredentials", err)
	}
	key := "k"
	query := &ai.Model{ID: "gemini-2.5-pro", API: API, Provider: API, BaseURL: "http://h/p?x=1"}
	if _, err := BuildRequest(query, hi, Options{Options: googleOptions(&key)}, capturetest.Clock); !errors.Is(err, ErrBaseURLQuery) {
		t.Errorf("base URL with a query: err = %v, want ErrBaseURLQuery", err)
	}
}

func TestResourceName(t *testing.T) {
	for in, want := range map[string]string{
		"gemini-2.5-pro":             "publishers/google/models/gemini-2.5-pro",
		"models/x":                   "models/x",
		"projects/p/locations/l/e/1": "projects/p/locations/l/e/1",
		"publishers/a/models/b":      "publishers/a/models/b",
		"tunedModels/my-model":       "publishers/tunedModels/models/my-model",
		"anthropic/claude-x/ignored": "publishers/anthropic/models/claude-x",
		"meta/":                      "publishers/meta/models/",
	} {
		if got := ResourceName(in); got != want {
			t.Errorf("ResourceName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDecodeOptionsPathErrors(t *testing.T) {
	capturetest.CheckDecodeOptions(t, Driver, capturetest.OptionErrors{
		`{"env":{"GOOGLE_CLOUD_PROJECT":true}}`: "/options/env/GOOGLE_CLOUD_PROJECT: want a string, got boolean",
		`{"env":[]}`:                            "/options/env: want object, got array",
	}, `{"apiKey":"k","temperature":0.5,"maxTokens":9,"headers":{"a":"b","c":null},"toolChoice":"any","thinking":{"enabled":true,"level":"LOW"},"project":"p","location":"l","env":{"GOOGLE_CLOUD_LOCATION":"x"},"signal":{}}`)
}
