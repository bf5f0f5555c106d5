// Package anthropic is the Go reference for Pi's anthropic-messages API
// (pi-ai 0.80.2, dist/api/anthropic-messages.js, with @anthropic-ai/sdk
// 0.91.1 underneath): the HTTP request Pi sends for a model, a context and
// options, and the message and events Pi makes of the answer.
//
// It is the template for the other provider packages:
//
//   - driver.go   the package's provider.Driver, the one value the
//     conformance driver and the capture tests use
//   - options.go  what the API reads on top of provider.StreamOptions
//     (DecodeOptions)
//   - request.go  URL, headers and body (BuildRequest)
//   - convert.go  Pi's messages to the provider's messages
//   - stream.go   the streamed answer to a message and events (ParseStream,
//     its step plugged into stream.Run, and ParseHTTPError)
//
// Every value that passed through JavaScript in Pi passes through
// stream.JSValue here, so numbers print as JavaScript prints them and
// objects keep JavaScript's key order; the body is then byte-identical to
// what Pi writes on the wire.
package anthropic

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/internal/lenient"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// API is the model.api value this package serves.
const API = "anthropic-messages"

// Versions and literals Pi and its SDK put on the wire.
const (
	SDKVersion        = "0.91.1"
	AnthropicVersion  = "2023-06-01"
	ClaudeCodeVersion = "2.1.75"
	DefaultBaseURL    = "https://api.anthropic.com"
	MessagesPath      = "/v1/messages"

	BetaFineGrainedToolStreaming = "fine-grained-tool-streaming-2025-05-14"
	BetaInterleavedThinking      = "interleaved-thinking-2025-05-14"
	BetaClaudeCode               = "claude-code-20250219"
	BetaOAuth                    = "oauth-2025-04-20"

	// ClaudeCodeIdentity is the system block every OAuth request starts with.
	ClaudeCodeIdentity = "You are Claude Code, Anthropic's official CLI for Claude."

	// DefaultTimeoutMs is the SDK's request timeout, announced in
	// x-stainless-timeout.
	DefaultTimeoutMs = 600000
)

// authHeaders authenticate a request without a key.
var authHeaders = []string{"authorization", "x-api-key", "cf-aig-authorization"}

