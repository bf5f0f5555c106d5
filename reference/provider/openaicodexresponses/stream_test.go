package openaicodexresponses

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/provider/stream"
)

func TestParseStreamReadError(t *testing.T) {
	model := &ai.Model{ID: "m", API: API, Provider: "openai-codex"}
	body := "data: {\"type\":\"response.created\",\"response\":{\"id\":\"r\"}}\n\n"
	r := io.MultiReader(strings.NewReader(body), iotest.ErrReader(errors.New("terminated")))
	msg, events, err := ParseStream(r, model, nil, capturetest.Clock)
	if err == nil || err.Error() != "terminated" {
		t.Fatalf("err = %v, want terminated", err)
	}
	if last := events[len(events)-1]; last.Type != stream.TypeError || *msg.ErrorMessage != "terminated" || msg.ResponseID == nil {
		t.Errorf("last event %s", last)
	}
}

func TestRetriesOfAnErrorAreNotModelled(t *testing.T) {
	resp := &http.Response{StatusCode: 500, Status: "500 Internal Server Error", Body: io.NopCloser(strings.NewReader("x"))}
	_, _, err := readResponse(&ai.Model{ID: "m", API: API, Provider: "openai-codex"}, nil, true, resp, capturetest.Clock)
	if !errors.Is(err, ErrNotModelled) {
		t.Errorf("err = %v, want ErrNotModelled", err)
	}
}
