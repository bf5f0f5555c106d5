package kinds

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/harness/wire"
	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// validationClock is the time the reference reads while a case is
// validated; its output is thrown away, so any value serves.
func validationClock() jsonv.Value { return jsonv.NumberValue("0") }

// pureKind is a kind whose input goes to the implementation as it is and
// whose output depends on the input alone. Its validation runs the Go
// reference's decoders on the input (by running the reference, which is
// cheap for these kinds): a case the reference cannot read could never
// get a golden.
func pureKind(name string) *Kind {
	return &Kind{
		Name: name,
		Validate: func(c *suite.Case) error {
			for _, d := range c.AllDialects() {
				if _, err := conformance.Handle(c.Kind, c.Input, conformance.Options{Now: validationClock, Dialect: d}); err != nil {
					return inputError(err)
				}
			}
			return nil
		},
	}
}

// throwingKind is a pure kind whose Pi function can throw. Where it does,
// the output is {"throws": {category, message}} (spec/PROTOCOL.md,
// "Expected failures"): the category is compared, the message (the
// runtime's own wording) only by type. (A pipeline case reports a failure
// of the agent loop as {"error"} instead; a wire case has the form too,
// for a call that throws before it makes a stream.)
func throwingKind(name string) *Kind {
	k := pureKind(name)
	k.Redactions = []compare.Redaction{{Path: "/throws/message", As: "string"}}
	return k
}

// sessionKind: a session file loaded as the coding agent loads it.
var sessionKind = throwingKind("session")

// wireKind: one provider request and its streamed answer, checked against a
// recorded HTTP exchange (see package wire).
// Where Pi throws before it sends (1.6's transcripts), the message is the
// runtime's wording, compared by type as in the session kind.
var wireKind = &Kind{
	Name: wire.Kind,
	Redactions: append(messageClock("/message", "/events/*/message", "/events/*/error"),
		compare.Redaction{Path: "/throws/message", As: "string"}),
	// A toolcall_delta that carries a call's whole arguments (Google's,
	// Mistral's) holds JSON.stringify of them (wire.json-text).
	JSONTexts: []compare.JSONText{{Path: "/events/*/delta", Type: "toolcall_delta"}},
	Validate:  validateWire,
	API:       wire.CaseAPI,
	Fixture: func(o FixtureOptions) run.Fixture {
		f := wire.NewFixture(conformance.IncidentalHeaders, conformance.IdentityHeaders)
		f.StrictIdentity = o.StrictIdentity
		f.Dialect = o.Dialect
		return f
	},
	CheckFiles: func(c *suite.Case, d dialect.Dialect) error {
		f := wire.NewFixture(nil, nil)
		f.Dialect = d
		_, _, err := f.Load(c)
		return err
	},
	Recorder: wireRecorder{},
}

// messageClock redacts what Pi stamps with the clock in each message at
// the given places: its timestamp and (from 1.6) the wall-clock time the
// call took, and in each diagnostic it records, the timestamp and the
// error's stack (the runtime's trace).
func messageClock(places ...string) []compare.Redaction {
	var out []compare.Redaction
	for _, p := range places {
		out = append(out, compare.Redaction{Path: p + "/timestamp", As: "number"},
			compare.Redaction{Path: p + "/durationMs", As: "duration"})
	}
	for _, p := range places {
		out = append(out,
			compare.Redaction{Path: p + "/diagnostics/*/timestamp", As: "number"},
			compare.Redaction{Path: p + "/diagnostics/*/error/stack", As: "string"})
	}
	return out
}

// validateWire checks the wire members (response, replay, apiKey), that the
// model names an API the reference drives, and that the reference can read
// the input and build its request: the reference runs with an HTTP client
// that refuses to send, so nothing leaves the process. A client that
// repeats a failed request without end fails them all here, which says
// nothing of the case's own server.
func validateWire(c *suite.Case) error {
	s, err := wire.ParseCase(c)
	if err != nil {
		return err
	}
	if model, ok := c.Input.Get("model"); ok && model.Kind() == jsonv.Object {
		if api, ok := model.Get("api"); ok && api.Kind() == jsonv.String && !slices.Contains(conformance.APIs(), api.Str()) {
			return jsonv.Errorf("/input/model/api", "unknown provider API %q; known APIs: %s", api.Str(), strings.Join(conformance.APIs(), ", "))
		}
	}
	input := wire.PrepareInput(c.Input, "http://127.0.0.1:9", s)
	for _, d := range c.AllDialects() {
		opts := conformance.Options{Now: validationClock, HTTPClient: &http.Client{Transport: refuseTransport{}}, Dialect: d}
		_, err = conformance.HandleContext(context.Background(), c.Kind, input, opts)
		if err != nil && !errors.Is(err, conformance.ErrRetriesWithoutEnd) {
			return inputError(err)
		}
	}
	return nil
}

var errNotSent = errors.New("piconform: validation sends nothing")

type refuseTransport struct{}

func (refuseTransport) RoundTrip(*http.Request) (*http.Response, error) { return nil, errNotSent }

// wireRecorder records a wire case's cassette (wire.Record).
type wireRecorder struct{}

func (wireRecorder) Record(ctx context.Context, c *suite.Case, ref Reference) ([]byte, error) {
	subj := func(ctx context.Context, input jsonv.Value, client *http.Client) (jsonv.Value, error) {
		return ref(ctx, c, input, client)
	}
	return wire.Record(ctx, c, subj, conformance.IncidentalHeaders(wire.CaseAPI(c)))
}

func (wireRecorder) Compare(old, new []byte) ([]compare.Diff, string) {
	return wire.CompareCassettes(old, new)
}

func (wireRecorder) Replaying(recorded map[string][]byte, d dialect.Dialect) run.Fixture {
	f := wire.NewFixture(conformance.IncidentalHeaders, conformance.IdentityHeaders)
	f.Cassettes = recorded
	f.Dialect = d
	return f
}
