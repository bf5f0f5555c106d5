package agent_test

import (
	"context"
	"errors"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/agent"
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
)

// parse parses JSON text a test wrote, or fails the test.
var parse = jsonvtest.Parse

// Notification is this test package's own custom message: the Go
// counterpart of an application adding
//
//	declare module "@earendil-works/pi-agent-core" {
//	  interface CustomAgentMessages { notification: Notification }
//	}
//
// The core knows nothing of it; the registry is told how to decode it and
// how to project it.
type Notification struct {
	Text      string
	Level     *string
	Silent    bool
	Timestamp jsonv.Value
	Extra     []jsonv.Member
}

func (*Notification) Role() string { return "notification" }

func (n *Notification) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("role", "notification").SetString("text", n.Text).SetOptString("level", n.Level)
	return o.SetBool("silent", n.Silent).Set("timestamp", n.Timestamp).Extend(n.Extra).Value()
}

var notificationType = agent.CustomType{
	Role: "notification",
	Decode: func(f *jsonv.Fields) (agent.Message, error) {
		n := &Notification{Text: f.String("text"), Level: f.OptString("level"), Silent: f.Bool("silent"), Timestamp: f.OptNumber("timestamp")}
		n.Extra = f.Rest()
		return n, f.Err()
	},
	ToLLM: func(m agent.Message) (ai.Message, error) {
		n := m.(*Notification)
		if n.Silent {
			return nil, nil
		}
		return &ai.UserMessage{Content: ai.BlockContent(&ai.TextBlock{Text: "[notification] " + n.Text}), Timestamp: n.Timestamp}, nil
	},
}

