package openaicodexresponses

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// parseUntiered is ParseStream for a request without a service tier.
func parseUntiered(r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	return ParseStream(r, model, nil, now)
}

func TestRetriesOfAnErrorAreNotModelled(t *testing.T) {
	resp := &http.Response{StatusCode: 500, Status: "500 Internal Server Error", Body: io.NopCloser(strings.NewReader("x"))}
	_, _, err := readResponse(&ai.Model{ID: "m", API: API, Provider: "openai-codex"}, nil, true, resp, capturetest.Clock)
	if !errors.Is(err, ErrNotModelled) {
		t.Errorf("err = %v, want ErrNotModelled", err)
	}
}
