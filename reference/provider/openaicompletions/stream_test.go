package openaicompletions

import (
	"testing"

	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

func TestParseStreamEdges(t *testing.T) {
	capturetest.StreamEdges{
		Parse: ParseStream, API: API, Provider: "custom",
		ReadError: "data: {\"id\":\"r\",\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n",
		Outside: []string{
			"data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":\"5\"}}\n\n",
			"data: {\"choices\":[{\"delta\":{\"content\":[\"a\"]},\"finish_reason\":\"stop\"}]}\n\n",
			"data: {\"id\":7,\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
		},
	}.Check(t)
}
