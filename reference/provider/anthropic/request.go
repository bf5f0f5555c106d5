// Package anthropic is the Go reference for Pi's anthropic-messages API
// (pi-ai 0.80.2, dist/api/anthropic-messages.js, with @anthropic-ai/sdk
// 0.91.1 underneath): the HTTP request Pi sends for a model, a context and
// options, and the message and events Pi makes of the answer.
//
// It is the template for the other provider packages:
//
//   - options.go  what the API reads from the caller (DecodeOptions)
//   - request.go  URL, headers and body (BuildRequest)
//   - convert.go  Pi's messages to the provider's messages
//   - stream.go   the streamed answer to a message and events (ParseStream,
//     ParseHTTPError)
//
// Every value that passed through JavaScript in Pi passes through
// stream.JSValue here, so numbers print as JavaScript prints them and
// objects keep JavaScript's key order; the body is then byte-identical to
// what Pi writes on the wire.
package anthropic

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
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

// Request is one HTTP request as Pi sends it.
type Request struct {
	Method string
	URL    string
	// Header holds every header Pi and the SDK set, except three that
	// describe the machine (x-stainless-os, x-stainless-arch,
	// x-stainless-runtime-version; present only when the caller set them)
	// and the ones fetch adds itself (host, connection, content-length,
	// accept-language, sec-fetch-mode, accept-encoding).
	Header http.Header
	// Body is the JSON body; Body.AppendJSON gives the exact wire bytes.
	Body jsonv.Value

	model *ai.Model
	oauth bool
	tools []ai.Tool
}

// MachineHeaders are the SDK headers whose values depend on the machine
// that runs Pi; Request leaves them out unless the caller set them.
var MachineHeaders = []string{"x-stainless-os", "x-stainless-arch", "x-stainless-runtime-version"}

// IncidentalHeaders are the request headers (lower-case path.Match
// patterns) that describe the SDK and the machine rather than the
// translation: the x-stainless-* telemetry, whose values follow the retry
// count, the timeout and the Node build. Conformance checks leave them out;
// Request still carries them.
var IncidentalHeaders = []string{"x-stainless-*"}

// RequestError is a failure Pi meets before anything is sent. Pi reports it
// as a lone error event whose errorMessage is Message (see Failure).
type RequestError struct{ Message string }

func (e *RequestError) Error() string { return e.Message }

