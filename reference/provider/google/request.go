// Package google is the Go reference for Pi's google-generative-ai API
// (pi-ai 0.80.2, dist/api/google-generative-ai.js and google-shared.js,
// with @google/genai 1.52.0 underneath): the HTTP request Pi sends for a
// model, a context and options, and the message and events Pi makes of the
// streamed answer. It has the shape of the anthropic package:
//
//   - options.go  what the API reads from the caller (DecodeOptions)
//   - request.go  URL, headers and body (Build, BuildRequest)
//   - convert.go  Pi's messages to Gemini contents
//   - stream.go   the streamed answer to a message and events (ParseStream,
//     ParseHTTPError)
//
// Values that pass through JavaScript in Pi pass through stream.JSValue
// here, and the body is built with the SDK's member order, so
// Body.AppendJSON gives the bytes Pi writes on the wire.
package google

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// API is the model.api value this package serves.
const API = "google-generative-ai"

// Versions and literals Pi and its SDK put on the wire.
const (
	SDKVersion = "1.52.0"
	// DefaultBaseURL is used when the model has no baseUrl: the SDK's host
	// with its default API version.
	DefaultBaseURL = "https://generativelanguage.googleapis.com/v1beta"
	// StreamMethod follows the model's resource name in the URL.
	StreamMethod = ":streamGenerateContent?alt=sse"
	// NodeVersion is the Node build named in user-agent and
	// x-goog-api-client (the pi-ts adapter's Node 22).
	NodeVersion = "v22.23.3"
)

// IncidentalHeaders are the request headers (lower-case path.Match
// patterns) that only name the SDK and the Node build: user-agent and
// x-goog-api-client, both "google-genai-sdk/1.52.0 gl-node/<node version>".
// Conformance checks leave them out; Request still carries them.
var IncidentalHeaders = []string{"user-agent", "x-goog-api-client"}

// Texts of the failures before a request.
const (
	NoContentsText      = "contents are required"
	EphemeralTokenText  = "Ephemeral tokens are only supported by the live API."
	InvalidModelText    = "invalid model parameter"
	ModelRequiredText   = "model is required and must be a string"
	ephemeralTokenStart = "auth_tokens/"
)

// ErrModelNotString refuses a model whose id is not a string: the SDK
// throws a TypeError reading it as one.
var ErrModelNotString = fmt.Errorf("google: the model's id is not a string, and the SDK throws on it (%w)", stream.ErrAfterAbortCheck)

// Build builds the request Pi 0.80.2's stream(model, ctx, opts) sends,
// with the context's messages read from msgs and the body handed to body
// (provider.StreamBuild). now stamps synthetic tool results that transform
// adds; their timestamps never reach the wire. A *stream.RequestError
// means Pi sends nothing and fails the stream with that message.
func Build(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, now transform.Clock, body provider.BodySink) (*provider.Call, error) {
	if _, err := opts.APIKeyOr(model, ""); err != nil {
		return nil, err
	}
	apiKey := *opts.APIKey
	n, err := StreamContents(model, ctx, msgs, now, body, mldevContent)
	if err != nil {
		return nil, err
	}
	tail, err := BodyTail(model, ctx, opts, disabledThinking)
	if err != nil {
		return nil, err
	}
	if err := CheckCall(model, n, apiKey); err != nil {
		return nil, err
	}
	name := model.ID
	if !strings.HasPrefix(name, "models/") && !strings.HasPrefix(name, "tunedModels/") {
		name = "models/" + name
	}
	base := model.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	base = strings.TrimSuffix(base, "/")

	body.End(tail)
	req := provider.Request{Method: http.MethodPost, URL: base + "/" + name + StreamMethod, Header: buildHeaders(model, opts, apiKey)}
	return &provider.Call{Request: req, Read: func(resp *http.Response) (*ai.AssistantMessage, []stream.Event, error) {
		return ReadResponse(API, &toolCallCounter, model, resp, now)
	}}, nil
}

// BuildRequest is Build with the whole body in the Call.
func BuildRequest(model *ai.Model, ctx *ai.Context, opts Options, now transform.Clock) (*provider.Call, error) {
	return Driver.BuildRequest(model, ctx, &opts, now)
}

// CheckCall is the SDK's check of a call after Pi built its parameters,
// with n contents and the key: the model name, then the contents, then
// the key. It throws a TypeError on a name that is not a string.
func CheckCall(model *ai.Model, n int, key string) error {
	if model.Loose.Has("id") {
		return ErrModelNotString
	}
	switch name := model.ID; {
	case name == "":
		return &stream.RequestError{Message: ModelRequiredText, AfterAbortCheck: true}
	case strings.Contains(name, "..") || strings.Contains(name, "?") || strings.Contains(name, "&"):
		return &stream.RequestError{Message: InvalidModelText, AfterAbortCheck: true}
	}
	if n == 0 {
		return &stream.RequestError{Message: NoContentsText, AfterAbortCheck: true}
	}
	if strings.HasPrefix(key, ephemeralTokenStart) {
		return &stream.RequestError{Message: EphemeralTokenText, AfterAbortCheck: true}
	}
	return nil
}

// buildHeaders follows the SDK: its defaults, then model.headers and
// options.headers merged as one object (nulls dropped), appended to a
// fetch Headers (names without case, a repeated name joined with ", "),
// then the key unless a header already carries it, then fetch's accept.
func buildHeaders(model *ai.Model, opts Options, apiKey string) http.Header {
	label := "google-genai-sdk/" + SDKVersion + " gl-node/" + NodeVersion
	var caller []httpheader.Header
	for _, h := range httpheader.Assign(httpheader.FromModel(model), opts.Headers) {
		if h.Value != nil {
			caller = append(caller, h)
		}
	}
	all := []httpheader.Header{httpheader.New("User-Agent", label), httpheader.New("x-goog-api-client", label), httpheader.New("Content-Type", "application/json")}
	all = httpheader.Assign(all, caller)

	set := httpheader.NewSet()
	for _, h := range all {
		set.Append(h.Name, *h.Stored())
	}
	if !set.Has("x-goog-api-key") {
		set.Append("x-goog-api-key", apiKey)
	}
	if !set.Has("accept") {
		set.Append("accept", "*/*")
	}
	return set.Header()
}

