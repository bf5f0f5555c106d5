package bedrock

import (
	"testing"

	"github.com/piconform/piconform/reference/provider/eventstream"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

func event(typ, payload string) []byte {
	return eventstream.Encode(eventstream.Message{Headers: []eventstream.Header{
		eventstream.String(":event-type", typ), eventstream.String(":content-type", "application/json"),
		eventstream.String(":message-type", "event"),
	}, Payload: []byte(payload)})
}

func TestParseStreamEdges(t *testing.T) {
	capturetest.StreamEdges{
		Parse: ParseStream, API: API, Provider: "amazon-bedrock",
		ReadError: string(event("messageStart", `{"role":"assistant"}`)), NoResponseID: true,
		Outside: []string{
			string(event("metadata", `{"usage":{"inputTokens":"5"}}`)), // a token count that is a string
			string(event("messageStart", `{"role":"assistant"}`)[:20]), // a cut frame
			string(event("messageStop", `nope`)),                       // a payload that is not JSON
		},
	}.Check(t)
}