func notificationRegistry(t testing.TB) *agent.Registry {
	t.Helper()
	r, err := agent.NewRegistry(notificationType)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRegister(t *testing.T) {
	dec := notificationType.Decode
	to := notificationType.ToLLM
	for _, tc := range []struct {
		name  string
		types []agent.CustomType
		want  string // "" for success
	}{
		{"none", nil, ""},
		{"one", []agent.CustomType{notificationType}, ""},
		{"two", []agent.CustomType{notificationType, {Role: "ping", Decode: dec, ToLLM: to}}, ""},
		{"capitalised Message role is a custom role", []agent.CustomType{{Role: "User", Decode: dec, ToLLM: to}}, ""},
		{"duplicate", []agent.CustomType{notificationType, notificationType}, `agent: role "notification" is already registered`},
		{"user", []agent.CustomType{{Role: "user", Decode: dec, ToLLM: to}}, `agent: role "user" belongs to the Message layer`},
		{"assistant", []agent.CustomType{{Role: "assistant", Decode: dec, ToLLM: to}}, `agent: role "assistant" belongs to the Message layer`},
		{"toolResult", []agent.CustomType{{Role: "toolResult", Decode: dec, ToLLM: to}}, `agent: role "toolResult" belongs to the Message layer`},
		{"empty role", []agent.CustomType{{Decode: dec, ToLLM: to}}, `agent: custom type without a role`},
		{"no Decode", []agent.CustomType{{Role: "x", ToLLM: to}}, `agent: custom role "x" needs Decode and ToLLM`},
		{"no ToLLM", []agent.CustomType{{Role: "x", Decode: dec}}, `agent: custom role "x" needs Decode and ToLLM`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := agent.NewRegistry(tc.types...)
			if tc.want == "" {
				if err != nil || r == nil {
					t.Fatalf("NewRegistry: %v", err)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Fatalf("NewRegistry error = %v, want %q", err, tc.want)
			}
			if r != nil {
				t.Error("a registry came back with the error")
			}
		})
	}
	// A refused registration leaves the registry as it was.
	r := notificationRegistry(t)
	if err := r.Register(agent.CustomType{Role: "notification", Decode: dec, ToLLM: func(agent.Message) (ai.Message, error) { return nil, nil }}); err == nil {
		t.Fatal("re-registering was accepted")
	}
	msgs, _ := r.DecodeAll(parse(t, `[{"role":"notification","text":"hi","silent":false}]`), "")
	if len(convertToLLM(t, r, msgs)) != 1 {
		t.Error("the refused registration replaced the first one")
	}
}

func TestDecode(t *testing.T) {
	r := notificationRegistry(t)
	in := parse(t, `[
		{"role":"user","content":"q","timestamp":1},
		{"role":"notification","text":"saved","level":"info","silent":false,"timestamp":2,"extra":{"k":1}},
		{"role":"bashExecution","command":"ls","output":"x","cancelled":false,"truncated":false},
		{"role":"system","content":"s"},
		{"role":"assistant","content":[],"api":"a","provider":"p","model":"m","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop"},
		{"role":"toolResult","toolCallId":"t","toolName":"n","content":[],"isError":false},
		{"role":"","x":1},
		[], 7, {"text":"x"}, {"role":1},
		{"role":"user","content":7},
		{"role":"toolResult","toolCallId":"t","toolName":"n","content":7,"isError":"no"}
	]`)
	msgs, err := r.DecodeAll(in, "/messages")
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, m := range msgs {
		switch m.(type) {
		case *ai.UserMessage:
			types = append(types, "user")
		case *ai.AssistantMessage:
			types = append(types, "assistant")
		case *ai.ToolResultMessage:
			types = append(types, "toolResult")
		case *Notification:
			types = append(types, "Notification")
		case *agent.Unknown:
			types = append(types, "Unknown:"+m.Role())
		case *ai.ForeignMessage:
			types = append(types, "Foreign:"+m.Role())
		default:
			types = append(types, "?")
		}
	}
	want := []string{"user", "Notification", "Unknown:bashExecution", "Unknown:system", "assistant", "toolResult", "Unknown:",
		"Unknown:", "Unknown:", "Unknown:", "Unknown:", "Foreign:user", "Foreign:toolResult"}
	if diff := cmp.Diff(want, types); diff != "" {
		t.Errorf("decoded types (-want +got):\n%s", diff)
	}
	n := msgs[1].(*Notification)
	if n.Text != "saved" || *n.Level != "info" || n.Timestamp.Literal() != "2" || len(n.Extra) != 1 {
		t.Errorf("notification = %+v", n)
	}
	// Every message, unknown ones included, encodes back as written.
	if !jsonv.Equal(agent.MessagesJSON(msgs), in) {
		t.Errorf("MessagesJSON:\n got %s\nwant %s", agent.MessagesJSON(msgs), in)
	}
}

func TestDecodeErrors(t *testing.T) {
	r := notificationRegistry(t)
	// A decoder that forgets to return f.Err(): the registry still reports it.
	sloppy := agent.CustomType{
		Role: "sloppy",
		Decode: func(f *jsonv.Fields) (agent.Message, error) {
			f.Number("n")
			return &agent.Unknown{RoleName: "sloppy"}, nil
		},
		ToLLM: func(agent.Message) (ai.Message, error) { return nil, nil },
	}
	if err := r.Register(sloppy); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, want string }{
		{`{}`, `/messages: want an array of messages, got object`},
		{`[null]`, `/messages/0: want a message, got null`},
		{`[{"role":"user","content":"a"},{"role":"notification","silent":false}]`, `/messages/1/text: missing required string`},
		{`[{"role":"notification","text":"t","silent":"no"}]`, `/messages/0/silent: want boolean, got string`},
		{`[{"role":"notification","text":"t","silent":false,"timestamp":"1"}]`, `/messages/0/timestamp: want number, got string`},
		{`[{"role":"sloppy","n":"1"}]`, `/messages/0/n: want number, got string`},
	} {
		_, err := r.DecodeAll(parse(t, tc.in), "/messages")
		if err == nil || err.Error() != tc.want {
			t.Errorf("DecodeAll(%s) error = %v, want %s", tc.in, err, tc.want)
		}
		var pe *jsonv.PathError
		if err != nil && !errors.As(err, &pe) {
			t.Errorf("DecodeAll(%s) error %T is not a *jsonv.PathError", tc.in, err)
		}
	}
}