// BuildRequest returns the request Pi 0.80.2's stream(model, ctx, opts)
// sends. now stamps synthetic tool results that transform adds; their
// timestamps never reach the wire. A *RequestError means Pi sends nothing
// and fails the stream with that message.
func BuildRequest(model *ai.Model, ctx *ai.Context, opts Options, now transform.Clock) (*Request, error) {
	apiKey := ""
	if opts.APIKey != nil {
		apiKey = *opts.APIKey
	}
	if apiKey == "" && !hasAuthHeader(opts.Headers) {
		return nil, &RequestError{Message: "No API key for provider: " + model.Provider}
	}
	c := compatOf(model)
	copilot := model.Provider == "github-copilot"
	oauth := !copilot && strings.Contains(apiKey, "sk-ant-oat")
	retention := resolveRetention(opts)

	// The header layers, lowest precedence first, as the SDK merges them.
	timeout := float64(DefaultTimeoutMs)
	if !opts.TimeoutMs.IsAbsent() {
		timeout, _ = opts.TimeoutMs.Float64()
		if timeout != float64(int64(timeout)) {
			return nil, &RequestError{Message: "timeout must be an integer"}
		}
		if timeout < 0 {
			return nil, &RequestError{Message: "timeout must be a positive integer"}
		}
	}
	sdk := []Header{
		hdr("Accept", "application/json"),
		hdr("User-Agent", "Anthropic/JS "+SDKVersion),
		hdr("X-Stainless-Retry-Count", "0"),
	}
	if timeout != 0 {
		sdk = append(sdk, hdr("X-Stainless-Timeout", strconv.FormatInt(int64(timeout/1000), 10)))
	}
	sdk = append(sdk, hdr("X-Stainless-Lang", "js"), hdr("X-Stainless-Package-Version", SDKVersion),
		hdr("X-Stainless-Runtime", "node"), hdr("anthropic-dangerous-direct-browser-access", "true"),
		hdr("anthropic-version", AnthropicVersion))

	var auth []Header
	switch {
	case copilot || oauth:
		if opts.APIKey != nil {
			auth = append(auth, hdr("Authorization", "Bearer "+*opts.APIKey))
		}
	case opts.APIKey != nil:
		auth = append(auth, hdr("X-Api-Key", *opts.APIKey))
	}

	var betas []string
	if len(ctx.Tools) > 0 && !c.truthy("supportsEagerToolInputStreaming", true) {
		betas = append(betas, BetaFineGrainedToolStreaming)
	}
	if (opts.InterleavedThinking == nil || *opts.InterleavedThinking) && !c.isTrue("forceAdaptiveThinking") {
		betas = append(betas, BetaInterleavedThinking)
	}
	pi := []Header{hdr("accept", "application/json"), hdr("anthropic-dangerous-direct-browser-access", "true")}
	var sources [][]Header
	switch {
	case copilot:
		if len(betas) > 0 {
			pi = append(pi, hdr("anthropic-beta", strings.Join(betas, ",")))
		}
		sources = [][]Header{pi, modelHeaders(model), copilotHeaders(ctx), opts.Headers}
	case oauth:
		pi = append(pi, hdr("anthropic-beta", strings.Join(append([]string{BetaClaudeCode, BetaOAuth}, betas...), ",")),
			hdr("user-agent", "claude-cli/"+ClaudeCodeVersion), hdr("x-app", "cli"))
		sources = [][]Header{pi, modelHeaders(model), opts.Headers}
	default:
		if len(betas) > 0 {
			pi = append(pi, hdr("anthropic-beta", strings.Join(betas, ",")))
		}
		var affinity []Header
		if retention != "none" && opts.SessionID != nil && *opts.SessionID != "" && c.truthy("sendSessionAffinityHeaders", false) {
			affinity = []Header{hdr("x-session-affinity", *opts.SessionID)}
		}
		sources = [][]Header{pi, affinity, modelHeaders(model), opts.Headers}
	}
	defaults := mergeObjects(sources...)

	set := newHeaderSet()
	for _, layer := range [][]Header{sdk, auth, defaults, {hdr("content-type", "application/json")}} {
		set.apply(layer)
	}
	if err := set.checkAuth(); err != nil {
		return nil, err
	}

	body := buildBody(model, ctx, opts, oauth, retention, c, now)
	return &Request{
		Method: http.MethodPost,
		URL:    joinURL(model.BaseURL, MessagesPath),
		Header: set.header(),
		Body:   body,
		model:  model,
		oauth:  oauth,
		tools:  ctx.Tools,
	}, nil
}

func hdr(name, value string) Header { return Header{Name: name, Value: &value} }

// hasAuthHeader is Pi's check that the caller's headers carry credentials:
// a non-blank authorization, x-api-key or cf-aig-authorization.
func hasAuthHeader(headers []Header) bool {
	for _, h := range headers {
		switch strings.ToLower(h.Name) {
		case "authorization", "x-api-key", "cf-aig-authorization":
			if h.Value != nil && !stream.IsBlank(*h.Value) {
				return true
			}
		}
	}
	return false
}

// modelHeaders reads model.headers; JSON null deletes, anything else is
// turned into a string as fetch's Headers would.
func modelHeaders(model *ai.Model) []Header {
	var out []Header
	for _, m := range model.Headers.Members() {
		h := Header{Name: m.Key}
		if m.Value.Kind() != jsonv.Null {
			s := m.Value.JSString()
			h.Value = &s
		}
		out = append(out, h)
	}
	return out
}

// copilotHeaders are the per-request headers Pi adds for GitHub Copilot.
func copilotHeaders(ctx *ai.Context) []Header {
	initiator := "user"
	if n := len(ctx.Messages); n > 0 && ctx.Messages[n-1].Role() != ai.RoleUser {
		initiator = "agent"
	}
	out := []Header{hdr("X-Initiator", initiator), hdr("Openai-Intent", "conversation-edits")}
	for _, m := range ctx.Messages {
		var blocks []ai.Block
		switch m := m.(type) {
		case *ai.UserMessage:
			if !m.Content.IsString {
				blocks = m.Content.Blocks
			}
		case *ai.ToolResultMessage:
			blocks = m.Content
		}
		for _, b := range blocks {
			if _, ok := b.(*ai.ImageBlock); ok {
				return append(out, hdr("Copilot-Vision-Request", "true"))
			}
		}
	}
	return out
}

