package bedrock

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/eventstream"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/provider/stream"
)

func testModel() *ai.Model {
	n := jsonv.NumberValue
	return &ai.Model{ID: "m", API: API, Provider: "amazon-bedrock", Cost: ai.ModelCost{Input: n("1"), Output: n("1"), CacheRead: n("0"), CacheWrite: n("0")}}
}

func event(typ, payload string) []byte {
	return eventstream.Encode(eventstream.Message{Headers: []eventstream.Header{
		eventstream.String(":event-type", typ), eventstream.String(":content-type", "application/json"),
		eventstream.String(":message-type", "event"),
	}, Payload: []byte(payload)})
}

func TestParseStreamReadError(t *testing.T) {
	body := string(event("messageStart", `{"role":"assistant"}`))
	r := io.MultiReader(strings.NewReader(body), iotest.ErrReader(errors.New("terminated")))
	msg, events, err := ParseStream(r, testModel(), capturetest.Clock)
	if err == nil || err.Error() != "terminated" {
		t.Fatalf("err = %v, want terminated", err)
	}
	if last := events[len(events)-1]; last.Type != stream.TypeError || *msg.ErrorMessage != "terminated" {
		t.Errorf("last event %s", last)
	}
}

func TestParseStreamOutsideModel(t *testing.T) {
	for name, body := range map[string]string{
		"string token count": string(event("metadata", `{"usage":{"inputTokens":"5"}}`)),
		"cut frame":          string(event("messageStart", `{"role":"assistant"}`)[:20]),
		"payload not json":   string(event("messageStop", `nope`)),
	} {
		if _, _, err := ParseStream(strings.NewReader(body), testModel(), capturetest.Clock); !errors.Is(err, stream.ErrOutsideModel) {
			t.Errorf("%s: err = %v, want stream.ErrOutsideModel", name, err)
		}
	}
}
