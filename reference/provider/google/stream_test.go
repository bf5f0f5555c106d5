package google

import (
	"regexp"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/provider/stream"
)

func TestGeneratedToolCallIDs(t *testing.T) {
	model := &ai.Model{ID: "m", API: API, Provider: "google"}
	body := `data: {"candidates":[{"content":{"parts":[{"functionCall":{"name":"f"}},{"functionCall":{"name":"f"}}]}}]}` + "\n\n"
	_, events, err := ParseStream(strings.NewReader(body), model, capturetest.Clock)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range events {
		if e.Type == stream.TypeToolCallEnd {
			ids = append(ids, e.ToolCall.ID)
		}
	}
	re := regexp.MustCompile(`^f_1700000000000_(\d+)$`)
	if len(ids) != 2 || !re.MatchString(ids[0]) || !re.MatchString(ids[1]) || ids[0] == ids[1] {
		t.Errorf("ids = %q, want two distinct f_<now>_<n>", ids)
	}
}
