package google_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/google"
	"github.com/piconform/piconform/reference/provider/googlevertex"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

// build builds the request of a context given as JSON for a model, in
// dialect d, through the driver of api.
func build(t *testing.T, api string, d dialect.Dialect, model *ai.Model, ctxJSON string, opts google.Options) (*provider.Call, error) {
	t.Helper()
	ctx, err := ai.DecodeWireContext(jsonvtest.Parse(t, ctxJSON), "/context", true)
	if err != nil {
		t.Fatal(err)
	}
	key := "k"
	opts.APIKey, opts.Dialect = &key, d
	if model.BaseURL == "" {
		model.BaseURL = "http://h"
	}
	if model.Provider == "" {
		model.Provider = "google"
	}
	model.API = api
	if api == googlevertex.API {
		return googlevertex.BuildRequest(model, ctx, googlevertex.Options{Options: opts}, capturetest.Clock)
	}
	return google.BuildRequest(model, ctx, opts, capturetest.Clock)
}

// at is the body member at a JSON Pointer, "<absent>" when there is none.
func at(body jsonv.Value, ptr string) string {
	v := body
	for _, seg := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		switch v.Kind() {
		case jsonv.Object:
			v, _ = v.Get(seg)
		case jsonv.Array:
			i := 0
			for _, c := range seg {
				i = i*10 + int(c-'0')
			}
			if i >= len(v.Elems()) {
				return "<absent>"
			}
			v = v.Elems()[i]
		default:
			return "<absent>"
		}
	}
	if v.IsAbsent() {
		return "<absent>"
	}
	return string(v.AppendJSON(nil))
}

const toolTurn = `{"messages":[
 {"role":"user","content":"q","timestamp":1},
 {"role":"assistant","content":[{"type":"toolCall","id":"call_1","name":"f","arguments":{"a":1}}],"api":"google-generative-ai","provider":"google","model":"MODEL","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":1},
 {"role":"toolResult","toolCallId":"call_1","toolName":"f","content":[{"type":"text","text":"  \n "}],"isError":false,"timestamp":1}]}`

