// Package mistral is the Go reference for Pi's mistral-conversations API
// (pi-ai 0.80.2, dist/api/mistral-conversations.js, with
// @mistralai/mistralai 2.2.6 and its chat.stream underneath): the HTTP
// request Pi sends for a model, a context and options, and the message and
// events Pi makes of the streamed answer. It has the shape of the
// anthropic package:
//
//   - options.go  what the API reads from the caller (DecodeOptions)
//   - request.go  URL, headers and body (Build, streaming the messages)
//   - convert.go  Pi's messages to Mistral chat messages, and the
//     per-request tool-call id normalizer
//   - stream.go   the streamed answer to a message and events (ParseStream,
//     ParseHTTPError)
//
// Values that pass through JavaScript in Pi pass through stream.JSValue
// here, and the body is built with the member order the SDK's request
// schema writes, so Body.AppendJSON gives the bytes Pi sends.
package mistral

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// API is the model.api value this package serves.
const API = "mistral-conversations"

// Versions and literals Pi and its SDK put on the wire.
const (
	SDKVersion     = "2.2.6"
	UserAgent      = "mistral-client-typescript/" + SDKVersion
	DefaultBaseURL = "https://api.mistral.ai"
	ChatPath       = "/v1/chat/completions"
	// AffinityHeader carries the session id for Mistral's prefix cache.
	AffinityHeader = "x-affinity"
)

// ErrOutsideRequest marks options the SDK's request schema rejects (a
// max_tokens that is not an integer, a tool choice without a name, tool
// parameters that are not an object). Pi then fails with a validation
// report the reference does not reproduce.
var ErrOutsideRequest = errors.New("mistral: request outside the modelled SDK validation")

// Build builds the request Pi 0.80.2's stream(model, ctx, opts) sends,
// with the context's messages read from msgs and the body handed to body
// (provider.StreamBuild). now stamps synthetic tool results that transform
// adds; their timestamps never reach the wire. A *stream.RequestError
// means Pi sends nothing and fails the stream with that message.
func Build(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, now transform.Clock, body provider.BodySink) (*provider.Call, error) {
	if _, err := opts.APIKeyOr(model, ""); err != nil {
		return nil, err
	}
	d := opts.Dialect
	var header http.Header
	if ownFetch.At(d) {
		if err := buildBody16(model, ctx, msgs, opts, now, body); err != nil {
			return nil, err
		}
		if err := checkBaseURL16(model.BaseURL); err != nil {
			return nil, err
		}
		var err error
		if header, err = buildHeader16(model, opts); err != nil {
			return nil, err
		}
		if err := checkHeaderTimeout(opts.TimeoutMs); err != nil {
			return nil, err
		}
	} else {
		if err := buildBody(model, ctx, msgs, opts, now, body); err != nil {
			return nil, err
		}
		header = buildHeader(model, opts)
	}
	req := provider.Request{Method: http.MethodPost, URL: chatURL(model.BaseURL), Header: header}
	return &provider.Call{Request: req, Read: func(resp *http.Response) (*ai.AssistantMessage, []stream.Event, error) {
		return readResponse(d, model, resp, now)
	}}, nil
}

// InvalidURLText is the TypeError of Node's URL parser.
const InvalidURLText = "Invalid URL"

// checkBaseURL16 is Pi 1.6 parsing model.baseUrl itself (new URL), with no
// default: a base URL without a scheme (an empty one among them) throws
// InvalidURLText before anything is sent. Where Go's parser refuses a URL
// that has one, the WHATWG parser may take it: not modelled.
func checkBaseURL16(base string) error {
	u, err := url.Parse(base)
	switch {
	case err == nil && u.Scheme == "", base == "":
		return &stream.RequestError{Message: InvalidURLText}
	case err != nil && !strings.Contains(base, ":"):
		return &stream.RequestError{Message: InvalidURLText}
	case err != nil:
		return fmt.Errorf("%w: a base URL Go cannot parse", stream.ErrOutsideModel)
	}
	return nil
}

// checkHeaderTimeout is Pi 1.6's timer on the wait for the answer's
// headers: timeoutMs (60000 when null or missing) goes to Node's
// AbortSignal.timeout, which throws for a value that is not an unsigned
// 32-bit integer before anything is sent. Of the values it takes, those
// beyond a timer's range (MaxTimerMs) make the timer fire after a
// millisecond, racing the answer, which the reference does not model; the
// others are taken to outlast the wait for a cassette's answer.
func checkHeaderTimeout(timeoutMs jsonv.Value) error {
	if timeoutMs.IsNullish() {
		return nil
	}
	msg, ok := provider.Uint32ArgError("delay", timeoutMs)
	switch {
	case !ok:
		return fmt.Errorf("%w: Node names the type of a timeoutMs with a constructor member", stream.ErrOutsideModel)
	case msg != "":
		return &stream.RequestError{Message: msg}
	case timeoutMs.JSNumber() > MaxTimerMs:
		return fmt.Errorf("%w: a timeoutMs beyond Node's timer range fires at once", stream.ErrOutsideModel)
	}
	return nil
}

