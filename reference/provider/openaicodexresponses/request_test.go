package openaicodexresponses

import (
	"errors"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/httpheader"
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

// TestHeadersOfOtherTypes checks model headers as new Headers takes them
// and caller headers as headers.set takes them, against what Pi 0.80.2
// sent (or threw) for each.
func TestHeadersOfOtherTypes(t *testing.T) {
	key := "x.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYSJ9fQ.y"
	for _, tc := range []struct {
		name, model, caller string
		want                string // x-a as sent; "-" for none
		err                 error
	}{
		{"pairs append", `[["X-A","b"],["x-a",7],[null,[1,2]]]`, `{}`, "b, 7", nil},
		{"no pairs", `[]`, `{}`, "-", nil},
		{"a record's values String()ed", `{"X-A":null}`, `{}`, "null", nil},
		{"a pair of one", `[["a"]]`, `{}`, "", ErrModelHeaders},
		{"a pair that is a string", `["ab"]`, `{}`, "", ErrModelHeaders},
		{"a name that is not a token", `[[{},1]]`, `{}`, "", ErrModelHeaders},
		{"an empty name in a record", `{"":"c"}`, `{}`, "", ErrModelHeaders},
		{"model headers null", `null`, `{}`, "", ErrModelHeaders},
		{"a caller array joined with commas", `{}`, `{"X-A":["a",null,7," b ",{},[1,2]]}`, "a,,7, b ,[object Object],1,2", nil},
		{"an empty caller array", `{"X-A":"m"}`, `{"X-A":[]}`, "", nil},
	} {
		mh, err := jsonv.Parse([]byte(tc.model))
		if err != nil {
			t.Fatal(err)
		}
		ch, err := jsonv.Parse([]byte(tc.caller))
		if err != nil {
			t.Fatal(err)
		}
		model := &ai.Model{ID: "m", API: API, Provider: "openai-codex", Headers: mh}
		opts := Options{StreamOptions: provider.StreamOptions{APIKey: &key, Transport: jsonv.StringValue(SSETransport), Headers: httpheader.Decode(ch)}}
		call, err := BuildRequest(model, &ai.Context{}, opts, capturetest.Clock)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("%s: err = %v, want %v", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, ok := call.Header["X-A"]
		switch {
		case tc.want == "-" && ok:
			t.Errorf("%s: x-a = %q, want none", tc.name, got)
		case tc.want != "-" && (len(got) != 1 || got[0] != tc.want):
			t.Errorf("%s: x-a = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestMaxRetriesWithoutAttempt: Pi's loop makes no attempt when
// maxRetries reads as NaN or is negative, and fails with its own text.
func TestMaxRetriesWithoutAttempt(t *testing.T) {
	key := "x.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYSJ9fQ.y"
	model := &ai.Model{ID: "m", API: API, Provider: "openai-codex"}
	for _, mr := range []jsonv.Value{jsonv.StringValue("x"), jsonv.ObjectValue(), jsonv.NumberValue("-1")} {
		opts := Options{StreamOptions: provider.StreamOptions{APIKey: &key, Transport: jsonv.StringValue(SSETransport), MaxRetries: mr}}
		_, err := BuildRequest(model, &ai.Context{}, opts, capturetest.Clock)
		if msg, ok := provider.Refusal(err); !ok || msg != FailedAfterRetriesText {
			t.Errorf("maxRetries %s: err = %v, want the refusal %q", mr, err, FailedAfterRetriesText)
		}
	}
}
