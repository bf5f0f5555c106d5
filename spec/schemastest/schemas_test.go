// Package schemastest checks the JSON Schemas in spec/schemas: that they
// compile, and that every case file under fixtures/ and every golden file
// under golden/ satisfies them.
package schemastest

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// baseURL is the prefix of every schema's $id; the rest is the file's path
// under spec/schemas.
const baseURL = BaseURL

const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// The test runs in spec/schemastest, two levels below the repository root.
var (
	repoRoot    = filepath.Join("..", "..")
	schemaDir   = filepath.Join(repoRoot, "spec", "schemas")
	fixturesDir = filepath.Join(repoRoot, "fixtures")
	goldenDir   = filepath.Join(repoRoot, "golden")
)

// offline refuses every URL: all schemas are registered from disk, so a
// reference that is not among them must fail instead of reaching a network.

// readJSON decodes one JSON document, keeping numbers as json.Number.
func readJSON(file string) (any, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(data))
}

// jsonFiles lists the .json files under dir, sorted, with their slash
// separated path relative to dir. A missing dir gives no files.
func jsonFiles(t *testing.T, dir string) []string {
	t.Helper()
	var rels []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".json") {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rels = append(rels, filepath.ToSlash(rel))
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatalf("listing %s: %v", dir, err)
	}
	return rels
}

