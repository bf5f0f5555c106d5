package stream

import (
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
)

// TestJSONCorpus checks JSON.parse, parseJsonWithRepair, repairJson and
// parseStreamingJson against what Pi 0.80.2 under Node 22 gave for the same
// texts (testdata/json-corpus.json, captured from the real functions).
func TestJSONCorpus(t *testing.T) {
	corpus, err := jsonv.ReadFile("testdata/json-corpus.json")
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range corpus.Elems() {
		f := jsonv.ReadFields(c, jsonv.Index("", i))
		input := f.String("input")
		parsed, parseErr := f.OptString("parsed"), f.OptString("parseError")
		repaired, repairErr := f.OptString("repaired"), f.OptString("repairError")
		repairText, streaming := f.String("repairText"), f.String("streaming")
		if err := f.Err(); err != nil {
			t.Fatal(err)
		}
		v, err := ParseJSON(input)
		checkParse(t, "JSON.parse", input, v, err, parsed, parseErr)
		v, err = ParseJSONWithRepair(input)
		checkParse(t, "parseJsonWithRepair", input, v, err, repaired, repairErr)
		if got := RepairJSON(input); got != repairText {
			t.Errorf("repairJson(%q) = %q, want %q", input, got, repairText)
		}
		if got := ParseStreamingJSON(input).String(); got != streaming {
			t.Errorf("parseStreamingJson(%q) = %s, want %s", input, got, streaming)
		}
	}
}

func checkParse(t *testing.T, what, input string, v jsonv.Value, err error, want, wantErr *string) {
	t.Helper()
	switch {
	case wantErr != nil && err == nil:
		t.Errorf("%s(%q) = %s, want error %q", what, input, v, *wantErr)
	case wantErr != nil && err.Error() != *wantErr:
		t.Errorf("%s(%q) error\n got %q\nwant %q", what, input, err, *wantErr)
	case want != nil && err != nil:
		t.Errorf("%s(%q) error %q, want %s", what, input, err, *want)
	case want != nil && v.String() != *want:
		t.Errorf("%s(%q) = %s, want %s", what, input, v, *want)
	}
}
