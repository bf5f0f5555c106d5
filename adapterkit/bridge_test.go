package adapterkit_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/adapterkit"
	"github.com/piconform/piconform/reference/jsonv"
)

// TestBridge: what crosses encoding/json whole and what it loses, as the
// package documentation says.
func TestBridge(t *testing.T) {
	type usage struct {
		Input  json.Number `json:"input"`
		Output float64     `json:"output"`
		Text   string      `json:"text"`
	}
	tests := []struct {
		name, in, out string
	}{
		{"plain values cross whole", `{"input":10,"output":20,"text":"hi"}`, `{"input":10,"output":20,"text":"hi"}`},
		{"json.Number keeps a big integer", `{"input":12345678901234567890,"output":1,"text":""}`, `{"input":12345678901234567890,"output":1,"text":""}`},
		{"a float64 loses its digits", `{"input":1,"output":12345678901234567890,"text":""}`, `{"input":1,"output":12345678901234567000,"text":""}`},
		{"a lone surrogate becomes U+FFFD", `{"input":1,"output":1,"text":"a\ud83db"}`, `{"input":1,"output":1,"text":"a\ufffdb"}`},
		{"a pair survives", `{"input":1,"output":1,"text":"\ud83d\ude00"}`, `{"input":1,"output":1,"text":"😀"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := jsonv.Parse([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			var u usage
			if err := adapterkit.DecodeInput(in, &u); err != nil {
				t.Fatal(err)
			}
			out, err := adapterkit.EncodeOutput(u)
			if err != nil {
				t.Fatal(err)
			}
			want, err := jsonv.Parse([]byte(tt.out))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.String(), out.String()); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
	var v any
	in, _ := jsonv.Parse([]byte(`{"n":1e400}`))
	if err := adapterkit.DecodeInput(in, &v); err != nil {
		t.Errorf("an interface value: %v", err)
	} else if n := v.(map[string]any)["n"]; n != json.Number("1e400") {
		t.Errorf("an interface value decodes 1e400 as %#v, want json.Number", n)
	}
	var f struct{ N float64 }
	if err := adapterkit.DecodeInput(in, &f); err == nil {
		t.Error("1e400 into a float64: no error")
	}
	if _, err := adapterkit.EncodeOutput(func() {}); err == nil {
		t.Error("encoding a func: no error")
	}
}

// A kind written against encoding/json types.
func ExampleDecodeInput() {
	type input struct {
		Text string `json:"text"`
	}
	type output struct {
		Text string `json:"text"`
	}
	upper := func(_ context.Context, in jsonv.Value) (jsonv.Value, error) {
		var i input
		if err := adapterkit.DecodeInput(in, &i); err != nil {
			return jsonv.Value{}, err
		}
		return adapterkit.EncodeOutput(output{Text: i.Text + "!"})
	}
	in, _ := jsonv.Parse([]byte(`{"text":"hi"}`))
	out, _ := upper(context.Background(), in)
	fmt.Println(out)
	// Output: {"text":"hi!"}
}
