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
	"net/http"
	"strings"

	"github.com/piconform/piconform/reference/ai"
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
	c, err := resolveCompat(model)
	if err != nil {
		return nil, err
	}
	retention := opts.Retention()

	// The SDK announces only a timeout the caller gave. Its error, like
	// the system prompt's, comes after Pi's checks of the messages.
	sdk, pending := openaisdk.Headers("OpenAI", opts.TimeoutMs)
	if pending == nil {
		// The conversion sanitizes the system prompt first.
		_, pending = ctx.SystemText()
	}
	copilot := model.Provider == "github-copilot"
	var tally httpheader.CopilotTally
	if copilot {
		msgs = provider.Tap(msgs, tally.See)
	}
	if err := buildBody(model, ctx, msgs, opts, c, retention, now, pending, body); err != nil {
		return nil, err
	}

	// Pi's default headers: one object, later sources replacing equal keys.
	var sources [][]httpheader.Header
	sources = append(sources, httpheader.FromModel(model))
	if copilot {
		sources = append(sources, tally.Headers())
	}
	if h, ok := opts.SessionHeader("session_id"); retention != "none" && ok && c.truthy("sendSessionAffinityHeaders") {
		id, affinity := h, h
		id.Name, affinity.Name = "x-client-request-id", "x-session-affinity"
		sources = append(sources, []httpheader.Header{h, id, affinity})
	}
	sources = append(sources, opts.Headers)
	defaults := httpheader.Assign(sources...)

	set := httpheader.NewSet()
	for _, layer := range [][]httpheader.Header{sdk, {httpheader.New("Authorization", "Bearer "+apiKey)}, defaults, {httpheader.New("content-type", "application/json")}} {
		set.SetLayer(layer)
	}
	req := provider.Request{Method: http.MethodPost, URL: provider.JoinURL(model.BaseURL, openaisdk.DefaultBaseURL, CompletionsPath), Header: set.Header()}
	return provider.Answer(req, model, now, ParseStream, ParseHTTPError), nil
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
func buildBody(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, c compat, retention string, now transform.Clock, pending error, body provider.BodySink) error {
	cc := cacheControl(c, retention)
	body.Begin([]jsonv.Member{{Key: "model", Value: model.IDValue()}}, "messages")
	cv, err := convertMessages(msgs, model, ctx, c, cc, now, pending, body)
	if err != nil {
		return err
	}

	b := new(jsonv.ObjectBuilder).SetBool("stream", true)
	longRetention := retention == "long" && c.truthy("supportsLongCacheRetention")
	if (strings.Contains(model.BaseURL, "api.openai.com") && retention != "none") || longRetention {
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
	if len(given) > 0 || cv.toolHistory {
		tools := convertTools(given, c, cc)
		b.Set("tools", jsonv.ArrayValue(tools...))
		if len(tools) > 0 && c.truthy("zaiToolStream") {
			b.SetBool("tool_stream", true)
		}
	}
	if opts.ToolChoice.Truthy() {
		b.Set("tool_choice", stream.JSValue(opts.ToolChoice))
	}
	thinkingParams(b, model, opts, c)
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
func thinkingParams(b *jsonv.ObjectBuilder, model *ai.Model, opts Options, c compat) {
	effort := opts.ReasoningEffort
	on := effort.Truthy()
	format := c.get("thinkingFormat")
	is := func(name string) bool { return format.Kind() == jsonv.String && format.Str() == name }
	sre := c.truthy("supportsReasoningEffort")
	offNotNull := offEntry(model).Kind() != jsonv.Null
	effortValue := func() jsonv.Value {
		return stream.JSValue(nullish(provider.LevelEntry(model, effort), effort))
	}
	r := model.Reasoning
	switch {
	case is("zai") && r:
		typ := "disabled"
		if on {
			typ = "enabled"
		}
		b.Set("thinking", new(jsonv.ObjectBuilder).SetString("type", typ).Value())
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
	case is("qwen-chat-template") && r:
		b.Set("chat_template_kwargs", new(jsonv.ObjectBuilder).SetBool("enable_thinking", on).SetBool("preserve_thinking", true).Value())
	case is("chat-template") && r:
		if kw := chatTemplateKwargs(model, effort, c); !kw.IsAbsent() {
			b.Set("chat_template_kwargs", kw)
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
}

// chatTemplateKwargs resolves compat.chatTemplateKwargs; Absent when no
// member is left. An effort that is not undefined but falsy (null, "")
// resolves a member the level map leaves out to itself.
func chatTemplateKwargs(model *ai.Model, effort jsonv.Value, c compat) jsonv.Value {
	on := effort.Truthy()
	// Object.entries: a string's characters and an array's elements too.
	kw := jsonv.Spread(stream.JSValue(c.get("chatTemplateKwargs")))
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
