package mistral

import (
	"testing"

	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

func TestParseStreamEdges(t *testing.T) {
	capturetest.StreamEdges{
		Parse: ParseStream, API: API, Provider: "mistral",
		ReadError: `data: {"id":"r","model":"m","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}` + "\n\n",
		Outside: []string{
			`data: {"model":"m","choices":[]}` + "\n\n",
			`data: {"id":"r","model":"m","choices":[{"index":0,"delta":{}}]}` + "\n\n",
			`data: {"id":"r","model":"m","usage":{"prompt_tokens":1.5},"choices":[]}` + "\n\n",
		},
	}.Check(t)
}
