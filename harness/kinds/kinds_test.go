package kinds_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform"
	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/kinds"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/protocol"
	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// TestBrokenSuites loads each suite under testdata/broken and compares the
// load error with the suite's want.txt, in which DIR stands for the
// suite's folder. Each error names the file, the case and the JSON path.
func TestBrokenSuites(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "broken", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no broken suites (%v)", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			_, err := kinds.Load(dir, os.DirFS(dir), dir)
			if err == nil {
				t.Fatal("the suite loads")
			}
			got := strings.ReplaceAll(err.Error(), dir, "DIR")
			wantFile := filepath.Join(dir, "want.txt")
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatal(err)
			}
			if got != strings.TrimSuffix(string(want), "\n") {
				t.Errorf("error:\n got %s\nwant %s", got, want)
			}
		})
	}
}

// TestRegistry: the registry holds exactly the kinds the reference
// implements, each once; only wire has a fixture, a recorder and an API,
// and every kind but pipeline has default redactions (the kinds whose Pi
// function can throw, the message of the expected failure).
func TestRegistry(t *testing.T) {
	if diff := cmp.Diff(conformance.Kinds(), kinds.Builtin.Names()); diff != "" {
		t.Errorf("registry kinds differ from the reference's (-reference +registry):\n%s", diff)
	}
	tests := []struct {
		name                                string
		fixture, recorder, api, checksFiles bool
		defaults                            int
		jsonTexts                           int
	}{
		{name: "convert", defaults: 1},
		{name: "normalize", defaults: 1},
		{name: "cost", defaults: 1},
		{name: "sanitize", defaults: 1},
		{name: "pipeline"},
		{name: "session", defaults: 1},
		{name: "wire", fixture: true, recorder: true, api: true, checksFiles: true, defaults: 13, jsonTexts: 1},
	}
	if len(tests) != len(kinds.Builtin) {
		t.Errorf("the table has %d kinds, the registry %d", len(tests), len(kinds.Builtin))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := kinds.Builtin.Lookup(tt.name)
			if k == nil {
				t.Fatal("not in the registry")
			}
			got := []bool{k.Fixture != nil, k.Recorder != nil, k.API != nil, k.CheckFiles != nil, k.Validate != nil}
			want := []bool{tt.fixture, tt.recorder, tt.api, tt.checksFiles, true}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("fixture, recorder, API, check files, validate (-want +got):\n%s", diff)
			}
			if len(k.Redactions) != tt.defaults {
				t.Errorf("%d default redactions, want %d", len(k.Redactions), tt.defaults)
			}
			if len(k.JSONTexts) != tt.jsonTexts {
				t.Errorf("%d JSON texts, want %d", len(k.JSONTexts), tt.jsonTexts)
			}
		})
	}
	if kinds.Builtin.Lookup("sanitise") != nil {
		t.Error("Lookup found an unknown kind")
	}
	if diff := cmp.Diff([]string{"sanitise", "wires"}, kinds.Builtin.UnknownKinds([]string{"sanitize", "sanitise", "wire", "wires"})); diff != "" {
		t.Errorf("UnknownKinds (-want +got):\n%s", diff)
	}
	fx := kinds.Fixtures(dialect.V0_80)
	if len(fx) != 1 || fx["wire"] == nil {
		t.Errorf("Fixtures() = %v, want only wire", fx)
	}
}

// loadCases loads the suite in dir and indexes its cases by id.
func loadCases(t *testing.T, dir string) ([]*suite.Case, map[string]*suite.Case) {
	t.Helper()
	s, err := kinds.Load(dir, os.DirFS(dir), dir)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*suite.Case{}
	for _, c := range s.Cases {
		byID[c.ID] = c
	}
	return s.Cases, byID
}

// TestCheckFiles: before a run, a missing or non-JSON golden and a missing
// or malformed cassette are input errors naming the file and case; a case
// whose files are fine passes.
func TestCheckFiles(t *testing.T) {
	dir := filepath.Join("testdata", "files")
	cases, byID := loadCases(t, dir)
	tests := []struct {
		id   string
		want string // "" for no error; else a prefix of the error
	}{
		{"sanitize/good", ""},
		{"sanitize/no-golden", dir + "/golden/sanitize/no-golden.json (case sanitize/no-golden): no golden; run `piconform update` to create it"},
		{"sanitize/bad-golden", dir + "/golden/sanitize/bad-golden.json:1:14 (case sanitize/bad-golden): /: unexpected '}', want a quoted member name"},
		{"wire/no-cassette", dir + "/cassettes/wire/no-cassette.yaml (case wire/no-cassette): no cassette; run `piconform update` to record it"},
		{"wire/bad-cassette", dir + "/cassettes/wire/bad-cassette.yaml (case wire/bad-cassette): "},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			c := byID[tt.id]
			if c == nil {
				t.Fatalf("no case %s", tt.id)
			}
			err := kinds.Builtin.CheckFiles([]*suite.Case{c}, dialect.V0_80)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)):
				t.Errorf("error %v\nwant prefix %s", err, tt.want)
			}
		})
	}
	// All at once: every problem is reported.
	err := kinds.Builtin.CheckFiles(cases, dialect.V0_80)
	if n := strings.Count(err.Error(), "\n") + 1; n != 4 {
		t.Errorf("%d errors, want 4:\n%v", n, err)
	}
}

