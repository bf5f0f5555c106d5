package jsonv_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/jsonv"
)

func TestEachString(t *testing.T) {
	v, err := jsonv.Parse([]byte(`{"a": ["b", 1, {"c": "d"}], "e": null, "\ud800": "f"}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	v.EachString(func(s string) { got = append(got, s) })
	want := []string{"a", "b", "c", "d", "e", "\xed\xa0\x80", "f"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("strings (-want +got):\n%s", diff)
	}
}
