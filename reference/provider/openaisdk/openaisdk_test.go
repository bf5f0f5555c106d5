package openaisdk

import (
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
)

func TestErrorMessage(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		want   string
	}{
		{400, `{"error":{"message":"bad"}}`, "400 bad"},
		{400, `{"error":{"message":{"a":1}}}`, `400 {"a":1}`},
		{400, `{"error":{"code":"x"}}`, `400 {"code":"x"}`},
		{500, `upstream failure`, "500 upstream failure"},
		{429, ``, "429 status code (no body)"},
		{404, `{"detail":"nope"}`, "404 status code (no body)"},
	} {
		errMember, message := BodyError([]byte(tc.body))
		if got := ErrorMessage(tc.status, errMember, message); got != tc.want {
			t.Errorf("%d %s: %q, want %q", tc.status, tc.body, got, tc.want)
		}
	}
	if got := ErrorMessage(0, jsonv.Value{}, jsonv.Value{}); got != NoStatusNoBodyText {
		t.Errorf("no status, no body: %q", got)
	}
	e, _ := jsonv.Parse([]byte(`{"message":"boom"}`))
	if got := ErrorMessage(0, e, jsonv.Value{}); got != "boom" {
		t.Errorf("event error: %q", got)
	}
}
