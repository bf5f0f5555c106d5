package openairesponses

import (
	"errors"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/transform"
)

var fixedClock = func() jsonv.Value { return jsonv.NumberValue("1700000000000") }

// loadCases reads a testdata file written by capture.mjs.
func loadCases(t *testing.T, file string) []jsonv.Value {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return v.Elems()
}

type requestCase struct {
	name    string
	model   *ai.Model
	ctx     *ai.Context
	opts    Options
	want    jsonv.Value
	wantErr *string
}

func decodeRequestCase(t *testing.T, c jsonv.Value, i int) requestCase {
	t.Helper()
	f := jsonv.ReadFields(c, jsonv.Index("", i))
	rc := requestCase{name: f.String("name")}
	model, ctx, opts, want := f.Object("model"), f.Object("context"), f.Object("options"), f.Object("want")
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	var err error
	if rc.model, err = ai.DecodeModel(model, f.At("model")); err != nil {
		t.Fatal(err)
	}
	if rc.ctx, err = ai.DecodeContext(ctx, f.At("context")); err != nil {
		t.Fatal(err)
	}
	if rc.opts, err = DecodeOptions(opts, f.At("options")); err != nil {
		t.Fatal(err)
	}
	if e, ok := want.Get("error"); ok {
		s := e.Str()
		rc.wantErr = &s
	}
	rc.want = want
	return rc
}

// TestBuildRequestMatchesPi replays testdata/requests.json: each context and
// option set went through real Pi 0.80.2 against a loopback server, and the
// request it sent (or the error it failed with) was recorded.
func TestBuildRequestMatchesPi(t *testing.T) {
	for i, c := range loadCases(t, "testdata/requests.json") {
		rc := decodeRequestCase(t, c, i)
		t.Run(rc.name, func(t *testing.T) {
			req, err := BuildRequest(rc.model, rc.ctx, rc.opts, fixedClock)
			if rc.wantErr != nil {
				var re *RequestError
				if !errors.As(err, &re) || re.Message != *rc.wantErr {
					t.Fatalf("BuildRequest error = %v, want RequestError %q", err, *rc.wantErr)
				}
				msg, events := Failure(rc.model, re.Message, fixedClock)
				if len(events) != 1 || events[0].Message != msg || *msg.ErrorMessage != *rc.wantErr {
					t.Errorf("Failure gave %v", events)
				}
				return
			}
			if err != nil {
				t.Fatalf("BuildRequest: %v", err)
			}
			f := jsonv.ReadFields(rc.want, "/want")
			method, url, body := f.String("method"), f.String("url"), f.String("body")
			headers := f.Object("headers")
			if err := f.Err(); err != nil {
				t.Fatal(err)
			}
			if req.Method != method || req.URL != url {
				t.Errorf("request line = %s %s, want %s %s", req.Method, req.URL, method, url)
			}
			if got := string(req.Body.AppendJSON(nil)); got != body {
				t.Errorf("body\n got %s\nwant %s", got, body)
			}
			want := http.Header{}
			for _, m := range headers.Members() {
				want.Set(m.Key, m.Value.Str())
			}
			for _, k := range unionKeys(req.Header, want) {
				if g, w := req.Header.Values(k), want.Values(k); !slices.Equal(g, w) {
					t.Errorf("header %s = %q, want %q", k, g, w)
				}
			}
		})
	}
}

func unionKeys(a, b http.Header) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

func TestNormalizeToolCallID(t *testing.T) {
	openai := &ai.Model{ID: "gpt-5", API: API, Provider: "openai"}
	copilot := &ai.Model{ID: "gpt-5", API: API, Provider: "github-copilot"}
	foreign := &ai.AssistantMessage{API: "anthropic-messages", Provider: "anthropic", Model: "claude"}
	sibling := &ai.AssistantMessage{API: API, Provider: "openai", Model: "gpt-4.1"}
	for _, tc := range []struct {
		in     string
		model  *ai.Model
		source *ai.AssistantMessage
		want   string
	}{
		{"toolu_01A.b", openai, foreign, "toolu_01A_b"},
		{"call_9|item+/=long", openai, foreign, "call_9|fc_l0jjeey534ua"},
		{"call_9|item+/=long", copilot, foreign, "call_9_item___long"},
		{"call_9|rs+x", openai, sibling, "call_9|fc_rs_x"},
		{"call_9|fc_1", openai, sibling, "call_9|fc_1"},
		{"a.__", openai, foreign, "a"},
		{"emoji😀", openai, foreign, "emoji"},
		{strings.Repeat("x", 70) + "|y", openai, foreign, strings.Repeat("x", 64) + "|fc_" + transform.ShortHash("y")},
	} {
		if got := NormalizeToolCallID(tc.in, tc.model, tc.source); got != tc.want {
			t.Errorf("NormalizeToolCallID(%q, %s) = %q, want %q", tc.in, tc.model.Provider, got, tc.want)
		}
	}
}

func TestDecodeOptionsPathErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"maxTokens":"10"}`, "/options/maxTokens: want number, got string"},
		{`{"headers":{"x":1}}`, "/options/headers/x: want a string or null, got number"},
		{`{"reasoningEffort":1}`, "/options/reasoningEffort: want string, got number"},
		{`{"env":{"PI_CACHE_RETENTION":1}}`, "/options/env/PI_CACHE_RETENTION: want a string, got number"},
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
	v, _ := jsonv.Parse([]byte(`{"apiKey":"k","toolChoice":"auto","headers":{"a":"1","b":null},"serviceTier":"flex","reasoningSummary":"auto"}`))
	o, err := DecodeOptions(v, "")
	if err != nil {
		t.Fatal(err)
	}
	if !jsonv.Equal(o.JSON(), v) {
		t.Errorf("round trip: %s, want %s", o.JSON(), v)
	}
}
