package openaicompletions

import (
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

func TestParseStreamReadError(t *testing.T) {
	model := &ai.Model{ID: "m", API: API, Provider: "custom", Cost: ai.ModelCost{Input: jsonv.NumberValue("1"), Output: jsonv.NumberValue("1"), CacheRead: jsonv.NumberValue("0"), CacheWrite: jsonv.NumberValue("0")}}
	body := "data: {\"id\":\"r\",\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n"
	capturetest.CheckReadError(t, ParseStream, model, body, true)
}

func TestParseStreamOutsideModel(t *testing.T) {
	model := &ai.Model{ID: "m", API: API, Provider: "custom"}
	capturetest.CheckOutsideModel(t, ParseStream, model, map[string]string{
		"case 1": "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":\"5\"}}\n\n",
		"case 2": "data: {\"choices\":[{\"delta\":{\"content\":[\"a\"]},\"finish_reason\":\"stop\"}]}\n\n",
		"case 3": "data: {\"id\":7,\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
	})
}
