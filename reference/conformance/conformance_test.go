package conformance_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/protocol"
	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
)

// parse parses JSON text a test wrote, or fails the test.
var parse = jsonvtest.Parse

// fixedClock is the clock goldens are made with.
func fixedClock() jsonv.Value { return jsonv.NumberValue("1767225600000") }

var opts = conformance.Options{Now: fixedClock}

// offlineKinds are the kinds that need no server; wire cases talk to one.
var offlineKinds = []string{"convert", "cost", "normalize", "pipeline", "sanitize", "session"}

const model = `{"id":"claude-sonnet-4-5","name":"Claude Sonnet 4.5","api":"anthropic-messages","provider":"anthropic",` +
	`"baseUrl":"https://api.anthropic.com","reasoning":true,"input":["text","image"],` +
	`"cost":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75},"contextWindow":200000,"maxTokens":64000}`

const usage = `{"input":100,"output":20,"cacheRead":0,"cacheWrite":0,"totalTokens":120,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`

func TestKinds(t *testing.T) {
	kinds := conformance.Kinds()
	if !slices.IsSorted(kinds) {
		t.Errorf("Kinds() = %v, not sorted", kinds)
	}
	for _, k := range offlineKinds {
		if !slices.Contains(kinds, k) {
			t.Errorf("Kinds() = %v lacks %s", kinds, k)
		}
	}
	_, err := conformance.Handle("video", parse(t, `{}`), opts)
	if !errors.Is(err, conformance.ErrUnsupported) || !strings.Contains(err.Error(), `"video"`) {
		t.Errorf("unknown kind: %v", err)
	}
	_, err = conformance.Handle("", parse(t, `{}`), opts)
	if !errors.Is(err, conformance.ErrUnsupported) {
		t.Errorf("empty kind: %v", err)
	}
}