// TestRequestByDialect: what the request of the same input holds in each
// dialect, where 1.6 changed it (spec/wire-google.md, "In 1.6").
func TestRequestByDialect(t *testing.T) {
	gemini3 := strings.ReplaceAll(toolTurn, "MODEL", "gemini-3-pro-preview")
	signed := `{"messages":[{"role":"user","content":"q","timestamp":1},
	 {"role":"assistant","content":[{"type":"thinking","thinking":"","thinkingSignature":"QUJD"},{"type":"text","text":" ","textSignature":"QUJD"},{"type":"text","text":"a"}],"api":"google-generative-ai","provider":"google","model":"gemini-2.5-pro","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1},
	 {"role":"user","content":"r","timestamp":1}]}`
	tools := `{"messages":[{"role":"user","content":"q","timestamp":1}],"tools":[{"name":"f","description":"d","parameters":{"type":"object","properties":{"const":{"const":"x"},"n":{"const":3,"description":"three"},"b":{"const":true},"e":{"const":"y","enum":["y"]},"l":{"type":"array","items":{"anyOf":[{"const":"p"},{"type":"null"}]}}},"const":"top"}}]}`
	hi := `{"messages":[{"role":"user","content":"hi","timestamp":1}]}`
	yes := true
	for _, tc := range []struct {
		name, api, ctx string
		model          ai.Model
		opts           google.Options
		ptr            string
		v080, v16      string
	}{
		{"gemini 3 call id", google.API, gemini3, ai.Model{ID: "gemini-3-pro-preview"}, google.Options{}, "/contents/1/parts/0/functionCall/id", `<absent>`, `"call_1"`},
		{"gemini 3 result id", google.API, gemini3, ai.Model{ID: "gemini-3-pro-preview"}, google.Options{}, "/contents/2/parts/0/functionResponse/id", `<absent>`, `"call_1"`},
		{"gemini 2.5 no id", google.API, strings.ReplaceAll(toolTurn, "MODEL", "gemini-2.5-pro"), ai.Model{ID: "gemini-2.5-pro"}, google.Options{}, "/contents/1/parts/0/functionCall/id", `<absent>`, `<absent>`},
		{"vertex gemini 3 call id", googlevertex.API, gemini3, ai.Model{ID: "gemini-3-pro-preview"}, google.Options{}, "/contents/1/parts/0/functionCall/id", `<absent>`, `"call_1"`},
		{"functionCall member order", google.API, gemini3, ai.Model{ID: "gemini-3-pro-preview"}, google.Options{}, "/contents/1/parts/0/functionCall", `{"args":{"a":1},"name":"f"}`, `{"args":{"a":1},"id":"call_1","name":"f"}`},
		{"vertex functionResponse order", googlevertex.API, gemini3, ai.Model{ID: "gemini-3-pro-preview"}, google.Options{}, "/contents/2/parts/0/functionResponse", `{"name":"f","response":{"output":"  \n "}}`, `{"id":"call_1","name":"f","response":{"output":""}}`},
		{"blank result text", google.API, strings.ReplaceAll(toolTurn, "MODEL", "gemini-2.5-pro"), ai.Model{ID: "gemini-2.5-pro"}, google.Options{}, "/contents/2/parts/0/functionResponse/response/output", `"  \n "`, `""`},
		{"signed blank thinking", google.API, signed, ai.Model{ID: "gemini-2.5-pro"}, google.Options{}, "/contents/1/parts/0", `{"text":"a"}`, `{"text":"","thought":true,"thoughtSignature":"QUJD"}`},
		{"signed blank text", google.API, signed, ai.Model{ID: "gemini-2.5-pro"}, google.Options{}, "/contents/1/parts/1", `<absent>`, `{"text":" ","thoughtSignature":"QUJD"}`},
		{"blank thinking of another model", google.API, strings.ReplaceAll(signed, `"model":"gemini-2.5-pro"`, `"model":"gemini-2.5-flash"`), ai.Model{ID: "gemini-2.5-pro"}, google.Options{}, "/contents/1/parts/0", `{"text":"a"}`, `{"text":"a"}`},
		{"const of a property", google.API, tools, ai.Model{ID: "gemini-2.5-pro"}, google.Options{}, "/tools/0/functionDeclarations/0/parametersJsonSchema/properties/const", `{"const":"x"}`, `{"enum":["x"]}`},
		{"number const keeps its order", google.API, tools, ai.Model{ID: "gemini-2.5-pro"}, google.Options{}, "/tools/0/functionDeclarations/0/parametersJsonSchema/properties/n", `{"const":3,"description":"three"}`, `{"description":"three","enum":[3]}`},
		{"boolean const kept", google.API, tools, ai.Model{ID: "gemini-2.5-pro"}, google.Options{}, "/tools/0/functionDeclarations/0/parametersJsonSchema/properties/b", `{"const":true}`, `{"const":true}`},
		{"const beside enum kept", google.API, tools, ai.Model{ID: "gemini-2.5-pro"}, google.Options{}, "/tools/0/functionDeclarations/0/parametersJsonSchema/properties/e", `{"const":"y","enum":["y"]}`, `{"const":"y","enum":["y"]}`},
		{"const in anyOf of items", google.API, tools, ai.Model{ID: "gemini-2.5-pro"}, google.Options{}, "/tools/0/functionDeclarations/0/parametersJsonSchema/properties/l/items/anyOf/0", `{"const":"p"}`, `{"enum":["p"]}`},
		{"const of the root", googlevertex.API, tools, ai.Model{ID: "gemini-2.5-pro"}, google.Options{}, "/tools/0/functionDeclarations/0/parametersJsonSchema/enum", `<absent>`, `["top"]`},
		{"level null", google.API, hi, ai.Model{ID: "gemini-2.5-pro", Reasoning: true}, google.Options{Thinking: &google.Thinking{Enabled: &yes, Level: jsonv.NullValue()}}, "/generationConfig/thinkingConfig", `{"includeThoughts":true,"thinkingLevel":null}`, `{"includeThoughts":true}`},
		{"level via the SDK map", google.API, hi, ai.Model{ID: "gemini-2.5-pro", Reasoning: true}, google.Options{Thinking: &google.Thinking{Enabled: &yes, Level: jsonv.ArrayValue(jsonv.StringValue("LOW"))}}, "/generationConfig/thinkingConfig", `{"includeThoughts":true,"thinkingLevel":["LOW"]}`, `{"includeThoughts":true,"thinkingLevel":"LOW"}`},
		{"off for gemini 3 pro", google.API, hi, ai.Model{ID: "gemini-3-pro-preview", Reasoning: true}, google.Options{Thinking: &google.Thinking{}}, "/generationConfig/thinkingConfig", `{"thinkingLevel":"LOW"}`, `{"thinkingBudget":0}`},
		{"off unsupported", google.API, hi, ai.Model{ID: "gemini-3-pro-preview", Reasoning: true, ThinkingLevelMap: jsonvtest.Parse(t, `{"off":null,"minimal":null}`)}, google.Options{Thinking: &google.Thinking{}}, "/generationConfig/thinkingConfig", `{"thinkingLevel":"LOW"}`, `{"thinkingLevel":"LOW"}`},
		{"off unsupported, mapped", googlevertex.API, hi, ai.Model{ID: "gemini-4-argon", Reasoning: true, ThinkingLevelMap: jsonvtest.Parse(t, `{"off":null,"minimal":"Medium"}`)}, google.Options{Thinking: &google.Thinking{}}, "/generationConfig/thinkingConfig", `{"thinkingBudget":0}`, `{"thinkingLevel":"MEDIUM"}`},
		{"off for gemma 4 on vertex", googlevertex.API, hi, ai.Model{ID: "gemma-4-27b", Reasoning: true, ThinkingLevelMap: jsonvtest.Parse(t, `{"off":null}`)}, google.Options{Thinking: &google.Thinking{}}, "/generationConfig/thinkingConfig", `{"thinkingBudget":0}`, `{"thinkingLevel":"MINIMAL"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, want := range []struct {
				d    dialect.Dialect
				want string
			}{{dialect.V0_80, tc.v080}, {dialect.V1_6, tc.v16}} {
				model := tc.model
				call, err := build(t, tc.api, want.d, &model, tc.ctx, tc.opts)
				if err != nil {
					t.Fatalf("%s: %v", want.d, err)
				}
				if got := at(call.Body, tc.ptr); got != want.want {
					t.Errorf("%s: %s = %s, want %s", want.d, tc.ptr, got, want.want)
				}
			}
		})
	}
}

// TestRequestRefusals: where Pi 1.6 sends nothing, with its error.
func TestRequestRefusals(t *testing.T) {
	hi := `{"messages":[{"role":"user","content":"hi","timestamp":1}]}`
	for _, tc := range []struct {
		name  string
		model ai.Model
		opts  google.Options
		want  string
	}{
		{"number id", ai.Model{ID: "", Loose: ai.Loose{{Key: "id", Value: jsonv.NumberValue("7")}}}, google.Options{}, "modelId.toLowerCase is not a function"},
		{"null id", ai.Model{ID: "", Loose: ai.Loose{{Key: "id", Value: jsonv.NullValue()}}}, google.Options{}, "Cannot read properties of null (reading 'toLowerCase')"},
		{"bad off mapping", ai.Model{ID: "gemini-3-flash", Reasoning: true, ThinkingLevelMap: jsonvtest.Parse(t, `{"off":null,"minimal":"tiny"}`)}, google.Options{Thinking: &google.Thinking{}},
			"Unsupported Google thinking level mapping for google/gemini-3-flash: minimal -> tiny"},
	} {
		for _, api := range []string{google.API, googlevertex.API} {
			model := tc.model
			_, err := build(t, api, dialect.V1_6, &model, hi, tc.opts)
			if msg, ok := provider.Refusal(err); !ok || msg != tc.want {
				t.Errorf("%s %s: err = %v, want the refusal %q", api, tc.name, err, tc.want)
			}
		}
	}
}

// TestHeaderMergeByDialect: 0.80 merges the model's and the caller's
// headers as objects; 1.6 compares names without case, a later one
// replacing an earlier, and puts Pi's user agent under both.
func TestHeaderMergeByDialect(t *testing.T) {
	hi := `{"messages":[{"role":"user","content":"hi","timestamp":1}]}`
	model := ai.Model{ID: "gemini-2.5-pro", Headers: jsonvtest.Parse(t, `{"X-Dup":"one","X-Drop":"d","x-gone":"g"}`)}
	opts := google.Options{StreamOptions: provider.StreamOptions{Headers: httpheader.Decode(jsonvtest.Parse(t, `{"x-dup":"two","X-DROP":null,"user-agent":"mine"}`))}}
	for _, tc := range []struct {
		d                                 dialect.Dialect
		dup, drop, gone, agent, apiClient string
	}{
		{dialect.V0_80, "one, two", "d", "g", "google-genai-sdk/1.52.0 gl-node/v22.23.3, mine", "google-genai-sdk/1.52.0 gl-node/v22.23.3"},
		{dialect.V1_6, "two", "", "g", "google-genai-sdk/2.32.0 gl-node/v22.23.3, mine", "google-genai-sdk/2.32.0 gl-node/v22.23.3"},
	} {
		for _, api := range []string{google.API, googlevertex.API} {
			m := model
			call, err := build(t, api, tc.d, &m, hi, opts)
			if err != nil {
				t.Fatal(err)
			}
			h := call.Header
			for name, want := range map[string]string{"x-dup": tc.dup, "x-drop": tc.drop, "x-gone": tc.gone, "user-agent": tc.agent, "x-goog-api-client": tc.apiClient} {
				if got := strings.Join(h.Values(name), ", "); got != want {
					t.Errorf("%s %s: %s = %q, want %q", api, tc.d, name, got, want)
				}
			}
		}
	}
	// Without a caller's user agent, 1.6's is Pi's own.
	m := ai.Model{ID: "gemini-2.5-pro"}
	call, err := build(t, google.API, dialect.V1_6, &m, hi, google.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := call.Header.Get("user-agent"); got != "pi/1.6.0 (linux; node/v22.23.3; x64)" {
		t.Errorf("1.6 user-agent = %q", got)
	}
}

// TestAnswerByDialect: how the same stream reads in each dialect, where
// 1.6 changed it (spec/wire-google.md, "In 1.6").
func TestAnswerByDialect(t *testing.T) {
	chunk := func(parts, finish, extra string) string {
		c := `{"candidates":[{"content":{"role":"model","parts":[` + parts + `]}`
		if finish != "" {
			c += `,"finishReason":"` + finish + `"`
		}
		return "data: " + c + `}]` + extra + "}\n\n"
	}
	text := chunk(`{"text":"a"}`, "", "")
	call := chunk(`{"functionCall":{"id":"c1","name":"f","args":{}}}`, "", "")
	usage := `,"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":3,"thoughtsTokenCount":2,"totalTokenCount":9}`
	type outcome struct{ stop, err, raw, reasoning string }
	for _, tc := range []struct {
		name, body string
		v080, v16  outcome
	}{
		{"no finish reason", text, outcome{stop: "stop"}, outcome{stop: "error", err: "NAME stream ended without a finish reason"}},
		{"stop", text + chunk("", "STOP", usage), outcome{stop: "stop"}, outcome{stop: "stop", raw: `"STOP"`, reasoning: "2"}},
		{"safety", text + chunk("", "SAFETY", ""), outcome{stop: "error", err: "An unknown error occurred"}, outcome{stop: "error", err: "Provider stopped with: SAFETY", raw: `"SAFETY"`}},
		{"safety after a tool call", call + chunk("", "SAFETY", ""), outcome{stop: "toolUse"}, outcome{stop: "error", err: "Provider stopped with: SAFETY", raw: `"SAFETY"`}},
		{"stop after a tool call", call + chunk("", "STOP", ""), outcome{stop: "toolUse"}, outcome{stop: "toolUse", raw: `"STOP"`}},
		{"too many tool calls", text + chunk("", "TOO_MANY_TOOL_CALLS", ""), outcome{stop: "error", err: "Unhandled stop reason: TOO_MANY_TOOL_CALLS"}, outcome{stop: "error", err: "Provider stopped with: TOO_MANY_TOOL_CALLS", raw: `"TOO_MANY_TOOL_CALLS"`}},
		{"continuation", text + chunk("", "CONTINUATION", ""), outcome{stop: "error", err: "Unhandled stop reason: CONTINUATION"}, outcome{stop: "length", raw: `"CONTINUATION"`}},
		{"error object in an event", text + `data: {"error":{"code":500,"message":"boom","status":"INTERNAL"}}` + "\n\n" + chunk("", "STOP", ""),
			outcome{stop: "stop"}, outcome{stop: "error", err: `got status: INTERNAL. {"error":{"code":500,"message":"boom","status":"INTERNAL"}}`}},
		{"error object with a string code", text + `data: {"error":{"code":"500","status":"INTERNAL"}}` + "\n\n" + chunk("", "STOP", ""),
			outcome{stop: "stop"}, outcome{stop: "stop", raw: `"STOP"`}},
	} {
		for _, api := range []struct {
			name string
			d    provider.Driver
		}{{"Google", google.Driver}, {"Google Vertex", googlevertex.Driver}} {
			for _, want := range []struct {
				d dialect.Dialect
				o outcome
			}{{dialect.V0_80, tc.v080}, {dialect.V1_6, tc.v16}} {
				model := &ai.Model{ID: "gemini-2.5-pro", API: api.d.API, Provider: "google", BaseURL: "http://h", Reasoning: true,
					Cost: ai.ModelCost{Input: jsonv.NumberValue("1"), Output: jsonv.NumberValue("1"), CacheRead: jsonv.NumberValue("0"), CacheWrite: jsonv.NumberValue("0")}}
				key := "k"
				var opts provider.Options = &google.Options{StreamOptions: provider.StreamOptions{APIKey: &key, Dialect: want.d}}
				if api.d.API == googlevertex.API {
					opts = &googlevertex.Options{Options: google.Options{StreamOptions: provider.StreamOptions{APIKey: &key, Dialect: want.d}}}
				}
				c, err := api.d.BuildRequest(model, &ai.Context{Messages: []ai.Message{&ai.UserMessage{Content: ai.Content{IsString: true, Text: "hi"}}}}, opts, capturetest.Clock)
				if err != nil {
					t.Fatal(err)
				}
				resp := &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(tc.body))}
				msg, _, err := c.Read(resp)
				if err != nil {
					t.Fatalf("%s %s %s: %v", tc.name, api.name, want.d, err)
				}
				got := outcome{stop: msg.StopReason, err: provider.OrEmpty(msg.ErrorMessage)}
				if !msg.RawStopReason.IsAbsent() {
					got.raw = string(msg.RawStopReason.AppendJSON(nil))
				}
				if !msg.Usage.Reasoning.IsAbsent() {
					got.reasoning = string(msg.Usage.Reasoning.AppendJSON(nil))
				}
				w := want.o
				w.err = strings.ReplaceAll(w.err, "NAME", api.name)
				if got != w {
					t.Errorf("%s %s %s: got %+v, want %+v", tc.name, api.name, want.d, got, w)
				}
			}
		}
	}
}

// TestGenAIRetry: which failed responses Pi 1.6 repeats around the Gen AI
// SDK, and how long it waits (no jitter).
func TestGenAIRetry(t *testing.T) {
	three := provider.StreamOptions{MaxRetries: jsonv.NumberValue("3")}
	if n := google.GenAIRetry.Retries(&three); n != 3 {
		t.Errorf("retries = %d, want 3", n)
	}
	if n := google.GenAIRetry.Retries(&provider.StreamOptions{}); n != 0 {
		t.Errorf("retries without maxRetries = %d, want 0", n)
	}
	for _, tc := range []struct {
		name   string
		status int
		ctype  string
		body   string
		header http.Header
		again  bool
	}{
		{"503", 503, "text/plain", "x", nil, true},
		{"429 with retry-after, which is not read", 429, "text/plain", "x", http.Header{"Retry-After": {"100"}}, true},
		{"408", 408, "text/plain", "x", nil, true},
		{"x-should-retry false is not read", 500, "text/plain", "x", http.Header{"X-Should-Retry": {"false"}}, true},
		{"400", 400, "text/plain", "x", nil, false},
		{"a JSON body that is no JSON", 503, "application/json", "nope", nil, false},
		{"a JSON body", 503, "application/json", `{"error":{}}`, nil, true},
		{"600 is no ApiError", 600, "text/plain", "x", nil, false},
	} {
		h := http.Header{"Content-Type": {tc.ctype}}
		for k, v := range tc.header {
			h[k] = v
		}
		resp := &http.Response{StatusCode: tc.status, Header: h}
		wait, again := google.GenAIRetry.After(1, resp, []byte(tc.body), &three, 0)
		if again != tc.again || again && wait != time.Second {
			t.Errorf("%s: After = %v, %v; want %v, 1s", tc.name, wait, again, tc.again)
		}
	}
	if _, again := google.GenAIRetry.After(0, nil, nil, &three, 0); again {
		t.Error("a request without an answer is repeated")
	}
}

// TestSimpleThinking16: streamSimple's thinkingConfig in dialect 1.6, as
// pi-ai 1.6.0 sent it for each model, thinkingLevelMap and level (both
// APIs but where noted).
func TestSimpleThinking16(t *testing.T) {
	for _, tc := range []struct {
		id, levelMap, level string // level as JSON
		want, vertex        string // vertex: when it differs
	}{
		{"gemini-2.5-pro", ``, `"minimal"`, `{"includeThoughts":true,"thinkingBudget":128}`, ""},
		{"gemini-2.5-pro", ``, `"xhigh"`, `{"includeThoughts":true,"thinkingBudget":32768}`, ""},
		{"gemini-2.5-pro", ``, `"max"`, `{"includeThoughts":true,"thinkingBudget":32768}`, ""},
		{"gemini-2.5-pro", ``, `"off"`, `{"thinkingBudget":0}`, ""},
		{"gemini-2.5-pro", ``, `5`, `{"thinkingBudget":0}`, ""},
		{"gemini-2.5-flash-lite", ``, `"minimal"`, `{"includeThoughts":true,"thinkingBudget":512}`, `{"includeThoughts":true,"thinkingBudget":128}`},
		{"gemini-3-pro-preview", ``, `"low"`, `{"includeThoughts":true,"thinkingLevel":"LOW"}`, ""},
		{"gemini-3-pro-preview", ``, `"medium"`, `{"includeThoughts":true,"thinkingLevel":"MEDIUM"}`, ""},
		{"gemini-4-argon", ``, `"low"`, `{"includeThoughts":true,"thinkingLevel":"LOW"}`, ""},
		{"gemma-4-27b-it", ``, `"minimal"`, `{"includeThoughts":true,"thinkingLevel":"MINIMAL"}`, ""},
		{"gemini-3-flash-preview", `{"xhigh":"high"}`, `"xhigh"`, `{"includeThoughts":true,"thinkingLevel":"HIGH"}`, ""},
		{"gemini-3-flash-preview", `{"max":"HIGH"}`, `"max"`, `{"includeThoughts":true,"thinkingLevel":"HIGH"}`, ""},
		{"gemini-2.5-pro", `{"low":"Medium"}`, `"low"`, `{"includeThoughts":true,"thinkingBudget":8192}`, ""},
		{"gemini-3-pro-preview", `{"off":null,"minimal":null}`, `"minimal"`, `{"includeThoughts":true,"thinkingLevel":"LOW"}`, ""},
		{"gemini-3-flash-preview", `{"medium":"ultra"}`, `"medium"`, `throws: Unsupported Google thinking level mapping for google/gemini-3-flash-preview: medium -> ultra`, ""},
	} {
		for _, d := range []provider.Driver{google.Driver, googlevertex.Driver} {
			model := &ai.Model{ID: tc.id, API: d.API, Provider: "google", BaseURL: "http://h", Reasoning: true}
			if tc.levelMap != "" {
				model.ThinkingLevelMap = jsonvtest.Parse(t, tc.levelMap)
			}
			key := "k"
			s := provider.SimpleOptions{StreamOptions: provider.StreamOptions{APIKey: &key, Dialect: dialect.V1_6}, Reasoning: jsonvtest.Parse(t, tc.level)}
			want := tc.want
			if d.API == googlevertex.API && tc.vertex != "" {
				want = tc.vertex
			}
			got := ""
			opts, err := d.FromSimple(model, s)
			if err == nil {
				var call *provider.Call
				call, err = d.BuildRequest(model, &ai.Context{Messages: []ai.Message{&ai.UserMessage{Content: ai.Content{IsString: true, Text: "hi"}}}}, opts, capturetest.Clock)
				if err == nil {
					got = at(call.Body, "/generationConfig/thinkingConfig")
				}
			}
			if err != nil {
				got = "throws: " + strings.TrimPrefix(err.Error(), "provider: ")
			}
			if !strings.HasSuffix(got, strings.TrimPrefix(want, "throws: ")) || strings.HasPrefix(want, "throws: ") != strings.HasPrefix(got, "throws: ") {
				t.Errorf("%s %s %s %s: %s, want %s", d.API, tc.id, tc.levelMap, tc.level, got, want)
			}
		}
	}
}

// TestGenAIRetryLateLimit: Pi 1.6 wraps the Gen AI SDK in its own loop,
// which reads maxRetries only after a failed attempt (a value with no
// number form sends the first request); 0.80 has no loop at all. Seen
// with pi-ai 1.6.0 and 0.80.2 in wire/google-lenient-max-retries-no-string-form.
func TestGenAIRetryLateLimit(t *testing.T) {
	if r := google.Client.At(dialect.V1_6).Retry; !r.LateLimit || r.Limit == nil {
		t.Errorf("1.6: Retry %+v, want Pi's loop, reading its limit late", r)
	}
	if r := googlevertex.Driver.At(dialect.V1_6).Retry; !r.LateLimit {
		t.Error("1.6 vertex: the limit is read before sending")
	}
	if r := google.Client.At(dialect.V0_80).Retry; r.Limit != nil {
		t.Error("0.80: a retry loop")
	}
}
