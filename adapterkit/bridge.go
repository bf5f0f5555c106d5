package adapterkit

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/piconform/piconform/reference/jsonv"
)

// DecodeInput decodes a case's input into v with encoding/json, numbers of
// interface values as json.Number. See the package documentation for what
// encoding/json loses: lone surrogates, and the digits of big numbers
// decoded into a float64.
func DecodeInput(input jsonv.Value, v any) error {
	dec := json.NewDecoder(bytes.NewReader(input.AppendJSON(nil)))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("adapterkit: decoding the input with encoding/json: %w", err)
	}
	return nil
}

// EncodeOutput encodes v with encoding/json and returns it as the output
// value a KindFunc returns.
func EncodeOutput(v any) (jsonv.Value, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return jsonv.Value{}, fmt.Errorf("adapterkit: encoding the output with encoding/json: %w", err)
	}
	out, err := jsonv.Parse(data)
	if err != nil {
		return jsonv.Value{}, fmt.Errorf("adapterkit: reading encoding/json's output: %w", err)
	}
	return out, nil
}