func TestHandle(t *testing.T) {
	for _, tc := range []struct {
		name, kind, in, want string
	}{
		{"convert", "convert", `{"messages":[{"role":"notification","text":"saved"},{"role":"bashExecution","command":"ls","output":"","exitCode":2,"cancelled":false,"truncated":false,"timestamp":1},{"role":"user","content":"q","timestamp":2,"x":1}]}`,
			"{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Ran `ls`\\n(no output)\\n\\nCommand exited with code 2\"}],\"timestamp\":1},{\"role\":\"user\",\"content\":\"q\",\"timestamp\":2,\"x\":1}]}"},
		{"convert empty", "convert", `{"messages":[],"extra":true}`, `{"messages":[]}`},
		// input.lenient: convertToLlm reads what Pi reads and passes the rest on.
		{"convert exitCode null", "convert", `{"messages":[{"role":"bashExecution","command":"ls","output":"","exitCode":null,"cancelled":false,"truncated":false}]}`,
			"{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Ran `ls`\\n(no output)\"}]}]}"},
		{"convert exitCode string", "convert", `{"messages":[{"role":"bashExecution","command":"ls","output":"","exitCode":"0","cancelled":false,"truncated":false}]}`,
			"{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Ran `ls`\\n(no output)\\n\\nCommand exited with code 0\"}]}]}"},
		{"convert unknown block passes", "convert", `{"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"video"}]}]}`,
			`{"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"video"}]}]}`},
		{"convert custom content number", "convert", `{"messages":[{"role":"custom","customType":"n","content":42,"display":true}]}`, `{"messages":[{"role":"user","content":42}]}`},
		{"convert no role dropped", "convert", `{"messages":[{"content":"x"},7,"s",[]]}`, `{"messages":[]}`},
		{"pipeline systemPrompt absent", "pipeline", `{"messages":[{"role":"user","content":"a"}]}`,
			`{"context":{"messages":[{"role":"user","content":"a"}]},"transcript":[{"role":"user","content":"a"}]}`},
		{"pipeline systemPrompt and tools of other types", "pipeline", `{"systemPrompt":null,"messages":[{"role":"user","content":"a"}],"tools":[{"name":"t","description":"d"},7]}`,
			`{"context":{"systemPrompt":null,"messages":[{"role":"user","content":"a"}],"tools":[{"name":"t","description":"d"},7]},"transcript":[{"role":"user","content":"a"}]}`},
		{"pipeline appended message passes", "pipeline", `{"systemPrompt":"","messages":[{"role":"user","content":"a"}],"transform":{"append":[{"role":"user"}]}}`,
			`{"context":{"systemPrompt":"","messages":[{"role":"user","content":"a"},{"role":"user"}]},"transcript":[{"role":"user","content":"a"}]}`},
		{"pipeline keepLast copies nothing back", "pipeline", `{"systemPrompt":"s","messages":[{"role":"custom","customType":"n","content":"c","display":false,"timestamp":1},{"role":"user","content":"q","timestamp":2}],"transform":{"keepLast":1}}`,
			`{"context":{"systemPrompt":"s","messages":[{"role":"user","content":"q","timestamp":2}]},"transcript":[{"role":"custom","customType":"n","content":"c","display":false,"timestamp":1},{"role":"user","content":"q","timestamp":2}]}`},
		{"pipeline convert fails", "pipeline", `{"systemPrompt":"s","messages":[{"role":"user","content":"q"}],"convert":{"fail":"no"}}`, `{"error":"no"}`},
		{"cost", "cost", `{"model":` + model + `,"usage":{"input":1000,"output":500,"cacheRead":2000,"cacheWrite":400,"cacheWrite1h":100,"totalTokens":3900,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}}`,
			`{"usage":{"input":1000,"output":500,"cacheRead":2000,"cacheWrite":400,"cacheWrite1h":100,"totalTokens":3900,"cost":{"input":0.003,"output":0.007500000000000001,"cacheRead":0.0006,"cacheWrite":0.001725,"total":0.012825}}}`},
		{"sanitize", "sanitize", `{"text":"Text \ud83d here \ud83d\ude48 \ude48"}`, `{"text":"Text  here 🙈 "}`},
		{"sanitize empty", "sanitize", `{"text":""}`, `{"text":""}`},
		{"normalize synthetic result", "normalize", `{"messages":[{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"read","arguments":{}}],` +
			`"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":` + usage + `,"stopReason":"toolUse","timestamp":1},` +
			`{"role":"user","content":"stop","timestamp":3}],"model":` + model + `}`,
			`{"messages":[{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"read","arguments":{}}],` +
				`"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":` + usage + `,"stopReason":"toolUse","timestamp":1},` +
				`{"role":"toolResult","toolCallId":"t1","toolName":"read","content":[{"type":"text","text":"No result provided"}],"isError":true,"timestamp":1767225600000},` +
				`{"role":"user","content":"stop","timestamp":3}]}`},
		{"normalize foreign role carried", "normalize", `{"messages":[{"role":"notification","text":"x"}],"model":` + model + `}`,
			`{"messages":[{"role":"notification","text":"x"}]}`},
		{"normalize with normalizer", "normalize", `{"messages":[{"role":"assistant","content":[{"type":"toolCall","id":"call|AB+/=","name":"read","arguments":{}}],` +
			`"api":"openai-responses","provider":"openai","model":"gpt-5","usage":` + usage + `,"stopReason":"toolUse","timestamp":1}],` +
			`"model":` + model + `,"toolCallIdNormalizer":{"replace":"[^a-zA-Z0-9_-]","with":"_","maxLength":6}}`,
			`{"messages":[{"role":"assistant","content":[{"type":"toolCall","id":"call_A","name":"read","arguments":{}}],` +
				`"api":"openai-responses","provider":"openai","model":"gpt-5","usage":` + usage + `,"stopReason":"toolUse","timestamp":1},` +
				`{"role":"toolResult","toolCallId":"call_A","toolName":"read","content":[{"type":"text","text":"No result provided"}],"isError":true,"timestamp":1767225600000}]}`},
		// slice(0, n) for any n JavaScript accepts: huge keeps all, negative counts from the end.
		{"normalizer maxLength huge", "normalize", `{"messages":[{"role":"assistant","content":[{"type":"toolCall","id":"abc","name":"r","arguments":{}}],` +
			`"api":"x","provider":"x","model":"x","usage":` + usage + `,"stopReason":"stop"}],` +
			`"model":` + model + `,"toolCallIdNormalizer":{"replace":"z","with":"","maxLength":1e20}}`,
			`{"messages":[{"role":"assistant","content":[{"type":"toolCall","id":"abc","name":"r","arguments":{}}],"api":"x","provider":"x","model":"x","usage":` + usage + `,"stopReason":"stop"},` +
				`{"role":"toolResult","toolCallId":"abc","toolName":"r","content":[{"type":"text","text":"No result provided"}],"isError":true,"timestamp":1767225600000}]}`},
		{"normalizer maxLength negative", "normalize", `{"messages":[{"role":"assistant","content":[{"type":"toolCall","id":"abc","name":"r","arguments":{}}],` +
			`"api":"x","provider":"x","model":"x","usage":` + usage + `,"stopReason":"stop"}],` +
			`"model":` + model + `,"toolCallIdNormalizer":{"replace":"z","with":"","maxLength":-1}}`,
			`{"messages":[{"role":"assistant","content":[{"type":"toolCall","id":"ab","name":"r","arguments":{}}],"api":"x","provider":"x","model":"x","usage":` + usage + `,"stopReason":"stop"},` +
				`{"role":"toolResult","toolCallId":"ab","toolName":"r","content":[{"type":"text","text":"No result provided"}],"isError":true,"timestamp":1767225600000}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := parse(t, tc.in)
			before := in.String()
			out, err := conformance.Handle(tc.kind, in, opts)
			if err != nil {
				t.Fatal(err)
			}
			want := parse(t, tc.want)
			if !jsonv.Equal(out, want) {
				t.Errorf("output:\n got %s\nwant %s", out, want)
			}
			if in.String() != before {
				t.Errorf("Handle changed its input")
			}
		})
	}
}

// TestHandleErrors: input.strict through Handle, with pointers relative to
// the input.
func TestHandleErrors(t *testing.T) {
	for _, tc := range []struct {
		kind, in, want string
	}{
		{"convert", `null`, `/: want an object, got null`},
		{"convert", `[]`, `/: want an object, got array`},
		{"sanitize", `"text"`, `/: want an object, got string`},
		{"cost", `[]`, `/: want an object, got array`},
		{"normalize", `{"messages":[],"model":` + model + `,"toolCallIdNormalizer":{"with":""}}`, `/toolCallIdNormalizer/replace: missing required string`},
		{"normalize", `{"messages":[],"model":` + model + `,"toolCallIdNormalizer":{"replace":"a","with":1}}`, `/toolCallIdNormalizer/with: want string, got number`},
		{"normalize", `{"messages":[],"model":` + model + `,"toolCallIdNormalizer":{"replace":"a","with":"","maxLength":"3"}}`, `/toolCallIdNormalizer/maxLength: want number, got string`},
		{"normalize", `{"messages":[],"model":` + model + `,"toolCallIdNormalizer":[]}`, `/toolCallIdNormalizer: want object, got array`},
		{"normalize", `{"messages":[],"model":` + model + `,"toolCallIdNormalizer":{"replace":"(","with":""}}`, `/toolCallIdNormalizer/replace: `},
		{"pipeline", `{"systemPrompt":"","messages":"x"}`, `/messages: want an array of messages, got string`},
		{"pipeline", `{"systemPrompt":"","messages":[{"role":"user","content":"a"}],"transform":{}}`, `/transform: want exactly one of append, keepLast, fail; got 0 members`},
		{"pipeline", `{"systemPrompt":"","messages":[{"role":"user","content":"a"}],"transform":{"keepLast":-1}}`, `/transform/keepLast: want a non-negative integer, got -1`},
		{"pipeline", `{"systemPrompt":"","messages":[{"role":"user","content":"a"}],"transform":{"keepLast":1.5}}`, `/transform/keepLast: want a non-negative integer, got 1.5`},
		{"pipeline", `{"systemPrompt":"","messages":[{"role":"user","content":"a"}],"transform":{"drop":1}}`, `/transform/drop: unknown transform "drop"; want append, keepLast or fail`},
		{"pipeline", `{"systemPrompt":"","messages":[{"role":"user","content":"a"}],"convert":"llm"}`, `/convert: unknown convert "llm"; want coding-agent or default`},
		{"pipeline", `{"systemPrompt":"","messages":[{"role":"user","content":"a"}],"convert":{"fail":1}}`, `/convert/fail: want string, got number`},
		{"pipeline", `{"systemPrompt":"","messages":[{"role":"user","content":"a"}],"convert":{"fail":"x","also":1}}`, `/convert/also: unknown member; want only fail`},
		{"pipeline", `{"systemPrompt":"","messages":[{"role":"user","content":"a"}],"convert":1}`, `/convert: want a string or an object, got number`},
	} {
		t.Run(tc.kind+" "+tc.want, func(t *testing.T) {
			out, err := conformance.Handle(tc.kind, parse(t, tc.in), opts)
			if err == nil {
				t.Fatalf("no error; output %s", out)
			}
			var pe *jsonv.PathError
			if !errors.As(err, &pe) {
				t.Errorf("error %T is not a *jsonv.PathError: %v", err, err)
			}
			if got := err.Error(); got != tc.want && !(strings.HasSuffix(tc.want, ": ") && strings.HasPrefix(got, tc.want)) {
				t.Errorf("error:\n got %s\nwant %s", got, tc.want)
			}
			if !out.IsAbsent() {
				t.Errorf("output %s came with the error", out)
			}
		})
	}
}

// withoutRuntimeTexts is a golden without the list of its runtime texts,
// which is no part of the output (the harness's compare.SplitGolden).
func withoutRuntimeTexts(golden jsonv.Value) jsonv.Value {
	if golden.Kind() != jsonv.Object {
		return golden
	}
	var out []jsonv.Member
	for _, m := range golden.Members() {
		if m.Key != "runtimeTexts" {
			out = append(out, m)
		}
	}
	return jsonv.ObjectValue(out...)
}

// throwsCategory is an expected failure without its message; any other
// output as it is.
func throwsCategory(out jsonv.Value) jsonv.Value {
	th, ok := out.Get("throws")
	if !ok || out.Kind() != jsonv.Object {
		return out
	}
	cat, _ := th.Get("category")
	return jsonv.ObjectValue(jsonv.Member{Key: "throws", Value: jsonv.ObjectValue(jsonv.Member{Key: "category", Value: cat})})
}

// TestHandleGoldens runs the suite's offline cases through Handle with the
// goldens' clock, in every dialect each case holds in (its since and
// until), and compares with that dialect's golden (the newest overlay
// golden/@<d>/ at or before it, else the base) exactly.
func TestHandleGoldens(t *testing.T) {
	n := 0
	for _, kind := range offlineKinds {
		files, err := filepath.Glob(filepath.Join("..", "..", "fixtures", kind, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			c := readJSON(t, file)
			input, _ := c.Get("input")
			input = expandPreset(t, input)
			id, _ := c.Get("id")
			for _, d := range caseDialects(t, c) {
				if d != dialect.V0_80 && !slices.Contains(dialectKinds, kind) {
					continue
				}
				o := opts
				o.Dialect = d
				got, err := conformance.Handle(kind, input, o)
				if err != nil {
					t.Errorf("%s (%s): %v", file, d, err)
					continue
				}
				file := goldenFile(d, id.Str())
				want := withoutRuntimeTexts(readJSON(t, file))
				own := d == dialect.V0_80 || file == filepath.Join("..", "..", "golden", "@"+d.String(), id.Str()+".json")
				if !own {
					// A golden of an older dialect: the expected failure's
					// message is the reference's own words, which the
					// kinds compare only as a string (and so no overlay
					// holds another).
					got, want = throwsCategory(got), throwsCategory(want)
				}
				if !jsonv.Equal(got, want) {
					t.Errorf("%s (%s): output differs from its golden:\n got %s\nwant %s", id.Str(), d, got, want)
				}
				n++
			}
		}
	}
	if n < 50 {
		t.Errorf("only %d cases ran", n)
	}
}

// expandPreset expands a model preset of fixtures/models.json the way the
// harness does when it loads a suite (a shallow merge): the reference only
// ever sees full models.
func expandPreset(t testing.TB, input jsonv.Value) jsonv.Value {
	t.Helper()
	model, _ := input.Get("model")
	name, ok := model.Get("preset")
	if !ok {
		return input
	}
	presets, _ := readJSON(t, filepath.Join("..", "..", "fixtures", "models.json")).Get("models")
	base, ok := presets.Get(name.Str())
	if !ok {
		t.Fatalf("no model preset %s in fixtures/models.json", name)
	}
	members := slices.Clone(base.Members())
	for _, o := range model.Members() {
		if o.Key == "preset" {
			continue
		}
		if i := slices.IndexFunc(members, func(m jsonv.Member) bool { return m.Key == o.Key }); i >= 0 {
			members[i].Value = o.Value
		} else {
			members = append(members, o)
		}
	}
	out := slices.Clone(input.Members())
	for i := range out {
		if out[i].Key == "model" {
			out[i].Value = jsonv.ObjectValue(members...)
		}
	}
	return jsonv.ObjectValue(out...)
}

func readJSON(t testing.TB, file string) jsonv.Value {
	t.Helper()
	v, err := jsonv.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// ---- Serve -------------------------------------------------------------------------------

func serve(t *testing.T, in string) ([]jsonv.Value, error) {
	t.Helper()
	var out bytes.Buffer
	err := conformance.Serve(strings.NewReader(in), &out, "9.9.9", opts)
	var frames []jsonv.Value
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		frames = append(frames, parse(t, sc.Text()))
	}
	if !strings.HasSuffix(out.String(), "\n") && out.Len() > 0 {
		t.Errorf("output does not end in a newline: %q", out.String())
	}
	return frames, err
}

func TestServe(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"hello","protocol":1}`,
		`{"type":"run","seq":1,"case":{"id":"sanitize/x","kind":"sanitize","input":{"text":"a\ud83d"}}}`,
		`{"type":"run","seq":2,"case":{"id":"convert/x","kind":"convert","input":{"messages":[{"role":"custom","customType":"n","content":"\ud83d","display":false,"timestamp":5}]}}}`,
		`{"type":"run","seq":3,"case":{"id":"convert/bad","kind":"convert","input":{"messages":[null]}}}`,
		`{"type":"run","seq":4,"case":{"id":"video/x","kind":"video","input":{}}}`,
		`{"type":"run","seq":5,"case":{"id":"cost/x","kind":"cost","input":{"model":` + model + `,"usage":` + usage + `}}}`,
		"\t{\"type\":\"run\",\"seq\":6,\"case\":{\"id\":\"sanitize/y\",\"kind\":\"sanitize\",\"input\":{\"text\":\"\\u2028\"}}}\r",
		`{"type":"run","seq":8,"case":{"id":"sanitize/z","kind":"sanitize","dialect":"1.6","input":{"text":"b"}}}`,
		`{"type":"run","seq":9,"case":{"id":"sanitize/z","kind":"sanitize","dialect":"9.9","input":{"text":"b"}}}`,
		`{"type":"bye"}`,
		`{"type":"run","seq":7,"case":{"kind":"sanitize","input":{"text":"after bye"}}}`,
	}, "\n") + "\n"
	frames, err := serve(t, in)
	if err != nil {
		t.Fatalf("Serve: %v", err)
	}
	want := []string{
		`{"type":"hello","protocol":1,"implementation":{"name":"piconform-reference","version":"9.9.9","language":"go","kinds":KINDS,"apis":APIS,"dialects":["0.80","1.6"]}}`,
		`{"type":"result","seq":1,"output":{"text":"a"}}`,
		`{"type":"result","seq":2,"output":{"messages":[{"role":"user","content":[{"type":"text","text":"\ud83d"}],"timestamp":5}]}}`,
		`{"type":"result","seq":3,"output":{"throws":{"category":"type-error","message":"Cannot read properties of null (reading 'role')"}}}`,
		`{"type":"skip","seq":4,"reason":"unsupported case kind \"video\""}`,
		`{"type":"result","seq":5,"output":{"usage":{"input":100,"output":20,"cacheRead":0,"cacheWrite":0,"totalTokens":120,"cost":{"input":0.00030000000000000003,"output":0.00030000000000000003,"cacheRead":0,"cacheWrite":0,"total":0.0006000000000000001}}}}`, // Node 22
		"{\"type\":\"result\",\"seq\":6,\"output\":{\"text\":\"\u2028\"}}",
		`{"type":"result","seq":8,"output":{"text":"b"}}`,
		`{"type":"skip","seq":9,"reason":"unknown dialect \"9.9\"; known dialects: 0.80, 1.6"}`,
	}
	kinds := jsonv.ArrayValue()
	for _, k := range conformance.Kinds() {
		kinds = jsonv.ArrayValue(append(kinds.Elems(), jsonv.StringValue(k))...)
	}
	apis := jsonv.ArrayValue()
	for _, a := range conformance.APIs() {
		apis = jsonv.ArrayValue(append(apis.Elems(), jsonv.StringValue(a))...)
	}
	want[0] = strings.NewReplacer("KINDS", kinds.String(), "APIS", apis.String()).Replace(want[0])
	var got []string
	for _, f := range frames {
		got = append(got, f.String())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("frames (-want +got):\n%s", diff)
	}
}

