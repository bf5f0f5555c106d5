package google_test

import (
	"errors"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/transform"
)

// TestLenientMatchesPi replays testdata/lenient.json and its Vertex twin:
// contexts and options whose members have other types than Pi declares,
// sent through real Pi by capture.mjs (lenient-cases.mjs). Each is read
// as the harness reads a wire case (ai.DecodeWireContext, lenient), and
// must give Pi's exact body, or transform.ErrThrows where Pi threw a
// TypeError, streamed or not (capturetest.BuildRequest).
func TestLenientMatchesPi(t *testing.T) {
	for _, api := range apis {
		if !api.driver.LenientContext {
			t.Errorf("%s: LenientContext is false", api.driver.API)
		}
		cases, err := jsonv.ReadFile(api.dir + "/testdata/lenient.json")
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range cases.Elems() {
			f := jsonv.ReadFields(c, jsonv.Index("", i))
			name, want := f.String("name"), f.Object("want")
			model, err := ai.DecodeWireModel(f.Object("model"), f.At("model"))
			if err != nil {
				t.Fatal(err)
			}
			ctx, err := ai.DecodeWireContext(f.Object("context"), f.At("context"), true)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			opts, err := api.driver.DecodeOptions(f.Object("options"), f.At("options"))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			t.Run(api.driver.API+"/"+name, func(t *testing.T) {
				call, err := capturetest.BuildRequest(t, api.driver, model, ctx, opts, capturetest.Clock)
				if threw, ok := want.Get("error"); ok {
					if !errors.Is(err, transform.ErrThrows) {
						t.Fatalf("err = %v, want transform.ErrThrows (Pi: %s)", err, threw.Str())
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				body, _ := want.Get("body")
				if got := string(call.Request.Body.AppendJSON(nil)); got != body.Str() {
					t.Errorf("body\n got %s\nwant %s", got, body.Str())
				}
			})
		}
	}
}