// MaxTimerMs is the longest delay a Node timer keeps; a longer one is
// cut to a millisecond.
const MaxTimerMs = 1<<31 - 1

// buildHeader16 is Pi 1.6's buildMistralHeaders: a fetch Headers of Pi's
// identity headers, accept text/event-stream, the bearer key and the
// content type; then the model's headers and the caller's, each set in
// turn (a name of any spelling replaced, null deleting it); then, for a
// prompt-cached session, x-affinity with the session id, unless either
// header object names x-affinity in any spelling. No cookie, and a
// caller's user-agent wins.
func buildHeader16(model *ai.Model, opts Options) (http.Header, error) {
	identity, err := provider.IdentityHeaders(opts.Dialect, model, opts.Identity)
	if err != nil {
		return nil, err
	}
	set := httpheader.NewSet()
	for _, h := range identity {
		set.Append(h.Name, *h.Value)
	}
	set.Append("accept", SSEContentType)
	set.Append("authorization", "Bearer "+*opts.APIKey)
	set.Append("content-type", "application/json")
	modelHeaders := httpheader.FromModel(model)
	explicit := false
	for _, layer := range [][]httpheader.Header{modelHeaders, opts.Headers} {
		for _, h := range layer {
			explicit = explicit || strings.EqualFold(h.Name, AffinityHeader)
			set.Delete(h.Name)
			if v := h.Stored(); v != nil {
				set.Append(h.Name, *v)
			}
		}
	}
	if usePromptCache(opts) && !explicit {
		s, _ := opts.Session()
		set.Delete(AffinityHeader)
		set.Append(AffinityHeader, s)
	}
	return set.Header(), nil
}

// buildBody16 is Pi 1.6's buildChatPayload as toMistralWirePayload writes
// it: model, stream, messages (the system prompt first), tools,
// temperature, max_tokens, tool_choice, reasoning_effort, prompt_mode,
// prompt_cache_key, each value as Pi copies it, unchecked. A tool choice
// Pi throws on reading throws after the messages are converted.
func buildBody16(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, now transform.Clock, body provider.BodySink) error {
	toolChoice, pending := mapToolChoice(opts.ToolChoice)
	system, err := ctx.SystemText()
	if pending == nil {
		pending = err
	}
	body.Begin(new(jsonv.ObjectBuilder).Set("model", model.IDValue()).SetBool("stream", true).Members(), "messages")
	if system != "" {
		body.Element(new(jsonv.ObjectBuilder).SetString("role", "system").SetString("content", ai.SanitizeSurrogates(system)).Value())
	}
	if err := convertMessagesIn(opts.Dialect, msgs, model, now, body); err != nil {
		return err
	}
	if pending != nil {
		return pending
	}
	given, err := ctx.MappedTools()
	if err != nil {
		return err
	}
	b := new(jsonv.ObjectBuilder)
	if len(given) > 0 {
		b.Set("tools", convertTools16(given))
	}
	b.Set("temperature", stream.JSValue(opts.Temperature)).Set("max_tokens", stream.JSValue(opts.MaxTokens))
	b.Set("tool_choice", toolChoice)
	for _, o := range []struct {
		key string
		v   jsonv.Value
	}{{"reasoning_effort", opts.ReasoningEffort}, {"prompt_mode", opts.PromptMode}} {
		if o.v.Truthy() {
			b.Set(o.key, stream.JSValue(o.v))
		}
	}
	if usePromptCache(opts) {
		b.Set("prompt_cache_key", stream.JSValue(opts.SessionID))
	}
	body.End(b.Members())
	return nil
}

