package openaicodexresponses

import (
	"errors"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
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

// TestTransport: only the string "sse" goes straight to the POST; any
// other transport (a falsy one read as "auto") tries a WebSocket
// handshake first, with the WebSocket headers, and records the transport
// as read in the refusal's diagnostic.
func TestTransport(t *testing.T) {
	saved := newRequestID
	newRequestID = func() string { return "drawn-id" }
	t.Cleanup(func() { newRequestID = saved })
	model := &ai.Model{ID: "m", API: API, Provider: "openai-codex", Headers: jsonv.ObjectValue(jsonv.Member{Key: "x-model", Value: jsonv.StringValue("m")})}
	key := "x.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYSJ9fQ.y"
	accept := "application/x-caller"
	for _, tt := range []struct {
		name       string
		transport  jsonv.Value
		session    jsonv.Value
		configured string // the diagnostic's configuredTransport; "" for no handshake
		requestID  string
	}{
		{name: "sse", transport: jsonv.StringValue("sse")},
		{name: "absent", configured: `"auto"`, requestID: "drawn-id"},
		{name: "null", transport: jsonv.NullValue(), configured: `"auto"`, requestID: "drawn-id"},
		{name: "empty", transport: jsonv.StringValue(""), configured: `"auto"`, requestID: "drawn-id"},
		{name: "websocket", transport: jsonv.StringValue("websocket"), configured: `"websocket"`, requestID: "drawn-id"},
		{name: "number", transport: jsonv.NumberValue("7"), configured: "7", requestID: "drawn-id"},
		{name: "array sse", transport: jsonv.ArrayValue(jsonv.StringValue("sse")), configured: `["sse"]`, requestID: "drawn-id"},
		{name: "session", transport: jsonv.StringValue("auto"), session: jsonv.NumberValue("42"), configured: `"auto"`, requestID: "42"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{StreamOptions: provider.StreamOptions{APIKey: &key, Transport: tt.transport, SessionID: tt.session,
				Headers: []httpheader.Header{httpheader.New("accept", accept)}}}
			call, err := BuildRequest(model, &ai.Context{}, opts, capturetest.Clock)
			if err != nil {
				t.Fatal(err)
			}
			if got := call.Header.Get("OpenAI-Beta"); got != BetaHeaderValue {
				t.Errorf("POST OpenAI-Beta = %q", got)
			}
			if tt.configured == "" {
				if call.Handshake != nil {
					t.Fatalf("handshake %+v, want none", call.Handshake.Request)
				}
				return
			}
			hs := call.Handshake
			if hs == nil {
				t.Fatal("no handshake")
			}
			want := map[string]string{
				"Openai-Beta": WebSocketBetaHeaderValue, "Session-Id": tt.requestID, "X-Client-Request-Id": tt.requestID,
				"Chatgpt-Account-Id": "a", "Originator": Originator, "Authorization": "Bearer " + key, "X-Model": "m",
			}
			got := map[string]string{}
			for name := range hs.Header {
				got[name] = hs.Header.Get(name)
			}
			if diff := cmp.Diff(want, got); diff != "" || hs.Method != "GET" || hs.URL != call.URL {
				t.Errorf("%s %s, headers (-want +got):\n%s", hs.Method, hs.URL, diff)
			}
			d := hs.Refused(capturetest.Clock)
			details, _ := d.Get("details")
			conf, _ := details.Get("configuredTransport")
			size, _ := details.Get("requestBytes")
			if string(conf.AppendJSON(nil)) != tt.configured || size.JSString() != strconv.Itoa(len(call.Body.AppendJSON(nil))) {
				t.Errorf("diagnostic %s", d.AppendJSON(nil))
			}
		})
	}
}

// TestTimeouts: timeoutMs and websocketConnectTimeoutMs, when given, must
// be numbers of at least 0, or Pi fails with its message before sending.
func TestTimeouts(t *testing.T) {
	model := &ai.Model{ID: "m", API: API, Provider: "openai-codex"}
	key := "x.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYSJ9fQ.y"
	for _, tt := range []struct {
		idle, connect jsonv.Value
		want          string // Pi's error, "" for none
	}{
		{idle: jsonv.NumberValue("0"), connect: jsonv.NumberValue("1500")},
		{idle: jsonv.NumberValue("-1"), want: "Invalid timeoutMs: -1"},
		{idle: jsonv.NullValue(), want: "Invalid timeoutMs: null"},
		{idle: jsonv.StringValue("5"), want: "Invalid timeoutMs: 5"},
		{connect: jsonv.ArrayValue(), want: "Invalid timeoutMs: "},
		{connect: jsonv.BoolValue(true), want: "Invalid timeoutMs: true"},
	} {
		opts := Options{StreamOptions: provider.StreamOptions{APIKey: &key, TimeoutMs: tt.idle, WebsocketConnectTimeoutMs: tt.connect}}
		_, err := BuildRequest(model, &ai.Context{}, opts, capturetest.Clock)
		if got, _ := provider.Refusal(err); got != tt.want || (tt.want == "" && err != nil) {
			t.Errorf("timeoutMs %s, websocketConnectTimeoutMs %s: %v, want %q", tt.idle, tt.connect, err, tt.want)
		}
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

// TestCallerUserAgentReplaced: Pi's user-agent, which names the machine
// and is left out, replaces whatever user-agent the model or the caller
// gives (wire.openai-codex-responses.headers).
func TestCallerUserAgentReplaced(t *testing.T) {
	key := "x.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYSJ9fQ.y"
	for _, tc := range []struct{ model, caller string }{
		{`{}`, `{"User-Agent":""}`},
		{`{}`, `{"user-agent":"mine"}`},
		{`{"User-Agent":"model"}`, `{}`},
		{`{"User-Agent":"model"}`, `{"User-Agent":null}`},
	} {
		mh, ch := jsonvtest.Parse(t, tc.model), jsonvtest.Parse(t, tc.caller)
		model := &ai.Model{ID: "m", API: API, Provider: "openai-codex", Headers: mh}
		opts := Options{StreamOptions: provider.StreamOptions{APIKey: &key, Transport: jsonv.StringValue(SSETransport), Headers: httpheader.Decode(ch)}}
		call, err := BuildRequest(model, &ai.Context{}, opts, capturetest.Clock)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.model, tc.caller, err)
		}
		if ua, ok := call.Header["User-Agent"]; ok {
			t.Errorf("model %s, caller %s: user-agent %q, want none (Pi's own)", tc.model, tc.caller, ua)
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
