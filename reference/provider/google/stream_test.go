package google

import (
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/stream"
)

// generatedID matches a tool-call id Pi made up: the counter part depends
// on how many ids the process made before, so it is compared as a pattern.
var generatedID = regexp.MustCompile(`_1700000000000_\d+"`)

func redactIDs(v jsonv.Value) jsonv.Value {
	out, err := jsonv.Parse(generatedID.ReplaceAll(v.AppendJSON(nil), []byte(`_1700000000000_N"`)))
	if err != nil {
		panic(err)
	}
	return out
}

func TestParseStreamMatchesPi(t *testing.T) { captures.CheckStreams(t, "testdata/streams.json") }

func TestParseStreamSplitAnywhere(t *testing.T) { captures.CheckSplits(t, "testdata/streams.json") }

func TestGeneratedToolCallIDs(t *testing.T) {
	model := &ai.Model{ID: "m", API: API, Provider: "google"}
	body := `data: {"candidates":[{"content":{"parts":[{"functionCall":{"name":"f"}},{"functionCall":{"name":"f"}}]}}]}` + "\n\n"
	_, events, err := ParseStream(strings.NewReader(body), model, fixedClock)
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

func TestParseStreamReadError(t *testing.T) {
	model := &ai.Model{ID: "m", API: API, Provider: "google"}
	body := `data: {"candidates":[{"content":{"parts":[{"text":"a"}]}}],"responseId":"r"}` + "\n\n"
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
	model := &ai.Model{ID: "m", API: API, Provider: "google"}
	for _, body := range []string{
		`data: {"usageMetadata":{"promptTokenCount":"5"}}`,
		`data: {"candidates":[{"content":{"parts":[{"text":5}]}}]}`,
		`data: {"candidates":[{"content":{"parts":"abc"}}]}`,
		`data: {"candidates":{"0":{}}}`,
	} {
		_, _, err := ParseStream(strings.NewReader(body+"\n\n"), model, fixedClock)
		if !errors.Is(err, ErrOutsideModel) {
			t.Errorf("%s: err = %v, want ErrOutsideModel", body, err)
		}
	}
}