// Build builds the request Pi 0.80.2's stream(model, ctx, opts) sends, with
// the context's messages read from msgs and the body handed to body
// (provider.StreamBuild). now stamps synthetic tool results that transform
// adds; their timestamps never reach the wire. A *stream.RequestError means
// Pi sends nothing and fails the stream with that message. In a dialect
// that checks the caller's signal before it builds the body
// (abortCheckedBeforeBody), every failure from the body on comes after
// that check (stream.ErrAfterAbortCheck).
func Build(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, now transform.Clock, body provider.BodySink) (_ *provider.Call, err error) {
	apiKey, err := opts.APIKeyOr(model, "", authHeaders...)
	if err != nil && federates(opts.Dialect, model, opts) {
		return nil, fmt.Errorf("%w: workload identity federation (ANTHROPIC_FEDERATION_RULE_ID)", stream.ErrOutsideModel)
	}
	if err != nil {
		return nil, err
	}
	c := provider.CompatOf(model)
	copilot := model.Provider == "github-copilot"
	oauth := !copilot && strings.Contains(apiKey, "sk-ant-oat")
	retention := opts.Retention()
	// Copilot's headers read the transcript, which the body reads too.
	tally := provider.CopilotTally(opts.Dialect, ctx)
	if copilot {
		msgs = provider.Tap(msgs, tally.See)
	}
	if changesToolsNatively(opts.Dialect, c, ctx) {
		return nil, fmt.Errorf("%w: tool changes declared in system messages (compat.supportsMidConvoToolChanges)", stream.ErrOutsideModel)
	}
	threads := usesThreads(opts.Dialect, model, opts, retention, c)
	if abortCheckedBeforeBody.At(opts.Dialect) {
		defer stream.MarkAfterAbortCheck(&err)
	}
	// Pi builds the body before the SDK checks the headers and the timeout.
	if err := buildBody(model, ctx, msgs, opts, oauth, retention, threads, c, now, body); err != nil {
		return nil, err
	}
	// The effort of a reply under managed effort is on Pi's message as
	// soon as the body is built: every failure from here on carries it.
	var marks []jsonv.Member
	if m := effortMarkersOf(opts.Dialect, model, opts, c); m != nil && m.active.Truthy() {
		marks = []jsonv.Member{{Key: "providerThinkingLevel", Value: stream.JSValue(m.active)}}
	}
	defer stream.Marked(&err, marks)
	// The SDK's messages.create then looks the model up among deprecated
	// ones (model in DEPRECATED_MODELS) before it builds the request: an
	// id with no string form throws there.
	stream.ToString(model.IDValue())

	// The header layers, lowest precedence first, as the SDK merges them.
	timeout, err := httpheader.StainlessTimeout(opts.TimeoutMs, float64(DefaultTimeoutMs))
	if err != nil {
		return nil, &stream.RequestError{Message: err.Error()}
	}
	version := sdkVersion.At(opts.Dialect)
	sdk := httpheader.Stainless("Anthropic/JS "+version, version, timeout, httpheader.New("anthropic-dangerous-direct-browser-access", "true"),
		httpheader.New("anthropic-version", AnthropicVersion))

	var auth []httpheader.Header
	switch {
	case copilot || oauth:
		if opts.APIKey != nil {
			auth = append(auth, httpheader.New("Authorization", "Bearer "+*opts.APIKey))
		}
	case opts.APIKey != nil:
		auth = append(auth, httpheader.New("X-Api-Key", *opts.APIKey))
	}

	d := opts.Dialect
	betas, err := betaList(d, model, len(ctx.Tools) > 0, opts, oauth, threads, c)
	if err != nil {
		return nil, err
	}
	var betaHeader, lastLayer []httpheader.Header
	if len(betas) > 0 {
		h := httpheader.New("anthropic-beta", strings.Join(betas, ","))
		if betasInBody.At(d) {
			lastLayer = append(lastLayer, h)
		} else {
			betaHeader = append(betaHeader, h)
		}
	}
	pi := []httpheader.Header{httpheader.New("accept", "application/json"), httpheader.New("anthropic-dangerous-direct-browser-access", "true")}
	var identity []httpheader.Header
	if !oauth {
		if identity, err = provider.IdentityHeaders(d, model, opts.Identity); err != nil {
			return nil, err
		}
	}
	var sources [][]httpheader.Header
	switch {
	case copilot:
		sources = [][]httpheader.Header{identity, append(pi, betaHeader...), httpheader.FromModel(model), tally.Headers(), opts.Headers}
	case oauth:
		pi = append(append(pi, betaHeader...), httpheader.New("user-agent", "claude-cli/"+claudeCodeVersion.At(d)), httpheader.New("x-app", "cli"))
		sources = [][]httpheader.Header{pi, httpheader.FromModel(model), opts.Headers}
	default:
		var affinity []httpheader.Header
		name, on := sessionAffinity(d, model, c)
		if h, ok := opts.SessionHeader(name); retention != "none" && ok && on {
			affinity = []httpheader.Header{h}
		}
		sources = [][]httpheader.Header{identity, append(pi, betaHeader...), affinity, httpheader.FromModel(model), opts.Headers}
	}
	defaults := httpheader.Assign(sources...)

	set := httpheader.NewSet()
	for _, layer := range [][]httpheader.Header{sdk, auth, defaults, {httpheader.New("content-type", "application/json")}, lastLayer} {
		set.SetLayer(layer)
	}
	// The SDK's validateHeaders: some credential must be set, or
	// explicitly removed.
	if set.Get("x-api-key") == "" && set.Get("authorization") == "" && !set.Removed("x-api-key") && !set.Removed("authorization") {
		return nil, &stream.RequestError{Message: noAuthText.At(d)}
	}

	req := provider.Request{Method: http.MethodPost, URL: provider.JoinURL(model.BaseURL, DefaultBaseURL, messagesPath.At(d)), Header: set.Header()}
	tools := ctx.Tools
	return &provider.Call{Request: req, Marks: marks, Read: func(resp *http.Response) (*ai.AssistantMessage, []stream.Event, error) {
		out, events, err := parseResponse(d, model, oauth, tools, resp, now)
		if m := effortMarkersOf(d, model, opts, c); out != nil && m != nil && m.active.Truthy() {
			// The effort of this reply, recorded on it for the next request.
			out.Extra = append(out.Extra, jsonv.Member{Key: "providerThinkingLevel", Value: stream.JSValue(m.active)})
		}
		return out, events, err
	}}, nil
}