func TestConvertToLLM(t *testing.T) {
	r := notificationRegistry(t)
	msgs, err := r.DecodeAll(parse(t, `[
		{"role":"notification","text":"one","silent":false,"timestamp":1},
		{"role":"user","content":"q","timestamp":2,"extra":true},
		{"role":"notification","text":"quiet","silent":true,"timestamp":3},
		{"role":"system","content":"s"},
		{"role":"notification","text":"two","silent":false},
		{"role":"user","content":[{"type":"text","text":"u"}],"timestamp":4}
	]`), "/messages")
	if err != nil {
		t.Fatal(err)
	}
	out := convertToLLM(t, r, msgs)
	want := parse(t, `[
		{"role":"user","content":[{"type":"text","text":"[notification] one"}],"timestamp":1},
		{"role":"user","content":"q","timestamp":2,"extra":true},
		{"role":"user","content":[{"type":"text","text":"[notification] two"}]},
		{"role":"user","content":[{"type":"text","text":"u"}],"timestamp":4}
	]`)
	if got := ai.MessagesJSON(out); !jsonv.Equal(got, want) {
		t.Errorf("ConvertToLLM:\n got %s\nwant %s", got, want)
	}
	// Message-layer messages pass through as they are.
	if out[1] != msgs[1].(ai.Message) {
		t.Error("a user message was not passed through")
	}
	// The input is not changed.
	if len(msgs) != 6 {
		t.Error("ConvertToLLM changed its input")
	}
	for _, in := range [][]agent.Message{nil, {}, {&agent.Unknown{RoleName: "x"}}} {
		if out := convertToLLM(t, r, in); out == nil || len(out) != 0 {
			t.Errorf("ConvertToLLM(%v) = %#v, want an empty non-nil list", in, out)
		}
	}
}

// TestDefaultConvertToLLM: agent.default-convert keeps the three roles and
// drops every custom message, registered or not, without projecting it.
func TestDefaultConvertToLLM(t *testing.T) {
	r := notificationRegistry(t)
	msgs, err := r.DecodeAll(parse(t, `[
		{"role":"custom","customType":"note","content":"hi","display":true,"timestamp":1},
		{"role":"user","content":"q","timestamp":2},
		{"role":"notification","text":"n","silent":false},
		{"role":"assistant","content":[],"api":"a","provider":"p","model":"m","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"aborted","errorMessage":"x"},
		{"role":"toolResult","toolCallId":"t","toolName":"n","content":[],"isError":true},
		{"role":"bashExecution","command":"ls","output":"","cancelled":false,"truncated":false}
	]`), "")
	if err != nil {
		t.Fatal(err)
	}
	out := agent.DefaultConvertToLLM(msgs)
	var roles []string
	for _, m := range out {
		roles = append(roles, m.Role())
	}
	if diff := cmp.Diff([]string{"user", "assistant", "toolResult"}, roles); diff != "" {
		t.Errorf("roles (-want +got):\n%s", diff)
	}
	if out[0] != msgs[1].(ai.Message) || out[1] != msgs[3].(ai.Message) || out[2] != msgs[4].(ai.Message) {
		t.Error("messages were not kept unchanged")
	}
	// The spec's example.
	msgs, _ = r.DecodeAll(parse(t, `[{"role":"custom","customType":"note","content":"hi","display":true,"timestamp":1},{"role":"user","content":"q","timestamp":2}]`), "")
	if got := ai.MessagesJSON(agent.DefaultConvertToLLM(msgs)).String(); got != `[{"role":"user","content":"q","timestamp":2}]` {
		t.Errorf("spec example = %s", got)
	}
	if out := agent.DefaultConvertToLLM(nil); out == nil || len(out) != 0 {
		t.Errorf("DefaultConvertToLLM(nil) = %#v", out)
	}
}

