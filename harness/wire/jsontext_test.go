package wire

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// TestToolArgumentsCompareAsJSON: the tool-call arguments a request carries
// as JSON text match whatever the order of their keys (wire.json-text).
func TestToolArgumentsCompareAsJSON(t *testing.T) {
	completions := func(args string) string {
		return `{"messages":[{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":` + args + `}}]}]}`
	}
	responses := func(typ, args string) string {
		return `{"input":[{"type":"` + typ + `","call_id":"c1","name":"f","arguments":` + args + `}]}`
	}
	tests := []struct {
		name       string
		want, sent string
		paths      []string
	}{
		{"chat completions, keys reordered", completions(`"{\"a\":1,\"b\":[true]}"`), completions(`"{\"b\":[true],\"a\":1}"`), nil},
		{"chat completions, a value differs", completions(`"{\"a\":1}"`), completions(`"{\"a\":2}"`),
			[]string{"/body/messages/0/tool_calls/0/function/arguments"}},
		{"responses function_call, keys reordered", responses("function_call", `"{\"a\":1,\"b\":2}"`), responses("function_call", `"{\"b\":2,\"a\":1}"`), nil},
		{"another item type compares as text", responses("custom", `"{\"a\":1,\"b\":2}"`), responses("custom", `"{\"b\":2,\"a\":1}"`),
			[]string{"/body/input/0/arguments"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", "http://127.0.0.1/v1/chat", strings.NewReader(tt.sent))
			want := cassette.Request{Method: "POST", URL: "/v1/chat", Body: tt.want, Headers: http.Header{}}
			diffs, _ := Matcher{Key: FakeAPIKey}.Diff(req, []byte(tt.sent), want)
			var paths []string
			for _, d := range diffs {
				paths = append(paths, d.Path)
			}
			if diff := cmp.Diff(tt.paths, paths); diff != "" {
				t.Errorf("differing paths (-want +got):\n%s", diff)
			}
		})
	}
}
