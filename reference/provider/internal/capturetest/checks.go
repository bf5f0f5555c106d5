package capturetest

import (
	"errors"
	"io"
	"maps"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/stream"
)

// ParseStream is a provider package's ParseStream.
type ParseStream = stream.Parse

// OptionErrors maps options (JSON) to the error DecodeOptions must give
// for them at /options.
type OptionErrors map[string]string

// sharedOptionErrors are bad members of provider.StreamOptions, which every
// driver must decode with these errors.
var sharedOptionErrors = OptionErrors{
	`{"env":{"PI_CACHE_RETENTION":1}}`: "/options/env/PI_CACHE_RETENTION: want a string, got number",
	`[]`:                               "/options: want an object, got array",
}

// sharedLenientOptions are members of provider.StreamOptions of another
// type that Pi reads without failing (spec input.lenient), which every
// driver must accept.
var sharedLenientOptions = []string{`{"cacheRetention":1}`, `{"cacheRetention":[]}`, `{"metadata":"x"}`, `{"metadata":null}`,
	`{"headers":{"x":1}}`, `{"headers":"ab"}`, `{"headers":7}`, `{"sessionId":3}`, `{"sessionId":null}`, `{"transport":7}`,
	`{"headers":{"x":[]}}`, `{"headers":{"x":["a",null,{}]}}`, `{"sessionId":["a","b"]}`,
	`{"maxRetries":"1"}`, `{"maxRetries":"x"}`, `{"maxRetries":[]}`, `{"maxRetries":{}}`, `{"maxRetries":true}`, `{"maxRetries":-1}`, `{"maxRetryDelayMs":"x"}`,
	`{"timeoutMs":null}`, `{"websocketConnectTimeoutMs":[]}`}

// CheckDecodeOptions checks that d decodes each bad input (and each bad
// shared member) with its error, and that decoding roundTrip and encoding
// it again gives it back.
func CheckDecodeOptions(t *testing.T, d provider.Driver, bad OptionErrors, roundTrip string) {
	t.Helper()
	for _, in := range sharedLenientOptions {
		if _, err := d.DecodeOptions(jsonvtest.Parse(t, in), "/options"); err != nil {
			t.Errorf("DecodeOptions(%s): %v; Pi reads it", in, err)
		}
	}
	all := maps.Clone(sharedOptionErrors)
	maps.Copy(all, bad)
	for in, want := range all {
		_, err := d.DecodeOptions(jsonvtest.Parse(t, in), "/options")
		if err == nil || err.Error() != want {
			t.Errorf("DecodeOptions(%s) error = %v, want %q", in, err, want)
		}
	}
	v := jsonvtest.Parse(t, roundTrip)
	o, err := d.DecodeOptions(v, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := provider.EncodeOptions(o); !jsonv.Equal(got, v) {
		t.Errorf("round trip: %s, want %s", got, v)
	}
}

// StreamEdges are what a provider's stream parser is checked on beside the
// captures: a read that fails, which the capture server cannot serve, and
// bodies outside the modelled semantics.
type StreamEdges struct {
	Parse ParseStream
	// Provider is the provider of the model the bodies are parsed for.
	Provider string
	// ReadError is a body after which the read fails: the error is
	// returned and ends the stream as its error event, and the message
	// keeps the response id the body gave unless NoResponseID.
	ReadError    string
	NoResponseID bool
	// Outside are bodies the parser must report as stream.ErrOutsideModel.
	Outside []string
}

// check parses the edges for a model of api whose input and output
// tokens cost 1.
func (e StreamEdges) check(t *testing.T, api string) {
	t.Helper()
	n := jsonv.NumberValue
	model := &ai.Model{ID: "m", API: api, Provider: e.Provider, Cost: ai.ModelCost{Input: n("1"), Output: n("1"), CacheRead: n("0"), CacheWrite: n("0")}}
	if e.ReadError != "" {
		r := io.MultiReader(strings.NewReader(e.ReadError), iotest.ErrReader(errors.New("terminated")))
		msg, events, err := e.Parse(r, model, Clock)
		if err == nil || err.Error() != "terminated" {
			t.Fatalf("err = %v, want terminated", err)
		}
		if last := events[len(events)-1]; last.Type != stream.TypeError || *msg.ErrorMessage != "terminated" || (!e.NoResponseID && msg.ResponseID == nil) {
			t.Errorf("last event %s", last)
		}
	}
	for _, body := range e.Outside {
		if _, _, err := e.Parse(strings.NewReader(body), model, Clock); !errors.Is(err, stream.ErrOutsideModel) {
			t.Errorf("%q: err = %v, want stream.ErrOutsideModel", body, err)
		}
	}
}

// CheckEnding checks how a parsed stream ended: with done when failed is
// "", else with an error whose errorMessage is failed; then check, when
// set, says what else is wrong with out ("" for nothing).
func CheckEnding(t *testing.T, out *ai.AssistantMessage, events []stream.Event, err error, failed string, check func(*ai.AssistantMessage) string) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	last := events[len(events)-1]
	switch {
	case failed == "" && last.Type != stream.TypeDone:
		t.Fatalf("ends with %s: %v", last.Type, *out.ErrorMessage)
	case failed != "" && (last.Type != stream.TypeError || *out.ErrorMessage != failed):
		t.Fatalf("ends with %s, want error %q", last.Type, failed)
	}
	if check != nil {
		if msg := check(out); msg != "" {
			t.Error(msg)
		}
	}
}

// CheckHolds checks a stream parsed without error into a message whose
// JSON holds want (a piece of JSON text); name says which case it is.
func CheckHolds(t *testing.T, name string, out *ai.AssistantMessage, err error, want string) {
	t.Helper()
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	if got := string(out.JSON().AppendJSON(nil)); !strings.Contains(got, want) {
		t.Errorf("%s: message %s\nwant it to hold %s", name, got, want)
	}
}
