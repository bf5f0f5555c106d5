package google

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/stream"
)

type streamCase struct {
	name        string
	req         *Request
	status      int
	contentType string
	body        []byte
	want        jsonv.Value // {message, events}
}

func decodeStreamCase(t *testing.T, c jsonv.Value, i int) streamCase {
	t.Helper()
	rc := decodeRequestCase(t, c, i)
	f := jsonv.ReadFields(c, jsonv.Index("", i))
	resp := f.Object("response")
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	rf := jsonv.ReadFields(resp, f.At("response"))
	sc := streamCase{name: rc.name, want: rc.want, status: 200, contentType: "text/event-stream"}
	if s := rf.OptNumber("status"); !s.IsAbsent() {
		n, _ := s.Float64()
		sc.status = int(n)
	}
	if ct := rf.OptString("contentType"); ct != nil {
		sc.contentType = *ct
	}
	switch {
	case rf.OptString("sse") != nil:
		sc.body = []byte(*rf.OptString("sse"))
	case rf.OptString("body") != nil:
		sc.body = []byte(*rf.OptString("body"))
	case rf.OptString("base64") != nil:
		b, err := base64.StdEncoding.DecodeString(*rf.OptString("base64"))
		if err != nil {
			t.Fatal(err)
		}
		sc.body = b
	}
	var err error
	if sc.req, err = BuildRequest(rc.model, rc.ctx, rc.opts, fixedClock); err != nil {
		t.Fatal(err)
	}
	return sc
}

func (sc streamCase) parse(r io.Reader) (*ai.AssistantMessage, []stream.Event, error) {
	h := http.Header{}
	h.Set("Content-Type", sc.contentType)
	return sc.req.ParseResponse(sc.status, http.StatusText(sc.status), h, r, fixedClock)
}

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

// TestParseStreamMatchesPi replays testdata/streams.json: each body was
// fed to real Pi 0.80.2 by a loopback server, and its final message and
// events were recorded.
func TestParseStreamMatchesPi(t *testing.T) {
	for i, c := range loadCases(t, "testdata/streams.json") {
		sc := decodeStreamCase(t, c, i)
		t.Run(sc.name, func(t *testing.T) {
			msg, events, err := sc.parse(bytes.NewReader(sc.body))
			if err != nil {
				t.Fatalf("ParseResponse: %v", err)
			}
			checkAgainstPi(t, sc.want, msg, events)
			if err := stream.Validate(events); err != nil {
				t.Errorf("Validate = %v", err)
			}
		})
	}
}

func checkAgainstPi(t *testing.T, want jsonv.Value, msg *ai.AssistantMessage, events []stream.Event) {
	t.Helper()
	wantMsg, _ := want.Get("message")
	wantEvents, _ := want.Get("events")
	wantMsg, wantEvents = redactIDs(wantMsg), redactIDs(wantEvents)
	if got := redactIDs(msg.JSON()); !jsonv.Equal(got, wantMsg) {
		t.Errorf("message\n got %s\nwant %s", got, wantMsg)
	}
	if got := redactIDs(stream.EventsJSON(events)); !jsonv.Equal(got, wantEvents) {
		for j := 0; j < max(len(events), len(wantEvents.Elems())); j++ {
			var g, w jsonv.Value
			if j < len(events) {
				g = redactIDs(events[j].JSON())
			}
			if j < len(wantEvents.Elems()) {
				w = wantEvents.Elems()[j]
			}
			if !jsonv.Equal(g, w) {
				t.Errorf("event %d\n got %s\nwant %s", j, g, w)
			}
		}
	}
	decoded, err := stream.DecodeEvents(wantEvents, "/events")
	if err != nil {
		t.Fatalf("DecodeEvents: %v", err)
	}
	if !jsonv.Equal(stream.EventsJSON(decoded), wantEvents) {
		t.Errorf("DecodeEvents does not round-trip")
	}
}

// TestParseStreamSplitAnywhere cuts every captured 2xx body into two reads
// at every offset, and also reads it one byte at a time: the result must
// not change. (A 2xx body that is a JSON error object is the exception Pi
// itself has: it is recognised only when it arrives in one read.)
func TestParseStreamSplitAnywhere(t *testing.T) {
	for i, c := range loadCases(t, "testdata/streams.json") {
		sc := decodeStreamCase(t, c, i)
		if sc.status != 200 || strings.HasPrefix(sc.name, "JSON error body in a 200") {
			continue
		}
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			whole, wholeEvents, _ := sc.parse(bytes.NewReader(sc.body))
			want := redactIDs(stream.EventsJSON(append(wholeEvents, stream.Event{Type: "done", Message: whole})))
			check := func(how string, r io.Reader) {
				msg, events, err := sc.parse(r)
				if err != nil {
					t.Fatalf("%s: %v", how, err)
				}
				if got := redactIDs(stream.EventsJSON(append(events, stream.Event{Type: "done", Message: msg}))); !jsonv.Equal(got, want) {
					t.Fatalf("%s: result differs\n got %s\nwant %s", how, got, want)
				}
			}
			for cut := 0; cut <= len(sc.body); cut++ {
				check("cut at "+itoa(cut), io.MultiReader(bytes.NewReader(sc.body[:cut]), bytes.NewReader(sc.body[cut:])))
			}
			check("one byte at a time", iotest.OneByteReader(bytes.NewReader(sc.body)))
		})
	}
}

func itoa(n int) string { return jsonv.FormatFloat(float64(n)) }

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
