package anthropic

import (
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

func TestParseStreamReadError(t *testing.T) {
	model := &ai.Model{ID: "m", API: API, Provider: "anthropic", Cost: ai.ModelCost{Input: jsonv.NumberValue("1"), Output: jsonv.NumberValue("1"), CacheRead: jsonv.NumberValue("0"), CacheWrite: jsonv.NumberValue("0")}}
	body := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{}}}\n\n"
	capturetest.CheckReadError(t, ParseStream, model, body, true)
}

func TestParseStreamOutsideModel(t *testing.T) {
	model := &ai.Model{ID: "m", API: API, Provider: "anthropic"}
	capturetest.CheckOutsideModel(t, ParseStream, model, map[string]string{
		"string token count": "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{\"input_tokens\":\"5\"}}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
	})
}
