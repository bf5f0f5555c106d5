package openairesponses

import (
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

func TestParseStreamReadError(t *testing.T) {
	model := &ai.Model{ID: "m", API: API, Provider: "openai"}
	body := "data: {\"type\":\"response.created\",\"response\":{\"id\":\"r\"}}\n\n"
	capturetest.CheckReadError(t, ParseStream, model, body, true)
}

func TestParseStreamOutsideModel(t *testing.T) {
	model := &ai.Model{ID: "m", API: API, Provider: "openai"}
	capturetest.CheckOutsideModel(t, ParseStream, model, map[string]string{
		"string token count": "data: {\"type\":\"response.completed\",\"response\":{\"usage\":{\"input_tokens\":\"5\"}}}\n\n",
	})
}
