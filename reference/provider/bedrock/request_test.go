package bedrock

import (
	"os"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/eventstream"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

// captureInvocationID is the UUID testdata/capture.mjs gives the SDK, so
// that the SigV4 signatures of the captures can be compared.
const captureInvocationID = "00000000-0000-4000-8000-000000000000"

// captures replays testdata/requests.json and testdata/streams.json, which
// capture.mjs recorded from real Pi 0.80.2.
var captures = capturetest.Captures{
	Driver: Driver,
	// Pi itself emits these streams' events out of grammar.
	Quirks: map[string]bool{
		"blocks never stopped leak index and partialJson":   true,
		"no messageStop is stop; no messageStart, no start": true,
	},
	ShortCase: "text, thinking and a tool call",
	Edges: capturetest.StreamEdges{
		Parse: ParseStream, Provider: "amazon-bedrock",
		ReadError: string(event("messageStart", `{"role":"assistant"}`)), NoResponseID: true,
		Outside: []string{
			string(event("messageStart", `{"role":"assistant"}`)[:20]), // a cut frame
			string(event("messageStop", `nope`)),                       // a payload that is not JSON
		},
	},
}

// event is one AWS event-stream frame of an event typ with payload.
func event(typ, payload string) []byte {
	return eventstream.Encode(eventstream.Message{Headers: []eventstream.Header{
		eventstream.String(":event-type", typ), eventstream.String(":content-type", "application/json"),
		eventstream.String(":message-type", "event"),
	}, Payload: []byte(payload)})
}

// TestMain fixes the invocation id for every test: the captures ran with
// it, and capturetest.BuildRequest compares the headers of two builds
// (BuildRequest and WriteRequest), which a random id and the signature
// over it would tell apart.
func TestMain(m *testing.M) {
	newInvocationID = func() string { return captureInvocationID }
	os.Exit(m.Run())
}

func TestMatchesPi(t *testing.T) { captures.Check(t) }

func TestInvocationIDIsAUUID(t *testing.T) {
	a, b := provider.NewUUID(), provider.NewUUID()
	if len(a) != 36 || a == b || a[14] != '4' {
		t.Errorf("invocation ids %q, %q", a, b)
	}
}

func TestDecodeOptionsPathErrors(t *testing.T) {
	capturetest.CheckDecodeOptions(t, Driver, capturetest.OptionErrors{
		`{"env":{"AWS_REGION":1}}`: "/options/env/AWS_REGION: want a string, got number",
	}, `{"apiKey":"k","region":"r","env":{"A":"1"},"headers":{"a":"1","b":null},"reasoning":"low","requestMetadata":{"x":"y"},"signal":{}}`)
	// The API's own members Pi reads without checking take any value.
	capturetest.CheckDecodeOptions(t, Driver, nil, `{"region":1,"bearerToken":[],"reasoning":7,"thinkingBudgets":"x","thinkingDisplay":null,"interleavedThinking":0,"toolChoice":true}`)
}

// TestToolResultRuns checks what the converter holds back: consecutive
// tool results join one user message, a message between them ends the run
// even when it sends nothing (an assistant message with only blank text),
// and the cache point goes on the trailing run. capturetest.BuildLenient
// also streams the body and compares the bytes.
func TestToolResultRuns(t *testing.T) {
	result := func(id string) string {
		return `{"role":"toolResult","toolCallId":"` + id + `","toolName":"t","content":[{"type":"text","text":"` + id + `"}],"isError":false}`
	}
	call := func(ids ...string) string {
		var calls []string
		for _, id := range ids {
			calls = append(calls, `{"type":"toolCall","id":"`+id+`","name":"t","arguments":{}}`)
		}
		return `{"role":"assistant","content":[` + strings.Join(calls, ",") + `],` + sameModel + `}`
	}
	blank := `{"role":"assistant","content":[{"type":"text","text":"  "}],` + sameModel + `}`
	ctx := `{"messages":[` + strings.Join([]string{call("a", "b"), result("a"), result("b"), blank, result("c"), result("d")}, ",") + `]}`
	body, err := capturetest.BuildLenient(t, Driver, claude, ctx, `{"bearerToken":"t","cacheRetention":"short"}`)
	if err != nil {
		t.Fatal(err)
	}
	tr := func(id string) string {
		return `{"toolResult":{"toolUseId":"` + id + `","content":[{"text":"` + id + `"}],"status":"success"}}`
	}
	capturetest.CheckMember(t, body, []string{"messages"}, `[`+
		`{"role":"assistant","content":[{"toolUse":{"toolUseId":"a","name":"t","input":{}}},{"toolUse":{"toolUseId":"b","name":"t","input":{}}}]},`+
		`{"role":"user","content":[`+tr("a")+`,`+tr("b")+`]},`+
		`{"role":"user","content":[`+tr("c")+`,`+tr("d")+`,{"cachePoint":{"type":"default"}}]}]`)
}
