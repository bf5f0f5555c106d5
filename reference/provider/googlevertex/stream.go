package googlevertex

import (
	"io"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider/google"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// ErrOutsideModel marks a stream the reference cannot reproduce; the
// parser is google's.
var ErrOutsideModel = google.ErrOutsideModel

// FetchFailedText is what fetch throws when no response arrives.
const FetchFailedText = google.FetchFailedText

// toolCallCounter is this API's own module-wide counter for the tool-call
// ids Pi makes up (google-generative-ai counts separately).
var toolCallCounter atomic.Int64

// ParseStream reads a 2xx response body exactly as google-generative-ai
// does; only the message's api differs.
func ParseStream(r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	return google.ParseStreamAs(API, &toolCallCounter, r, model, now)
}

// ParseResponse turns the response to req into Pi's message and events: a
// 2xx status is a stream, anything else is ParseHTTPError. statusText is
// the reason phrase and header the response headers (only content-type is
// read).
func (req *Request) ParseResponse(status int, statusText string, header http.Header, body io.Reader, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	if status < 200 || status > 299 {
		data, err := io.ReadAll(body)
		msg, events := ParseHTTPError(req.model, status, statusText, strings.Join(header.Values("Content-Type"), ", "), data, now)
		return msg, events, err
	}
	return ParseStream(body, req.model, now)
}

// StatusText is the reason phrase of a Go status line, as fetch reports it.
func StatusText(resp *http.Response) string { return google.StatusText(resp) }

// ParseHTTPError is google-generative-ai's error for a non-2xx response
// (the SDK's error body as JSON text), in a message of this API.
func ParseHTTPError(model *ai.Model, status int, statusText, contentType string, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event) {
	return google.ParseHTTPErrorAs(API, model, status, statusText, contentType, body, now)
}

// Failure is the message and lone error event of a request that failed
// before a response arrived.
func Failure(model *ai.Model, message string, now transform.Clock) (*ai.AssistantMessage, []stream.Event) {
	return google.FailureAs(API, model, message, now)
}
