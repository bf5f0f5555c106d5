package azureopenairesponses

import (
	"io"
	"os"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

var fixedClock = capturetest.Clock

// captures replays testdata/requests.json and testdata/streams.json, which
// capture.mjs recorded from real Pi 0.80.2.
var captures = capturetest.Provider[Options, *Request]{
	DecodeOptions: DecodeOptions,
	BuildRequest:  BuildRequest,
	Sent: func(req *Request) capturetest.Sent {
		return capturetest.Sent{Method: req.Method, URL: req.URL, Header: req.Header, Body: req.Body}
	},
	RequestError: capturetest.ErrorMessage[*RequestError],
	Failure:      Failure,
	ParseResponse: func(req *Request, c capturetest.Case[Options], body io.Reader) (*ai.AssistantMessage, []stream.Event, error) {
		return req.ParseResponse(c.Status, body, fixedClock)
	},
}

func TestBuildRequestMatchesPi(t *testing.T) { captures.CheckRequests(t, "testdata/requests.json") }

// TestBaseURLsMatchPi replays testdata/urls.json: base URLs on Azure hosts,
// resolved by real Pi with fetch replaced, so they were never called.
func TestBaseURLsMatchPi(t *testing.T) {
	data, err := os.ReadFile("testdata/urls.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range v.Elems() {
		f := jsonv.ReadFields(c, jsonv.Index("", i))
		name := f.String("name")
		rawModel, rawCtx, rawOpts, want := f.Object("model"), f.Object("context"), f.Object("options"), f.Object("want")
		if err := f.Err(); err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			model, err := ai.DecodeModel(rawModel, "/model")
			if err != nil {
				t.Fatal(err)
			}
			ctx, err := ai.DecodeContext(rawCtx, "/context")
			if err != nil {
				t.Fatal(err)
			}
			opts, err := DecodeOptions(rawOpts, "/options")
			if err != nil {
				t.Fatal(err)
			}
			req, err := BuildRequest(model, ctx, opts, fixedClock)
			if e, ok := want.Get("error"); ok {
				if msg, ok := capturetest.ErrorMessage[*RequestError](err); !ok || msg != e.Str() {
					t.Fatalf("error = %v, want %q", err, e.Str())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if u, _ := want.Get("url"); req.URL != u.Str() {
				t.Errorf("URL = %s, want %s", req.URL, u.Str())
			}
		})
	}
}

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
	for _, tc := range []struct{ in, want string }{
		{`{"azureApiVersion":1}`, "/options/azureApiVersion: want string, got number"},
		{`{"azureDeploymentName":null}`, "/options/azureDeploymentName: want string, got null"},
		{`{"headers":{"x":1}}`, "/options/headers/x: want a string or null, got number"},
		{`{"env":{"AZURE_OPENAI_BASE_URL":true}}`, "/options/env/AZURE_OPENAI_BASE_URL: want a string, got boolean"},
		{`[]`, "/options: want an object, got array"},
	} {
		v, err := jsonv.Parse([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		_, err = DecodeOptions(v, "/options")
		if err == nil || err.Error() != tc.want {
			t.Errorf("DecodeOptions(%s) error = %v, want %q", tc.in, err, tc.want)
		}
	}
	v, _ := jsonv.Parse([]byte(`{"apiKey":"k","azureApiVersion":"v","azureResourceName":"r","azureBaseUrl":"u","azureDeploymentName":"d","serviceTier":"flex","cacheRetention":"none"}`))
	o, err := DecodeOptions(v, "")
	if err != nil {
		t.Fatal(err)
	}
	if !jsonv.Equal(o.JSON(), v) {
		t.Errorf("round trip: %s, want %s", o.JSON(), v)
	}
}
