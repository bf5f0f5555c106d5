package stream

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/transform"
)

// NewOutput is the message Pi starts a response with: no content, zero
// usage, stop reason "stop", stamped with now (the system clock when nil).
// api is the API name Pi writes, which is not always model.API.
func NewOutput(model *ai.Model, api string, now transform.Clock) *ai.AssistantMessage {
	if now == nil {
		now = transform.SystemClock
	}
	out := &ai.AssistantMessage{
		Content: []ai.Block{}, API: api, Provider: model.Provider, Model: model.ID,
		Usage: ai.ZeroUsage(), StopReason: ai.StopStop, Timestamp: now(),
	}
	// An id or provider of another type is copied as it is (input.lenient).
	for _, m := range model.Loose {
		switch m.Key {
		case "id":
			out.Loose = append(out.Loose, jsonv.Member{Key: "model", Value: m.Value})
		case "provider":
			out.Loose = append(out.Loose, m)
		}
	}
	return out
}

// Failure makes out the message of a request that failed before a
// response arrived, and returns it with its lone error event.
func Failure(out *ai.AssistantMessage, message string) (*ai.AssistantMessage, []Event) {
	out.StopReason = ai.StopError
	out.ErrorMessage = &message
	return out, []Event{{Type: TypeError, Reason: ai.StopError, Message: out}}
}

// ModelFailure is the message and lone error event of a request to model
// that failed before a response arrived (see RequestError), for an API
// whose messages name model.api.
func ModelFailure(model *ai.Model, message string, now transform.Clock) (*ai.AssistantMessage, []Event) {
	return Failure(NewOutput(model, model.API, now), message)
}