// newCompiler registers every schema file under its $id.
func newCompiler(t *testing.T) *jsonschema.Compiler {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(offline{})
	files := jsonFiles(t, schemaDir)
	if len(files) == 0 {
		t.Fatalf("no schemas found in %s", schemaDir)
	}
	for _, rel := range files {
		doc, err := readJSON(filepath.Join(schemaDir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatalf("spec/schemas/%s: %v", rel, err)
		}
		obj, ok := doc.(map[string]any)
		if !ok {
			t.Fatalf("spec/schemas/%s: not a JSON object", rel)
		}
		id, _ := obj["$id"].(string)
		if id == "" {
			t.Fatalf("spec/schemas/%s: no $id", rel)
		}
		if err := c.AddResource(id, doc); err != nil {
			t.Fatalf("spec/schemas/%s: %v", rel, err)
		}
	}
	return c
}

func compile(t *testing.T, c *jsonschema.Compiler, loc string) *jsonschema.Schema {
	t.Helper()
	s, err := c.Compile(baseURL + loc)
	if err != nil {
		t.Fatalf("compiling %s: %v", loc, err)
	}
	return s
}

// TestSchemasCompile checks each schema file's header and compiles it.
func TestSchemasCompile(t *testing.T) {
	c := newCompiler(t)
	for _, rel := range jsonFiles(t, schemaDir) {
		t.Run(rel, func(t *testing.T) {
			doc, err := readJSON(filepath.Join(schemaDir, filepath.FromSlash(rel)))
			if err != nil {
				t.Fatal(err)
			}
			obj := doc.(map[string]any)
			if got, want := obj["$id"], baseURL+rel; got != want {
				t.Errorf("spec/schemas/%s: $id is %v, want %s", rel, got, want)
			}
			if got := obj["$schema"]; got != draft2020 {
				t.Errorf("spec/schemas/%s: $schema is %v, want %s", rel, got, draft2020)
			}
			for _, key := range []string{"title", "description"} {
				if s, _ := obj[key].(string); s == "" {
					t.Errorf("spec/schemas/%s: no %s", rel, key)
				}
			}
			compile(t, c, rel)
		})
	}
}

// TestFixtures validates every case file against case.schema.json, checks
// that its id and kind agree with its path, and that the run frame carrying
// it is a valid protocol frame.
func TestFixtures(t *testing.T) {
	c := newCompiler(t)
	caseSchema := compile(t, c, "case.schema.json")
	frameSchema := compile(t, c, "protocol/frame.schema.json")
	files := jsonFiles(t, fixturesDir)
	if len(files) == 0 {
		t.Fatalf("no case files under %s", fixturesDir)
	}
	presets := readPresets(t)
	for _, rel := range files {
		if rel == presetsFile {
			continue // TestModelPresets
		}
		t.Run(rel, func(t *testing.T) {
			file := "fixtures/" + rel
			doc, err := readJSON(filepath.Join(fixturesDir, filepath.FromSlash(rel)))
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if err := caseSchema.Validate(doc); err != nil {
				t.Fatalf("%s does not match case.schema.json:\n%v", file, err)
			}
			obj := doc.(map[string]any)
			wantID := strings.TrimSuffix(rel, ".json")
			if obj["id"] != wantID {
				t.Errorf("%s: id is %q, want %q (the path under fixtures/)", file, obj["id"], wantID)
			}
			if dir := path.Dir(rel); obj["kind"] != dir {
				t.Errorf("%s: kind is %q, want %q (the folder)", file, obj["kind"], dir)
			}
			input, err := expandPreset(presets, obj["input"])
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			frame := map[string]any{
				"type": "run",
				"seq":  1,
				"case": map[string]any{"id": obj["id"], "kind": obj["kind"], "input": input},
			}
			if breaksTypes(obj) {
				return // its input breaks the declared types on purpose
			}
			if err := frameSchema.Validate(frame); err != nil {
				t.Errorf("%s: its run frame does not match protocol/frame.schema.json:\n%v", file, err)
			}
		})
	}
}

// lenient reports whether a case tests input.lenient: its input, and so its
// output, hold values of other types than Pi declares, on purpose.
func lenient(c map[string]any) bool {
	rules, _ := c["rules"].([]any)
	return slices.Contains(rules, any("input.lenient"))
}

// breaksTypes reports whether a case's input holds values of other types
// than Pi declares on purpose: it tests input.lenient, or input.throws
// (whose golden is the expected failure, which the golden schema checks).
func breaksTypes(c map[string]any) bool {
	rules, _ := c["rules"].([]any)
	return lenient(c) || slices.Contains(rules, any("input.throws"))
}

// caseOf is the path of a golden's case under fixtures/: rel itself, or
// for a dialect's overlay (@1.6/<kind>/<name>.json) rel without the
// dialect.
func caseOf(rel string) string {
	if strings.HasPrefix(rel, "@") {
		_, rest, _ := strings.Cut(rel, "/")
		return rest
	}
	return rel
}

// lenientGolden reports whether the case of golden/<rel> tests input.lenient.
func lenientGolden(t *testing.T, rel string) bool {
	t.Helper()
	doc, err := readJSON(filepath.Join(fixturesDir, filepath.FromSlash(caseOf(rel))))
	if err != nil {
		return false // TestFixtures reports a golden without a case
	}
	c, _ := doc.(map[string]any)
	return lenient(c)
}

// presetsFile holds the model presets, under fixtures/.
const presetsFile = "models.json"

// readPresets reads fixtures/models.json's models, or none.
func readPresets(t *testing.T) map[string]any {
	t.Helper()
	doc, err := readJSON(filepath.Join(fixturesDir, presetsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatalf("fixtures/%s: %v", presetsFile, err)
	}
	obj, _ := doc.(map[string]any)
	models, _ := obj["models"].(map[string]any)
	return models
}

// expandPreset returns input with a model preset expanded as the harness
// does it (a shallow merge), so the run frame is what an implementation
// receives.
func expandPreset(presets map[string]any, input any) (any, error) {
	in, ok := input.(map[string]any)
	if !ok {
		return input, nil
	}
	model, ok := in["model"].(map[string]any)
	if !ok || model["preset"] == nil {
		return input, nil
	}
	name, _ := model["preset"].(string)
	base, ok := presets[name].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("/input/model/preset: no preset %q in fixtures/%s", name, presetsFile)
	}
	merged := map[string]any{}
	for k, v := range base {
		merged[k] = v
	}
	for k, v := range model {
		if k != "preset" {
			merged[k] = v
		}
	}
	out := map[string]any{}
	for k, v := range in {
		out[k] = v
	}
	out["model"] = merged
	return out, nil
}

// TestModelPresets validates fixtures/models.json against models.schema.json.
func TestModelPresets(t *testing.T) {
	doc, err := readJSON(filepath.Join(fixturesDir, presetsFile))
	if err != nil {
		t.Fatalf("fixtures/%s: %v", presetsFile, err)
	}
	if err := compile(t, newCompiler(t), "models.schema.json").Validate(doc); err != nil {
		t.Fatalf("fixtures/%s does not match models.schema.json:\n%v", presetsFile, err)
	}
}

// TestGoldens validates every golden file against the definition of
// golden.schema.json named by its folder.
func TestGoldens(t *testing.T) {
	files := jsonFiles(t, goldenDir)
	if len(files) == 0 {
		t.Skip("no golden files yet")
	}
	c := newCompiler(t)
	defs := goldenDefs(t)
	for _, rel := range files {
		t.Run(rel, func(t *testing.T) {
			if lenientGolden(t, rel) {
				t.Skip("the case tests input.lenient: its output holds what its input held")
			}
			if err := checkGolden(t, c, defs, goldenDir, rel); err != nil {
				t.Fatalf("golden/%s: %v", rel, err)
			}
		})
	}
}

// TestGoldenCheck runs checkGolden on golden files written to a temporary
// folder, so the check is exercised before real goldens exist.
func TestGoldenCheck(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"sanitize/good.json":      `{"text":"a\ud83d"}`,
		"sanitize/bad.json":       `{"text":["a"]}`,
		"convert/good.json":       `{"messages":[{"role":"user","content":[{"type":"text","text":"x"}],"timestamp":1}]}`,
		"convert/bad.json":        `{"messages":[{"role":"branchSummary","summary":"s","fromId":"f"}]}`,
		"normalize/good.json":     `{"messages":[{"role":"bashExecution","command":"ls","output":"","cancelled":false,"truncated":false}]}`,
		"future/good.json":        `{"anything":1}`,
		"@1.6/sanitize/good.json": `{"text":""}`,
		"@1.6/sanitize/bad.json":  `{"text":1}`,
		"misplaced.json":          `{"text":""}`,
	}
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := newCompiler(t)
	defs := goldenDefs(t)
	for _, rel := range jsonFiles(t, dir) {
		err := checkGolden(t, c, defs, dir, rel)
		if good := strings.HasSuffix(rel, "/good.json"); good != (err == nil) {
			t.Errorf("%s: got error %v", rel, err)
		}
	}
}

