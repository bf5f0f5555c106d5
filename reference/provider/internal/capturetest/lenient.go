package capturetest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/provider"
)

// BuildCall is d's call for a model, a context and options given as
// JSON, read as the wire kind reads them (ai.DecodeWireModel,
// ai.DecodeWireContext as d reads them), with the key "k" unless options
// name one and a clock that says 1: the call, or BuildRequest's error.
// options "" is {}.
func BuildCall(t *testing.T, d provider.Driver, model, context, options string) (*provider.Call, error) {
	t.Helper()
	return BuildCallIn(t, d, dialect.V0_80, model, context, options)
}

// BuildCallIn is BuildCall as Pi of dialect dl makes the call: the context
// read as d.WireContext reads it for dl, and the options' Dialect dl.
func BuildCallIn(t *testing.T, d provider.Driver, dl dialect.Dialect, model, context, options string) (*provider.Call, error) {
	t.Helper()
	m, err := ai.DecodeWireModel(jsonvtest.Parse(t, model), "/model")
	if err != nil {
		t.Fatal(err)
	}
	ctx, err := d.WireContext(dl, m, jsonvtest.Parse(t, context), "/context")
	if err != nil {
		t.Fatalf("%s: %v", context, err)
	}
	if options == "" {
		options = "{}"
	}
	opts, err := d.DecodeOptions(jsonvtest.Parse(t, options), "/options")
	if err != nil {
		t.Fatal(err)
	}
	if opts.Shared().APIKey == nil {
		key := "k"
		opts.Shared().APIKey = &key
	}
	opts.Shared().Dialect = dl
	return BuildRequest(t, d, m, ctx, opts, func() jsonv.Value { return jsonv.NumberValue("1") })
}

// BuildLenient is the body of BuildCall's request, or BuildRequest's error.
func BuildLenient(t *testing.T, d provider.Driver, model, context, options string) (jsonv.Value, error) {
	t.Helper()
	call, err := BuildCall(t, d, model, context, options)
	if err != nil {
		return jsonv.Value{}, err
	}
	return call.Body, nil
}

// WantMember checks that BuildLenient gave a body (err is nil) whose
// member key is the JSON want.
func WantMember(t *testing.T, body jsonv.Value, err error, key, want string) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	got, _ := body.Get(key)
	if diff := cmp.Diff(jsonvtest.Parse(t, want).String(), got.String()); diff != "" {
		t.Errorf("%s (-want +got):\n%s", key, diff)
	}
}

// RequestCase is one call of a driver in a dialect, and what to check of
// its request.
type RequestCase struct {
	Name  string
	D     dialect.Dialect
	Model string // the model JSON; "" for the table's
	Ctx   string
	Opts  string
	// Header's value must be Value ("" for none); a Value ending in "*"
	// only starts the header's. Header "" checks no header.
	Header, Value string
	// Pick is the path of the body member whose JSON must be Want ("" for
	// none); nil checks no member.
	Pick []string
	Want string
	// URL, when set, ends the request's URL.
	URL string
}

// CheckRequests builds each case's call (BuildCallIn) with model unless the
// case names its own, and checks it.
func CheckRequests(t *testing.T, d provider.Driver, model string, cases []RequestCase) {
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			m := tc.Model
			if m == "" {
				m = model
			}
			call, err := BuildCallIn(t, d, tc.D, m, tc.Ctx, tc.Opts)
			if err != nil {
				t.Fatal(err)
			}
			if tc.URL != "" && !strings.HasSuffix(call.URL, tc.URL) {
				t.Errorf("URL %s, want it to end in %s", call.URL, tc.URL)
			}
			if tc.Header != "" {
				got := call.Header.Get(tc.Header)
				prefix, isPrefix := strings.CutSuffix(tc.Value, "*")
				if isPrefix && !strings.HasPrefix(got, prefix) || !isPrefix && got != tc.Value {
					t.Errorf("%s = %q, want %q", tc.Header, got, tc.Value)
				}
			}
			if tc.Pick != nil {
				CheckMember(t, call.Body, tc.Pick, tc.Want)
			}
		})
	}
}
