package mistral

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
	model := &ai.Model{ID: "m", API: API, Provider: "mistral"}
	body := `data: {"id":"r","model":"m","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}` + "\n\n"
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
	model := &ai.Model{ID: "m", API: API, Provider: "mistral"}
	for _, body := range []string{
		`data: {"model":"m","choices":[]}`,
		`data: {"id":"r","model":"m","choices":[{"index":0,"delta":{}}]}`,
		`data: {"id":"r","model":"m","usage":{"prompt_tokens":1.5},"choices":[]}`,
	} {
		_, _, err := ParseStream(strings.NewReader(body+"\n\n"), model, fixedClock)
		if !errors.Is(err, ErrOutsideModel) {
			t.Errorf("%s: err = %v, want ErrOutsideModel", body, err)
		}
	}
}
