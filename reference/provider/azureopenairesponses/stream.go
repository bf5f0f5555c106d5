package azureopenairesponses

import (
	"fmt"
	"io"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/provider/openairesponses"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// ParseStream reads a 2xx response body and returns the message and
// events Pi produces for it: as openai-responses reads it, except that no
// service tier ever scales the cost.
func ParseStream(r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	return openairesponses.ParseStreamUnpriced(r, model, now)
}

// ParseHTTPError is what Pi produces for a non-2xx response: a lone error
// event whose errorMessage is "Azure OpenAI API error (<status>): " and
// the SDK's message (see openairesponses.HTTPErrorText). Its error, the
// shape provider.Answer reads, is always nil.
func ParseHTTPError(model *ai.Model, status int, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	msg, events := stream.ModelFailure(model, fmt.Sprintf("Azure OpenAI API error (%d): %s", status, openairesponses.HTTPErrorText(status, body)), now)
	return msg, events, nil
}

// ErrorPrefix names this API in its HTTP errors.
const ErrorPrefix = "Azure OpenAI API error"

// ParseHTTPErrorIn is ParseHTTPError as Pi of dialect d words it
// (openairesponses.HTTPErrorTextIn).
func ParseHTTPErrorIn(d dialect.Dialect, model *ai.Model, status int, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	msg, events := stream.ModelFailure(model, openairesponses.HTTPErrorTextIn(d, ErrorPrefix, status, body), now)
	return msg, events, nil
}

// PendingText is Pi 1.6's error of an answer that ends without a stop
// reason.
const PendingText = "Azure OpenAI Responses stream ended without a stop reason"

// ParseStreamIn is ParseStream as Pi of dialect d reads it.
func ParseStreamIn(d dialect.Dialect, r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	return openairesponses.ParseStreamIn(d, r, model, openairesponses.Flavor{NoTier: true, PendingText: PendingText}, now)
}
