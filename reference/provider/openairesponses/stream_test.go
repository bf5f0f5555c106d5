package openairesponses

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider/stream"
)

func TestParseStreamMatchesPi(t *testing.T) { captures.CheckStreams(t, "testdata/streams.json") }

func TestParseStreamSplitAnywhere(t *testing.T) { captures.CheckSplits(t, "testdata/streams.json") }

func TestParseStreamReadError(t *testing.T) {
	model := &ai.Model{ID: "m", API: API, Provider: "openai"}
	body := "data: {\"type\":\"response.created\",\"response\":{\"id\":\"r\"}}\n\n"
	r := io.MultiReader(strings.NewReader(body), iotest.ErrReader(errors.New("terminated")))
	msg, events, err := ParseStream(r, model, fixedClock)
	if err == nil || err.Error() != "terminated" {
		t.Fatalf("err = %v, want terminated", err)
	}
	if last := events[len(events)-1]; last.Type != stream.TypeError || *msg.ErrorMessage != "terminated" || msg.ResponseID == nil {
		t.Errorf("last event %s", last)
	}
}

func TestParseStreamOutsideModel(t *testing.T) {
	model := &ai.Model{ID: "m", API: API, Provider: "openai"}
	body := "data: {\"type\":\"response.completed\",\"response\":{\"usage\":{\"input_tokens\":\"5\"}}}\n\n"
	_, _, err := ParseStream(strings.NewReader(body), model, fixedClock)
	if !errors.Is(err, ErrOutsideModel) {
		t.Errorf("err = %v, want ErrOutsideModel", err)
	}
}