var (
	gemini3Pro   = regexp.MustCompile(`gemini-3(?:\.\d+)?-pro`)
	gemini3Flash = regexp.MustCompile(`gemini-3(?:\.\d+)?-flash`)
	gemma4       = regexp.MustCompile(`gemma-?4`)
)

// disabledThinking is the thinkingConfig Pi sends to turn thinking off:
// the lowest level for models that cannot turn it off, a zero budget for
// the others.
func disabledThinking(model *ai.Model) jsonv.Value {
	id := strings.ToLower(model.ID)
	switch {
	case gemini3Pro.MatchString(id):
		return new(jsonv.ObjectBuilder).SetString("thinkingLevel", "LOW").Value()
	case isGemini3Flash(id), gemma4.MatchString(id):
		return new(jsonv.ObjectBuilder).SetString("thinkingLevel", "MINIMAL").Value()
	}
	return new(jsonv.ObjectBuilder).Set("thinkingBudget", jsonv.NumberValue("0")).Value()
}

// toolChoiceMode maps a truthy options.toolChoice to
// functionCallingConfig.mode: Pi compares it with the three strings, so
// any other value is AUTO.
func toolChoiceMode(choice jsonv.Value) string {
	switch {
	case jsonv.StrictEqual(choice, jsonv.StringValue("none")):
		return "NONE"
	case jsonv.StrictEqual(choice, jsonv.StringValue("any")):
		return "ANY"
	}
	return "AUTO"
}

// BodyTail is the body's members after contents: Pi's buildParams turned
// into the REST body by the SDK, systemInstruction, tools, toolConfig,
// then generationConfig (always present, possibly empty). off gives the
// thinkingConfig that turns thinking off, which throws (ErrThrows) for a
// model whose id is not a string: Pi reads the id there, before it checks
// the signal. Its function declarations are in Pi's form: {name,
// description, parametersJsonSchema}, nulls kept.
func BodyTail(model *ai.Model, ctx *ai.Context, opts Options, off func(*ai.Model) jsonv.Value) ([]jsonv.Member, error) {
	b := new(jsonv.ObjectBuilder)
	if ctx.SystemPrompt != nil && *ctx.SystemPrompt != "" {
		part := new(jsonv.ObjectBuilder).SetString("text", ai.SanitizeSurrogates(*ctx.SystemPrompt)).Value()
		b.Set("systemInstruction", content("user", []jsonv.Value{part}))
	}
	if len(ctx.Tools) > 0 {
		decls := make([]jsonv.Value, len(ctx.Tools))
		for i, t := range ctx.Tools {
			decls[i] = functionDeclaration(t)
		}
		b.Set("tools", jsonv.ArrayValue(new(jsonv.ObjectBuilder).Set("functionDeclarations", jsonv.ArrayValue(decls...)).Value()))
		if opts.ToolChoice.Truthy() {
			fcc := new(jsonv.ObjectBuilder).SetString("mode", toolChoiceMode(opts.ToolChoice)).Value()
			b.Set("toolConfig", new(jsonv.ObjectBuilder).Set("functionCallingConfig", fcc).Value())
		}
	}
	gen := new(jsonv.ObjectBuilder)
	// The SDK's converters copy only members that are not null.
	gen.Set("temperature", stream.JSValue(opts.Temperature.NullAsAbsent())).Set("maxOutputTokens", stream.JSValue(opts.MaxTokens.NullAsAbsent()))
	if t := opts.Thinking; t != nil && model.Reasoning {
		if t.Enabled != nil && *t.Enabled {
			tc := new(jsonv.ObjectBuilder).SetBool("includeThoughts", true)
			switch {
			case !t.Level.IsAbsent():
				tc.Set("thinkingLevel", stream.JSValue(t.Level))
			case !t.BudgetTokens.IsAbsent():
				tc.Set("thinkingBudget", stream.JSValue(t.BudgetTokens))
			}
			gen.Set("thinkingConfig", tc.Value())
		} else {
			// Turning thinking off reads the id as a string.
			if err := idIsString(model, "toLowerCase"); err != nil {
				return nil, fmt.Errorf("%w: %v", transform.ErrThrows, err)
			}
			gen.Set("thinkingConfig", off(model))
		}
	}
	b.Set("generationConfig", gen.Value())
	return b.Members(), nil
}

// functionDeclaration is Pi's declaration of a tool, which this SDK sends
// as it is: name, description and parameters whatever their types, a null
// kept and a missing one left out (input.lenient).
func functionDeclaration(t ai.Tool) jsonv.Value {
	d := new(jsonv.ObjectBuilder).Set("name", stream.JSValue(t.NameValue())).Set("description", stream.JSValue(t.DescriptionValue()))
	return d.Set("parametersJsonSchema", stream.JSValue(t.Parameters)).Value()
}

// Hooks for an API built on this one (google-vertex), which converts the
// messages, checks the call, merges the headers and fills the body as
// Build does: StreamContents, CheckCall, BodyTail and Headers.

// Headers are the headers BuildRequest sends with key.
func Headers(model *ai.Model, opts Options, key string) http.Header {
	return buildHeaders(model, opts, key)
}