// cacheControl is the cache_control object for a retention, Absent for "none".
func cacheControl(retention string, c provider.Compat) jsonv.Value {
	if retention == "none" {
		return jsonv.Value{}
	}
	b := new(jsonv.ObjectBuilder).SetString("type", "ephemeral")
	if retention == "long" && c.Truthy("supportsLongCacheRetention", true) {
		b.SetString("ttl", "1h")
	}
	return b.Value()
}

// buildBody is Pi's buildParams, with its member order. A transform.ErrThrows
// error is a context Pi throws on.
func buildBody(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, oauth bool, retention string, threads bool, c provider.Compat, now transform.Clock, body provider.BodySink) error {
	cc := cacheControl(retention, c)
	body.Begin([]jsonv.Member{{Key: "model", Value: model.IDValue()}}, "messages")
	markers := effortMarkersOf(opts.Dialect, model, opts, c)
	if err := convertMessages(opts.Dialect, msgs, model, oauth, cc, c.Truthy("allowEmptySignature", false), markers, now, body); err != nil {
		return err
	}
	b := new(jsonv.ObjectBuilder)
	maxTokens := opts.MaxTokens
	if maxTokens.IsNullish() { // ??
		maxTokens = model.MaxTokens
	}
	b.Set("max_tokens", stream.JSValue(maxTokens)).SetBool("stream", true)

	var system []jsonv.Value
	textBlock := func(text string) jsonv.Value {
		return new(jsonv.ObjectBuilder).SetString("type", "text").SetString("text", text).Set("cache_control", cc).Value()
	}
	if oauth {
		system = append(system, textBlock(ClaudeCodeIdentity))
	}
	systemText, err := ctx.SystemText()
	if err != nil {
		return err
	}
	if systemText != "" {
		system = append(system, textBlock(ai.SanitizeSurrogates(systemText)))
	}
	if system != nil {
		b.Set("system", jsonv.ArrayValue(system...))
	}

	thinkingOn := opts.ThinkingEnabled != nil && *opts.ThinkingEnabled
	thinkingOff := thinkingTurnedOff(model, opts)
	managed := markers != nil
	if !opts.Temperature.IsAbsent() && !thinkingOn && !takesNoTemperature(opts.Dialect, c) && c.Truthy("supportsTemperature", true) {
		b.Set("temperature", stream.JSValue(opts.Temperature))
	}
	given, err := ctx.MappedTools()
	if err != nil {
		return err
	}
	if len(given) > 0 {
		toolCC := jsonv.Value{}
		if c.Truthy("supportsCacheControlOnTools", true) {
			toolCC = cc
		}
		tools, err := convertTools(opts.Dialect, given, oauth, c.Truthy("supportsEagerToolInputStreaming", true), c.Truthy("supportsStrictTools", false), toolCC)
		if err != nil {
			return err
		}
		b.Set("tools", tools)
	}
	switch {
	case thinkingOff:
		b.Set("thinking", new(jsonv.ObjectBuilder).SetString("type", "disabled").Value())
	case managed:
		// Effort markers among the messages set each reply's effort; the
		// top-level one stays low, as organizations may cap it.
		display := stream.JSValue(opts.ThinkingDisplay)
		if display.IsNullish() {
			display = jsonv.StringValue("summarized")
		}
		binding := new(jsonv.ObjectBuilder).SetString("prefix_mismatch_behavior", "drop_block").Value()
		b.Set("thinking", new(jsonv.ObjectBuilder).SetString("type", "adaptive").Set("display", display).Set("block_binding", binding).Value())
		b.Set("output_config", new(jsonv.ObjectBuilder).SetString("effort", "low").Value())
	}
	if model.Reasoning && !managed {
		switch {
		case thinkingOn:
			display := stream.JSValue(opts.ThinkingDisplay)
			if display.IsNullish() {
				display = jsonv.StringValue("summarized")
			}
			if c.IsTrue("forceAdaptiveThinking") {
				b.Set("thinking", new(jsonv.ObjectBuilder).SetString("type", "adaptive").Set("display", display).Value())
				if opts.Effort.Truthy() {
					b.Set("output_config", new(jsonv.ObjectBuilder).Set("effort", stream.JSValue(opts.Effort)).Value())
				}
			} else {
				budget := stream.JSValue(opts.ThinkingBudgetTokens)
				if !budget.Truthy() {
					budget = jsonv.NumberValue("1024")
				}
				b.Set("thinking", new(jsonv.ObjectBuilder).SetString("type", "enabled").Set("budget_tokens", budget).Set("display", display).Value())
			}
		}
	}
	if userID, ok := opts.Metadata.Get("user_id"); ok && userID.Kind() == jsonv.String {
		b.Set("metadata", new(jsonv.ObjectBuilder).Set("user_id", userID).Value())
	}
	switch tc := opts.ToolChoice; {
	case !tc.Truthy():
	case tc.Kind() == jsonv.String:
		b.Set("tool_choice", new(jsonv.ObjectBuilder).Set("type", tc).Value())
	default:
		b.Set("tool_choice", stream.JSValue(tc))
	}
	if fallbacks := fallbackModels(model); sendsFallbacks.At(opts.Dialect) && sendsFallbackList(model) {
		list := make([]jsonv.Value, len(fallbacks))
		for i, f := range fallbacks {
			list[i] = new(jsonv.ObjectBuilder).Set("model", stream.JSValue(stream.Prop(f, "model"))).Value()
		}
		b.Set("fallbacks", jsonv.ArrayValue(list...))
	}
	if dc, _ := jsonv.ObjectValue(opts.Extra...).Get("disableContinuation"); threads && !(dc.Kind() == jsonv.Bool && dc.Bool()) {
		b.Set("thread", new(jsonv.ObjectBuilder).SetString("type", "create").Value())
	}
	body.End(b.Members())
	return nil
}