// TestCoreKnowsNoCustomRole: the core registry has no custom role, and the
// package does not import the coding agent.
func TestCoreKnowsNoCustomRole(t *testing.T) {
	r, err := agent.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := r.DecodeAll(parse(t, `[
		{"role":"bashExecution","command":"ls","output":"x","exitCode":"not even a number"},
		{"role":"custom","content":42},
		{"role":"branchSummary"},{"role":"compactionSummary"},{"role":"notification"}
	]`), "")
	if err != nil {
		t.Fatalf("a bare registry is strict about roles it does not know: %v", err)
	}
	for _, m := range msgs {
		if _, ok := m.(*agent.Unknown); !ok {
			t.Errorf("%s decoded as %T", m.Role(), m)
		}
	}
	if out := convertToLLM(t, r, msgs); len(out) != 0 {
		t.Errorf("a bare registry projected %d messages", len(out))
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.Contains(path, "codingagent") || strings.Contains(path, "conformance") {
				t.Errorf("%s imports %s: the core must not know the coding agent", file, path)
			}
		}
		for _, role := range []string{`"bashExecution"`, `"branchSummary"`, `"compactionSummary"`, `"custom"`} {
			if strings.Contains(string(src), role) {
				t.Errorf("%s names the coding agent's role %s", file, role)
			}
		}
	}
}

// ---- the pipeline ------------------------------------------------------------------------

func userMsg(text string, ts string) *ai.UserMessage {
	return &ai.UserMessage{Content: ai.StringContent(text), Timestamp: jsonv.NumberValue(ts)}
}

func texts(msgs []ai.Message) []string {
	var out []string
	for _, m := range msgs {
		switch m := m.(type) {
		case *ai.UserMessage:
			if m.Content.IsString {
				out = append(out, m.Content.Text)
			} else {
				out = append(out, m.Content.Blocks[0].(*ai.TextBlock).Text)
			}
		default:
			out = append(out, m.Role())
		}
	}
	return out
}

func agentTexts(msgs []agent.Message) []string {
	var out []string
	for _, m := range msgs {
		if am, ok := m.(ai.Message); ok {
			out = append(out, texts([]ai.Message{am})...)
		} else {
			out = append(out, m.Role())
		}
	}
	return out
}

func newState(t *testing.T) agent.State {
	return agent.State{
		SystemPrompt: "be brief",
		Messages: []agent.Message{
			userMsg("a", "1"),
			&Notification{Text: "n", Timestamp: jsonv.NumberValue("2")},
			&agent.Unknown{RoleName: "system", Raw: parse(t, `{"role":"system"}`)},
			userMsg("b", "3"),
		},
	}
}

// TestPipelineOrder: pipeline.order.
func TestPipelineOrder(t *testing.T) {
	r := notificationRegistry(t)
	state := newState(t)
	var calls []string
	var convertSaw []string
	type ctxKey struct{}
	ctx := context.WithValue(context.Background(), ctxKey{}, "run-1")
	p := agent.Pipeline{
		Transform: func(c context.Context, msgs []agent.Message) ([]agent.Message, error) {
			calls = append(calls, "transformContext")
			if c.Value(ctxKey{}) != "run-1" {
				t.Error("transformContext did not get the run's context")
			}
			if diff := cmp.Diff([]string{"a", "notification", "system", "b"}, agentTexts(msgs)); diff != "" {
				t.Errorf("transformContext input (-want +got):\n%s", diff)
			}
			// Keep the last two messages and inject one.
			return append([]agent.Message{userMsg("injected", "0")}, msgs[2:]...), nil
		},
		Convert: func(c context.Context, msgs []agent.Message) ([]ai.Message, error) {
			calls = append(calls, "convertToLlm")
			if c.Value(ctxKey{}) != "run-1" {
				t.Error("convertToLlm did not get the run's context")
			}
			convertSaw = agentTexts(msgs)
			return r.ConvertToLLM(msgs)
		},
	}
	c, err := p.Prepare(ctx, state)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"transformContext", "convertToLlm"}, calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"injected", "system", "b"}, convertSaw); diff != "" {
		t.Errorf("convertToLlm saw (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"injected", "b"}, texts(c.Messages)); diff != "" {
		t.Errorf("context messages (-want +got):\n%s", diff)
	}
	if c.SystemPrompt == nil || *c.SystemPrompt != "be brief" {
		t.Errorf("system prompt = %v", c.SystemPrompt)
	}
	// Without a transform, convertToLlm sees the transcript.
	calls = nil
	p.Transform = nil
	c, err = p.Prepare(ctx, state)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"convertToLlm"}, calls); diff != "" {
		t.Errorf("calls without transform (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a", "[notification] n", "b"}, texts(c.Messages)); diff != "" {
		t.Errorf("messages without transform (-want +got):\n%s", diff)
	}
	// Converter adapts a registry.
	c, err = agent.Pipeline{Convert: agent.Converter(r)}.Prepare(ctx, state)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "[notification] n", "b"}, texts(c.Messages)); diff != "" {
		t.Errorf("Converter (-want +got):\n%s", diff)
	}
}