// TestPresetsAndDefaultRedactions: a preset expands before anything sees the
// case (overrides replace members whole, the rest comes from the preset),
// and cases get the kind's default redactions (for wire the clock's, for
// cost an expected failure's message), plus their own, once each, unless
// redactDefaults is false.
func TestPresetsAndDefaultRedactions(t *testing.T) {
	_, byID := loadCases(t, filepath.Join("testdata", "presets"))
	plain := byID["wire/plain"].Input // a full model written out
	model, _ := plain.Get("model")
	tests := []struct {
		id       string
		model    string // the expanded model as compact JSON
		api      string
		redacted []string // redaction paths, in order
	}{
		{
			id:       "wire/plain",
			model:    string(model.AppendJSON(nil)),
			api:      "anthropic-messages",
			redacted: []string{"/message/timestamp", "/message/durationMs", "/events/*/message/timestamp", "/events/*/message/durationMs", "/events/*/error/timestamp", "/events/*/error/durationMs", "/message/diagnostics/*/timestamp", "/message/diagnostics/*/error/stack", "/events/*/message/diagnostics/*/timestamp", "/events/*/message/diagnostics/*/error/stack", "/events/*/error/diagnostics/*/timestamp", "/events/*/error/diagnostics/*/error/stack", "/throws/message"},
		},
		{
			id:       "wire/override",
			model:    `{"id":"claude-sonnet-4-5","name":"Claude Sonnet 4.5","api":"anthropic-messages","provider":"anthropic","baseUrl":"https://api.anthropic.com","reasoning":true,"input":["text","image"],"cost":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0},"contextWindow":200000,"maxTokens":64000,"compat":{"allowEmptySignature":true}}`,
			api:      "anthropic-messages",
			redacted: []string{"/message/timestamp", "/message/durationMs", "/events/*/message/timestamp", "/events/*/message/durationMs", "/events/*/error/timestamp", "/events/*/error/durationMs", "/message/diagnostics/*/timestamp", "/message/diagnostics/*/error/stack", "/events/*/message/diagnostics/*/timestamp", "/events/*/message/diagnostics/*/error/stack", "/events/*/error/diagnostics/*/timestamp", "/events/*/error/diagnostics/*/error/stack", "/throws/message", "/message/content/0/id"},
		},
		{
			id:       "wire/no-defaults",
			model:    string(model.AppendJSON(nil)),
			api:      "anthropic-messages",
			redacted: []string{"/events/*/message/timestamp"},
		},
		{
			id:       "cost/plain",
			model:    string(model.AppendJSON(nil)),
			redacted: []string{"/throws/message"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			c := byID[tt.id]
			m, _ := c.Input.Get("model")
			if got := string(m.AppendJSON(nil)); got != tt.model {
				t.Errorf("model:\n got %s\nwant %s", got, tt.model)
			}
			rawIn, _ := c.Raw.Get("input")
			if !jsonv.Equal(rawIn, c.Input) {
				t.Errorf("Raw's input is not the expanded one: %s", rawIn)
			}
			if c.API != tt.api {
				t.Errorf("API = %q, want %q", c.API, tt.api)
			}
			var paths []string
			for _, r := range c.Redactions {
				paths = append(paths, r.Path)
			}
			if diff := cmp.Diff(tt.redacted, paths); diff != "" {
				t.Errorf("redactions (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExpectedFailure: a case of a kind whose Pi function can throw that
// expects a failure is met by any message with the same category, and not
// by another category or an output.
func TestExpectedFailure(t *testing.T) {
	for _, kind := range []string{"convert", "normalize", "cost", "sanitize", "session"} {
		t.Run(kind, func(t *testing.T) { testExpectedFailure(t, kind) })
	}
}

func testExpectedFailure(t *testing.T, kind string) {
	rules := compare.Rules{Redactions: kinds.Builtin.Lookup(kind).Redactions}
	want := protocol.Throws("type-error", "the reference's words")
	for _, tc := range []struct {
		name  string
		got   jsonv.Value
		diffs []string
	}{
		{"V8's words", protocol.Throws("type-error", "Cannot read properties of undefined (reading 'role')"), nil},
		{"another category", protocol.Throws("range-error", "x"), []string{"/throws/category"}},
		{"an output", jsonv.ObjectValue(jsonv.Member{Key: "messages", Value: jsonv.ArrayValue()}), []string{"/throws", "/messages"}},
	} {
		var paths []string
		for _, d := range compare.Diffs(want, tc.got, rules) {
			paths = append(paths, d.Path)
		}
		if diff := cmp.Diff(tc.diffs, paths); diff != "" {
			t.Errorf("%s: differing paths (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestEmbeddedSuiteValidates: the built-in suite the binary embeds passes
// every check of Load, the kinds' Validate included, which LoadEmbedded
// leaves out at run time for that reason; and LoadEmbedded reads the same
// cases, with the same redactions, APIs and JSON texts.
func TestEmbeddedSuiteValidates(t *testing.T) {
	full, err := kinds.Load("builtin", piconform.Builtin(), "")
	if err != nil {
		t.Fatalf("the embedded suite fails its checks: %v", err)
	}
	emb, err := kinds.LoadEmbedded(piconform.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	if len(emb.Cases) != len(full.Cases) {
		t.Fatalf("LoadEmbedded reads %d cases, Load %d", len(emb.Cases), len(full.Cases))
	}
	for i, c := range full.Cases {
		e := emb.Cases[i]
		if e.ID != c.ID || e.API != c.API || !cmp.Equal(e.Redactions, c.Redactions) || !cmp.Equal(e.JSONTexts, c.JSONTexts) ||
			!jsonv.Equal(e.Raw, c.Raw) || !cmp.Equal(e.Dialects, c.Dialects) {
			t.Errorf("case %d: LoadEmbedded reads %s (API %q) unlike Load's %s (API %q)", i, e.ID, e.API, c.ID, c.API)
		}
	}
}
