package google_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/google"
	"github.com/piconform/piconform/reference/provider/googlevertex"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

// apis are the drivers that build through google's StreamContents, with
// the directory of their captures.
var apis = []struct {
	dir    string
	driver provider.Driver
}{
	{".", google.Driver},
	{"../googlevertex", googlevertex.Driver},
}

// countingSink counts the contents handed over.
type countingSink struct{ elems int }

func (s *countingSink) Begin([]jsonv.Member, string) {}
func (s *countingSink) Element(jsonv.Value)          { s.elems++ }
func (s *countingSink) End([]jsonv.Member)           {}

// TestContentsLeaveEarly: a content is handed to the body before the
// transcript ends, held only while a later message can still change it
// (tool results join the content before them).
func TestContentsLeaveEarly(t *testing.T) {
	const rounds = 50
	var msgs []string
	for i := range rounds {
		n := strconv.Itoa(i)
		msgs = append(msgs,
			`{"role":"user","content":"q","timestamp":1}`,
			`{"role":"assistant","content":[{"type":"toolCall","id":"c`+n+`","name":"f","arguments":{}},{"type":"toolCall","id":"d`+n+`","name":"f","arguments":{}}],"api":"google-generative-ai","provider":"google","model":"gemini-2.5-pro","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":1}`,
			`{"role":"toolResult","toolCallId":"c`+n+`","toolName":"f","content":[{"type":"text","text":"r"}],"isError":false,"timestamp":1}`,
			`{"role":"toolResult","toolCallId":"d`+n+`","toolName":"f","content":[{"type":"text","text":"r"}],"isError":false,"timestamp":1}`)
	}
	model := &ai.Model{ID: "gemini-2.5-pro", API: google.API, Provider: "google", BaseURL: "http://h"}
	key := "k"
	opts := &google.Options{StreamOptions: provider.StreamOptions{APIKey: &key}}
	var sink countingSink
	// Each round is three contents: the user's, the model's, and one of
	// both tool results. When the next round's user message is read, all
	// but that last content are handed over: a later tool result could
	// still have joined it.
	transcript := func(yield func(ai.Message, error) bool) {
		for i, text := range msgs {
			if round := i / 4; i%4 == 0 && sink.elems < 3*round-1 {
				t.Errorf("message %d: %d contents handed over, want at least %d", i, sink.elems, 3*round-1)
			}
			v, err := jsonv.ParseString(text)
			if err != nil {
				t.Fatal(err)
			}
			m, err := ai.DecodeMessage(v, jsonv.Index("/context/messages", i))
			if !yield(m, err) {
				return
			}
		}
	}
	if _, err := google.Driver.Build(model, &ai.Context{}, transcript, opts, capturetest.Clock, &sink); err != nil {
		t.Fatal(err)
	}
	if sink.elems != 3*rounds {
		t.Errorf("%d contents, want %d", sink.elems, 3*rounds)
	}
}

// TestTransformThrowsFirst: Pi's transformMessages runs over the whole
// transcript before any message is converted, so a tool-call id it cannot
// normalize in a later message is the error, not an earlier message that
// the conversion throws on.
func TestTransformThrowsFirst(t *testing.T) {
	for _, api := range apis {
		t.Run(api.driver.API, func(t *testing.T) {
			model := `{"id":"claude-x","api":"` + api.driver.API + `","provider":"p","baseUrl":"http://h","input":["text","image"]}`
			context := `{"messages":[{"role":"user","content":[null],"timestamp":1},
				{"role":"assistant","content":[{"type":"toolCall","id":7,"name":"f","arguments":{}}],"api":"a","provider":"other","model":"m","stopReason":"toolUse","timestamp":1}]}`
			_, err := capturetest.BuildCall(t, api.driver, model, context, "")
			if want := "/context/messages/1/content/0/id"; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("err = %v, want the id's error at %s", err, want)
			}
		})
	}
}
