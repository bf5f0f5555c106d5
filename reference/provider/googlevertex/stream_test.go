package googlevertex

import (
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/google"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

func googleOptions(key *string) google.Options {
	return google.Options{StreamOptions: provider.StreamOptions{APIKey: key}}
}

func TestGeneratedIDsCountSeparately(t *testing.T) {
	model := &ai.Model{ID: "m", API: API, Provider: API}
	body := "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"f\"}}]}}]}\n\n"
	before := answer.Made()
	msg, _, err := ParseStream(strings.NewReader(body), model, capturetest.Clock)
	if err != nil {
		t.Fatal(err)
	}
	if answer.Made() != before+1 {
		t.Errorf("counter moved from %d to %d", before, answer.Made())
	}
	if msg.API != API {
		t.Errorf("api = %q", msg.API)
	}
	if _, _, err := google.ParseStream(strings.NewReader(body), model, capturetest.Clock); err != nil {
		t.Fatal(err)
	}
	if answer.Made() != before+1 {
		t.Errorf("google's stream moved this API's counter")
	}
}