func TestServeEnds(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		frames   int
		wantErr  string // "" for a clean end
	}{
		{"eof", `{"type":"hello","protocol":1}` + "\n", 1, ""},
		{"eof without newline", `{"type":"hello","protocol":1}`, 1, ""},
		{"nothing", ``, 0, ""},
		{"bye", `{"type":"bye"}` + "\n" + `{"type":"hello"}`, 0, ""},
		{"blank lines", "\n  \n" + `{"type":"hello","protocol":1}` + "\n\n", 1, ""},
		{"not json", `{"type":"hello","protocol":1}` + "\nnot json\n", 1, "adapterkit: reading a frame: line 1 column 1"},
		{"hello without protocol", `{"type":"hello"}` + "\n", 0, "adapterkit: reading a frame: /protocol: missing required number"},
		{"unknown frame", `{"type":"ping"}` + "\n", 0, `adapterkit: reading a frame: /type: unknown frame type "ping"`},
		{"an answer frame", `{"type":"result","seq":1,"output":{}}` + "\n", 0, `adapterkit: unexpected result frame from the runner`},
		{"not an object", `[1]` + "\n", 0, `adapterkit: reading a frame: /: want an object, got array`},
		{"type not a string", `{"type":true}` + "\n", 0, `adapterkit: reading a frame: /type: want string, got boolean`},
		{"run without seq", `{"type":"run","case":{"id":"a/b","kind":"sanitize","input":{"text":""}}}` + "\n", 0, `adapterkit: reading a frame: /seq: missing required number`},
		{"run with seq 0", `{"type":"run","seq":0,"case":{"id":"a/b","kind":"sanitize","input":{"text":""}}}` + "\n", 0, `adapterkit: reading a frame: /seq: want a positive integer, got 0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			frames, err := serve(t, tc.in)
			if len(frames) != tc.frames {
				t.Errorf("%d frames, want %d", len(frames), tc.frames)
			}
			if tc.wantErr == "" {
				if err != nil {
					t.Errorf("Serve: %v", err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
				t.Errorf("Serve error = %v, want %s…", err, tc.wantErr)
			}
		})
	}
}

// TestServeRunFrameShapes: a run frame with a usable seq but missing parts
// still gets an answer that echoes its seq, never a crash; a case's input of
// the wrong shape is an input error at /input, as in process.
func TestServeRunFrameShapes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"type":"run","seq":1}`, `{"type":"error","seq":1,"message":"adapterkit: malformed run frame: /case: missing required object"}`},
		{`{"type":"run","seq":2,"case":{"id":"a/b","kind":"sanitize"}}`, `{"type":"error","seq":2,"message":"/input: want an object, got nothing"}`},
		{`{"type":"run","seq":3,"case":"x"}`, `{"type":"error","seq":3,"message":"adapterkit: malformed run frame: /case: want object, got string"}`},
		{`{"type":"run","seq":4,"case":{"id":"a/b","kind":7,"input":{}}}`, `{"type":"error","seq":4,"message":"adapterkit: malformed run frame: /case/kind: want string, got number"}`},
		{`{"type":"run","seq":5,"case":{"kind":"sanitize","input":{"text":""}}}`, `{"type":"error","seq":5,"message":"adapterkit: malformed run frame: /case/id: missing required string"}`},
		{`{"type":"run","seq":6.0,"case":{"id":"a/b","kind":"sanitize","input":{"text":""}}}`, `{"type":"result","seq":6,"output":{"text":""}}`},
		{`{"type":"run","seq":7,"case":{"id":"a/b","kind":"sanitize","input":[]}}`, `{"type":"error","seq":7,"message":"/input: want an object, got array"}`},
	} {
		frames, err := serve(t, tc.in+"\n")
		if err != nil || len(frames) != 1 {
			t.Errorf("%s: %d frames, %v", tc.in, len(frames), err)
			continue
		}
		if got := frames[0].String(); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s:\n got %s\nwant %s…", tc.in, got, tc.want)
		}
	}
}