// mergeObjects is Object.assign over header objects: a name spelled exactly
// as before keeps its place and takes the new value, any other spelling is
// a new key at the end. Case only matters later, in headerSet.
func mergeObjects(sources ...[]Header) []Header {
	var out []Header
	for _, src := range sources {
	next:
		for _, h := range src {
			for i := range out {
				if out[i].Name == h.Name {
					out[i].Value = h.Value
					continue next
				}
			}
			out = append(out, h)
		}
	}
	return out
}

// headerSet is the SDK's buildHeaders: names compare without case, a later
// value replaces an earlier one, null deletes, and fetch trims the value.
type headerSet struct {
	names  []string // lower-case, in first-set order
	values map[string]string
	nulls  map[string]bool
}

func newHeaderSet() *headerSet {
	return &headerSet{values: map[string]string{}, nulls: map[string]bool{}}
}

func (s *headerSet) apply(layer []Header) {
	for _, h := range layer {
		name := strings.ToLower(h.Name)
		if h.Value == nil {
			delete(s.values, name)
			s.nulls[name] = true
			continue
		}
		if _, ok := s.values[name]; !ok {
			s.names = append(s.names, name)
		}
		s.values[name] = strings.Trim(*h.Value, " \t\r\n")
		delete(s.nulls, name)
	}
}

// checkAuth is the SDK's validateHeaders: some credential must be set, or
// explicitly removed.
func (s *headerSet) checkAuth() error {
	if s.values["x-api-key"] != "" || s.values["authorization"] != "" {
		return nil
	}
	if s.nulls["x-api-key"] || s.nulls["authorization"] {
		return nil
	}
	return &RequestError{Message: `Could not resolve authentication method. Expected either apiKey or authToken to be set. Or for one of the "X-Api-Key" or "Authorization" headers to be explicitly omitted`}
}

func (s *headerSet) header() http.Header {
	h := http.Header{}
	for _, name := range s.names {
		if v, ok := s.values[name]; ok {
			h.Set(name, v)
		}
	}
	return h
}

// joinURL is the SDK's buildURL for an absolute base: one slash between
// base and path, and the SDK's default host for an empty base.
func joinURL(base, path string) string {
	if base == "" {
		base = DefaultBaseURL
	}
	if strings.HasSuffix(base, "/") {
		path = path[1:]
	}
	return base + path
}

// compat reads model.compat with JavaScript's rules.
type compat struct{ v jsonv.Value }

func compatOf(model *ai.Model) compat { return compat{model.Compat} }

// truthy is `model.compat?.name ?? def` read as a condition.
func (c compat) truthy(name string, def bool) bool {
	v, ok := c.v.Get(name)
	if !ok || v.Kind() == jsonv.Null {
		return def
	}
	return v.Truthy()
}

// isTrue is `model.compat?.name === true`.
func (c compat) isTrue(name string) bool {
	v, ok := c.v.Get(name)
	return ok && v.Kind() == jsonv.Bool && v.Bool()
}

// resolveRetention is Pi's resolveCacheRetention without process.env.
func resolveRetention(opts Options) string {
	if opts.CacheRetention != nil && *opts.CacheRetention != "" {
		return *opts.CacheRetention
	}
	if opts.envValue("PI_CACHE_RETENTION") == "long" {
		return "long"
	}
	return "short"
}

// cacheControl is the cache_control object for a retention, Absent for "none".
func cacheControl(retention string, c compat) jsonv.Value {
	if retention == "none" {
		return jsonv.Value{}
	}
	b := new(jsonv.ObjectBuilder).SetString("type", "ephemeral")
	if retention == "long" && c.truthy("supportsLongCacheRetention", true) {
		b.SetString("ttl", "1h")
	}
	return b.Value()
}

