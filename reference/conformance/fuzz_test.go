package conformance_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/piconform/piconform/reference/agent"
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/codingagent"
	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
)

// noNetwork refuses every request: fuzzed wire cases must never reach out.
type noNetwork struct{}

func (noNetwork) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("fuzzing: no network")
}

// FuzzDecodeMessages: the message decoders, the registries, convertToLlm,
// Handle for every offline kind and the Serve loop never panic on any JSON;
// what decodes encodes back to an equal value; errors are path errors.
func FuzzDecodeMessages(f *testing.F) {
	jsonvtest.AddFiles(f, "../../fixtures/*/*.json")
	for _, s := range []string{
		`[{"role":"user","content":"x"}]`, `[null]`, `{"messages":[{"role":"bashExecution","command":"","output":"","cancelled":false,"truncated":false,"exitCode":1e400}]}`,
		`{"text":"\ud83d"}`, `{"type":"run","seq":1,"case":{"kind":"convert","input":{"messages":[]}}}`,
	} {
		f.Add([]byte(s))
	}
	reg := codingagent.Registry()
	bare, err := agent.NewRegistry()
	if err != nil {
		f.Fatal(err)
	}
	safe := conformance.Options{Now: fixedClock, HTTPClient: &http.Client{Transport: noNetwork{}}}
	f.Fuzz(func(t *testing.T, data []byte) {
		// The frame loop reads the bytes as NDJSON.
		_ = conformance.Serve(bytes.NewReader(data), io.Discard, "fuzz", safe)

		v, err := jsonv.Parse(data)
		if err != nil {
			return
		}
		candidates := []jsonv.Value{v}
		if in, ok := v.Get("input"); ok {
			candidates = append(candidates, in)
			if m, ok := in.Get("messages"); ok {
				candidates = append(candidates, m)
			}
		}
		if m, ok := v.Get("messages"); ok {
			candidates = append(candidates, m)
		}
		for _, c := range candidates {
			checkDecoders(t, c, reg, bare)
			for _, kind := range offlineKinds {
				out, err := conformance.Handle(kind, c, safe)
				if err != nil {
					var pe *jsonv.PathError
					if !errors.As(err, &pe) {
						t.Fatalf("Handle(%s) error %T is not a path error: %v", kind, err, err)
					}
					continue
				}
				if _, err := jsonv.Parse(out.AppendJSON(nil)); err != nil {
					t.Fatalf("Handle(%s) wrote invalid JSON %s: %v", kind, out, err)
				}
			}
		}
	})
}

func checkDecoders(t *testing.T, v jsonv.Value, reg, bare *agent.Registry) {
	if msgs, err := ai.DecodeMessages(v, "/m"); err == nil {
		if got := ai.MessagesJSON(msgs); !jsonv.Equal(got, v) {
			t.Fatalf("ai.DecodeMessages round trip:\n in: %s\nout: %s", v, got)
		}
	} else {
		mustBePathError(t, err)
	}
	if msgs, err := ai.DecodeMessagesAllowForeign(v, "/m"); err == nil {
		if got := ai.MessagesJSON(msgs); !jsonv.Equal(got, v) {
			t.Fatalf("ai.DecodeMessagesAllowForeign round trip:\n in: %s\nout: %s", v, got)
		}
	} else {
		mustBePathError(t, err)
	}
	for _, r := range []*agent.Registry{reg, bare} {
		msgs, err := r.DecodeAll(v, "/m")
		if err != nil {
			mustBePathError(t, err)
			continue
		}
		if got := agent.MessagesJSON(msgs); !jsonv.Equal(got, v) {
			t.Fatalf("DecodeAll round trip:\n in: %s\nout: %s", v, got)
		}
		converted, err := r.ConvertToLLM(msgs)
		if err != nil && !errors.Is(err, jsonv.ErrNoPrimitive) {
			t.Fatalf("ConvertToLLM: %v", err)
		}
		for _, out := range [][]ai.Message{converted, agent.DefaultConvertToLLM(msgs)} {
			if len(out) > len(msgs) {
				t.Fatalf("convertToLlm made %d messages out of %d", len(out), len(msgs))
			}
			// What convertToLlm gives has Message-layer roles only, though
			// not always their members' types (input.lenient).
			for _, m := range out {
				if !ai.IsMessageRole(m.Role()) {
					t.Fatalf("convertToLlm output holds role %q:\n%s", m.Role(), ai.MessagesJSON(out))
				}
			}
		}
	}
}

func mustBePathError(t *testing.T, err error) {
	var pe *jsonv.PathError
	if !errors.As(err, &pe) {
		t.Fatalf("error %T is not a *jsonv.PathError: %v", err, err)
	}
}
