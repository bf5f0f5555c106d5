package openaicodexresponses

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

// Pi frames the body itself (pieces end at "\n\n"), so every cut must
// give the same result.
func TestParseStreamSplitAnywhere(t *testing.T) { captures.CheckSplits(t, "testdata/streams.json") }

func TestParseStreamReadError(t *testing.T) {
	model := &ai.Model{ID: "m", API: API, Provider: "openai-codex"}
	body := "data: {\"type\":\"response.created\",\"response\":{\"id\":\"r\"}}\n\n"
	r := io.MultiReader(strings.NewReader(body), iotest.ErrReader(errors.New("terminated")))
	msg, events, err := ParseStream(r, model, nil, fixedClock)
	if err == nil || err.Error() != "terminated" {
		t.Fatalf("err = %v, want terminated", err)
	}
	if last := events[len(events)-1]; last.Type != stream.TypeError || *msg.ErrorMessage != "terminated" || msg.ResponseID == nil {
		t.Errorf("last event %s", last)
	}
}

func TestRetriesOfAnErrorAreNotModelled(t *testing.T) {
	req := &Request{model: &ai.Model{ID: "m", API: API, Provider: "openai-codex"}, retries: true}
	_, _, err := req.ParseResponse(500, "Internal Server Error", strings.NewReader("x"), fixedClock)
	if !errors.Is(err, ErrNotModelled) {
		t.Errorf("err = %v, want ErrNotModelled", err)
	}
}