// checkGolden validates the golden file rel under root. A kind the schema
// does not define is checked against the root schema only.
func checkGolden(t *testing.T, c *jsonschema.Compiler, defs map[string]bool, root, rel string) error {
	t.Helper()
	kind, _, ok := strings.Cut(caseOf(rel), "/")
	if !ok {
		return errors.New("a golden file belongs in golden/<kind>/ or golden/@<dialect>/<kind>/")
	}
	loc := "golden.schema.json#/$defs/" + kind
	if !defs[kind] {
		t.Logf("%s: golden.schema.json has no definition for kind %q; checking the root only", rel, kind)
		loc = "golden.schema.json"
	}
	schema := compile(t, c, loc)
	doc, err := readJSON(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return err
	}
	if err := schema.Validate(doc); err != nil {
		return fmt.Errorf("does not match %s:\n%w", loc, err)
	}
	return nil
}

// goldenDefs returns the kinds golden.schema.json defines.
func goldenDefs(t *testing.T) map[string]bool {
	t.Helper()
	doc, err := readJSON(filepath.Join(schemaDir, "golden.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	defs, _ := doc.(map[string]any)["$defs"].(map[string]any)
	kinds := map[string]bool{}
	for k := range defs {
		kinds[k] = true
	}
	return kinds
}

// TestExamples checks hand-written documents: the invalid ones must be
// rejected at the expected place, the valid ones accepted.
func TestExamples(t *testing.T) {
	const usage = `{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":3,
		"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`
	const assistant = `{"role":"assistant","content":[{"type":"text","text":"hi"}],"api":"a","provider":"p",
		"model":"m","usage":` + usage + `,"stopReason":"stop","timestamp":1}`
	const model = `{"id":"m","name":"M","api":"a","provider":"p","baseUrl":"https://x","reasoning":false,
		"input":["text"],"cost":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75},
		"contextWindow":1000,"maxTokens":100}`

	tests := []struct {
		name   string
		schema string
		doc    string
		valid  bool
		// errAt is a JSON Pointer the validator's error must name, when set.
		errAt string
	}{
		{
			name:   "case without id",
			schema: "case.schema.json",
			doc:    `{"kind":"sanitize","description":"d","rules":["san.surrogates"],"input":{"text":"x"}}`,
			errAt:  "id",
		},
		{
			name:   "case with a bad input for its kind",
			schema: "case.schema.json",
			doc:    `{"id":"sanitize/x","kind":"sanitize","description":"d","rules":["san.surrogates"],"input":{"text":1}}`,
			errAt:  "/input/text",
		},
		{
			name:   "case of an unknown kind",
			schema: "case.schema.json",
			doc:    `{"id":"future/x","kind":"future","description":"d","rules":["future.rule"],"input":{"anything":[1]}}`,
			valid:  true,
		},
		{
			name:   "case with a bad rule and a bad redaction",
			schema: "case.schema.json",
			doc: `{"id":"sanitize/x","kind":"sanitize","description":"d","rules":["San"],"input":{"text":""},
				"redact":[{"path":"messages/0","as":"date"}]}`,
			errAt: "/rules/0",
		},
		{
			name:   "message with a non-string role",
			schema: "message.schema.json",
			doc:    `{"role":1,"content":"x"}`,
			errAt:  "/role",
		},
		{
			name:   "agent message with a non-string role",
			schema: "agent-message.schema.json",
			doc:    `{"role":1,"content":"x"}`,
			errAt:  "/role",
		},
		{
			name:   "assistant with string content",
			schema: "message.schema.json#/$defs/AssistantMessage",
			doc:    strings.Replace(assistant, `[{"type":"text","text":"hi"}]`, `"hi"`, 1),
			errAt:  "/content",
		},
		{
			name:   "assistant with string content, as a Message",
			schema: "message.schema.json",
			doc:    strings.Replace(assistant, `[{"type":"text","text":"hi"}]`, `"hi"`, 1),
			errAt:  "/content",
		},
		{
			name:   "assistant with an image block and extra members",
			schema: "message.schema.json",
			doc: strings.Replace(assistant, `[{"type":"text","text":"hi"}]`,
				`[{"type":"image","data":"AA==","mimeType":"image/png","x":1}]`, 1),
			valid: true,
		},
		{
			name:   "assistant with an unknown stop reason",
			schema: "message.schema.json",
			doc:    strings.Replace(assistant, `"stop"`, `"done"`, 1),
			errAt:  "/stopReason",
		},
		{
			name:   "user message with a thinking block",
			schema: "message.schema.json",
			doc:    `{"role":"user","content":[{"type":"thinking","thinking":"t"}]}`,
			errAt:  "/content/0",
		},
		{
			name:   "tool result with string content",
			schema: "message.schema.json",
			doc:    `{"role":"toolResult","toolCallId":"c","toolName":"t","content":"x","isError":false}`,
			errAt:  "/content",
		},
		{
			name:   "unknown role in the AgentMessage layer",
			schema: "agent-message.schema.json",
			doc:    `{"role":"notification","whatever":[1,2]}`,
			valid:  true,
		},
		{
			name:   "unknown role in the Message layer",
			schema: "message.schema.json",
			doc:    `{"role":"developer","content":"x"}`,
			errAt:  "/role",
		},
		{
			name:   "bash execution without cancelled",
			schema: "agent-message.schema.json",
			doc:    `{"role":"bashExecution","command":"ls","output":"","truncated":false}`,
			errAt:  "cancelled",
		},
		{
			name:   "context with a tool",
			schema: "message.schema.json#/$defs/Context",
			doc: `{"systemPrompt":"s","messages":[` + assistant + `],
				"tools":[{"name":"t","description":"d","parameters":{"type":"object"}}]}`,
			valid: true,
		},
		{
			name:   "cost golden",
			schema: "golden.schema.json#/$defs/cost",
			doc:    `{"usage":` + usage + `}`,
			valid:  true,
		},
		{
			name:   "convert golden with a custom message",
			schema: "golden.schema.json#/$defs/convert",
			doc:    `{"messages":[{"role":"custom","customType":"c","content":"x","display":true}]}`,
			errAt:  "/messages/0/role",
		},
		{
			name:   "normalize input",
			schema: "case.schema.json#/$defs/NormalizeInput",
			doc:    `{"messages":[],"model":` + model + `,"toolCallIdNormalizer":{"replace":"x","with":"","maxLength":-1}}`,
			errAt:  "/toolCallIdNormalizer/maxLength",
		},
		{
			name:   "pipeline input with every hook",
			schema: "case.schema.json#/$defs/PipelineInput",
			doc: `{"systemPrompt":"","messages":[{"role":"custom","customType":"c","content":"x","display":true,"timestamp":1}],
				"tools":[],"transform":{"append":[{"role":"user","content":"q","timestamp":2}]},"convert":{"fail":"no"}}`,
			valid: true,
		},
		{
			name:   "pipeline input with an empty transcript",
			schema: "case.schema.json#/$defs/PipelineInput",
			doc:    `{"systemPrompt":"s","messages":[]}`,
			errAt:  "/messages",
		},
		{
			name:   "pipeline transform with two operations",
			schema: "case.schema.json#/$defs/PipelineInput",
			doc:    `{"systemPrompt":"s","messages":[{"role":"user","content":"q"}],"transform":{"keepLast":1,"fail":"x"}}`,
			errAt:  "/transform",
		},
		{
			name:   "pipeline convert of an unknown name",
			schema: "case.schema.json#/$defs/PipelineInput",
			doc:    `{"systemPrompt":"s","messages":[{"role":"user","content":"q"}],"convert":"identity"}`,
			errAt:  "/convert",
		},
		{
			name:   "pipeline error golden",
			schema: "golden.schema.json#/$defs/pipeline",
			doc:    `{"error":"boom"}`,
			valid:  true,
		},
		{
			name:   "pipeline golden with a context but no transcript",
			schema: "golden.schema.json#/$defs/pipeline",
			doc:    `{"context":{"systemPrompt":"","messages":[]}}`,
			errAt:  "",
		},
		{
			name:   "wire case with a response",
			schema: "case.schema.json",
			doc: `{"id":"wire/x","kind":"wire","description":"d","rules":["wire.request"],
				"input":{"model":` + model + `,"context":{"messages":[]},"options":{"maxTokens":10}},
				"response":{"status":200,"events":[{"event":"message_stop","data":{"type":"message_stop"}}]},
				"replay":{"chunkBytes":7}}`,
			valid: true,
		},
		{
			name:   "wire response with both events and a body",
			schema: "case.schema.json#/$defs/WireResponse",
			doc:    `{"events":[{"data":"x"}],"body":""}`,
			errAt:  "",
		},
		{
			name:   "wire response sent as a list, with a bad status",
			schema: "case.schema.json",
			doc: `{"id":"wire/x","kind":"wire","description":"d","rules":["wire.request"],
				"input":{"model":` + model + `,"context":{"messages":[]}},"response":[{"body":""},{"status":99}]}`,
			errAt: "/response",
		},
		{
			name:   "response in a case of another kind",
			schema: "case.schema.json",
			doc:    `{"id":"sanitize/x","kind":"sanitize","description":"d","rules":["san.surrogates"],"input":{"text":""},"response":{}}`,
			errAt:  "/response",
		},
		{
			name:   "wire input with an unknown member",
			schema: "case.schema.json#/$defs/WireInput",
			doc:    `{"model":` + model + `,"context":{"messages":[]},"cassette":"x.yaml"}`,
			errAt:  "cassette",
		},
		{
			name:   "wire golden with a delta missing its index",
			schema: "golden.schema.json#/$defs/wire",
			doc:    `{"message":` + assistant + `,"events":[{"type":"start"},{"type":"text_delta","delta":"x"}]}`,
			errAt:  "/events/1",
		},
		{
			name:   "wire golden",
			schema: "golden.schema.json#/$defs/wire",
			doc: `{"message":` + assistant + `,"events":[{"type":"start"},{"type":"text_start","contentIndex":0},
				{"type":"text_end","contentIndex":0,"content":"hi"},{"type":"done","reason":"stop","message":` + assistant + `}]}`,
			valid: true,
		},
		{
			name:   "runner hello",
			schema: "protocol/frame.schema.json",
			doc:    `{"type":"hello","protocol":1}`,
			valid:  true,
		},
		{
			name:   "adapter hello",
			schema: "protocol/frame.schema.json",
			doc: `{"type":"hello","protocol":1,"implementation":{"name":"pi-ts","version":"0.80.2",
				"language":"typescript","kinds":["convert","sanitize"],"apis":["anthropic-messages"]}}`,
			valid: true,
		},
		{
			name:   "adapter hello without kinds",
			schema: "protocol/frame.schema.json#/$defs/FromAdapter",
			doc:    `{"type":"hello","protocol":1,"implementation":{"name":"x","version":"1"}}`,
			errAt:  "/implementation",
		},
		{
			name:   "run frame with a bad input",
			schema: "protocol/frame.schema.json",
			doc:    `{"type":"run","seq":7,"case":{"id":"cost/x","kind":"cost","input":{"model":` + model + `}}}`,
			errAt:  "/case/input",
		},
		{
			name:   "result, skip, error and bye frames",
			schema: "protocol/frame.schema.json",
			doc:    `{"type":"skip","seq":7,"reason":"images are not implemented","link":"https://example.com"}`,
			valid:  true,
		},
		{
			name:   "error frame with seq zero",
			schema: "protocol/frame.schema.json",
			doc:    `{"type":"error","seq":0,"message":"TypeError"}`,
			errAt:  "/seq",
		},
		{
			name:   "unknown frame type",
			schema: "protocol/frame.schema.json",
			doc:    `{"type":"ping"}`,
			errAt:  "/type",
		},
		{
			name:   "report header",
			schema: "report.schema.json",
			doc: `{"type":"header","piconform":"0.1.0","implementation":{"name":"pi-ts","version":"0.80.2","kinds":["convert"]},
				"started":"2025-01-01T00:00:00Z","cases":183}`,
			valid: true,
		},
		{
			name:   "report case",
			schema: "report.schema.json",
			doc: `{"type":"case","id":"convert/bash-all-parts","kind":"convert","outcome":"fail","expected_failure":true,
				"message":"differs","diff":"-a\n+b","path":"/messages/0/content/0/text","duration_ms":1.5}`,
			valid: true,
		},
		{
			name:   "report case with an unknown outcome",
			schema: "report.schema.json",
			doc:    `{"type":"case","id":"convert/x","kind":"convert","outcome":"flaky","duration_ms":1}`,
			errAt:  "/outcome",
		},
		{
			name:   "report footer",
			schema: "report.schema.json",
			doc: `{"type":"footer","counts":{"pass":1,"fail":0,"skip":0,"error":0,"crash":0,"timeout":0,"protocol":0},
				"unexpected_passes":[],"unmatched_expectations":[{"pattern":"convert/gone-*","reason":"removed upstream","line":3}],"exit_code":0}`,
			valid: true,
		},
	}
	c := newCompiler(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			schema := compile(t, c, tc.schema)
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(tc.doc))
			if err != nil {
				t.Fatalf("bad test document: %v", err)
			}
			err = schema.Validate(doc)
			switch {
			case tc.valid && err != nil:
				t.Fatalf("%s rejected a valid document:\n%v", tc.schema, err)
			case !tc.valid && err == nil:
				t.Fatalf("%s accepted an invalid document:\n%s", tc.schema, tc.doc)
			case !tc.valid && tc.errAt != "" && !strings.Contains(err.Error(), tc.errAt):
				t.Fatalf("%s: the error does not name %q:\n%v", tc.schema, tc.errAt, err)
			}
		})
	}
}
