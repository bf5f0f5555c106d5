package conformance

import (
	"maps"
	"mime"
	"slices"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/eventstream"
)

// ResponseEncoding is a way other than server-sent events to write a wire
// fixture's readable response events ("encoding" next to "events"), so
// the harness needs no provider's framing.
type ResponseEncoding struct {
	ContentType string
	// Event writes one event; errors name the JSON path under ptr.
	Event func(v jsonv.Value, ptr string) ([]byte, error)
	// Frames cuts a body in this encoding into its frames, which a replay
	// writes one at a time.
	Frames func(body []byte) [][]byte
}

var responseEncodings = map[string]ResponseEncoding{
	// Bedrock's ConverseStream.
	"aws-eventstream": {eventstream.ContentType, eventstream.EncodeEvent, eventstream.Split},
}

// ResponseEncodingNamed returns the response encoding a fixture names.
func ResponseEncodingNamed(name string) (ResponseEncoding, bool) {
	e, ok := responseEncodings[name]
	return e, ok
}

// ResponseEncodingNames lists the names, sorted.
func ResponseEncodingNames() []string { return slices.Sorted(maps.Keys(responseEncodings)) }

// ResponseEncodingOf returns the response encoding of a content type.
func ResponseEncodingOf(contentType string) (ResponseEncoding, bool) {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return ResponseEncoding{}, false
	}
	for _, e := range responseEncodings {
		if mt == e.ContentType {
			return e, true
		}
	}
	return ResponseEncoding{}, false
}
