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

	"github.com/piconform/piconform/reference/ai"
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
	retention := opts.Retention()
	c := provider.CompatOf(model)

	// Pi's defaultHeaders object, built with plain object semantics.
	var session []httpheader.Header
	if h, ok := opts.SessionHeader("session_id"); retention != "none" && ok {
		if c.Truthy("sendSessionIdHeader", true) {
			session = append(session, h)
		}
		h.Name = "x-client-request-id"
		session = append(session, h)
	}
	// Copilot's headers read the transcript, which the body reads too.
	var tally *httpheader.CopilotTally
	if model.Provider == "github-copilot" {
		tally = new(httpheader.CopilotTally)
		msgs = provider.Tap(msgs, tally.See)
	}
	if err := buildBody(model, ctx, msgs, opts, retention, c, now, body); err != nil {
		return nil, err
	}
	var copilot []httpheader.Header
	if tally != nil {
		copilot = tally.Headers()
	}
	defaults := httpheader.Assign(httpheader.FromModel(model), copilot, session, opts.Headers)

	header, err := SDKHeaders("OpenAI", opts.TimeoutMs, httpheader.New("Authorization", "Bearer "+apiKey), defaults)
	if err != nil {
		return nil, err
	}
	req := provider.Request{Method: http.MethodPost, URL: provider.JoinURL(model.BaseURL, openaisdk.DefaultBaseURL, ResponsesPath), Header: header}
	tier := StringOf(opts.ServiceTier)
	// Priced with the request's service tier when the answer names none.
	parse := func(body io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
		return parseStream(body, model, tier, now)
	}
	return provider.Answer(req, model, now, parse, ParseHTTPError), nil
}

// SDKHeaders are the headers the openai SDK sends for a client class
// (its user agent names it: "OpenAI", "AzureOpenAI"), the request's
// timeoutMs, the client's auth header and Pi's default headers. A
// *stream.RequestError is the SDK's or fetch's refusal to send.
func SDKHeaders(client string, timeoutMs jsonv.Value, auth httpheader.Header, defaults []httpheader.Header) (http.Header, error) {
	sdk, err := openaisdk.Headers(client, timeoutMs)
	if err != nil {
		return nil, err
	}

	set := httpheader.NewSet()
	for _, layer := range [][]httpheader.Header{sdk, {auth}, defaults, {httpheader.New("content-type", "application/json")}} {
		for _, h := range layer {
			for _, v := range h.SDKValues() {
				if v == nil {
					continue
				}
				if err := httpheader.CheckByteString(*v); err != nil {
					return nil, &stream.RequestError{Message: err.Error()}
				}
			}
		}
		set.SetLayer(layer)
	}
	header := set.Header()
	if header.Get("accept") == "" {
		// fetch asks for anything when no accept header is left.
		header.Set("accept", "*/*")
	}
	return header, nil
}

// buildBody is Pi's buildParams, with its member order: model, input,
// then the rest.
func buildBody(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, retention string, c provider.Compat, now transform.Clock, body provider.BodySink) error {
	body.Begin([]jsonv.Member{{Key: "model", Value: model.IDValue()}}, "input")
	if err := ConvertInput(model, ctx, msgs, NormalizeToolCallID, now, body); err != nil {
		return err
	}
	b := new(jsonv.ObjectBuilder).SetBool("stream", true)
	if retention != "none" {
		key, err := opts.PromptCacheKey()
		if err != nil {
			return err
		}
		b.Set("prompt_cache_key", key)
	}
	if retention == "long" && c.Truthy("supportsLongCacheRetention", true) {
		b.SetString("prompt_cache_retention", "24h")
	}
	b.SetBool("store", false)
	if opts.MaxTokens.Truthy() {
		b.Set("max_output_tokens", stream.JSValue(opts.MaxTokens))
	}
	if !opts.Temperature.IsAbsent() {
		b.Set("temperature", stream.JSValue(opts.Temperature))
	}
	b.Set("service_tier", stream.JSValue(opts.ServiceTier))
	if err := SetTools(b, ctx, jsonv.BoolValue(false)); err != nil {
		return err
	}
	SetReasoning(b, model, opts.Reasoning, model.Provider != "github-copilot")
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
	if !model.Reasoning {
		return
	}
	reasoningEffort, reasoningSummary := r.ReasoningEffort, r.ReasoningSummary
	switch {
	case reasoningEffort.Truthy() || reasoningSummary.Truthy():
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
		off, ok := model.ThinkingLevelMap.Get("off")
		switch {
		case ok && off.Kind() == jsonv.Null:
		case ok:
			b.Set("reasoning", new(jsonv.ObjectBuilder).Set("effort", stream.JSValue(off)).Value())
		default:
			b.Set("reasoning", new(jsonv.ObjectBuilder).SetString("effort", "none").Value())
		}
	}
}

// SetTools adds the tools Pi maps, when there are any, as Pi's
// convertResponsesTools writes them, each with strict set to strict (false
// here and in Azure's variant; codex's sends null). Tools Pi cannot map
// fail here (ai.Context.MappedTools).
func SetTools(b *jsonv.ObjectBuilder, ctx *ai.Context, strict jsonv.Value) error {
	tools, err := ctx.MappedTools()
	if err != nil || len(tools) == 0 {
		return err
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
