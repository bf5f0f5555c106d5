package openaicodexresponses

import (
	"io"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// parseUntiered is ParseStream for a request without a service tier.
func parseUntiered(r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	return ParseStream(r, model, nil, now)
}
