package stream

import (
	"testing"

	"github.com/piconform/piconform/reference/ai"
)

// TestParseToolCallArguments: the finished text is parsed once; what is not
// an object gives {} and an argumentsError with V8's message (as Pi 1.6.0
// printed them for these texts) and the text.
func TestParseToolCallArguments(t *testing.T) {
	for _, tc := range []struct{ text, args, err string }{
		{"", "{}", ""},
		{" \n", "{}", ""},
		{`{"a":1}`, `{"a":1}`, ""},
		{`{"p":"a\qb"}`, `{"p":"a\\qb"}`, ""}, // repaired
		{`{"pa`, "{}", "Unterminated string in JSON at position 4 (line 1 column 5)\n\nReceived arguments:\n{\"pa"},
		{`{"path": [1, 2`, "{}", "Expected ',' or ']' after array element in JSON at position 14 (line 1 column 15)\n\nReceived arguments:\n{\"path\": [1, 2"},
		{`{"dir"`, "{}", "Expected ':' after property name in JSON at position 6 (line 1 column 7)\n\nReceived arguments:\n{\"dir\""},
		{`[1]`, "{}", "Tool arguments must be a JSON object\n\nReceived arguments:\n[1]"},
		{`null`, "{}", "Tool arguments must be a JSON object\n\nReceived arguments:\nnull"},
	} {
		args, errText, failed := ParseToolCallArguments(tc.text)
		if got := string(args.AppendJSON(nil)); got != tc.args || errText != tc.err || failed != (tc.err != "") {
			t.Errorf("ParseToolCallArguments(%q) = %s, %q, %v; want %s, %q", tc.text, got, errText, failed, tc.args, tc.err)
		}
	}
}

// TestToolCallArguments: the preview is an object or {}; Finish writes
// argumentsError after the block's own members.
func TestToolCallArguments(t *testing.T) {
	var a ToolCallArguments
	for _, step := range []struct{ delta, preview string }{
		{`[`, `{}`}, {``, `{}`},
	} {
		if got := string(a.Append(step.delta).AppendJSON(nil)); got != step.preview {
			t.Errorf("Append(%q) = %s, want %s", step.delta, got, step.preview)
		}
	}
	var b ToolCallArguments
	if got := string(b.Append(`{"path":"a`).AppendJSON(nil)); got != `{"path":"a"}` {
		t.Errorf("preview %s", got)
	}
	block := &ai.ToolCallBlock{ID: "c", Name: "read"}
	b.Finish(block)
	want := `{"type":"toolCall","id":"c","name":"read","arguments":{},"argumentsError":"Unterminated string in JSON at position 10 (line 1 column 11)\n\nReceived arguments:\n{\"path\":\"a"}`
	if got := string(block.JSON().AppendJSON(nil)); got != want {
		t.Errorf("block %s\nwant  %s", got, want)
	}
}