// TestPipelinePerRequest: pipeline.per-request. Whatever the steps do to the
// lists they get, the state keeps its transcript, and the next request starts
// from it again.
func TestPipelinePerRequest(t *testing.T) {
	r := notificationRegistry(t)
	state := newState(t)
	orig := append([]agent.Message(nil), state.Messages...)
	origJSON := agent.MessagesJSON(state.Messages).String()
	requests := 0
	p := agent.Pipeline{
		Transform: func(_ context.Context, msgs []agent.Message) ([]agent.Message, error) {
			requests++
			if len(msgs) != 4 {
				t.Errorf("request %d: the transform saw %d messages, want the 4 of the transcript", requests, len(msgs))
			}
			// Vandalize the list it was given: overwrite, reorder, append.
			msgs[0] = userMsg("overwritten", "9")
			msgs[1], msgs[3] = msgs[3], msgs[1]
			msgs = append(msgs, userMsg("appended", "10"))
			msgs = append(msgs[:2], msgs[3:]...) // delete one in place
			return msgs, nil
		},
		Convert: func(_ context.Context, msgs []agent.Message) ([]ai.Message, error) {
			msgs[0] = userMsg("convert was here", "11")
			msgs = append(msgs, userMsg("convert appended", "12"))
			out := convertToLLM(t, r, msgs)
			clear(msgs)
			return out, nil
		},
	}
	for i := 1; i <= 3; i++ {
		c, err := p.Prepare(context.Background(), state)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"convert was here", "b", "[notification] n", "appended", "convert appended"}, texts(c.Messages)); diff != "" {
			t.Errorf("request %d messages (-want +got):\n%s", i, diff)
		}
		if len(state.Messages) != len(orig) {
			t.Fatalf("request %d: the transcript has %d messages, want %d", i, len(state.Messages), len(orig))
		}
		for j := range orig {
			if state.Messages[j] != orig[j] {
				t.Errorf("request %d: transcript message %d was replaced", i, j)
			}
		}
		if got := agent.MessagesJSON(state.Messages).String(); got != origJSON {
			t.Errorf("request %d: the transcript changed:\n%s\n%s", i, origJSON, got)
		}
	}
	if requests != 3 {
		t.Errorf("the transform ran %d times for 3 requests", requests)
	}
	// A transcript with spare capacity: an append by the transform must not
	// land in the state's backing array either.
	backing := make([]agent.Message, 2, 10)
	backing[0], backing[1] = userMsg("x", "1"), userMsg("y", "2")
	state = agent.State{Messages: backing}
	p = agent.Pipeline{
		Transform: func(_ context.Context, msgs []agent.Message) ([]agent.Message, error) {
			return append(msgs, userMsg("z", "3")), nil
		},
		Convert: agent.Converter(r),
	}
	if _, err := p.Prepare(context.Background(), state); err != nil {
		t.Fatal(err)
	}
	if spare := backing[:3][2]; spare != nil {
		t.Errorf("the transform's append reached the state's backing array: %v", spare)
	}
}

