package runtimetext_test

import (
	"errors"
	"testing"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/runtimetext"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/stream"
)

func TestPattern(t *testing.T) {
	for _, tt := range []struct {
		in, want string // want "" when the text holds no runtime words
	}{
		{`Unexpected token 'o', "oops" is not valid JSON`, "{runtime}"},
		{`Unexpected token 'o', "{"id": oops}" is not valid JSON`, "{runtime}"},
		{`Unexpected token 'x', ..."abcdefghij"... is not valid JSON`, "{runtime}"},
		{`"undefined" is not valid JSON`, "{runtime}"},
		{`Unexpected end of JSON input`, "{runtime}"},
		{`Unterminated string in JSON at position 47 (line 1 column 48)`, "{runtime}"},
		{`Unexpected non-whitespace character after JSON at position 2 (line 1 column 3)`, "{runtime}"},
		{"Cannot read properties of undefined (reading 'input_tokens')", "{runtime}"},
		{"Cannot read properties of null (reading 'type')", "{runtime}"},
		{"Cannot convert object to primitive value", "{runtime}"},
		{"Error: Cannot convert object to primitive values", "Error: {runtime}s"},
		{"This operation was aborted", "{runtime}"},
		{"Request aborted by client: AbortError: This operation was aborted", "Request aborted by client: AbortError: {runtime}"},
		{"Cannot convert argument to a ByteString because the character at index 5 has a value of 55357 which is greater than 255.", "{runtime}"},
		{"Headers: Cannot convert argument to a ByteString because the character at index 12 has a value of 9731 which is greater than 255.", "Headers: {runtime}"},
		{"fetch failed", "{runtime}"},
		{"fetch failed: other side closed (UND_ERR_SOCKET)", "{runtime}: {runtime}"},
		{"Connection error.: other side closed (UND_ERR_SOCKET)", "Connection error.: {runtime}"},
		{"Connection error.: getaddrinfo ENOTFOUND piconform.invalid", "Connection error.: {runtime}"},
		{"Unable to make request: TypeError: fetch failed", "Unable to make request: TypeError: {runtime}"},
		{"Connection error.", ""},
		{"event.usage.cacheDetails?.reduce is not a function", "{runtime}"},
		{"(context.tools ?? []).map is not a function", "{runtime}"},
		{"Error: text.replace is not a function", "Error: {runtime}"},
		{"Invalid URL", "{runtime}"},
		{`The "delay" argument must be of type number. Received type string ("it's 5s")`, "{runtime}"},
		{`The "delay" argument must be of type number. Received an instance of Array`, "{runtime}"},
		{`The value of "delay" is out of range. It must be an integer. Received 1.5`, "{runtime}"},
		{`The value of "delay" is out of range. It must be >= 0 && <= 4294967295. Received 4_294_967_296`, "{runtime}"},
		{"Request was aborted.", ""},
		{"Request aborted", ""},
		{
			"Could not parse Anthropic SSE event content_block_start: Expected property name or '}' in JSON at position 1 (line 1 column 2); data={bad",
			"Could not parse Anthropic SSE event content_block_start: {runtime}; data={bad",
		},
		{`"message": "malformed json: SyntaxError: Unexpected end of JSON input"`, `"message": "malformed json: SyntaxError: {runtime}"`},
		// Pi's own texts stay exact.
		{"429 status code (no body)", ""},
		{"Unexpected assistant message start but got user message start instead", ""},
		{"An unknown error occurred", ""},
		{"literally {runtime} and Unexpected end of JSON input", ""},
	} {
		got, ok := runtimetext.Pattern(tt.in)
		if ok != (tt.want != "") || ok && got != tt.want {
			t.Errorf("Pattern(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}

func TestMark(t *testing.T) {
	out, err := jsonv.Parse([]byte(`{"message":{"errorMessage":"Unexpected end of JSON input"},"events":[{"type":"start"},{"type":"error","error":{"errorMessage":"pre: Unexpected end of JSON input"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	golden := runtimetext.Mark(out)
	want := `{"message":{"errorMessage":"Unexpected end of JSON input"},"events":[{"type":"start"},{"type":"error","error":{"errorMessage":"pre: Unexpected end of JSON input"}}],` +
		`"runtimeTexts":[{"path":"/message/errorMessage","pattern":"{runtime}"},{"path":"/events/1/error/errorMessage","pattern":"pre: {runtime}"}]}`
	if golden.String() != want {
		t.Errorf("Mark =\n%s\nwant\n%s", golden, want)
	}
	// The marked golden accepts a port's own wording, and the strict
	// comparison does not.
	back, texts, err := compare.SplitGolden(golden)
	if err != nil {
		t.Fatal(err)
	}
	port, _ := jsonv.Parse([]byte(`{"message":{"errorMessage":"unexpected end of JSON input"},"events":[{"type":"start"},{"type":"error","error":{"errorMessage":"pre: EOF"}}]}`))
	if m := compare.Check(back, port, compare.Rules{RuntimeTexts: texts}); m != nil {
		t.Errorf("default comparison: %v", m)
	}
	if m := compare.Check(back, port, compare.Rules{RuntimeTexts: texts, Strict: true}); m == nil || len(m.Diffs) != 2 {
		t.Errorf("strict comparison: %v", m)
	}
	for _, plain := range []string{`{"message":{"errorMessage":"429 status code (no body)"}}`, `["Unexpected end of JSON input"]`} {
		v, _ := jsonv.Parse([]byte(plain))
		if got := runtimetext.Mark(v); got.String() != v.String() {
			t.Errorf("Mark(%s) = %s", plain, got)
		}
	}
}

// TestFindsEveryReferenceMessage: every message the reference builds the
// way V8 does is found, so the shapes here cannot drift from
// reference/provider/stream.
func TestFindsEveryReferenceMessage(t *testing.T) {
	inputs := []string{
		``, `{`, `{"a"`, `{"a":1`, `[1`, `{"a" 1}`, `{a:1}`, `{'a':1}`, `"abc`, `"\q"`, "\"a\x01\"", `"\u12"`,
		`-`, `1e`, `1.`, `1 2`, `[1] x`, `tru`, `nul0`, `{"id": oops}`, `oops`, `undefined`, `NaN`,
		`{"type":"content_block_start","index":0,"content_block":nul0}`, `"x"y`, `[1,]`, `{"a":1,}`,
		`{"a":1 "b":2}`, `0123`, `[-]`, `abcdefghijklmnopqrstuvwxyz`,
	}
	seen := map[string]bool{}
	for _, in := range inputs {
		_, err := stream.ParseJSON(in)
		var se *stream.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("ParseJSON(%q) = %v, want a SyntaxError", in, err)
			continue
		}
		seen[se.Message] = true
		if p, ok := runtimetext.Pattern("Could not parse: " + se.Message + "; data=" + in); !ok || p != "Could not parse: {runtime}; data="+in {
			t.Errorf("%q: Pattern = %q, %v", se.Message, p, ok)
		}
	}
	if len(seen) < 12 {
		t.Errorf("only %d distinct messages: %v", len(seen), seen)
	}
	for _, base := range []jsonv.Value{{}, jsonv.NullValue()} {
		msg := stream.PropertyTypeError(base, "input_tokens").Msg
		if p, ok := runtimetext.Pattern(msg); !ok || p != "{runtime}" {
			t.Errorf("%q: Pattern = %q, %v", msg, p, ok)
		}
	}
}
