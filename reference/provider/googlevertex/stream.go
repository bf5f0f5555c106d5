package googlevertex

import (
	"io"
	"sync/atomic"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider/google"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// toolCallCounter is this API's own module-wide counter for the tool-call
// ids Pi makes up (google-generative-ai counts separately).
var toolCallCounter atomic.Int64

// ParseStream reads a 2xx response body exactly as google-generative-ai
// does; only the message's api differs.
func ParseStream(r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	return google.ParseStreamAs(API, &toolCallCounter, r, model, now)
}

// ParseHTTPError is google-generative-ai's error for a non-2xx response
// (the SDK's error body as JSON text), in a message of this API.
func ParseHTTPError(model *ai.Model, status int, statusText, contentType string, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event) {
	return google.ParseHTTPErrorAs(API, model, status, statusText, contentType, body, now)
}
