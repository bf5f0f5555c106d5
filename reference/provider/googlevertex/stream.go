package googlevertex

import (
	"io"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/provider/google"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// answer reads this API's answers as google-generative-ai does; only the
// message's api and Pi's name for the API differ, and the tool-call ids Pi
// makes up count separately.
var answer = &google.Answers{API: API, Name: "Google Vertex"}

// ParseStream reads a 2xx response body in dialect 0.80.
func ParseStream(r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	return answer.Parse(dialect.V0_80, r, model, now)
}

// ParseHTTPError is google-generative-ai's error for a non-2xx response
// (the SDK's error body as JSON text), in a message of this API.
func ParseHTTPError(model *ai.Model, status int, statusText, contentType string, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event) {
	return google.ParseHTTPErrorAs(API, model, status, statusText, contentType, body, now)
}
