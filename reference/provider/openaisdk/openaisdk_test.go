package openaisdk

import (
	"errors"
	"testing"

	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/stream"
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

// SDK 7 (Pi 1.6) takes a JSON object body without an error member as the
// error itself, so its message names the body; SDK 6 found no message.
func TestBodyErrorAt(t *testing.T) {
	for _, tt := range []struct {
		body   string
		v6, v7 string
	}{
		{`{"detail":"Not found"}`, "404 status code (no body)", `404 {"detail":"Not found"}`},
		{`{"error":null,"message":"m"}`, "404 status code (no body)", `404 m`},
		{`{"error":{"message":"boom"}}`, "404 boom", "404 boom"},
		{`[1]`, "404 status code (no body)", "404 [1]"},
		{`"text"`, "404 status code (no body)", "404 status code (no body)"},
		{`not json`, "404 not json", "404 not json"},
	} {
		for _, d := range []struct {
			d    dialect.Dialect
			want string
		}{{dialect.V0_80, tt.v6}, {dialect.V1_6, tt.v7}} {
			e, m := BodyErrorAt(d.d, []byte(tt.body))
			if got := ErrorMessage(404, e, m); got != d.want {
				t.Errorf("%s %s: %q, want %q", d.d, tt.body, got, d.want)
			}
		}
	}
}

// TestCheckAuth: SDK 7 (Pi 1.6) refuses a request whose authorization and
// api-key headers both read as empty, unless one was last removed with
// null; SDK 6 (0.80) checks nothing. Seen with pi-ai 1.6.0 and 0.80.2
// (wire/openai-responses-blank-authorization-header and variants).
func TestCheckAuth(t *testing.T) {
	auth := []httpheader.Header{httpheader.New("Authorization", "Bearer k")}
	parse := func(s string) []httpheader.Header {
		v, err := jsonv.ParseString(s)
		if err != nil {
			t.Fatal(err)
		}
		return httpheader.Decode(v)
	}
	for _, tc := range []struct {
		name    string
		caller  string
		refused bool
	}{
		{"the key", `{}`, false},
		{"blanks replace it", `{"authorization":"  "}`, true},
		{"another spelling replaces it", `{"AUTHORIZATION":"\t"}`, true},
		{"removed with null", `{"authorization":null}`, false},
		{"an api-key header", `{"authorization":" ","api-key":"k"}`, false},
		{"two blank values", `{"authorization":[""," "]}`, false},
		{"one blank value in an array", `{"authorization":[" "]}`, true},
		{"an empty array leaves the key", `{"authorization":[]}`, false},
		{"an empty array after blanks", `{"authorization":" ","Authorization":[]}`, true},
	} {
		layers := [][]httpheader.Header{auth, parse(tc.caller)}
		err := CheckAuth(dialect.V1_6, layers)
		var re *stream.RequestError
		if got := errors.As(err, &re) && re.Message == NoAuthText; got != tc.refused || (err != nil) != tc.refused {
			t.Errorf("%s: %v, refused want %v", tc.name, err, tc.refused)
		}
		if err := CheckAuth(dialect.V0_80, layers); err != nil {
			t.Errorf("%s: 0.80 refuses: %v", tc.name, err)
		}
	}
}
