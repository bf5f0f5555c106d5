package anthropic

import (
	"testing"

	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

func TestParseStreamEdges(t *testing.T) {
	capturetest.StreamEdges{
		Parse: ParseStream, API: API, Provider: "anthropic",
		ReadError: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{}}}\n\n",
		Outside: []string{
			// A token count that is a string.
			"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{\"input_tokens\":\"5\"}}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
		},
	}.Check(t)
}