// TestPipelineErrors: pipeline.errors.
func TestPipelineErrors(t *testing.T) {
	r := notificationRegistry(t)
	errTransform := errors.New("transform failed")
	errConvert := errors.New("convert failed")
	for _, tc := range []struct {
		name          string
		transformErr  error
		convertErr    error
		hasTransform  bool
		wantStep      string
		wantErr       error
		wantConverted bool
	}{
		{"transform fails", errTransform, nil, true, "transformContext", errTransform, false},
		{"convert fails after transform", nil, errConvert, true, "convertToLlm", errConvert, true},
		{"convert fails without transform", nil, errConvert, false, "convertToLlm", errConvert, true},
		{"wrapped error kept", &jsonv.PathError{Pointer: "/x", Msg: "bad"}, nil, true, "transformContext", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			converted := false
			p := agent.Pipeline{
				Convert: func(_ context.Context, msgs []agent.Message) ([]ai.Message, error) {
					converted = true
					if tc.convertErr != nil {
						out, _ := r.ConvertToLLM(msgs)
						return out, tc.convertErr // a partial result must not leak out
					}
					return r.ConvertToLLM(msgs)
				},
			}
			if tc.hasTransform {
				p.Transform = func(_ context.Context, msgs []agent.Message) ([]agent.Message, error) {
					if tc.transformErr != nil {
						return msgs, tc.transformErr
					}
					return msgs, nil
				}
			}
			c, err := p.Prepare(context.Background(), newState(t))
			if c != nil {
				t.Errorf("a Context came back with the error: %+v", c)
			}
			var se *agent.StepError
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v is not a *StepError", err, err)
			}
			if se.Step != tc.wantStep {
				t.Errorf("Step = %q, want %q", se.Step, tc.wantStep)
			}
			want := tc.wantErr
			if want == nil {
				want = tc.transformErr
			}
			if !errors.Is(err, want) || se.Unwrap() != want {
				t.Errorf("error %v does not wrap %v", err, want)
			}
			if got := err.Error(); got != tc.wantStep+": "+want.Error() {
				t.Errorf("Error() = %q", got)
			}
			if converted != tc.wantConverted {
				t.Errorf("convertToLlm called = %v, want %v", converted, tc.wantConverted)
			}
			var pe *jsonv.PathError
			if tc.name == "wrapped error kept" && (!errors.As(err, &pe) || pe.Pointer != "/x") {
				t.Errorf("errors.As through StepError failed: %v", err)
			}
		})
	}
	// No ConvertToLLM at all is a configuration error, not a step error.
	c, err := agent.Pipeline{}.Prepare(context.Background(), newState(t))
	var se *agent.StepError
	if err == nil || c != nil || errors.As(err, &se) {
		t.Errorf("Prepare without Convert = %v, %v", c, err)
	}
}

