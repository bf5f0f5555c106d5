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
	"slices"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
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
	// DefaultBaseURL is used when the model has no baseUrl: the SDK's host
	// with its default API version.
	DefaultBaseURL = "https://generativelanguage.googleapis.com/v1beta"
	// StreamMethod follows the model's resource name in the URL.
	StreamMethod = ":streamGenerateContent?alt=sse"
	// NodeVersion is the Node build named in user-agent and
	// x-goog-api-client (the pi-ts adapter's Node 22).
	NodeVersion = provider.NodeVersion
)

// SDKVersion is the version of the Gen AI SDK that Pi of dialect d pins.
func SDKVersion(d dialect.Dialect) string { return rules(d).sdkVersion }

// IncidentalHeaders are the request headers (lower-case path.Match
// patterns) that only name Pi, the SDK and the Node build: user-agent and
// x-goog-api-client, both "google-genai-sdk/<SDKVersion> gl-node/<node
// version>" in 0.80; from 1.6 on user-agent is Pi's own. Conformance
// checks leave them out; Request still carries them.
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

// Build builds the request Pi's stream(model, ctx, opts) sends in the
// options' dialect, with the context's messages read from msgs and the
// body handed to body (provider.StreamBuild). now stamps synthetic tool
// results that transform adds; their timestamps never reach the wire. A
// *stream.RequestError means Pi sends nothing and fails the stream with
// that message.
func Build(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, now transform.Clock, body provider.BodySink) (*provider.Call, error) {
	if _, err := opts.APIKeyOr(model, ""); err != nil {
		return nil, err
	}
	apiKey := *opts.APIKey
	d := opts.Dialect
	// Pi makes the client, with its headers, before the parameters.
	header, err := Headers(model, opts, apiKey)
	if err != nil {
		return nil, err
	}
	n, err := StreamContents(d, model, ctx, msgs, now, body, GeminiContent(d))
	if err != nil {
		return nil, err
	}
	// Pi converts the messages before it reads the id (strict tools).
	if err := CheckID(d, model); err != nil {
		return nil, err
	}
	tail, err := BodyTail(model, ctx, opts, gemini)
	if err != nil {
		return nil, err
	}
	if err := CheckCallIn(d, &opts.StreamOptions, model, n, apiKey); err != nil {
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
	req := provider.Request{Method: http.MethodPost, URL: base + "/" + name + StreamMethod, Header: header}
	return &provider.Call{Request: req, Read: func(resp *http.Response) (*ai.AssistantMessage, []stream.Event, error) {
		return answer.Read(d, model, resp, now)
	}}, nil
}

// BuildRequest is Build with the whole body in the Call.
func BuildRequest(model *ai.Model, ctx *ai.Context, opts Options, now transform.Clock) (*provider.Call, error) {
	return Driver.BuildRequest(model, ctx, &opts, now)
}

// CheckID is where Pi of dialect d reads the model's id as a string
// before it checks the signal: from 1.6 on, Pi looks for a Gemini version
// in it on every request (to decide on strict tools), so an id of another
// type fails the stream with V8's TypeError and nothing is sent. In 0.80
// only some requests read it there (idIsString), and the SDK checks it
// after the signal (CheckCall).
func CheckID(d dialect.Dialect, model *ai.Model) error {
	if !rules(d).idFirst || !model.Loose.Has("id") {
		return nil
	}
	id := model.Loose.Value("id", "")
	msg := "modelId.toLowerCase is not a function"
	if id.IsNullish() {
		msg = stream.PropertyTypeError(id, "toLowerCase").Msg
	}
	return &stream.RequestError{Message: msg}
}

// CheckCallIn is CheckCall as the client of dialect d makes the call for
// o: where Pi's own loop wraps the SDK's call (1.6), a refusal of the
// SDK is a failed attempt, on which the loop first reads maxRetries, so
// one with no number form throws its TypeError instead
// (provider.Retry.LateLimit).
func CheckCallIn(d dialect.Dialect, o *provider.StreamOptions, model *ai.Model, n int, key string) error {
	err := CheckCall(model, n, key)
	if r := Client.At(d).Retry; err != nil && r.LateLimit {
		if _, lerr := r.RetriesAfterFailure(o); lerr != nil {
			return &stream.RequestError{Message: lerr.Error(), AfterAbortCheck: true}
		}
	}
	return err
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

// Headers are the headers of a request with key, in the options'
// dialect. They follow the SDK: its defaults, then the caller's layers
// (callerHeaders) laid over them as objects, appended to a fetch Headers
// (names without case, a repeated name joined with ", "), then the key
// unless a header already carries it, then fetch's accept. An error is
// where Pi's identity option throws or is not modelled
// (provider.IdentityHeaders).
func Headers(model *ai.Model, opts Options, key string) (http.Header, error) {
	d := opts.Dialect
	label := "google-genai-sdk/" + SDKVersion(d) + " gl-node/" + NodeVersion
	caller, err := callerHeaders(d, model, opts)
	if err != nil {
		return nil, err
	}
	all := []httpheader.Header{httpheader.New("User-Agent", label), httpheader.New("x-goog-api-client", label), httpheader.New("Content-Type", "application/json")}
	all = httpheader.Assign(all, caller)

	set := httpheader.NewSet()
	for _, h := range all {
		set.Append(h.Name, *h.Stored())
	}
	if !set.Has("x-goog-api-key") {
		set.Append("x-goog-api-key", key)
	}
	if !set.Has("accept") {
		set.Append("accept", "*/*")
	}
	return set.Header(), nil
}

// callerHeaders is the header object Pi hands the SDK. In 0.80 it is
// model.headers and options.headers merged as objects, nulls dropped
// after; from 1.6 on Pi's identity headers lie under the two, and the
// three merge with names compared without case, a later one replacing an
// earlier one and a null removing it (httpheader.Merge).
func callerHeaders(d dialect.Dialect, model *ai.Model, opts Options) ([]httpheader.Header, error) {
	if rules(d).identityHeaders {
		identity, err := provider.IdentityHeaders(d, model, opts.Identity)
		if err != nil {
			return nil, err
		}
		return httpheader.Merge(identity, httpheader.FromModel(model), opts.Headers), nil
	}
	var out []httpheader.Header
	for _, h := range httpheader.Assign(httpheader.FromModel(model), opts.Headers) {
		if h.Value != nil {
			out = append(out, h)
		}
	}
	return out, nil
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

// Variant is what an API built on this one (google-vertex) does
// differently where it fills the body.
type Variant struct {
	// Off is the 0.80 thinkingConfig that turns thinking off for a model;
	// from 1.6 on both APIs share one (offConfig).
	Off func(*ai.Model) jsonv.Value
	// MapsLevel is set when the API looks thinking.level up in Pi's map
	// of the SDK's level names in every dialect (sdkThinkingLevel);
	// google-generative-ai does from 1.6 on.
	MapsLevel bool
}

// gemini is this API's Variant.
var gemini = Variant{Off: disabledThinking}

// BodyTail is the body's members after contents: Pi's buildParams turned
// into the REST body by the SDK, systemInstruction, tools, toolConfig,
// then generationConfig (always present, possibly empty), in the options'
// dialect for the API v. In 0.80 the thinkingConfig that turns thinking
// off throws (ErrThrows) for a model whose id is not a string: Pi reads
// the id there, before it checks the signal. Its function declarations are
// in Pi's form: {name, description, parametersJsonSchema}, nulls kept.
// A *stream.RequestError is Pi's throw while it builds the parameters.
func BodyTail(model *ai.Model, ctx *ai.Context, opts Options, v Variant) ([]jsonv.Member, error) {
	r := rules(opts.Dialect)
	b := new(jsonv.ObjectBuilder)
	if ctx.SystemPrompt != nil && *ctx.SystemPrompt != "" {
		part := new(jsonv.ObjectBuilder).SetString("text", ai.SanitizeSurrogates(*ctx.SystemPrompt)).Value()
		b.Set("systemInstruction", content("user", []jsonv.Value{part}))
	}
	if len(ctx.Tools) > 0 {
		decls := make([]jsonv.Value, len(ctx.Tools))
		for i, t := range ctx.Tools {
			d, err := functionDeclaration(t, r)
			if err != nil {
				return nil, err
			}
			decls[i] = d
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
			case !t.Level.IsAbsent() && (v.MapsLevel || r.sdkLevelMap):
				// Pi tests the level as given, then sends what its map
				// makes of it: no budget even when that is nothing.
				tc.Set("thinkingLevel", sdkThinkingLevel(t.Level))
			case !t.Level.IsAbsent():
				tc.Set("thinkingLevel", stream.JSValue(t.Level))
			case !t.BudgetTokens.IsAbsent():
				tc.Set("thinkingBudget", stream.JSValue(t.BudgetTokens))
			}
			gen.Set("thinkingConfig", tc.Value())
		} else if r.levelModels {
			off, err := offConfig(opts.Dialect, model)
			if err != nil {
				return nil, err
			}
			gen.Set("thinkingConfig", off)
		} else {
			// Turning thinking off reads the id as a string.
			if err := idIsString(model, "toLowerCase"); err != nil {
				return nil, fmt.Errorf("%w: %v", transform.ErrThrows, err)
			}
			gen.Set("thinkingConfig", v.Off(model))
		}
	}
	b.Set("generationConfig", gen.Value())
	return b.Members(), nil
}

// functionDeclaration is Pi's declaration of a tool, which the SDK sends
// as it is: name, description and parameters whatever their types, a null
// kept and a missing one left out (input.lenient). From 1.6 on a string
// or number const in the parameters becomes a one-value enum
// (constAsEnum), and a tool may ask for constrained sampling, which the
// reference does not model.
func functionDeclaration(t ai.Tool, r *release) (jsonv.Value, error) {
	params := t.Parameters
	if r.constAsEnum {
		cs, _ := jsonv.ObjectValue(t.Extra...).Get("constrainedSampling")
		if jsonv.StrictEqual(stream.Member(cs, "type"), jsonv.StringValue("json_schema")) {
			return jsonv.Value{}, fmt.Errorf("%w: a tool with JSON-schema constrained sampling", stream.ErrOutsideModel)
		}
		params = constAsEnum(params, false)
	}
	d := new(jsonv.ObjectBuilder).Set("name", stream.JSValue(t.NameValue())).Set("description", stream.JSValue(t.DescriptionValue()))
	return d.Set("parametersJsonSchema", stream.JSValue(params)).Value(), nil
}

// Schema keywords by what their values hold, for constAsEnum: names
// mapped to subschemas, and a subschema or an array of them.
var (
	schemaNameMaps   = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true, "dependencies": true}
	schemaSubschemas = map[string]bool{
		"additionalProperties": true, "unevaluatedProperties": true, "propertyNames": true, "items": true, "prefixItems": true,
		"additionalItems": true, "unevaluatedItems": true, "contains": true, "allOf": true, "anyOf": true, "oneOf": true,
		"not": true, "if": true, "then": true, "else": true, "contentSchema": true,
	}
)

// constAsEnum is Pi 1.6's rewrite of a tool's JSON Schema for Gemini,
// which honours enum but not const: in every schema reached through the
// subschema keywords and the name maps, a const that is a string or a
// number, without an enum beside it, becomes enum: [value] at the end of
// the schema. An object that maps names (nameMap) is not itself a schema.
// Anything else is kept as it is.
func constAsEnum(v jsonv.Value, nameMap bool) jsonv.Value {
	switch v.Kind() {
	case jsonv.Array:
		elems := make([]jsonv.Value, len(v.Elems()))
		for i, e := range v.Elems() {
			elems[i] = constAsEnum(e, false)
		}
		return jsonv.ArrayValue(elems...)
	case jsonv.Object:
	default:
		return v
	}
	var members []jsonv.Member
	for _, m := range v.Members() {
		switch {
		case nameMap || schemaSubschemas[m.Key]:
			m.Value = constAsEnum(m.Value, false)
		case schemaNameMaps[m.Key]:
			m.Value = constAsEnum(m.Value, true)
		}
		members = append(members, m)
	}
	out := jsonv.ObjectValue(members...)
	if nameMap {
		return out
	}
	c, hasConst := out.Get("const")
	if _, hasEnum := out.Get("enum"); !hasConst || hasEnum || (c.Kind() != jsonv.String && c.Kind() != jsonv.Number) {
		return out
	}
	kept := slices.DeleteFunc(slices.Clone(members), func(m jsonv.Member) bool { return m.Key == "const" })
	return jsonv.ObjectValue(append(kept, jsonv.Member{Key: "enum", Value: jsonv.ArrayValue(c)})...)
}

// Hooks for an API built on this one (google-vertex), which converts the
// messages, checks the call, merges the headers and fills the body as
// Build does: StreamContents, CheckCall, BodyTail and Headers.