// TestServeAnswersEachFrameAtOnce: every answer is flushed before the next
// frame is read, so a runner that waits for it does not deadlock.
func TestServeAnswersEachFrameAtOnce(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- conformance.Serve(inR, outW, "v", opts)
		outW.Close()
	}()
	answers := bufio.NewScanner(outR)
	for i, frame := range []string{`{"type":"hello","protocol":1}`, `{"type":"run","seq":1,"case":{"id":"sanitize/x","kind":"sanitize","input":{"text":"x"}}}`} {
		if _, err := io.WriteString(inW, frame+"\n"); err != nil {
			t.Fatal(err)
		}
		if !answers.Scan() {
			t.Fatalf("no answer to frame %d: %v", i, answers.Err())
		}
	}
	io.WriteString(inW, `{"type":"bye"}`+"\n")
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	inW.Close()
	if answers.Scan() {
		t.Errorf("an answer to bye: %s", answers.Text())
	}
}

// TestNormalizeExpectedFailures: the inputs on which transformMessages
// throws (input.throws, item 4) give the expected failure, a type-error,
// with the reference's description of where.
func TestNormalizeExpectedFailures(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"messages":[],"model":{}}`, `/model/input: want an array or a string, got absent`},
		{`{"messages":[]}`, `/model: want an object, got nothing`},
		{`{"messages":[{"role":"assistant"}],"model":` + model + `}`, `/messages/0/content: missing required array`},
		{`{"messages":[{"role":1},null],"model":` + model + `}`, `/messages/1: want an object, got null`},
		{`{"messages":[{"role":"assistant","content":[null],"stopReason":"error"}],"model":` + model + `}`, `/messages/0/content/0: want a block, got null`},
		{`{"messages":[{"role":"assistant","content":[[{"type":"text","text":"a"},null]],"stopReason":"stop"}],"model":` + model + `}`, `/messages/0/content/0/1: want a block, got null`},
		{`{"messages":[{"role":"user","content":[null]}],"model":{"input":["text"]}}`, `/messages/0/content/0: want a block, got null`},
		{`{"messages":[{"role":"toolResult","content":[{"type":"image"},null]}],"model":{"input":"text"}}`, `/messages/0/content/1: want a block, got null`},
		{`{"messages":[{"role":"toolResult","content":{}}],"model":{"input":[]}}`, `/messages/0/content: want an array or a string to iterate, got object`},
		{`{"messages":[{"role":"toolResult"}],"model":{"input":[]}}`, `/messages/0/content: want an array or a string to iterate, got absent`},
		{`{"messages":[],"model":null}`, `/model: want an object, got null`},
		{`{"messages":{},"model":` + model + `}`, `/messages: want an array of messages, got object`},
	} {
		t.Run(tc.want, func(t *testing.T) {
			out, err := conformance.Handle("normalize", parse(t, tc.in), opts)
			if err != nil {
				t.Fatalf("error %v, want the expected failure", err)
			}
			if want := protocol.Throws("type-error", tc.want); !jsonv.Equal(out, want) {
				t.Errorf("output:\n got %s\nwant %s", out, want)
			}
		})
	}
}

// TestPipelineLoopThrows: where Pi's agent loop throws before its request,
// the output is {"error"} with the thrown message (Pi's own words, V8's for
// a TypeError), as for a failing hook. Each was run through the real Pi.
func TestPipelineLoopThrows(t *testing.T) {
	user := `{"role":"user","content":"a","timestamp":1}`
	noString := `{"role":"branchSummary","summary":{"toString":1},"fromId":"x","timestamp":1}`
	same := ""
	for _, tc := range []struct{ in, want, in16 string }{ // in16: the message in 1.6 (same: as in 0.80)
		{`{"systemPrompt":"","messages":[]}`, "Cannot continue: no messages in context", same},
		{`{"systemPrompt":"","messages":[` + user + `,{"role":"assistant","content":[],"api":"x","provider":"x","model":"x","usage":` + usage + `,"stopReason":"stop"}]}`, "Cannot continue from message role: assistant", same},
		{`{"systemPrompt":"","messages":[` + user + `,null]}`, "Cannot read properties of null (reading 'role')", same},
		{`{"systemPrompt":"","messages":[null,` + user + `]}`, "Cannot read properties of null (reading 'role')", same},
		{`{"systemPrompt":"","messages":[null,` + user + `],"convert":"default"}`, "Cannot read properties of null (reading 'role')", same},
		{`{"systemPrompt":"","messages":[` + noString + `,null,` + user + `]}`, "Cannot convert object to primitive value", "Cannot read properties of null (reading 'role')"},
		{`{"systemPrompt":"","messages":[` + noString + `]}`, "Cannot convert object to primitive value", same},
		{`{"systemPrompt":"","messages":[` + user + `],"transform":{"append":[null]}}`, "Cannot read properties of null (reading 'role')", same},
	} {
		for _, d := range []dialect.Dialect{dialect.V0_80, dialect.V1_6} {
			want := tc.want
			if d == dialect.V1_6 && tc.in16 != same {
				want = tc.in16 // 1.6 reads every role first, to find the tools declared
			}
			t.Run(d.String()+" "+tc.in, func(t *testing.T) {
				out, err := conformance.Handle("pipeline", parse(t, tc.in), conformance.Options{Dialect: d, Now: opts.Now})
				if err != nil {
					t.Fatalf("error %v, want {\"error\"}", err)
				}
				if want := object(t, "error", want); !jsonv.Equal(out, want) {
					t.Errorf("output:\n got %s\nwant %s", out, want)
				}
			})
		}
	}
}

func object(t *testing.T, key, value string) jsonv.Value {
	t.Helper()
	return jsonv.ObjectValue(jsonv.Member{Key: key, Value: jsonv.StringValue(value)})
}

// TestExpectedFailures: where Pi's function throws, the output is the
// expected failure (its category and V8's text) and not an input error.
// Each input was run through the real Pi (Node 22), which threw a
// TypeError; the texts are V8's.
func TestExpectedFailures(t *testing.T) {
	same := ""
	for _, tc := range []struct {
		kind, in   string
		want, in16 string // the message in 0.80 and in 1.6 (same: as in 0.80); the category is type-error
	}{
		{"cost", `{"model":` + model + `}`, "Cannot read properties of undefined (reading 'cacheWrite1h')", "Cannot read properties of undefined (reading 'input')"},
		{"cost", `{"model":` + model + `,"usage":null}`, "Cannot read properties of null (reading 'cacheWrite1h')", "Cannot read properties of null (reading 'input')"},
		{"cost", `{"usage":` + usage + `}`, "Cannot read properties of undefined (reading 'cost')", same},
		{"cost", `{"model":null,"usage":` + usage + `}`, "Cannot read properties of null (reading 'cost')", same},
		{"cost", `{"model":[],"usage":` + usage + `}`, "Cannot read properties of undefined (reading 'input')", "Cannot read properties of undefined (reading 'tiers')"},
		{"cost", `{"model":"m","usage":` + usage + `}`, "Cannot read properties of undefined (reading 'input')", "Cannot read properties of undefined (reading 'tiers')"},
		{"cost", `{"model":{"cost":null},"usage":` + usage + `}`, "Cannot read properties of null (reading 'input')", "Cannot read properties of null (reading 'tiers')"},
		{"cost", `{"model":{},"usage":` + usage + `}`, "Cannot read properties of undefined (reading 'input')", "Cannot read properties of undefined (reading 'tiers')"},
		{"cost", `{"model":` + model + `,"usage":{"input":1}}`, "Cannot set properties of undefined (setting 'input')", same},
		{"cost", `{"model":` + model + `,"usage":{"input":1,"cost":null}}`, "Cannot set properties of null (setting 'input')", same},
		{"cost", `{"model":` + model + `,"usage":{"input":1,"cost":"x"}}`, "Cannot create property 'input' on string 'x'", same},
		{"cost", `{"model":` + model + `,"usage":{"input":1,"cost":7}}`, "Cannot create property 'input' on number '7'", same},
		{"cost", `{"model":` + model + `,"usage":{"input":1,"cost":true}}`, "Cannot create property 'input' on boolean 'true'", same},
		{"cost", `{"model":` + model + `,"usage":"u"}`, "Cannot set properties of undefined (setting 'input')", same},
		{"cost", `{"model":` + model + `,"usage":{"input":{"toString":1},"cost":{}}}`, "Cannot convert object to primitive value", same},
		{"convert", `{}`, "Cannot read properties of undefined (reading 'map')", same},
		{"convert", `{"messages":null}`, "Cannot read properties of null (reading 'map')", same},
		{"convert", `{"messages":{}}`, "messages.map is not a function", same},
		{"convert", `{"messages":"x"}`, "messages.map is not a function", same},
		{"convert", `{"messages":[{"role":"user","content":"a"},null]}`, "Cannot read properties of null (reading 'role')", same},
		{"convert", `{"messages":[{"role":"branchSummary","summary":{"toString":1}},null]}`, "Cannot convert object to primitive value", same},
		{"convert", `{"messages":[null,{"role":"branchSummary","summary":{"toString":1}}]}`, "Cannot read properties of null (reading 'role')", same},
		{"convert", `{"messages":[{"role":"bashExecution","command":[{"toString":1}],"output":""}]}`, "Cannot convert object to primitive value", same},
		{"session", `{}`, "Cannot read properties of undefined (reading 'trim')", same},
		{"session", `{"text":null}`, "Cannot read properties of null (reading 'trim')", same},
		{"session", `{"text":["a"]}`, "content.trim is not a function", same},
		{"sanitize", `{"text":1}`, "text.replace is not a function", same},
		{"sanitize", `{"text":["a"]}`, "text.replace is not a function", same},
		{"sanitize", `{}`, "Cannot read properties of undefined (reading 'replace')", same},
		{"sanitize", `{"text":null}`, "Cannot read properties of null (reading 'replace')", same},
	} {
		for _, d := range []dialect.Dialect{dialect.V0_80, dialect.V1_6} {
			want := tc.want
			if d == dialect.V1_6 && tc.in16 != same {
				want = tc.in16
			}
			t.Run(tc.kind+" "+d.String()+" "+tc.in, func(t *testing.T) {
				out, err := conformance.Handle(tc.kind, parse(t, tc.in), conformance.Options{Dialect: d})
				if err != nil {
					t.Fatalf("error %v, want the expected failure", err)
				}
				if want := protocol.Throws("type-error", want); !jsonv.Equal(out, want) {
					t.Errorf("output:\n got %s\nwant %s", out, want)
				}
			})
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestServeWriteError(t *testing.T) {
	err := conformance.Serve(strings.NewReader(`{"type":"hello","protocol":1}`+"\n"), failingWriter{}, "v", opts)
	if err == nil || !strings.Contains(err.Error(), "broken pipe") {
		t.Errorf("Serve = %v, want the write error", err)
	}
}

// TestAnswer: the answer both faces give. A kind or API the reference lacks
// is a skip, an input error names its place under /input.
func TestAnswer(t *testing.T) {
	ctx := context.Background()
	wireInput := `{"baseUrl":"http://127.0.0.1:1","model":` + strings.Replace(model, `"anthropic-messages"`, `"nope"`, 1) + `,"context":{"messages":[]}}`
	for _, tc := range []struct {
		kind, in string
		want     protocol.Answer
	}{
		{"sanitize", `{"text":"a\ud83d"}`, protocol.Result(parse(t, `{"text":"a"}`))},
		{"video", `{}`, protocol.Skip(`unsupported case kind "video"`, "")},
		{"wire", wireInput, protocol.Skip(`unsupported API "nope"`, "")},
		{"sanitize", `{"text":1}`, protocol.Result(protocol.Throws("type-error", "text.replace is not a function"))},
		{"convert", `7`, protocol.Error("/input: want an object, got number")},
	} {
		got := conformance.Answer(ctx, protocol.Case{ID: tc.kind + "/x", Kind: tc.kind, Input: parse(t, tc.in)}, opts)
		if diff := cmp.Diff(tc.want, got, cmp.Comparer(jsonv.Equal)); diff != "" {
			t.Errorf("Answer(%s, %s) (-want +got):\n%s", tc.kind, tc.in, diff)
		}
	}
}

// TestUserAgentOnTheWire: the user-agent Pi's request holds reaches the
// server as it is, an empty one too, and a request whose user-agent a
// caller's null removed holds none of its own: the server gets net/http's
// default, as it gets Node's from Pi (wire.request.runtime-user-agent).
func TestUserAgentOnTheWire(t *testing.T) {
	for _, tt := range []struct {
		name, header string
		want         []string // the User-Agent values the server got
	}{
		{"the SDK's", `{}`, []string{"Anthropic/JS 0.91.1"}},
		{"the caller's", `{"User-Agent":"mine/1"}`, []string{"mine/1"}},
		{"empty", `{"User-Agent":""}`, []string{""}},
		{"removed", `{"user-agent":null}`, []string{"Go-http-client/1.1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			var seen bool
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got, seen = r.Header.Values("User-Agent"), true
				w.WriteHeader(http.StatusBadRequest)
			}))
			defer srv.Close()
			in := `{"baseUrl":"` + srv.URL + `","apiKey":"k","model":` + model +
				`,"context":{"messages":[{"role":"user","content":"hi","timestamp":1}]},"options":{"maxRetries":0,"headers":` + tt.header + `}}`
			if _, err := conformance.Handle("wire", parse(t, in), opts); err != nil {
				t.Fatal(err)
			}
			if !seen {
				t.Fatal("no request reached the server")
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("User-Agent (-want +got):\n%s", diff)
			}
		})
	}
}

// dialectKinds are the offline kinds whose later dialects this test checks
// too; cost joins once its 1.6 goldens are made.
var dialectKinds = []string{"convert", "normalize", "pipeline", "sanitize", "session"}

// caseDialects are the dialects a case holds in: from its since (else the
// oldest) to its until (else the newest).
func caseDialects(t *testing.T, c jsonv.Value) []dialect.Dialect {
	t.Helper()
	var out []dialect.Dialect
	since, until := dialect.Dialect(0), dialect.Latest
	for key, at := range map[string]*dialect.Dialect{"since": &since, "until": &until} {
		if v, ok := c.Get(key); ok {
			d, err := dialect.Parse(v.Str())
			if err != nil {
				t.Fatal(err)
			}
			*at = d
		}
	}
	for _, d := range dialect.All() {
		if d >= since && d <= until {
			out = append(out, d)
		}
	}
	return out
}

// goldenFile is a case's golden for dialect d: the newest overlay at or
// before d, else the base.
func goldenFile(d dialect.Dialect, id string) string {
	for ; d > 0; d-- {
		f := filepath.Join("..", "..", "golden", "@"+d.String(), id+".json")
		if _, err := os.Stat(f); err == nil {
			return f
		}
	}
	return filepath.Join("..", "..", "golden", id+".json")
}
