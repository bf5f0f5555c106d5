package openairesponses

import (
	"testing"

	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

func TestParseStreamEdges(t *testing.T) {
	capturetest.StreamEdges{
		Parse: ParseStream, API: API, Provider: "openai",
		ReadError: "data: {\"type\":\"response.created\",\"response\":{\"id\":\"r\"}}\n\n",
		Outside: []string{
			// A token count that is a string.
			"data: {\"type\":\"response.completed\",\"response\":{\"usage\":{\"input_tokens\":\"5\"}}}\n\n",
		},
	}.Check(t)
}