// mapToolChoice is Pi's mapToolChoice for a truthy choice (a falsy one is
// not sent): the four names as they are, anything else {type: "function",
// function: {name}} with the name as it is (left out when missing); it
// throws where there is no function member to read. Pi 1.6 sends it
// unchecked; under 0.80 the SDK checks it (sdkToolChoice).
func mapToolChoice(tc jsonv.Value) (jsonv.Value, error) {
	if !tc.Truthy() {
		return jsonv.Value{}, nil
	}
	if tc.Kind() == jsonv.String {
		switch tc.Str() {
		case "auto", "none", "any", "required":
			return tc, nil
		}
	}
	fn := stream.Member(tc, "function")
	if fn.IsNullish() {
		return jsonv.Value{}, &stream.RequestError{Message: jsonv.ReadPropertyText(fn, "name")}
	}
	return new(jsonv.ObjectBuilder).SetString("type", "function").
		Set("function", new(jsonv.ObjectBuilder).Set("name", stream.JSValue(stream.Member(fn, "name"))).Value()).Value(), nil
}

// convertTools16 is Pi 1.6's toFunctionTools: every tool a function with
// its name, description and parameters as given, then strict false (a
// strict tool is an opt-in the reference does not model).
func convertTools16(tools []ai.Tool) jsonv.Value {
	out := make([]jsonv.Value, len(tools))
	for i, t := range tools {
		fn := new(jsonv.ObjectBuilder).Set("name", t.NameValue()).Set("description", t.DescriptionValue()).
			Set("parameters", stream.JSValue(t.Parameters)).SetBool("strict", false)
		out[i] = new(jsonv.ObjectBuilder).SetString("type", "function").Set("function", fn.Value()).Value()
	}
	return jsonv.ArrayValue(out...)
}

// chatURL is the SDK's URL for the operation: the base URL's path without
// trailing slashes, then the operation's path; the base URL's query and
// fragment are dropped.
func chatURL(base string) string {
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil {
		return base + ChatPath
	}
	u.Path, u.RawPath = strings.TrimRight(u.Path, "/")+ChatPath, ""
	u.RawQuery, u.Fragment, u.ForceQuery = "", "", false
	return u.String()
}

// usePromptCache is Pi's shouldUsePromptCaching.
func usePromptCache(opts Options) bool {
	return !jsonv.StrictEqual(opts.CacheRetention, jsonv.StringValue("none")) && opts.SessionID.Truthy()
}

// buildHeader layers the headers as the SDK does: its own, the bearer
// key, an empty cookie, then the caller's object (model.headers, then
// options.headers, then x-affinity) each replacing a header of the same
// name, and last the SDK's user-agent.
func buildHeader(model *ai.Model, opts Options) http.Header {
	caller := httpheader.Assign(httpheader.FromModel(model), opts.Headers)
	if usePromptCache(opts) {
		// A falsy value under the exact lower-case name is replaced; any
		// other spelling is a second key, which fetch joins.
		set := true
		for _, h := range caller {
			if h.Name == AffinityHeader && h.Value != nil && *h.Value != "" {
				set = false
			}
		}
		if set {
			s, _ := opts.Session()
			caller = httpheader.Assign(caller, []httpheader.Header{httpheader.New(AffinityHeader, s)})
		}
	}
	// new Headers(object): every key appended, null written as "null".
	user := httpheader.NewSet()
	for _, h := range caller {
		v := "null"
		if s := h.Stored(); s != nil {
			v = *s
		}
		user.Append(h.Name, v)
	}
	set := httpheader.NewSet()
	set.SetLayer([]httpheader.Header{
		httpheader.New("Content-Type", "application/json"),
		httpheader.New("Accept", "text/event-stream"),
		httpheader.New("Authorization", "Bearer "+*opts.APIKey),
		httpheader.New("cookie", ""),
	})
	for name, values := range user.Header() {
		set.SetLayer([]httpheader.Header{httpheader.New(name, values[0])})
	}
	set.SetLayer([]httpheader.Header{httpheader.New("user-agent", UserAgent)})
	return set.Header()
}

// buildBody is Pi's buildChatPayload as the SDK's request schema writes
// it: model, temperature, max_tokens, stream, messages, tools,
// tool_choice, reasoning_effort, prompt_mode, prompt_cache_key. The
// system message leads the messages, and the members before them are
// written first, though Pi reads the system prompt after the tools and the
// tool choice and the SDK checks the head members once the payload is
// whole: their errors are held until the messages are converted.
func buildBody(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, now transform.Clock, body provider.BodySink) error {
	tools, toolChoice, system, pending := payloadParts(ctx, opts)
	head, err := headMembers(model, opts)
	if pending == nil {
		pending = err
	}
	body.Begin(head, "messages")
	if system != "" {
		body.Element(new(jsonv.ObjectBuilder).SetString("role", "system").SetString("content", ai.SanitizeSurrogates(system)).Value())
	}
	if err := convertMessages(msgs, model, now, body); err != nil {
		return err
	}
	if pending != nil {
		return pending
	}

	b := new(jsonv.ObjectBuilder).Set("tools", tools).Set("tool_choice", toolChoice)
	for _, o := range []struct {
		key string
		v   jsonv.Value
	}{{"reasoning_effort", opts.ReasoningEffort}, {"prompt_mode", opts.PromptMode}} {
		// Pi copies a truthy value; the SDK's schema takes a string.
		if o.v.Truthy() {
			if o.v.Kind() != jsonv.String {
				return fmt.Errorf("%w: %s must be a string", ErrOutsideRequest, o.key)
			}
			b.Set(o.key, o.v)
		}
	}
	if usePromptCache(opts) {
		if opts.SessionID.Kind() != jsonv.String {
			// The SDK validates the request and throws.
			return fmt.Errorf("%w: promptCacheKey is a %s", ErrOutsideRequest, opts.SessionID.Kind())
		}
		b.Set("prompt_cache_key", opts.SessionID)
	}
	body.End(b.Members())
	return nil
}

