// Package openairesponses is the Go reference for Pi's openai-responses API
// (pi-ai 0.80.2, dist/api/openai-responses.js and openai-responses-shared.js,
// with the openai SDK 6.26.0 underneath): the HTTP request Pi sends for a
// model, a context and options, and the message and events Pi makes of the
// streamed answer. It has the shape of package anthropic:
//
//   - options.go  what the API reads from the caller (DecodeOptions)
//   - request.go  URL, headers and body (Build)
//   - convert.go  Pi's messages to Responses input items
//   - lenient.go  where Pi throws on members of other types (transform.ErrThrows)
//   - stream.go   the streamed answer to a message and events (ParseStream,
//     ParseHTTPError)
package openairesponses

import (
	"io"
	"net/http"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/openaisdk"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// API is the model.api value this package serves.
const API = "openai-responses"

// Literals Pi and its SDK put on the wire (the SDK's version and default
// base URL are openaisdk's).
const (
	ResponsesPath = "/responses"
	// UnusedKey is the bearer token the SDK gets when the caller brought an
	// authorization header instead of a key.
	UnusedKey = "unused"
)

// AuthHeaders authenticate a request without a key.
var AuthHeaders = []string{"authorization", "cf-aig-authorization"}

// Build builds the request Pi 0.80.2's stream(model, ctx, opts) sends,
// with the context's messages read from msgs and the body handed to body
// (provider.StreamBuild). now stamps the synthetic tool results transform
// adds. A *stream.RequestError means Pi sends nothing and fails with that
// message.
func Build(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, now transform.Clock, body provider.BodySink) (*provider.Call, error) {
	apiKey, err := opts.APIKeyOr(model, UnusedKey, AuthHeaders...)
	if err != nil {
		return nil, err
	}
	d := opts.Dialect
	retention := opts.Retention()
	c := provider.CompatOf(model)

	// Pi's defaultHeaders object, built with plain object semantics.
	var session []httpheader.Header
	if h, ok := opts.SessionHeader(""); retention != "none" && ok {
		for _, name := range sessionHeaderNames(d, model, c) {
			h.Name = name
			session = append(session, h)
		}
	}
	// Copilot's headers read the transcript, which the body reads too.
	var tally *httpheader.CopilotTally
	if model.Provider == "github-copilot" {
		tally = provider.CopilotTally(d, ctx)
		msgs = provider.Tap(msgs, tally.See)
	}
	if err := buildBody(model, ctx, msgs, opts, retention, c, now, body); err != nil {
		return nil, err
	}
	var copilot []httpheader.Header
	if tally != nil {
		copilot = tally.Headers()
	}
	identity, err := provider.IdentityHeaders(d, model, opts.Identity)
	if err != nil {
		return nil, err
	}
	defaults := httpheader.Assign(identity, httpheader.FromModel(model), copilot, session, opts.Headers)

	header, err := SDKHeadersAt(d, "OpenAI", opts.TimeoutMs, httpheader.New("Authorization", "Bearer "+apiKey), defaults)
	if err != nil {
		return nil, err
	}
	req := provider.Request{Method: http.MethodPost, URL: provider.JoinURL(model.BaseURL, openaisdk.DefaultBaseURL, ResponsesPath), Header: header}
	// Priced with the request's service tier when the answer names none.
	f := Flavor{Requested: StringOf(opts.ServiceTier), PendingText: PendingText, FastTier: true, Decorate: usageLimitHint}
	parse := func(body io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
		return ParseStreamIn(d, body, model, f, now)
	}
	httpError := func(model *ai.Model, status int, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
		return ParseHTTPErrorIn(d, model, status, body, now)
	}
	return provider.Answer(req, model, now, parse, httpError), nil
}

// PendingText is Pi 1.6's error of an answer that ends without a stop
// reason.
const PendingText = "OpenAI Responses stream ended without a stop reason"

// What Pi 1.6 adds to an error that names a ChatGPT usage limit (a
// sign-in key's usage is shared with ChatGPT).
const (
	SharedUsageLimitCode    = "subscription_sharing_usage_limit_exceeded"
	WorkspaceUsageLimitCode = "subscription_sharing_workplace_individual_usage_limit_exceeded"
	SharedUsageLimitHint    = "\nCheck your ChatGPT usage: https://chatgpt.com/settings/usage"
	WorkspaceUsageLimitHint = "\nYou've reached your ChatGPT workspace's usage limit. Ask your workspace admin to increase it at admin.openai.com → Workspace → Usage limits."
)

// usageLimitHint is Pi 1.6's last word on this API's error messages.
func usageLimitHint(msg string) string {
	switch {
	case strings.Contains(msg, SharedUsageLimitCode):
		return msg + SharedUsageLimitHint
	case strings.Contains(msg, WorkspaceUsageLimitCode):
		return msg + WorkspaceUsageLimitHint
	}
	return msg
}

// SDKHeaders are the headers the openai SDK of Pi 0.80 sends (SDKHeadersAt).
func SDKHeaders(client string, timeoutMs jsonv.Value, auth httpheader.Header, defaults []httpheader.Header) (http.Header, error) {
	return SDKHeadersAt(dialect.V0_80, client, timeoutMs, auth, defaults)
}

// SDKHeadersAt are the headers the openai SDK of dialect d sends for a
// client class (its user agent names it: "OpenAI", "AzureOpenAI"), the
// request's timeoutMs, the client's auth header and Pi's default headers.
// A *stream.RequestError is the SDK's or fetch's refusal to send
// (openaisdk.RequestFailure), a value with no string form included.
func SDKHeadersAt(d dialect.Dialect, client string, timeoutMs jsonv.Value, auth httpheader.Header, defaults []httpheader.Header) (_ http.Header, err error) {
	defer func() {
		if x := recover(); x != nil {
			e, ok := x.(stream.JSError)
			if !ok {
				panic(x)
			}
			err = openaisdk.RequestFailure(d, e.Msg)
		}
	}()
	sdk, err := openaisdk.HeadersAt(d, client, timeoutMs)
	if err != nil {
		return nil, err
	}

	set := httpheader.NewSet()
	layers := [][]httpheader.Header{sdk, {auth}, defaults, {httpheader.New("content-type", "application/json")}}
	for _, layer := range layers {
		for _, h := range layer {
			for _, v := range h.SDKValues() {
				if v == nil {
					continue
				}
				if err := httpheader.CheckByteString(*v); err != nil {
					return nil, openaisdk.RequestFailure(d, err.Error())
				}
			}
		}
		set.SetLayer(layer)
	}
	if err := openaisdk.CheckAuth(d, layers); err != nil {
		return nil, err
	}
	header := set.Header()
	if header.Get("accept") == "" {
		// fetch asks for anything when no accept header is left.
		header.Set("accept", "*/*")
	}
	return header, nil
}

// buildBody is Pi's buildParams, with its member order: model, input,
// stream, prompt_cache_key?, prompt_cache_retention?, (1.6:
// prompt_cache_options?), store, max_output_tokens?, temperature?,
// service_tier?, tools?, (1.6: tool_choice?), reasoning?, include?.
func buildBody(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, retention string, c provider.Compat, now transform.Clock, body provider.BodySink) error {
	d := opts.Dialect
	if err := Unmodelled(d, model, ctx, opts.StreamOptions); err != nil {
		return err
	}
	body.Begin([]jsonv.Member{{Key: "model", Value: model.IDValue()}}, "input")
	if err := ConvertInputIn(d, model, ctx, msgs, NormalizeToolCallID, now, body); err != nil {
		return err
	}
	// A sign-in key of ChatGPT (1.6) has no say over caching, the output
	// cap or the temperature.
	signIn := isChatGPTSignIn(d, model, opts.APIKey)
	b := new(jsonv.ObjectBuilder).SetBool("stream", true)
	if retention != "none" && !PromptCacheKeyDisabled(d, c) {
		key, err := opts.PromptCacheKey()
		if err != nil {
			return err
		}
		b.Set("prompt_cache_key", key)
	}
	explicit := explicitCacheMode(d, c)
	if retention == "long" && c.Truthy("supportsLongCacheRetention", true) && !explicit && !signIn {
		b.SetString("prompt_cache_retention", "24h")
	}
	if explicit && !signIn {
		switch {
		case retention == "none":
			b.Set("prompt_cache_options", new(jsonv.ObjectBuilder).SetString("mode", "explicit").Value())
		case retention == "long" && c.Truthy("supportsLongCacheRetention", true):
			b.Set("prompt_cache_options", new(jsonv.ObjectBuilder).SetString("ttl", "30m").Value())
		}
	}
	b.SetBool("store", false)
	if opts.MaxTokens.Truthy() && !signIn && OutputCapAllowed(d, c) {
		b.Set("max_output_tokens", MaxOutputTokens(d, opts.MaxTokens))
	}
	if !opts.Temperature.IsAbsent() && !signIn {
		b.Set("temperature", stream.JSValue(opts.Temperature))
	}
	b.Set("service_tier", stream.JSValue(opts.ServiceTier))
	if err := SetToolsIn(d, b, ctx, ToolStrictness{Strict: jsonv.BoolValue(false), Sent: c.Truthy("supportsStrictMode", false)}); err != nil {
		return err
	}
	SetToolChoice(d, b, opts.ToolChoice)
	SetReasoningIn(d, b, model, opts.Reasoning, model.Provider != "github-copilot")
	if model.Reasoning && model.Provider == "xai" && xaiIncludes.At(d) {
		b.Set("include", jsonv.ArrayValue(jsonv.StringValue("reasoning.encrypted_content")))
	}
	body.End(b.Members())
	return nil
}

// SetReasoning adds Pi's reasoning (and include) members for a reasoning
// model to b. offDefault says whether the model's "off" effort is sent
// when the caller asks for no reasoning (this API leaves it out for
// github-copilot). A truthy effort or summary is sent as it is, whatever
// it holds; the effort looks up the model's thinkingLevelMap by
// String(effort).
func SetReasoning(b *jsonv.ObjectBuilder, model *ai.Model, r Reasoning, offDefault bool) {
	SetReasoningIn(dialect.V0_80, b, model, r, offDefault)
}

// SetReasoningIn is SetReasoning as Pi of dialect d decides. 0.80 asks
// for reasoning when the effort or the summary is truthy; 1.6 reads the
// effort as reasoningEffort ?? (summary ? "medium" : undefined), so an
// effort that is given but falsy sends the "off" effort whatever the
// summary.
func SetReasoningIn(d dialect.Dialect, b *jsonv.ObjectBuilder, model *ai.Model, r Reasoning, offDefault bool) {
	if !model.Reasoning {
		return
	}
	reasoningEffort, reasoningSummary := r.ReasoningEffort, r.ReasoningSummary
	switch {
	case reasoningAsked(d, reasoningEffort, reasoningSummary):
		effort := jsonv.StringValue("medium")
		if reasoningEffort.Truthy() {
			effort = reasoningEffort
			if v := provider.LevelEntry(model, reasoningEffort); !v.IsNullish() {
				effort = v
			}
		}
		summary := jsonv.StringValue("auto")
		if reasoningSummary.Truthy() {
			summary = reasoningSummary
		}
		b.Set("reasoning", new(jsonv.ObjectBuilder).Set("effort", stream.JSValue(effort)).Set("summary", stream.JSValue(summary)).Value())
		b.Set("include", jsonv.ArrayValue(jsonv.StringValue("reasoning.encrypted_content")))
	case offDefault:
		SetOffEffort(b, model)
	}
}

// SetOffEffort sends the model's "off" effort as reasoning: its
// thinkingLevelMap's off entry, "none" when it has none, and no reasoning
// when that entry is null.
func SetOffEffort(b *jsonv.ObjectBuilder, model *ai.Model) {
	off, ok := model.ThinkingLevelMap.Get("off")
	switch {
	case ok && off.Kind() == jsonv.Null:
	case ok:
		b.Set("reasoning", new(jsonv.ObjectBuilder).Set("effort", stream.JSValue(off)).Value())
	default:
		b.Set("reasoning", new(jsonv.ObjectBuilder).SetString("effort", "none").Value())
	}
}

// SetTools adds the tools Pi maps, when there are any, as Pi's
// convertResponsesTools writes them, each with strict set to strict (false
// here and in Azure's variant; codex's sends null). Tools Pi cannot map
// fail here (ai.Context.MappedTools).
func SetTools(b *jsonv.ObjectBuilder, ctx *ai.Context, strict jsonv.Value) error {
	return SetToolsIn(dialect.V0_80, b, ctx, ToolStrictness{Strict: strict})
}

// ToolStrictness is how a Responses API writes a tool's strict member:
// Strict is the value (false, or null for Codex); Sent says whether Pi
// 1.6 writes it at all (the model's compat.supportsStrictMode, whose
// default is each API's). Pi 0.80 always writes it.
type ToolStrictness struct {
	Strict jsonv.Value
	Sent   bool
}

// SetToolsIn is SetTools as Pi of dialect d writes the tools.
func SetToolsIn(d dialect.Dialect, b *jsonv.ObjectBuilder, ctx *ai.Context, s ToolStrictness) error {
	tools, err := ctx.MappedTools()
	if err != nil || len(tools) == 0 {
		return err
	}
	strict := s.Strict
	if !s.Sent && strictByCompat.At(d) {
		strict = jsonv.Value{}
	}
	b.Set("tools", convertToolsWith(tools, strict))
	return nil
}

func convertToolsWith(tools []ai.Tool, strict jsonv.Value) jsonv.Value {
	out := make([]jsonv.Value, len(tools))
	for i, t := range tools {
		// name, description and parameters are copied as they are, whatever
		// they hold; a missing one is left out.
		out[i] = new(jsonv.ObjectBuilder).SetString("type", "function").Set("name", stream.JSValue(t.NameValue())).
			Set("description", stream.JSValue(t.DescriptionValue())).Set("parameters", stream.JSValue(t.Parameters)).
			Set("strict", strict).Value()
	}
	return jsonv.ArrayValue(out...)
}
