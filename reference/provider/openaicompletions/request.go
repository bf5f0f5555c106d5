// Package openaicompletions is the Go reference for Pi's openai-completions
// API (pi-ai 0.80.2, dist/api/openai-completions.js, with the openai SDK
// 6.26.0 underneath): the HTTP request Pi sends to a Chat Completions
// endpoint for a model, a context and options, and the message and events
// Pi makes of the streamed answer.
//
// It follows the anthropic package's layout:
//
//   - options.go  what the API reads from the caller (DecodeOptions)
//   - compat.go   model.compat merged over what Pi detects from the provider and URL
//   - request.go  URL, headers and body (Build, streaming the messages)
//   - convert.go  Pi's messages to chat messages
//   - stream.go   the streamed answer to a message and events (ParseStream,
//     ParseHTTPError)
package openaicompletions

import (
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
const API = "openai-completions"

// Literals Pi and its SDK put on the wire (the SDK's version and default
// base URL are openaisdk's).
const CompletionsPath = "/chat/completions"

// authHeaders authenticate a request without a key.
var authHeaders = []string{"authorization", "cf-aig-authorization"}

// Build builds the request Pi 0.80.2's stream(model, ctx, opts) sends,
// with the context's messages read from msgs and the body handed to body
// (provider.StreamBuild). now stamps synthetic tool results that transform
// adds (their timestamps never reach the wire). A *stream.RequestError
// means Pi sends nothing.
func Build(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, now transform.Clock, body provider.BodySink) (*provider.Call, error) {
	apiKey, err := opts.APIKeyOr(model, "unused", authHeaders...)
	if err != nil {
		return nil, err
	}
	d := opts.Dialect
	c, err := resolveCompat(model, d)
	if err != nil {
		return nil, err
	}
	retention := opts.Retention()

	// The SDK announces only a timeout the caller gave. Its error, like
	// the system prompt's, comes after Pi's checks of the messages; the
	// conversion sanitizes the system prompt, and the SDK checks the
	// timeout only once Pi has built the whole body.
	sdk, timeoutErr := openaisdk.HeadersAt(d, "OpenAI", opts.TimeoutMs)
	if timeoutErr != nil && countsRetriesFirst.At(d) && opts.MaxRetries.ConversionThrows() {
		// SDK 6 subtracts maxRetries from itself for the retry count
		// before it checks the timeout: one with no number form throws.
		timeoutErr = &stream.RequestError{Message: stream.NoPrimitiveText}
	}
	_, pending := ctx.SystemText()
	if pending == nil {
		pending = timeoutErr
	}
	// Pi 1.6's identity headers are the lowest layer; Pi makes them before
	// it converts the messages.
	identity, err := provider.IdentityHeaders(d, model, opts.Identity)
	if err != nil {
		return nil, err
	}
	copilot := model.Provider == "github-copilot"
	tally := provider.CopilotTally(d, ctx)
	if copilot {
		msgs = provider.Tap(msgs, tally.See)
	}
	if err := buildBody(d, model, ctx, msgs, opts, c, retention, now, pending, body); err != nil {
		return nil, err
	}

	// Pi's default headers: one object, later sources replacing equal keys.
	sources := [][]httpheader.Header{identity, httpheader.FromModel(model)}
	if copilot {
		sources = append(sources, tally.Headers())
	}
	if retention != "none" && c.truthy("sendSessionAffinityHeaders") {
		sources = append(sources, sessionHeaders(d, opts, c))
	}
	sources = append(sources, opts.Headers)
	defaults := httpheader.Assign(sources...)

	set := httpheader.NewSet()
	for _, layer := range [][]httpheader.Header{sdk, {httpheader.New("Authorization", "Bearer "+apiKey)}, defaults, {httpheader.New("content-type", "application/json")}} {
		set.SetLayer(layer)
	}
	req := provider.Request{Method: http.MethodPost, URL: provider.JoinURL(model.BaseURL, openaisdk.DefaultBaseURL, CompletionsPath), Header: set.Header()}
	parse := func(r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
		return parseStream(d, c, r, model, now)
	}
	httpError := func(model *ai.Model, status int, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
		return parseHTTPError(d, model, status, body, now)
	}
	return provider.Answer(req, model, now, parse, httpError), nil
}

// sessionHeaders are the session-affinity headers (compat
// sendSessionAffinityHeaders) for the session id, when there is one:
// session_id, x-client-request-id and x-session-affinity. In Pi 1.6
// compat.sessionAffinityFormat "openrouter" sends x-session-id alone, and
// any format but "openai" leaves session_id out.
func sessionHeaders(d dialect.Dialect, opts Options, c compat) []httpheader.Header {
	h, ok := opts.SessionHeader("session_id")
	if !ok {
		return nil
	}
	named := func(name string) httpheader.Header {
		n := h
		n.Name = name
		return n
	}
	if !affinityFormat.At(d) {
		return []httpheader.Header{h, named("x-client-request-id"), named("x-session-affinity")}
	}
	if c.is("sessionAffinityFormat", "openrouter") {
		return []httpheader.Header{named("x-session-id")}
	}
	var out []httpheader.Header
	if c.is("sessionAffinityFormat", "openai") {
		out = append(out, h)
	}
	return append(out, named("x-client-request-id"), named("x-session-affinity"))
}

// offEntry is `model.thinkingLevelMap?.off`: Absent when missing.
func offEntry(model *ai.Model) jsonv.Value {
	return provider.LevelEntry(model, jsonv.StringValue("off"))
}

// nullish is `v ?? def`.
func nullish(v, def jsonv.Value) jsonv.Value {
	if v.IsNullish() {
		return def
	}
	return v
}

// buildBody is Pi's buildParams, with its member order. pending is an
// error Pi raises after its checks of the messages and before it converts
// them.
func buildBody(d dialect.Dialect, model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, c compat, retention string, now transform.Clock, pending error, body provider.BodySink) error {
	cc := cacheControl(c, retention)
	body.Begin([]jsonv.Member{{Key: "model", Value: model.IDValue()}}, "messages")
	cv, err := convertMessages(d, msgs, model, ctx, c, cc, now, pending, body)
	if err != nil {
		return err
	}

	b := new(jsonv.ObjectBuilder).SetBool("stream", true)
	longRetention := retention == "long" && c.truthy("supportsLongCacheRetention")
	// compat.promptCacheKeyMode (1.6): "enabled" always sends the key,
	// "auto" (the default) where 0.80 did, anything else never.
	keyMode := nullish(c.get("promptCacheKeyMode"), jsonv.StringValue("auto"))
	autoKey := strings.Contains(model.BaseURL, "api.openai.com") || longRetention
	if retention != "none" && (strictString(keyMode, "enabled") || strictString(keyMode, "auto") && autoKey) {
		key, err := opts.PromptCacheKey()
		if err != nil {
			return err
		}
		b.Set("prompt_cache_key", key)
	}
	if longRetention {
		b.SetString("prompt_cache_retention", "24h")
	}
	if !c.isFalse("supportsUsageInStreaming") {
		b.Set("stream_options", new(jsonv.ObjectBuilder).SetBool("include_usage", true).Value())
	}
	if c.truthy("supportsStore") {
		b.SetBool("store", false)
	}
	if opts.MaxTokens.Truthy() {
		field := "max_completion_tokens"
		if c.is("maxTokensField", "max_tokens") {
			field = "max_tokens"
		}
		b.Set(field, stream.JSValue(opts.MaxTokens))
	}
	if !opts.Temperature.IsAbsent() {
		b.Set("temperature", stream.JSValue(opts.Temperature))
	}
	given, err := ctx.MappedTools()
	if err != nil {
		return err
	}
	emptyTools := cv.toolHistory && !emptyToolsOnRequest.At(d)
	if emptyToolsOnRequest.At(d) && len(given) == 0 && c.truthy("requiresToolsWithToolHistory") {
		emptyTools = givenToolHistory(ctx, cv.toolHistory)
	}
	if len(given) > 0 || emptyTools {
		tools := convertTools(given, c, cc)
		b.Set("tools", jsonv.ArrayValue(tools...))
		if len(tools) > 0 && c.truthy("zaiToolStream") {
			b.SetBool("tool_stream", true)
		}
	}
	if opts.ToolChoice.Truthy() {
		b.Set("tool_choice", stream.JSValue(opts.ToolChoice))
	}
	if p := c.get("vllmPriority"); !p.IsAbsent() {
		b.Set("priority", p)
	}
	thinkingParams(d, b, model, opts, c)
	if r, ok := model.Compat.Get("openRouterRouting"); ok && r.Truthy() {
		b.Set("provider", stream.JSValue(r))
	}
	if r, ok := model.Compat.Get("vercelGatewayRouting"); ok && r.Truthy() {
		only, order := stream.JSValue(stream.Member(r, "only")), stream.JSValue(stream.Member(r, "order"))
		if only.Truthy() || order.Truthy() {
			g := new(jsonv.ObjectBuilder)
			if only.Truthy() {
				g.Set("only", only)
			}
			if order.Truthy() {
				g.Set("order", order)
			}
			b.Set("providerOptions", new(jsonv.ObjectBuilder).Set("gateway", g.Value()).Value())
		}
	}
	body.End(b.Members())
	return nil
}

// thinkingParams adds the reasoning members compat.thinkingFormat asks for.
// Pi tests the formats in a chain; a format whose branch does not apply
// falls through to the generic reasoning_effort branches at the end. The
// effort is read as Pi reads it, whatever its type: tested for
// truthiness, looked up in thinkingLevelMap by String(effort), copied as
// it is.
func thinkingParams(d dialect.Dialect, b *jsonv.ObjectBuilder, model *ai.Model, opts Options, c compat) {
	budgets := sendsThinkingBudget.At(d)
	effort := opts.ReasoningEffort
	on := effort.Truthy()
	format := c.get("thinkingFormat")
	is := func(name string) bool { return format.Kind() == jsonv.String && format.Str() == name }
	sre := c.truthy("supportsReasoningEffort")
	offNotNull := offEntry(model).Kind() != jsonv.Null
	effortValue := func() jsonv.Value {
		return stream.JSValue(nullish(provider.LevelEntry(model, effort), effort))
	}
	var budget jsonv.Value
	if budgets {
		budget = thinkingBudget(model, opts, b)
	}
	r := model.Reasoning
	switch {
	case is("zai") && r:
		thinking := new(jsonv.ObjectBuilder).SetString("type", "disabled")
		if on {
			thinking = new(jsonv.ObjectBuilder).SetString("type", "enabled")
			if zaiKeepsThinking.At(d) {
				thinking.SetBool("clear_thinking", false)
			}
		}
		b.Set("thinking", thinking.Value())
		if on && sre {
			v := provider.LevelEntry(model, effort)
			if v.IsAbsent() {
				v = effort
			}
			if v.Kind() == jsonv.String {
				b.Set("reasoning_effort", v)
			}
		}
	case is("qwen") && r:
		b.SetBool("enable_thinking", on)
		if v := effortValue(); qwenEffort.At(d) && on && sre && v.Kind() == jsonv.String {
			b.Set("reasoning_effort", v)
		}
	case is("qwen-chat-template") && r:
		b.Set("chat_template_kwargs", new(jsonv.ObjectBuilder).SetBool("enable_thinking", on).SetBool("preserve_thinking", true).Value())
	case is("chat-template") && r:
		if kw := chatTemplateKwargs(budgets, model, effort, c.get("chatTemplateKwargs"), budget); !kw.IsAbsent() {
			b.Set("chat_template_kwargs", kw)
		}
	case basetenFormat.At(d) && is("baseten") && r:
		if args := chatTemplateKwargs(budgets, model, effort, c.get("chatTemplateArgs"), budget); !args.IsAbsent() {
			b.Set("chat_template_args", args)
		}
		if sre {
			mapped := offEntry(model)
			if on {
				mapped = provider.LevelEntry(model, effort)
			}
			if v := stream.JSValue(mapped); mapped.IsAbsent() && effort.Kind() == jsonv.String {
				b.Set("reasoning_effort", effort)
			} else if v.Kind() == jsonv.String {
				b.Set("reasoning_effort", v)
			}
		}
	case is("deepseek") && r:
		if on {
			b.Set("thinking", new(jsonv.ObjectBuilder).SetString("type", "enabled").Value())
		} else if offNotNull {
			b.Set("thinking", new(jsonv.ObjectBuilder).SetString("type", "disabled").Value())
		}
		if on && sre {
			b.Set("reasoning_effort", effortValue())
		}
	case is("openrouter") && r:
		if on {
			b.Set("reasoning", new(jsonv.ObjectBuilder).Set("effort", effortValue()).Value())
		} else if offNotNull {
			b.Set("reasoning", new(jsonv.ObjectBuilder).Set("effort", stream.JSValue(nullish(offEntry(model), jsonv.StringValue("none")))).Value())
		}
	case is("ant-ling") && r && on:
		if v := provider.LevelEntry(model, effort); v.Kind() == jsonv.String {
			b.Set("reasoning", new(jsonv.ObjectBuilder).Set("effort", v).Value())
		}
	case is("together") && r:
		b.Set("reasoning", new(jsonv.ObjectBuilder).SetBool("enabled", on).Value())
		if on && sre {
			b.Set("reasoning_effort", effortValue())
		}
	case is("string-thinking") && r:
		if on {
			b.Set("thinking", effortValue())
		} else if offNotNull {
			b.Set("thinking", stream.JSValue(nullish(offEntry(model), jsonv.StringValue("none"))))
		}
	case on && r && sre:
		b.Set("reasoning_effort", effortValue())
	case !on && r && sre:
		if v := offEntry(model); v.Kind() == jsonv.String {
			b.Set("reasoning_effort", v)
		}
	}
	// 1.6: the budget goes in its own member too, whatever the format.
	if field, ok := budgetField(c); budgets && ok && !budget.IsAbsent() {
		b.Set(field, budget)
	}
}

// budgetField is the member Pi 1.6 writes the thinking budget in:
// compat.thinkingTokenBudgetField when truthy, as a property key (its
// String(): [] is the key ""), else thinking_token_budget when
// compat.supportsThinkingTokenBudget; ok is false for none.
func budgetField(c compat) (field string, ok bool) {
	if f := c.get("thinkingTokenBudgetField"); f.Truthy() {
		return stream.ToString(f), true
	}
	if c.truthy("supportsThinkingTokenBudget") {
		return "thinking_token_budget", true
	}
	return "", false
}

// thinkingBudget is Pi 1.6's resolveClampedThinkingBudget for a reasoning
// model given an effort: the level's budget (thinkingBudgets over 1024,
// 2048, 8192 and 16384 for minimal to high; xhigh and max read high), cut
// so that 1024 tokens of the body's max tokens (else the model's) stay for
// the answer; Absent when that is not above 0 or there is none.
func thinkingBudget(model *ai.Model, opts Options, b *jsonv.ObjectBuilder) jsonv.Value {
	effort := opts.ReasoningEffort
	if !effort.Truthy() || !model.Reasoning {
		return jsonv.Value{}
	}
	level := stream.ToString(effort)
	if level == "xhigh" || level == "max" {
		level = "high"
	}
	budget := math.NaN()
	if v := stream.Member(opts.ThinkingBudgets, level); !v.IsAbsent() {
		budget = stream.ToNumber(v)
	} else if n, ok := map[string]float64{"minimal": 1024, "low": 2048, "medium": 8192, "high": 16384}[level]; ok {
		budget = n
	}
	// max_tokens ?? max_completion_tokens ?? model.maxTokens
	var ceiling jsonv.Value
	for _, key := range []string{"max_tokens", "max_completion_tokens"} {
		for _, m := range b.Members() {
			if m.Key == key && ceiling.IsAbsent() {
				ceiling = m.Value
			}
		}
	}
	if ceiling.IsAbsent() {
		ceiling = model.MaxTokens
	}
	// Go's max and min are Math.max and Math.min: NaN when either is NaN.
	budget = min(budget, max(0, stream.ToNumber(ceiling)-1024))
	if !(budget > 0) {
		return jsonv.Value{}
	}
	return jsonv.JSNumberValue(budget)
}

// chatTemplateKwargs resolves compat.chatTemplateKwargs; Absent when no
// member is left. An effort that is not undefined but falsy (null, "")
// resolves a member the level map leaves out to itself.
func chatTemplateKwargs(budgetVar bool, model *ai.Model, effort, values, budget jsonv.Value) jsonv.Value {
	on := effort.Truthy()
	// Object.entries: a string's characters and an array's elements too.
	kw := jsonv.Spread(stream.JSValue(values))
	out := new(jsonv.ObjectBuilder)
	n := 0
	for _, m := range kw.Members() {
		v := m.Value
		if k := v.Kind(); k == jsonv.Object || k == jsonv.Array {
			switch {
			case !on && stream.Member(v, "omitWhenOff").Truthy():
				continue
			case strictString(stream.Member(v, "$var"), "thinking.enabled"):
				v = jsonv.BoolValue(on)
			case budgetVar && strictString(stream.Member(v, "$var"), "thinking.budget"):
				if budget.IsAbsent() {
					continue
				}
				v = budget
			default:
				var mv jsonv.Value
				if on {
					mv = provider.LevelEntry(model, effort)
				} else {
					mv = offEntry(model)
				}
				switch {
				case mv.IsAbsent() && effort.IsAbsent():
					continue
				case mv.IsAbsent():
					v = stream.JSValue(effort)
				case mv.Kind() == jsonv.String:
					v = mv
				default:
					continue
				}
			}
		}
		out.Set(m.Key, v)
		n++
	}
	if n == 0 {
		return jsonv.Value{}
	}
	return out.Value()
}

func strictString(v jsonv.Value, s string) bool { return v.Kind() == jsonv.String && v.Str() == s }

// hasToolHistory reports whether m, a message as given (before transform
// drops any), is a tool result or an assistant message with a tool call.
func hasToolHistory(m ai.Message) bool {
	switch m := m.(type) {
	case *ai.ToolResultMessage:
		return true
	case *ai.AssistantMessage:
		for _, b := range m.Content {
			if _, ok := b.(*ai.ToolCallBlock); ok {
				return true
			}
		}
	}
	return false
}

// givenToolHistory is Pi 1.6's hasToolHistory, which reads the messages
// as given (ctx.Given), not the converted copies: in order, a tool result,
// or an assistant message whose content has a tool call, ends the search;
// an assistant message whose content was null or absent throws there (a
// stream.JSError panic), where the conversion had filled it. Without the
// messages as given, it is history, the converted messages' answer.
func givenToolHistory(ctx *ai.Context, history bool) bool {
	if ctx.Given == nil {
		return history
	}
	for _, m := range ctx.Given {
		switch role := stream.Member(m, "role"); {
		case strictString(role, ai.RoleToolResult):
			return true
		case strictString(role, ai.RoleAssistant):
			content := stream.Member(m, "content")
			if content.IsNullish() {
				panic(stream.PropertyTypeError(content, "some"))
			}
			for _, b := range content.Elems() {
				if strictString(stream.Member(b, "type"), "toolCall") {
					return true
				}
			}
		}
	}
	return false
}

// convertTools is Pi's convertTools: function tools, the name, description
// and schema as given (whatever their types; undefined leaves the member
// out), strict:false unless the provider rejects the member. The last one
// carries the cache marker cc, unless it is Absent.
func convertTools(tools []ai.Tool, c compat, cc jsonv.Value) []jsonv.Value {
	out := make([]jsonv.Value, len(tools))
	for i, t := range tools {
		fn := new(jsonv.ObjectBuilder).Set("name", t.NameValue()).Set("description", t.DescriptionValue()).
			Set("parameters", stream.JSValue(t.Parameters))
		if !c.isFalse("supportsStrictMode") {
			fn.SetBool("strict", false)
		}
		tool := new(jsonv.ObjectBuilder).SetString("type", "function").Set("function", fn.Value())
		if i == len(tools)-1 && !cc.IsAbsent() {
			tool.Set("cache_control", cc)
		}
		out[i] = tool.Value()
	}
	return out
}

// cacheControl is the Anthropic-style marker for compat.cacheControlFormat
// "anthropic"; Absent otherwise or for retention "none".
func cacheControl(c compat, retention string) jsonv.Value {
	if !c.is("cacheControlFormat", "anthropic") || retention == "none" {
		return jsonv.Value{}
	}
	b := new(jsonv.ObjectBuilder).SetString("type", "ephemeral")
	if retention == "long" && c.truthy("supportsLongCacheRetention") {
		b.SetString("ttl", "1h")
	}
	return b.Value()
}