// TestPipelineContext: the Context built from the state: the system prompt
// copied as it is, tools absent for nil and present for an empty list.
func TestPipelineContext(t *testing.T) {
	r := notificationRegistry(t)
	tool := ai.Tool{Name: "read", Description: "reads", Parameters: parse(t, `{"type":"object"}`)}
	for _, tc := range []struct {
		name  string
		state agent.State
		want  string
	}{
		{"nil tools", agent.State{SystemPrompt: "", Messages: []agent.Message{userMsg("q", "1")}},
			`{"systemPrompt":"","messages":[{"role":"user","content":"q","timestamp":1}]}`},
		{"empty tools", agent.State{SystemPrompt: "s", Tools: []ai.Tool{}},
			`{"systemPrompt":"s","messages":[],"tools":[]}`},
		{"one tool", agent.State{SystemPrompt: "s", Tools: []ai.Tool{tool}},
			`{"systemPrompt":"s","messages":[],"tools":[{"name":"read","description":"reads","parameters":{"type":"object"}}]}`},
		{"empty transcript", agent.State{SystemPrompt: "s", Messages: []agent.Message{}},
			`{"systemPrompt":"s","messages":[]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := agent.Pipeline{Convert: agent.Converter(r)}.Prepare(context.Background(), tc.state)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.JSON().String(); got != tc.want {
				t.Errorf("context:\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestPipelineDeepCopy: pipeline.per-request holds even for a step that edits
// a message in place, custom messages included when the pipeline has the
// registry that decodes them.
func TestPipelineDeepCopy(t *testing.T) {
	r := notificationRegistry(t)
	state := newState(t)
	before := agent.MessagesJSON(state.Messages).String()
	p := agent.Pipeline{
		Registry: r,
		Transform: func(_ context.Context, msgs []agent.Message) ([]agent.Message, error) {
			msgs[0].(*ai.UserMessage).Content.Text = "edited by the transform"
			msgs[1].(*Notification).Text = "edited too"
			return msgs, nil
		},
		Convert: agent.Converter(r),
	}
	c, err := p.Prepare(context.Background(), state)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"edited by the transform", "[notification] edited too", "b"}, texts(c.Messages)); diff != "" {
		t.Errorf("the request (-want +got):\n%s", diff)
	}
	if after := agent.MessagesJSON(state.Messages).String(); after != before {
		t.Errorf("editing a message in the transform changed the transcript:\nbefore %s\nafter  %s", before, after)
	}
}

// TestDecodeEachIsDecodeAll: reading a transcript from a stream gives the
// messages and the errors that decoding it whole gives, and stops at the
// first error.
func TestDecodeEachIsDecodeAll(t *testing.T) {
	r := notificationRegistry(t)
	for _, in := range []string{
		`[]`,
		`[{"role":"user","content":"q","timestamp":1},{"role":"notification","text":"saved","silent":false},
		  {"role":"bashExecution","command":"ls"},[],7,{"role":1},{"role":"user","content":7}]`,
		`[null]`,
		`[{"role":"user","content":"a"},{"role":"notification","silent":false},{"role":"user","content":"b"}]`,
		`[{"role":"notification","text":"t","silent":false,"timestamp":"1"}]`,
	} {
		want, wantErr := r.DecodeAll(parse(t, in), "")
		var got []agent.Message
		err := r.DecodeEach(strings.NewReader(in), func(m agent.Message) error {
			got = append(got, m)
			return nil
		})
		if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Errorf("DecodeEach(%s) error = %v, want %v", in, err, wantErr)
			continue
		}
		if err == nil && !jsonv.Equal(agent.MessagesJSON(got), agent.MessagesJSON(want)) {
			t.Errorf("DecodeEach(%s):\n got %s\nwant %s", in, agent.MessagesJSON(got), agent.MessagesJSON(want))
		}
	}
	err := r.DecodeEach(strings.NewReader("[{\"role\":\"user\",\"content\":\"a\"},\n{\"role\" \"user\"}]"), func(agent.Message) error { return nil })
	var se *jsonv.SyntaxError
	if !errors.As(err, &se) || se.Line != 2 || se.Pointer != "/1" {
		t.Errorf("a syntax error in the second message came back as %v", err)
	}
}

// TestLLMMessages: the streamed transcript yields what DecodeAll then
// ToLLM give, in order, with the decoding error last, and stops when the
// caller stops.
func TestLLMMessages(t *testing.T) {
	r := notificationRegistry(t)
	for _, in := range []string{
		`[]`,
		`[{"role":"user","content":"q","timestamp":1},{"role":"notification","text":"saved","silent":false},
		  {"role":"notification","text":"quiet","silent":true},{"role":"assistant","content":[],"stopReason":"stop"}]`,
		`[{"role":"user","content":"a"},{"role":"user","content":7}]`,
	} {
		decoded, wantErr := r.DecodeAll(parse(t, in), "")
		var want []ai.Message
		for _, m := range decoded {
			if am, err := r.ToLLM(m); err == nil && am != nil {
				want = append(want, am)
			}
		}
		var got []ai.Message
		var err error
		for m, e := range r.LLMMessages(strings.NewReader(in)) {
			if e != nil {
				err = e
				break
			}
			got = append(got, m)
		}
		if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Errorf("LLMMessages(%s) error = %v, want %v", in, err, wantErr)
			continue
		}
		if err == nil && !jsonv.Equal(jsonv.ArrayOf(got), jsonv.ArrayOf(want)) {
			t.Errorf("LLMMessages(%s):\n got %s\nwant %s", in, jsonv.ArrayOf(got), jsonv.ArrayOf(want))
		}
	}
	n := 0
	for range r.LLMMessages(strings.NewReader(`[{"role":"user","content":"a"},{"role":"user","content":"b"},{"role":"user","content":7}]`)) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("LLMMessages went on after the caller stopped: %d yields", n)
	}
}

// convertToLLM is r.ConvertToLLM for a transcript it must convert.
func convertToLLM(t *testing.T, r *agent.Registry, msgs []agent.Message) []ai.Message {
	t.Helper()
	out, err := r.ConvertToLLM(msgs)
	if err != nil {
		t.Fatalf("ConvertToLLM: %v", err)
	}
	return out
}