// thinkingTurnedOff is Pi's thinkingDisabled: a reasoning model asked
// not to think (thinkingEnabled false) that can turn thinking off.
func thinkingTurnedOff(model *ai.Model, opts Options) bool {
	return model.Reasoning && opts.ThinkingEnabled != nil && !*opts.ThinkingEnabled && !levelOffIsNull(model)
}

// levelOffIsNull is `model.thinkingLevelMap?.off === null`: the model
// cannot turn thinking off, so Pi does not ask.
func levelOffIsNull(model *ai.Model) bool {
	v, ok := model.ThinkingLevelMap.Get("off")
	return ok && v.Kind() == jsonv.Null
}

// convertTools is Pi's convertTools: only properties and required survive
// from each schema (none from a schema that is not an object), with the
// keywords keptSchemaKeywords adds, and the last tool carries the cache
// breakpoint. Name and description are sent
// as they are, except that OAuth renames a name, which must then be a
// string; a schema of null or none throws.
func convertTools(d dialect.Dialect, tools []ai.Tool, oauth, eager, strict bool, cc jsonv.Value) (jsonv.Value, error) {
	out := make([]jsonv.Value, len(tools))
	for i, t := range tools {
		if readsSampling.At(d) {
			if err := provider.JSONSchemaSampling(t, strict); err != nil {
				return jsonv.Value{}, err
			}
		}
		name := t.NameValue()
		if oauth {
			if t.Loose.Has("name") {
				return jsonv.Value{}, lenient.Throws("tool %d's name is %s, which has no toLowerCase", i, name.Kind())
			}
			name = jsonv.StringValue(toClaudeCodeName(t.Name))
		}
		if t.Parameters.IsNullish() {
			return jsonv.Value{}, lenient.Throws("tool %d's parameters are %s, whose properties Pi reads", i, t.Parameters.Kind())
		}
		props := stream.Member(t.Parameters, "properties")
		if props.IsNullish() {
			props = jsonv.ObjectValue()
		}
		required := stream.Member(t.Parameters, "required")
		if required.IsNullish() {
			required = jsonv.ArrayValue()
		}
		schema := new(jsonv.ObjectBuilder).SetString("type", "object").Set("properties", stream.JSValue(props)).Set("required", stream.JSValue(required))
		for _, key := range keptSchemaKeywords.At(d) {
			schema.Set(key, stream.JSValue(stream.Member(t.Parameters, key)))
		}
		b := new(jsonv.ObjectBuilder).Set("name", stream.JSValue(name)).Set("description", stream.JSValue(t.DescriptionValue()))
		if eager {
			b.SetBool("eager_input_streaming", true)
		}
		b.Set("input_schema", schema.Value())
		if i == len(tools)-1 {
			b.Set("cache_control", cc)
		}
		out[i] = b.Value()
	}
	return jsonv.ArrayValue(out...), nil
}
