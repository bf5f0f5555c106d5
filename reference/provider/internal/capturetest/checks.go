package capturetest

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/stream"
)

// ParseStream is a provider package's ParseStream.
type ParseStream = stream.Parse

// OptionErrors maps options (JSON) to the error DecodeOptions must give
// for them at /options.
type OptionErrors map[string]string

// CheckDecodeOptions checks that d decodes each bad input with its error,
// and that decoding roundTrip and encoding it again gives it back.
func CheckDecodeOptions(t *testing.T, d provider.Driver, bad OptionErrors, roundTrip string) {
	t.Helper()
	for in, want := range bad {
		_, err := d.DecodeOptions(parse(t, in), "/options")
		if err == nil || err.Error() != want {
			t.Errorf("DecodeOptions(%s) error = %v, want %q", in, err, want)
		}
	}
	v := parse(t, roundTrip)
	o, err := d.DecodeOptions(v, "")
	if err != nil {
		t.Fatal(err)
	}
	if !jsonv.Equal(o.JSON(), v) {
		t.Errorf("round trip: %s, want %s", o.JSON(), v)
	}
}

func parse(t *testing.T, s string) jsonv.Value {
	t.Helper()
	v, err := jsonv.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// CheckReadError feeds body and then a read error to parse: the error is
// returned and ends the stream as its error event. withID says whether the
// message must have kept the response id body gave.
func CheckReadError(t *testing.T, parse ParseStream, model *ai.Model, body string, withID bool) {
	t.Helper()
	r := io.MultiReader(strings.NewReader(body), iotest.ErrReader(errors.New("terminated")))
	msg, events, err := parse(r, model, Clock)
	if err == nil || err.Error() != "terminated" {
		t.Fatalf("err = %v, want terminated", err)
	}
	if last := events[len(events)-1]; last.Type != stream.TypeError || *msg.ErrorMessage != "terminated" || (withID && msg.ResponseID == nil) {
		t.Errorf("last event %s", last)
	}
}

// CheckOutsideModel checks that parse reports each body as outside the
// model with want.
func CheckOutsideModel(t *testing.T, parse ParseStream, model *ai.Model, bodies map[string]string) {
	t.Helper()
	for name, body := range bodies {
		if _, _, err := parse(strings.NewReader(body), model, Clock); !errors.Is(err, stream.ErrOutsideModel) {
			t.Errorf("%s: err = %v, want stream.ErrOutsideModel", name, err)
		}
	}
}
