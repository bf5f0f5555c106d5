package mistral

import (
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

func TestParseStreamReadError(t *testing.T) {
	model := &ai.Model{ID: "m", API: API, Provider: "mistral"}
	body := `data: {"id":"r","model":"m","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}` + "\n\n"
	capturetest.CheckReadError(t, ParseStream, model, body, true)
}

func TestParseStreamOutsideModel(t *testing.T) {
	model := &ai.Model{ID: "m", API: API, Provider: "mistral"}
	capturetest.CheckOutsideModel(t, ParseStream, model, map[string]string{
		"case 1": `data: {"model":"m","choices":[]}` + "\n\n",
		"case 2": `data: {"id":"r","model":"m","choices":[{"index":0,"delta":{}}]}` + "\n\n",
		"case 3": `data: {"id":"r","model":"m","usage":{"prompt_tokens":1.5},"choices":[]}` + "\n\n",
	})
}