// buildBody is Pi's buildParams, with its member order.
func buildBody(model *ai.Model, ctx *ai.Context, opts Options, oauth bool, retention string, c compat, now transform.Clock) jsonv.Value {
	cc := cacheControl(retention, c)
	b := new(jsonv.ObjectBuilder).SetString("model", model.ID)
	b.Set("messages", convertMessages(ctx.Messages, model, oauth, cc, c.truthy("allowEmptySignature", false), now))
	maxTokens := opts.MaxTokens
	if maxTokens.IsAbsent() {
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
	if ctx.SystemPrompt != nil && *ctx.SystemPrompt != "" {
		system = append(system, textBlock(ai.SanitizeSurrogates(*ctx.SystemPrompt)))
	}
	if system != nil {
		b.Set("system", jsonv.ArrayValue(system...))
	}

	thinkingOn := opts.ThinkingEnabled != nil && *opts.ThinkingEnabled
	if !opts.Temperature.IsAbsent() && !thinkingOn && c.truthy("supportsTemperature", true) {
		b.Set("temperature", stream.JSValue(opts.Temperature))
	}
	if len(ctx.Tools) > 0 {
		toolCC := jsonv.Value{}
		if c.truthy("supportsCacheControlOnTools", true) {
			toolCC = cc
		}
		b.Set("tools", convertTools(ctx.Tools, oauth, c.truthy("supportsEagerToolInputStreaming", true), toolCC))
	}
	if model.Reasoning {
		switch {
		case thinkingOn:
			display := "summarized"
			if opts.ThinkingDisplay != nil {
				display = *opts.ThinkingDisplay
			}
			if c.isTrue("forceAdaptiveThinking") {
				b.Set("thinking", new(jsonv.ObjectBuilder).SetString("type", "adaptive").SetString("display", display).Value())
				if opts.Effort != nil && *opts.Effort != "" {
					b.Set("output_config", new(jsonv.ObjectBuilder).SetString("effort", *opts.Effort).Value())
				}
			} else {
				budget := stream.JSValue(opts.ThinkingBudgetTokens)
				if !budget.Truthy() {
					budget = jsonv.NumberValue("1024")
				}
				b.Set("thinking", new(jsonv.ObjectBuilder).SetString("type", "enabled").Set("budget_tokens", budget).SetString("display", display).Value())
			}
		case opts.ThinkingEnabled != nil && !levelOffIsNull(model):
			b.Set("thinking", new(jsonv.ObjectBuilder).SetString("type", "disabled").Value())
		}
	}
	if userID, ok := opts.Metadata.Get("user_id"); ok && userID.Kind() == jsonv.String {
		b.Set("metadata", new(jsonv.ObjectBuilder).Set("user_id", userID).Value())
	}
	switch tc := opts.ToolChoice; tc.Kind() {
	case jsonv.String:
		if tc.Str() != "" {
			b.Set("tool_choice", new(jsonv.ObjectBuilder).Set("type", tc).Value())
		}
	case jsonv.Object:
		b.Set("tool_choice", stream.JSValue(tc))
	}
	return b.Value()
}

// levelOffIsNull is `model.thinkingLevelMap?.off === null`: the model
// cannot turn thinking off, so Pi does not ask.
func levelOffIsNull(model *ai.Model) bool {
	v, ok := model.ThinkingLevelMap.Get("off")
	return ok && v.Kind() == jsonv.Null
}

// convertTools is Pi's convertTools: only properties and required survive
// from each schema, and the last tool carries the cache breakpoint.
func convertTools(tools []ai.Tool, oauth, eager bool, cc jsonv.Value) jsonv.Value {
	out := make([]jsonv.Value, len(tools))
	for i, t := range tools {
		name := t.Name
		if oauth {
			name = toClaudeCodeName(name)
		}
		props, ok := t.Parameters.Get("properties")
		if !ok || props.Kind() == jsonv.Null {
			props = jsonv.ObjectValue()
		}
		required, ok := t.Parameters.Get("required")
		if !ok || required.Kind() == jsonv.Null {
			required = jsonv.ArrayValue()
		}
		schema := new(jsonv.ObjectBuilder).SetString("type", "object").Set("properties", stream.JSValue(props)).Set("required", stream.JSValue(required))
		b := new(jsonv.ObjectBuilder).SetString("name", name).SetString("description", t.Description)
		if eager {
			b.SetBool("eager_input_streaming", true)
		}
		b.Set("input_schema", schema.Value())
		if i == len(tools)-1 {
			b.Set("cache_control", cc)
		}
		out[i] = b.Value()
	}
	return jsonv.ArrayValue(out...)
}
