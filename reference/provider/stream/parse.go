package stream

import (
	"io"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/transform"
)

// Parse is what each provider's ParseStream does: it reads a response
// body that Pi reads as a stream and returns the message and events Pi
// 0.80.2 produces for it, including the error event of a stream that
// fails part way. now stamps the message (Pi takes Date.now() when the
// stream starts). Bytes may arrive split anywhere. The error is non-nil
// only for a read error on r (which Pi also reports, with the same text,
// as an error event) or ErrOutsideModel.
type Parse func(r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []Event, error)
