package provider_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// own is an API's options: the shared members and one of its own.
type own struct {
	provider.StreamOptions
	Effort *string
}

func (o own) JSON() jsonv.Value {
	return o.Builder().SetOptString("effort", o.Effort).Extend(o.Extra).Value()
}

func decodeOwn(v jsonv.Value, ptr string) (own, error) {
	return provider.Decode(v, ptr, func(o *own, f *jsonv.Fields) { o.Effort = f.OptString("effort") })
}

func TestDecodeSharedAndOwnMembers(t *testing.T) {
	in := `{"apiKey":"k","maxTokens":5,"transport":"sse","headers":{"a":"1","b":null},"env":{"E":"v"},"effort":"high","signal":{}}`
	v, err := jsonv.Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	o, err := decodeOwn(v, "/options")
	if err != nil {
		t.Fatal(err)
	}
	if *o.APIKey != "k" || *o.Effort != "high" || o.EnvValue("E") != "v" || len(o.Extra) != 1 {
		t.Errorf("decoded %+v", o)
	}
	if !jsonv.Equal(o.JSON(), v) {
		t.Errorf("round trip: %s, want %s", o.JSON(), v)
	}
	for in, want := range map[string]string{
		`{"effort":1}`:         "/options/effort: want string, got number",
		`{"timeoutMs":"1"}`:    "/options/timeoutMs: want number, got string",
		`{"env":{"E":true}}`:   "/options/env/E: want a string, got boolean",
		`{"toolChoice":[]}`:    "",
		`{"metadata":"x"}`:     "",
		`{"headers":{"h":[]}}`: "/options/headers/h: not modelled: an array as a header value",
	} {
		v, _ := jsonv.Parse([]byte(in))
		_, err := decodeOwn(v, "/options")
		if got := fmt.Sprint(err); (want == "" && err != nil) || (want != "" && got != want) {
			t.Errorf("%s: err = %v, want %q", in, err, want)
		}
	}
}

func TestBuilderRefusesForeignOptions(t *testing.T) {
	build := provider.Builder(func(*ai.Model, *ai.Context, own, transform.Clock) (*provider.Call, error) {
		return &provider.Call{}, nil
	})
	if _, err := build(nil, nil, &provider.StreamOptions{}, nil); err == nil {
		t.Error("foreign options accepted")
	}
	if _, err := build(nil, nil, &own{}, nil); err != nil {
		t.Error(err)
	}
}

func TestRefusal(t *testing.T) {
	if msg, ok := provider.Refusal(fmt.Errorf("wrapped: %w", &stream.RequestError{Message: "No API key"})); !ok || msg != "No API key" {
		t.Errorf("Refusal = %q, %v", msg, ok)
	}
	if _, ok := provider.Refusal(errors.New("x")); ok {
		t.Error("a plain error is a refusal")
	}
}

// TestRetentionOfOtherTypes: Pi keeps a truthy cacheRetention whatever its
// type, and falls back to the environment for a falsy one.
func TestRetentionOfOtherTypes(t *testing.T) {
	for in, want := range map[string]string{
		`{"cacheRetention":"long"}`: "long",
		`{"cacheRetention":7}`:      provider.OtherRetention,
		`{"cacheRetention":[]}`:     provider.OtherRetention,
		`{"cacheRetention":0}`:      "short",
		`{"cacheRetention":null}`:   "short",
		`{"cacheRetention":""}`:     "short",
		`{"cacheRetention":false,"env":{"PI_CACHE_RETENTION":"long"}}`: "long",
	} {
		v, _ := jsonv.Parse([]byte(in))
		o, err := provider.DecodeOptions(v, "/options", nil)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := o.Retention(); got != want {
			t.Errorf("%s: Retention() = %q, want %q", in, got, want)
		}
	}
}
