package google

import (
	"errors"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
)

var fixedClock = func() jsonv.Value { return jsonv.NumberValue("1700000000000") }

// loadCases reads a testdata file written by capture.mjs.
func loadCases(t *testing.T, file string) []jsonv.Value {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return v.Elems()
}

type requestCase struct {
	name    string
	model   *ai.Model
	ctx     *ai.Context
	opts    Options
	want    jsonv.Value
	wantErr *string
}

func decodeRequestCase(t *testing.T, c jsonv.Value, i int) requestCase {
	t.Helper()
	f := jsonv.ReadFields(c, jsonv.Index("", i))
	rc := requestCase{name: f.String("name")}
	model, ctx, opts, want := f.Object("model"), f.Object("context"), f.Object("options"), f.Object("want")
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	var err error
	if rc.model, err = ai.DecodeModel(model, f.At("model")); err != nil {
		t.Fatal(err)
	}
	if rc.ctx, err = ai.DecodeContext(ctx, f.At("context")); err != nil {
		t.Fatal(err)
	}
	if rc.opts, err = DecodeOptions(opts, f.At("options")); err != nil {
		t.Fatal(err)
	}
	if e, ok := want.Get("error"); ok {
		s := e.Str()
		rc.wantErr = &s
	}
	rc.want = want
	return rc
}

// TestBuildRequestMatchesPi replays testdata/requests.json: each context and
// option set went through real Pi 0.80.2 against a loopback server, and the
// request it sent (or the error it failed with) was recorded. The wire body
// must be byte-identical.
func TestBuildRequestMatchesPi(t *testing.T) {
	for i, c := range loadCases(t, "testdata/requests.json") {
		rc := decodeRequestCase(t, c, i)
		t.Run(rc.name, func(t *testing.T) {
			req, err := BuildRequest(rc.model, rc.ctx, rc.opts, fixedClock)
			if rc.wantErr != nil {
				var re *RequestError
				if !errors.As(err, &re) || re.Message != *rc.wantErr {
					t.Fatalf("BuildRequest error = %v, want RequestError %q", err, *rc.wantErr)
				}
				msg, events := Failure(rc.model, re.Message, fixedClock)
				if len(events) != 1 || events[0].Message != msg || *msg.ErrorMessage != *rc.wantErr {
					t.Errorf("Failure gave %v", events)
				}
				return
			}
			if err != nil {
				t.Fatalf("BuildRequest: %v", err)
			}
			f := jsonv.ReadFields(rc.want, "/want")
			method, url, body := f.String("method"), f.String("url"), f.String("body")
			headers := f.Object("headers")
			if err := f.Err(); err != nil {
				t.Fatal(err)
			}
			if req.Method != method || req.URL != url {
				t.Errorf("request line = %s %s, want %s %s", req.Method, req.URL, method, url)
			}
			if got := string(req.Body.AppendJSON(nil)); got != body {
				t.Errorf("body\n got %s\nwant %s", got, body)
			}
			want := http.Header{}
			for _, m := range headers.Members() {
				want.Set(m.Key, m.Value.Str())
			}
			got := req.Header.Clone()
			for _, h := range IncidentalHeaders {
				got.Del(h)
			}
			for _, k := range unionKeys(got, want) {
				if g, w := got.Values(k), want.Values(k); !slices.Equal(g, w) {
					t.Errorf("header %s = %q, want %q", k, g, w)
				}
			}
		})
	}
}

func unionKeys(a, b http.Header) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

func TestIncidentalHeadersNameTheSDK(t *testing.T) {
	key := "k"
	req, err := BuildRequest(&ai.Model{ID: "gemini-2.5-pro", Provider: "google", BaseURL: "http://h"},
		&ai.Context{Messages: []ai.Message{&ai.UserMessage{Content: ai.Content{IsString: true, Text: "hi"}}}}, Options{APIKey: &key}, fixedClock)
	if err != nil {
		t.Fatal(err)
	}
	want := "google-genai-sdk/" + SDKVersion + " gl-node/" + NodeVersion
	for _, h := range IncidentalHeaders {
		if got := req.Header.Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
}

func TestNormalizeToolCallID(t *testing.T) {
	claude := &ai.Model{ID: "claude-sonnet-4-5"}
	gemini := &ai.Model{ID: "gemini-2.5-pro"}
	for _, tc := range []struct {
		model   *ai.Model
		in, out string
	}{
		{claude, "call.1.2", "call_1_2"},
		{claude, "emoji😀", "emoji__"}, // two UTF-16 units, two underscores
		{claude, "lone\xed\xa0\xbd", "lone_"},
		{claude, strings.Repeat("x", 70), strings.Repeat("x", 64)},
		{&ai.Model{ID: "gpt-oss-20b"}, "a|b", "a_b"},
		{gemini, "a|b.c", "a|b.c"},
	} {
		if got := NormalizeToolCallID(tc.in, tc.model, nil); got != tc.out {
			t.Errorf("NormalizeToolCallID(%q, %s) = %q, want %q", tc.in, tc.model.ID, got, tc.out)
		}
	}
}

func TestDecodeOptionsPathErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"maxTokens":"10"}`, "/options/maxTokens: want number, got string"},
		{`{"headers":{"x":1}}`, "/options/headers/x: want a string or null, got number"},
		{`{"toolChoice":{}}`, "/options/toolChoice: want string, got object"},
		{`{"thinking":{"enabled":"yes"}}`, "/options/thinking/enabled: want boolean, got string"},
		{`{"thinking":{"budgetTokens":"1"}}`, "/options/thinking/budgetTokens: want number, got string"},
		{`[]`, "/options: want an object, got array"},
	} {
		v, err := jsonv.Parse([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		_, err = DecodeOptions(v, "/options")
		if err == nil || err.Error() != tc.want {
			t.Errorf("DecodeOptions(%s) error = %v, want %q", tc.in, err, tc.want)
		}
	}
	v, _ := jsonv.Parse([]byte(`{"apiKey":"k","signal":{},"headers":{"a":"1","b":null},"toolChoice":"any","thinking":{"enabled":true,"level":"LOW","x":1}}`))
	o, err := DecodeOptions(v, "")
	if err != nil {
		t.Fatal(err)
	}
	if !jsonv.Equal(o.JSON(), v) {
		t.Errorf("round trip: %s, want %s", o.JSON(), v)
	}
}