// payloadParts are what Pi reads after converting the messages, in its
// order: the tools, the tool choice, then the system prompt. err is the
// first error among them.
func payloadParts(ctx *ai.Context, opts Options) (tools, toolChoice jsonv.Value, system string, err error) {
	given, err := ctx.MappedTools()
	if err != nil {
		return
	}
	if len(given) > 0 {
		if tools, err = convertTools(given); err != nil {
			return
		}
	}
	if toolChoice, err = sdkToolChoice(opts.ToolChoice); err != nil {
		return
	}
	system, err = ctx.SystemText()
	return
}

// headMembers are the members the SDK writes before the messages: model,
// temperature, max_tokens and stream, and the error of the first its
// schema rejects.
func headMembers(model *ai.Model, opts Options) ([]jsonv.Member, error) {
	if model.Loose.Has("id") {
		return nil, ErrOutsideRequest // the SDK's schema wants a string
	}
	b := new(jsonv.ObjectBuilder).Set("model", model.IDValue())
	if t := opts.Temperature; !t.IsAbsent() {
		// The SDK's schema (zod 4's number) refuses the infinities too.
		if f, _ := t.Float64(); t.Kind() != jsonv.Number && t.Kind() != jsonv.Null || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%w: temperature must be a finite number", ErrOutsideRequest)
		}
		b.Set("temperature", stream.JSValue(t))
	}
	if !opts.MaxTokens.IsAbsent() {
		// The SDK's schema takes an integer, or null (sent as null).
		if opts.MaxTokens.Kind() != jsonv.Null && !isInt(opts.MaxTokens) {
			return nil, ErrOutsideRequest
		}
		b.Set("max_tokens", stream.JSValue(opts.MaxTokens))
	}
	return b.SetBool("stream", true).Members(), nil
}

// sdkToolChoice is mapToolChoice under Pi 0.80, whose SDK's schema wants
// the function's name to be a string.
func sdkToolChoice(tc jsonv.Value) (jsonv.Value, error) {
	choice, err := mapToolChoice(tc)
	if err == nil && choice.Kind() == jsonv.Object {
		if name := stream.Member(stream.Member(choice, "function"), "name"); name.Kind() != jsonv.String {
			return jsonv.Value{}, ErrOutsideRequest
		}
	}
	return choice, err
}

// isInt is zod's int check: a number with no fraction within the safe
// integer range.
func isInt(v jsonv.Value) bool {
	if v.Kind() != jsonv.Number {
		return false
	}
	f, ok := v.Float64()
	const maxSafe = 1<<53 - 1
	return ok && f == float64(int64(f)) && f <= maxSafe && f >= -maxSafe
}

// convertTools is Pi's toFunctionTools: every tool a function with
// strict false and its name, description and parameters as given. The
// SDK's schema wants a string name, a string description or none, and
// parameters that are an object.
func convertTools(tools []ai.Tool) (jsonv.Value, error) {
	out := make([]jsonv.Value, len(tools))
	for i, t := range tools {
		name, desc := t.NameValue(), t.DescriptionValue()
		if t.Parameters.Kind() != jsonv.Object || name.Kind() != jsonv.String || desc.Kind() != jsonv.String && !desc.IsAbsent() {
			return jsonv.Value{}, ErrOutsideRequest
		}
		fn := new(jsonv.ObjectBuilder).Set("name", name).Set("description", desc).
			SetBool("strict", false).Set("parameters", stream.JSValue(t.Parameters))
		out[i] = new(jsonv.ObjectBuilder).SetString("type", "function").Set("function", fn.Value()).Value()
	}
	return jsonv.ArrayValue(out...), nil
}
