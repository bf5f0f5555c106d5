package googlevertex

import (
	"cmp"
	"errors"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/provider/stream"
)

var fixedClock = capturetest.Clock

// Tool-call ids Pi made up end in _<Date.now()>_<n>, n counting the ids
// the process made before; both sides are compared without n.
var generatedID = regexp.MustCompile(`_1700000000000_\d+"`)

func redactIDs(v jsonv.Value) jsonv.Value {
	out, err := jsonv.Parse(generatedID.ReplaceAll(v.AppendJSON(nil), []byte(`_1700000000000_N"`)))
	if err != nil {
		panic(err)
	}
	return out
}

// captures replays testdata/requests.json and testdata/streams.json, which
// capture.mjs recorded from real Pi 0.80.2.
var captures = capturetest.Provider[Options, *Request]{
	DecodeOptions: DecodeOptions,
	BuildRequest:  BuildRequest,
	Sent: func(req *Request) capturetest.Sent {
		header := req.Header.Clone()
		for _, h := range IncidentalHeaders {
			header.Del(h)
		}
		return capturetest.Sent{Method: req.Method, URL: req.URL, Header: header, Body: req.Body}
	},
	RequestError: capturetest.ErrorMessage[*RequestError],
	Failure:      Failure,
	ParseResponse: func(req *Request, c capturetest.Case[Options], body io.Reader) (*ai.AssistantMessage, []stream.Event, error) {
		h := http.Header{}
		h.Set("Content-Type", cmp.Or(c.ContentType, "text/event-stream"))
		return req.ParseResponse(c.Status, http.StatusText(c.Status), h, body, fixedClock)
	},
	Redact:        redactIDs,
	WholeReadOnly: func(name string) bool { return strings.HasPrefix(name, "JSON error body in a 200") },
}

func TestBuildRequestMatchesPi(t *testing.T) { captures.CheckRequests(t, "testdata/requests.json") }

// TestEndpointsMatchPi replays testdata/urls.json: base URLs that lead to
// Google's hosts, resolved by real Pi with fetch replaced.
func TestEndpointsMatchPi(t *testing.T) {
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
			if err != nil {
				t.Fatal(err)
			}
			if u, _ := want.Get("url"); req.URL != u.Str() {
				t.Errorf("URL = %s, want %s", req.URL, u.Str())
			}
		})
	}
}

func TestOutsideTheModel(t *testing.T) {
	hi := &ai.Context{Messages: []ai.Message{&ai.UserMessage{Content: ai.Content{IsString: true, Text: "hi"}}}}
	model := &ai.Model{ID: "gemini-2.5-pro", API: API, Provider: API, BaseURL: "http://h"}
	project, location := "p", "us-central1"
	if _, err := BuildRequest(model, hi, Options{Project: &project, Location: &location}, fixedClock); !errors.Is(err, ErrCredentials) {
		t.Errorf("credentials mode: err = %v, want ErrCredentials", err)
	}
	key := "k"
	query := &ai.Model{ID: "gemini-2.5-pro", API: API, Provider: API, BaseURL: "http://h/p?x=1"}
	if _, err := BuildRequest(query, hi, Options{Options: googleOptions(&key)}, fixedClock); !errors.Is(err, ErrBaseURLQuery) {
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
	for _, tc := range []struct{ in, want string }{
		{`{"project":1}`, "/options/project: want string, got number"},
		{`{"location":null}`, "/options/location: want string, got null"},
		{`{"env":{"GOOGLE_CLOUD_PROJECT":true}}`, "/options/env/GOOGLE_CLOUD_PROJECT: want a string, got boolean"},
		{`{"env":[]}`, "/options/env: want object, got array"},
		{`{"temperature":"hot"}`, "/options/temperature: want number, got string"},
		{`{"headers":{"x":1}}`, "/options/headers/x: want a string or null, got number"},
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
	v, _ := jsonv.Parse([]byte(`{"apiKey":"k","temperature":0.5,"maxTokens":9,"headers":{"a":"b","c":null},"toolChoice":"any","thinking":{"enabled":true,"level":"LOW"},"project":"p","location":"l","env":{"GOOGLE_CLOUD_LOCATION":"x"},"signal":{}}`))
	o, err := DecodeOptions(v, "")
	if err != nil {
		t.Fatal(err)
	}
	if !jsonv.Equal(o.JSON(), v) {
		t.Errorf("round trip: %s, want %s", o.JSON(), v)
	}
}
