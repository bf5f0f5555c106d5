package httpheader_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/httpheader"
)

// TestDecodeAsObjectAssign: a caller's headers of any type are read as
// Object.assign reads them, values as String() writes them.
func TestDecodeAsObjectAssign(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":"1","b":null,"c":7,"d":true,"e":{}}`: `{"a":"1","b":null,"c":"7","d":"true","e":"[object Object]"}`,
		`{"a":["x",null,[1,2]],"b":[]}`:            `{"a":"x,,1,2","b":""}`,
		`"ab"`:                                     `{"0":"a","1":"b"}`,
		`["x"]`:                                    `{"0":"x"}`,
		`7`:                                        `{}`,
		`null`:                                     `{}`,
		`false`:                                    `{}`,
	} {
		v, err := jsonv.Parse([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		headers := httpheader.Decode(v)
		got := map[string]any{}
		for _, h := range headers {
			got[h.Name] = nil
			if h.Value != nil {
				got[h.Name] = *h.Value
			}
		}
		var wantMap map[string]any
		if err := json.Unmarshal([]byte(want), &wantMap); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantMap, got); diff != "" {
			t.Errorf("Decode(%s) (-want +got):\n%s", in, diff)
		}
	}
	v, _ := jsonv.Parse([]byte(`{"Authorization":7}`))
	headers := httpheader.Decode(v)
	if _, err := httpheader.HasNonBlank(headers, "authorization"); !errors.Is(err, httpheader.ErrNotAString) {
		t.Errorf("HasNonBlank on a number: %v, want ErrNotAString (Pi trims it)", err)
	}
	if string(httpheader.JSON(headers).AppendJSON(nil)) != `{"Authorization":7}` {
		t.Errorf("JSON does not give back the value as written: %s", httpheader.JSON(headers))
	}
}
