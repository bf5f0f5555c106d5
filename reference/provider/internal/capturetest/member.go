package capturetest

import (
	"strconv"
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
)

// MustParse parses JSON text a test wrote, or fails the test.
func MustParse(t *testing.T, s string) jsonv.Value {
	t.Helper()
	return parse(t, s)
}

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
		w = parse(t, want)
	}
	if !jsonv.Equal(got, w) {
		t.Errorf("%v\n got %s\nwant %s", path, got, w)
	}
}
