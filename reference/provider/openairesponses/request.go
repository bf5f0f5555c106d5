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
	"fmt"
	"io"
	"math"
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

// sessionHeaderNames are the headers that carry the session id. 0.80
// sends session_id (unless compat.sendSessionIdHeader is false) and
// x-client-request-id. 1.6 picks them by compat.sessionAffinityFormat,
// "openrouter" for an OpenRouter model (its provider, or a base URL on
// openrouter.ai) and "openai" otherwise: x-session-id for "openrouter",
// session-id and x-client-request-id for "openai", and only
// x-client-request-id for any other format.
func sessionHeaderNames(d dialect.Dialect, model *ai.Model, c provider.Compat) []string {
	if !d.AtLeast(dialect.V1_6) {
		if c.Truthy("sendSessionIdHeader", true) {
			return []string{"session_id", "x-client-request-id"}
		}
		return []string{"x-client-request-id"}
	}
	format := c.Value("sessionAffinityFormat")
	if format.IsNullish() {
		format = jsonv.StringValue("openai")
		if model.Provider == "openrouter" || strings.Contains(model.BaseURL, "openrouter.ai") {
			format = jsonv.StringValue("openrouter")
		}
	}
	switch {
	case format.Kind() == jsonv.String && format.Str() == "openrouter":
		return []string{"x-session-id"}
	case format.Kind() == jsonv.String && format.Str() == "openai":
		return []string{"session-id", "x-client-request-id"}
	}
	return []string{"x-client-request-id"}
}

// SDKHeaders are the headers the openai SDK of Pi 0.80 sends (SDKHeadersAt).
func SDKHeaders(client string, timeoutMs jsonv.Value, auth httpheader.Header, defaults []httpheader.Header) (http.Header, error) {
	return SDKHeadersAt(dialect.V0_80, client, timeoutMs, auth, defaults)
}

// SDKHeadersAt are the headers the openai SDK of dialect d sends for a
// client class (its user agent names it: "OpenAI", "AzureOpenAI"), the
// request's timeoutMs, the client's auth header and Pi's default headers.
// A *stream.RequestError is the SDK's or fetch's refusal to send.
func SDKHeadersAt(d dialect.Dialect, client string, timeoutMs jsonv.Value, auth httpheader.Header, defaults []httpheader.Header) (http.Header, error) {
	sdk, err := openaisdk.HeadersAt(d, client, timeoutMs)
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
	if retention != "none" && !(d.AtLeast(dialect.V1_6) && c.Is("promptCacheKeyMode", "disabled")) {
		key, err := opts.PromptCacheKey()
		if err != nil {
			return err
		}
		b.Set("prompt_cache_key", key)
	}
	explicit := d.AtLeast(dialect.V1_6) && c.Truthy("supportsExplicitPromptCacheMode", false)
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
	if opts.MaxTokens.Truthy() && !signIn && (!d.AtLeast(dialect.V1_6) || c.Truthy("supportsMaxOutputTokens", true)) {
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
	if d.AtLeast(dialect.V1_6) && model.Reasoning && model.Provider == "xai" {
		// 1.6 asks xAI for the encrypted reasoning in any case.
		b.Set("include", jsonv.ArrayValue(jsonv.StringValue("reasoning.encrypted_content")))
	}
	body.End(b.Members())
	return nil
}

// isChatGPTSignIn is Pi 1.6's test for a key that is no API key (it does
// not start with "sk-") sent to OpenAI itself: a ChatGPT sign-in, which
// the API takes without prompt_cache_retention, prompt_cache_options,
// max_output_tokens and temperature. 0.80 has no such test.
func isChatGPTSignIn(d dialect.Dialect, model *ai.Model, apiKey *string) bool {
	return d.AtLeast(dialect.V1_6) && model.Provider == "openai" && model.BaseURL == openaisdk.DefaultBaseURL &&
		apiKey != nil && !strings.HasPrefix(*apiKey, "sk-")
}

// MinOutputTokens is the least max_output_tokens Pi 1.6 sends.
const MinOutputTokens = 16

// MaxOutputTokens is max_output_tokens for a truthy maxTokens: sent as it
// is in 0.80, raised to MinOutputTokens in 1.6 (Math.max, which reads it
// as a number).
func MaxOutputTokens(d dialect.Dialect, maxTokens jsonv.Value) jsonv.Value {
	if !d.AtLeast(dialect.V1_6) {
		return stream.JSValue(maxTokens)
	}
	n := stream.ToNumber(maxTokens)
	if !math.IsNaN(n) {
		n = math.Max(n, MinOutputTokens)
	}
	return jsonv.JSNumberValue(n)
}

// SetToolChoice sends the caller's toolChoice, whatever it holds, as
// tool_choice: from 1.6 on (0.80's stream never read it).
func SetToolChoice(d dialect.Dialect, b *jsonv.ObjectBuilder, toolChoice jsonv.Value) {
	if d.AtLeast(dialect.V1_6) && !toolChoice.IsAbsent() {
		b.Set("tool_choice", stream.JSValue(toolChoice))
	}
}

// Unmodelled refuses (stream.ErrOutsideModel) the opt-ins of Pi 1.6 the
// reference does not model: sampling parameters, constrained sampling of
// tools and the compat flags that change the input's shape
// (mid-conversation system messages and efforts, additional tools, tool
// search, grammar tools).
func Unmodelled(d dialect.Dialect, model *ai.Model, ctx *ai.Context, opts provider.StreamOptions) error {
	if !d.AtLeast(dialect.V1_6) {
		return nil
	}
	c := provider.CompatOf(model)
	for _, flag := range []string{"supportsMidConvoSystemMessages", "supportsMidConvoEffort", "supportsAdditionalTools", "supportsToolSearch", "supportsOpenAIGrammarTools"} {
		if c.Truthy(flag, false) {
			return fmt.Errorf("%w: compat.%s of Pi 1.6", stream.ErrOutsideModel, flag)
		}
	}
	for _, m := range append(append([]jsonv.Member(nil), model.Extra...), opts.Extra...) {
		switch m.Key {
		case "samplingParams", "samplingParamsByThinkingLevel":
			return fmt.Errorf("%w: %s of Pi 1.6", stream.ErrOutsideModel, m.Key)
		}
	}
	for _, t := range ctx.Tools {
		for _, m := range t.Extra {
			if m.Key == "constrainedSampling" {
				return fmt.Errorf("%w: constrainedSampling of a tool (Pi 1.6)", stream.ErrOutsideModel)
			}
		}
	}
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
	asked := reasoningEffort.Truthy() || reasoningSummary.Truthy()
	if d.AtLeast(dialect.V1_6) {
		asked = reasoningEffort.Truthy() || reasoningEffort.IsNullish() && reasoningSummary.Truthy()
	}
	switch {
	case asked:
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
	if d.AtLeast(dialect.V1_6) && !s.Sent {
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
