package pipeline

import (
	"fmt"
	"io"
	"io/fs"

	"github.com/piconform/piconform"
	"github.com/piconform/piconform/reference/agent"
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/codingagent"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/anthropic"
	"github.com/piconform/piconform/reference/provider/azureopenairesponses"
	"github.com/piconform/piconform/reference/provider/google"
	"github.com/piconform/piconform/reference/provider/googlevertex"
	"github.com/piconform/piconform/reference/provider/mistral"
	"github.com/piconform/piconform/reference/provider/openaicodexresponses"
	"github.com/piconform/piconform/reference/provider/openaicompletions"
	"github.com/piconform/piconform/reference/provider/openairesponses"
	"github.com/piconform/piconform/reference/transform"
)

// Target is one provider request to build: the model preset of
// fixtures/models.json it goes to, the API's driver, and the options the
// API needs besides the key.
type Target struct {
	Name    string
	Preset  string
	Driver  provider.Driver
	Options []jsonv.Member
}

// Targets are the APIs compared with Pi. The first four are the ones
// issue 12 times (compare's default); the others are there to check that
// the bodies agree on a long transcript too (compare -apis).
var Targets = []Target{
	{"anthropic", "anthropic/claude-sonnet-4-5", anthropic.Driver, nil},
	{"openai-completions", "openai/gpt-4.1-mini", openaicompletions.Driver, nil},
	{"openai-responses", "openai/gpt-5", openairesponses.Driver, nil},
	{"google", "google/gemini-2.5-pro", google.Driver, nil},
	{"deepseek", "deepseek/deepseek-chat", openaicompletions.Driver, nil},
	{"mistral", "mistral/mistral-large-latest", mistral.Driver, nil},
	{"magistral", "mistral/magistral-medium-latest", mistral.Driver, nil},
	{"azure-openai-responses", "azure-openai-responses/gpt-5", azureopenairesponses.Driver, nil},
	{"openai-codex-responses", "openai-codex/gpt-5.1-codex", openaicodexresponses.Driver,
		[]jsonv.Member{{Key: "transport", Value: jsonv.StringValue("sse")}}},
	{"google-vertex", "google-vertex/gemini-2.5-pro", googlevertex.Driver, nil},
}

// TargetNamed returns the target called name.
func TargetNamed(name string) (Target, bool) {
	for _, t := range Targets {
		if t.Name == name {
			return t, true
		}
	}
	return Target{}, false
}

// SystemPrompt and Tools are the rest of every request's Context.
const SystemPrompt = "You are a coding agent. Run commands with the bash tool; read before you edit."

// ToolsJSON is the tool list of every request, as Pi's Context holds it.
const ToolsJSON = `[{"name":"bash","description":"Run a bash command in the working directory; returns stdout and stderr.",` +
	`"parameters":{"type":"object","properties":{"command":{"type":"string","description":"The command"},` +
	`"timeout":{"type":"number","description":"Seconds before it is killed"}},"required":["command"]}},` +
	`{"name":"read","description":"Read a file","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}]`

// APIKey is the key both pipelines send; no request leaves the process.
// It is a JWT naming a ChatGPT account, which the codex API reads; the
// others take it as any key.
const APIKey = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYWNjdC1iZW5jaCJ9fQ.unsigned"

// Request is what both pipelines need besides the transcript: the model,
// the system prompt, the tools and the options, as JSON (pi.mjs reads it).
func (t Target) Request() (jsonv.Value, error) {
	data, err := fs.ReadFile(piconform.Builtin(), "fixtures/models.json")
	if err != nil {
		return jsonv.Value{}, err
	}
	presets, err := jsonv.Parse(data)
	if err != nil {
		return jsonv.Value{}, err
	}
	models, _ := presets.Get("models")
	model, ok := models.Get(t.Preset)
	if !ok {
		return jsonv.Value{}, fmt.Errorf("no model preset %q", t.Preset)
	}
	tools, err := jsonv.Parse([]byte(ToolsJSON))
	if err != nil {
		return jsonv.Value{}, err
	}
	opts := jsonv.ObjectValue(append([]jsonv.Member{{Key: "apiKey", Value: jsonv.StringValue(APIKey)}}, t.Options...)...)
	return obj("model", model, "systemPrompt", jsonv.StringValue(SystemPrompt), "tools", tools, "options", opts), nil
}

// Prepared is a Target ready to build requests.
type Prepared struct {
	model *ai.Model
	tools []ai.Tool
	opts  provider.Options
	drv   provider.Driver
	reg   *agent.Registry
}

// Prepare decodes t's Request once, for Pi 0.80.
func (t Target) Prepare() (*Prepared, error) { return t.PrepareIn(dialect.V0_80) }

// PrepareIn decodes t's Request once, for the Pi of dialect d: the coding
// agent's registry and the provider's options follow d.
func (t Target) PrepareIn(d dialect.Dialect) (*Prepared, error) {
	req, err := t.Request()
	if err != nil {
		return nil, err
	}
	f := jsonv.ReadFields(req, "")
	rawModel, rawTools, rawOpts := f.Object("model"), f.Any("tools"), f.Object("options")
	if err := f.Err(); err != nil {
		return nil, err
	}
	p := &Prepared{drv: t.Driver, reg: codingagent.Registry().In(d)}
	if p.model, err = ai.DecodeModel(rawModel, "/model"); err != nil {
		return nil, err
	}
	ctx, err := ai.DecodeContext(obj("messages", jsonv.ArrayValue(), "tools", rawTools), "")
	if err != nil {
		return nil, err
	}
	p.tools = ctx.Tools
	if p.opts, err = t.Driver.DecodeOptions(rawOpts, "/options"); err != nil {
		return nil, err
	}
	p.opts.Shared().Dialect = d
	return p, nil
}

// clock stamps what transform adds; a complete session needs none.
func clock() jsonv.Value { return jsonv.NumberValue("0") }

// Build runs the Go pipeline on a transcript as a Go program that cares for
// memory would: the driver reads the transcript from a stream one message
// at a time (parse, decode with the coding agent's registry,
// convertToLlm), runs transformMessages and its conversion on each, and
// writes the body out as it goes (provider.Driver.WriteRequest). Neither
// the transcript, its Messages, nor the body is ever held whole.
func (p *Prepared) Build(transcript io.Reader, body io.Writer) error {
	sys := SystemPrompt
	ctx := &ai.Context{SystemPrompt: &sys, Tools: p.tools, HasTools: true}
	_, err := p.drv.WriteRequest(p.model, ctx, p.reg.LLMMessages(transcript), p.opts, transform.Clock(clock), body)
	return err
}
