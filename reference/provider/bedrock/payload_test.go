package bedrock

import (
	"bytes"
	"errors"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/provider/eventstream"
	"github.com/piconform/piconform/reference/provider/stream"
)

// TestRevivedAsNumber: the number texts the SDK's JSON reviver leaves
// numbers, and those it makes a BigInt or a NumericValue, as Node 22 ran
// it on them.
func TestRevivedAsNumber(t *testing.T) {
	for lit, want := range map[string]bool{
		"0": true, "5": true, "1.0": true, "1.50": true, "-0": true, "-0.0": true, "0.0": true,
		"0e5": true, "1e2": true, "1E2": true, "1.5e1": true, "15e-1": true, "0.1": true,
		"9007199254740991": true, "0.30000000000000004": true, "2.50e0": true, "100e-2": true,
		"5.0e0": true, "50e-1": true,
		"0.10000000000000001": false, "1.00000000000000000001": false, "0.5e1": false,
		"9007199254740992": false, "-9007199254740992": false, "1e400": false, "-1e400": false,
		"1.5e300": false, "1e21": false, "123456789012345678": false,
	} {
		n, err := jsonv.Parse([]byte(lit))
		if err != nil {
			t.Fatal(err)
		}
		if got := revivedAsNumber(n); got != want {
			t.Errorf("revivedAsNumber(%s) = %v, want %v", lit, got, want)
		}
	}
}

// TestRevivedIndexNotModelled: a delta whose contentBlockIndex the reviver
// would make a BigInt or a NumericValue is refused as not modelled; one it
// leaves a number is read.
func TestRevivedIndexNotModelled(t *testing.T) {
	model := &ai.Model{API: API, Provider: "amazon-bedrock"}
	for index, outside := range map[string]bool{"0": false, "1e2": false, "1e400": true, "0.5e1": true} {
		var body bytes.Buffer
		for _, ev := range []string{
			`{"event":"messageStart","data":{"role":"assistant"}}`,
			`{"event":"contentBlockDelta","data":{"contentBlockIndex":` + index + `,"delta":{"text":"hi"}}}`,
		} {
			frame, err := eventstream.EncodeEvent(jsonvtest.Parse(t, ev), "")
			if err != nil {
				t.Fatal(err)
			}
			body.Write(frame)
		}
		_, _, err := ParseStream(&body, model, nil)
		if got := errors.Is(err, stream.ErrOutsideModel); got != outside {
			t.Errorf("index %s: error %v, want not modelled: %v", index, err, outside)
		}
	}
}
