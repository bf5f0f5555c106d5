package capturetest

import (
	"strconv"
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
)

// CheckMember checks the value of body at path (object keys and array
// indices) against want, JSON text; "" wants no value there.
func CheckMember(t *testing.T, body jsonv.Value, path []string, want string) {
	t.Helper()
	got := body
	for _, k := range path {
		i, err := strconv.Atoi(k)
		switch {
		case err != nil || got.Kind() != jsonv.Array:
			got, _ = got.Get(k)
		case i < len(got.Elems()):
			got = got.Elems()[i]
		default:
			got = jsonv.Value{}
		}
	}
	w := jsonv.Value{}
	if want != "" {
		w = jsonvtest.Parse(t, want)
	}
	if !jsonv.Equal(got, w) {
		t.Errorf("%v\n got %s\nwant %s", path, got, w)
	}
}
