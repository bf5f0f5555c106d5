// Package openaicodexresponses is the Go reference for Pi's
// openai-codex-responses API (pi-ai 0.80.2,
// dist/api/openai-codex-responses.js): the Responses API of the ChatGPT
// backend, called with plain fetch and a ChatGPT OAuth token. Its input
// items, tool definitions and event handling are openai-responses', so it
// is built on package openairesponses and keeps only the differences:
//
//   - options.go  what the API reads from the caller (DecodeOptions)
//   - request.go  URL, token and account id, headers and body
//     (BuildRequest)
//   - stream.go   Pi's own server-sent-event reading and event screening
//     in front of openairesponses' event handling (ParseStream), and HTTP
//     errors (ParseHTTPError)
//
// Only the SSE transport is modelled: Pi's default transport first tries
// a WebSocket, so a case sets transport "sse".
package openaicodexresponses

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/openairesponses"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// API is the model.api value this package serves.
const API = "openai-codex-responses"

// Literals Pi puts on the wire or reports.
const (
	// DefaultBaseURL is used when model.baseUrl is empty or blank.
	DefaultBaseURL = "https://chatgpt.com/backend-api"
	// DefaultInstructions is sent when the context has no system prompt.
	DefaultInstructions = "You are a helpful assistant."
	// DefaultVerbosity is text.verbosity when textVerbosity is unset.
	DefaultVerbosity = "low"
	// AccountClaim is the member of the token's payload that holds
	// chatgpt_account_id.
	AccountClaim = "https://api.openai.com/auth"
	// AccountHeader carries the account id read from the token.
	AccountHeader = "chatgpt-account-id"
	// Originator is the originator header's value.
	Originator = "pi"
	// BetaHeaderValue is the OpenAI-Beta header's value over SSE.
	BetaHeaderValue = "responses=experimental"
	// BadTokenText is Pi's error for a key it cannot read an account from.
	BadTokenText = "Failed to extract accountId from token"
	// SSETransport is the only transport the reference models.
	SSETransport = "sse"
)

// ToolCallProviders are the target providers whose tool-call ids keep the
// "<call id>|<item id>" pairing: the same list as openai-responses'.
var ToolCallProviders = openairesponses.PairedIDProviders

// NormalizeToolCallID is this API's tool-call id normalizer.
var NormalizeToolCallID = openairesponses.ToolCallIDNormalizer(ToolCallProviders)

// MachineHeaders are the request headers whose values name the machine
// (Pi's user-agent is "pi (<platform> <release>; <arch>)"): the request
// leaves them out, and a harness allows them without comparing them.
var MachineHeaders = []string{"user-agent"}

// ErrNotModelled marks an input the reference does not reproduce: a
// transport other than "sse", a maxRetries that is a fraction.
var ErrNotModelled = errors.New("openaicodexresponses: not modelled")

// ErrModelHeaders is Pi's TypeError for model headers that new Headers
// cannot take (neither an object nor a list of pairs, or a name that is
// not a token).
var ErrModelHeaders = errors.New("openaicodexresponses: model headers are not a headers init")

// BuildRequest returns the request Pi 0.80.2's stream(model, ctx, opts)
// sends. now stamps the synthetic tool results transform adds. A
// *stream.RequestError means Pi sends nothing and fails with that message; an
// error wrapping ErrNotModelled means the reference cannot say.
func BuildRequest(model *ai.Model, ctx *ai.Context, opts Options, now transform.Clock) (*provider.Call, error) {
	if t := opts.Transport; t.Kind() != jsonv.String || t.Str() != SSETransport {
		// Pi reads it with ||: anything but "sse" (another type, or none)
		// takes the websocket path first.
		return nil, fmt.Errorf("%w: transport %s; cases set transport %q", ErrNotModelled, t, SSETransport)
	}
	token, err := opts.APIKeyOr(model, "")
	if err != nil {
		return nil, err
	}
	account, ok := AccountID(token)
	if !ok {
		return nil, &stream.RequestError{Message: BadTokenText}
	}
	body, err := buildBody(model, ctx, opts, now)
	if err != nil {
		return nil, err
	}
	header, err := buildHeaders(model, opts, token, account)
	if err != nil {
		return nil, err
	}
	if t := opts.TimeoutMs; !t.IsAbsent() {
		if f, _ := t.Float64(); f < 0 {
			return nil, &stream.RequestError{Message: "Invalid timeoutMs: " + t.JSString()}
		}
	}
	if err := LoopOutcome(&opts.StreamOptions); err != nil {
		return nil, err
	}
	req := provider.Request{Method: http.MethodPost, URL: ResolveURL(model.BaseURL), Header: header, Body: body}
	tier := openairesponses.StringOf(opts.ServiceTier)
	return &provider.Call{Request: req, Read: func(resp *http.Response) (*ai.AssistantMessage, []stream.Event, error) {
		return readResponse(model, tier, resp, now)
	}}, nil
}

// ResolveURL is the endpoint for a base URL: the default base when it is
// blank; trailing slashes dropped; a base ending in /codex/responses used
// as it is, one ending in /codex given /responses, any other given
// /codex/responses.
func ResolveURL(base string) string {
	if stream.IsBlank(base) {
		base = DefaultBaseURL
	}
	base = strings.TrimRight(base, "/")
	switch {
	case strings.HasSuffix(base, "/codex/responses"):
		return base
	case strings.HasSuffix(base, "/codex"):
		return base + "/responses"
	}
	return base + "/codex/responses"
}

// AccountID reads chatgpt_account_id from the payload of a token of three
// dot-separated parts, the payload decoded as atob does (standard base64,
// whitespace and padding forgiven, each byte one Latin-1 character) and
// parsed as JSON. ok is false where Pi fails with BadTokenText: another
// number of parts, a payload that is not base64 (base64url's - and _
// included) or not JSON, or a missing or falsy account id. A non-string id
// is turned into a string as a header value would be.
func AccountID(token string) (id string, ok bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return "", false
	}
	raw, ok := atob(parts[1])
	if !ok {
		return "", false
	}
	payload, err := stream.ParseJSON(raw)
	if err != nil {
		return "", false
	}
	v := stream.Member(stream.Member(payload, AccountClaim), "chatgpt_account_id")
	if !v.Truthy() {
		return "", false
	}
	return v.JSString(), true
}

// atob is the forgiving base64 decode of the HTML standard, returning the
// bytes as a string of Latin-1 characters.
func atob(s string) (string, bool) {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r' {
			return -1
		}
		return r
	}, s)
	if len(s)%4 == 0 {
		switch {
		case strings.HasSuffix(s, "=="):
			s = s[:len(s)-2]
		case strings.HasSuffix(s, "="):
			s = s[:len(s)-1]
		}
	}
	if len(s)%4 == 1 {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/') {
			return "", false
		}
	}
	b, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		return "", false
	}
	runes := make([]rune, len(b))
	for i, c := range b {
		runes[i] = rune(c)
	}
	return string(runes), true
}

// buildHeaders is Pi's SSE header object: model.headers as new Headers
// takes them (headersInit), the caller's headers over them (null deletes,
// any other value is String()ed, an array's elements joined with commas),
// then Pi's own, which always win. Names compare without case.
func buildHeaders(model *ai.Model, opts Options, token, account string) (http.Header, error) {
	set := httpheader.NewSet()
	check := func(v string) error {
		if err := httpheader.CheckByteString(v); err != nil {
			return &stream.RequestError{Message: err.Error()}
		}
		return nil
	}
	init, err := headersInit(model.Headers)
	if err != nil {
		return nil, err
	}
	for _, h := range init {
		if err := check(h.Name); err != nil {
			return nil, err
		}
		if err := check(*h.Value); err != nil {
			return nil, err
		}
		if !httpheader.ValidName(h.Name) {
			return nil, fmt.Errorf("%w: %q is not a header name (Headers.append throws)", ErrModelHeaders, h.Name)
		}
		set.Append(h.Name, *h.Value)
	}
	put := func(h httpheader.Header) error {
		if h.Value == nil {
			set.Delete(h.Name)
			return nil
		}
		if err := check(*h.Value); err != nil {
			return err
		}
		// headers.set: one value, String() of an array.
		set.Delete(h.Name)
		set.Append(h.Name, *h.Value)
		return nil
	}
	own := append([]httpheader.Header(nil), opts.Headers...)
	own = append(own,
		httpheader.New("Authorization", "Bearer "+token),
		httpheader.New(AccountHeader, account),
		httpheader.New("originator", Originator),
		httpheader.New("OpenAI-Beta", BetaHeaderValue),
		httpheader.New("accept", "text/event-stream"),
		httpheader.New("content-type", "application/json"),
	)
	if s, ok := opts.Session(); ok {
		own = append(own, httpheader.New("session-id", s), httpheader.New("x-client-request-id", s))
	}
	for _, h := range own {
		if err := put(h); err != nil {
			return nil, err
		}
	}
	return set.Header(), nil
}

// headersInit reads model.headers as new Headers(v) does: an object's
// members, or an array's elements, each a pair [name, value]; names and
// values as String() writes them (null is "null"). Anything else, or a
// pair that is not an array of two, is ErrModelHeaders.
func headersInit(v jsonv.Value) ([]httpheader.Header, error) {
	var out []httpheader.Header
	switch v.Kind() {
	case jsonv.Absent:
	case jsonv.Object:
		for _, m := range v.Members() {
			out = append(out, httpheader.New(m.Key, m.Value.JSString()))
		}
	case jsonv.Array:
		for i, pair := range v.Elems() {
			if pair.Kind() != jsonv.Array || len(pair.Elems()) != 2 {
				return nil, fmt.Errorf("%w: element %d is not a pair [name, value]", ErrModelHeaders, i)
			}
			out = append(out, httpheader.New(pair.Elems()[0].JSString(), pair.Elems()[1].JSString()))
		}
	default:
		return nil, fmt.Errorf("%w: model headers of type %s", ErrModelHeaders, v.Kind())
	}
	return out, nil
}

// buildBody is Pi's buildRequestBody, with its member order:
// model, store, stream, instructions, input, text, include,
// prompt_cache_key?, tool_choice, parallel_tool_calls, temperature?,
// service_tier?, tools?, reasoning?.
func buildBody(model *ai.Model, ctx *ai.Context, opts Options, now transform.Clock) (jsonv.Value, error) {
	input, err := openairesponses.ConvertInputWithoutSystemPrompt(model, ctx, NormalizeToolCallID, now)
	if err != nil {
		return jsonv.Value{}, err
	}
	// systemPrompt || the default: copied unread, whatever its type.
	instructions := jsonv.StringValue(DefaultInstructions)
	if sp := ctx.SystemPromptValue(); sp.Truthy() {
		instructions = sp
	}
	verbosity := jsonv.StringValue(DefaultVerbosity)
	if opts.TextVerbosity.Truthy() {
		verbosity = opts.TextVerbosity
	}
	b := new(jsonv.ObjectBuilder).Set("model", model.IDValue()).SetBool("store", false).SetBool("stream", true).
		Set("instructions", stream.JSValue(instructions)).Set("input", input).
		Set("text", new(jsonv.ObjectBuilder).Set("verbosity", stream.JSValue(verbosity)).Value()).
		Set("include", jsonv.ArrayValue(jsonv.StringValue("reasoning.encrypted_content")))
	key, err := opts.PromptCacheKey()
	if err != nil {
		return jsonv.Value{}, err
	}
	b.Set("prompt_cache_key", key)
	b.SetString("tool_choice", "auto").SetBool("parallel_tool_calls", true)
	if !opts.Temperature.IsAbsent() {
		b.Set("temperature", stream.JSValue(opts.Temperature))
	}
	b.Set("service_tier", stream.JSValue(opts.ServiceTier))
	if len(ctx.Tools) > 0 {
		b.Set("tools", openairesponses.ConvertToolsStrict(ctx.Tools, jsonv.NullValue()))
	}
	if r := opts.ReasoningEffort; !r.IsAbsent() {
		if e := effort(model, r); e.Kind() != jsonv.Null {
			summary := opts.ReasoningSummary
			if summary.IsNullish() {
				summary = jsonv.StringValue("auto")
			}
			b.Set("reasoning", new(jsonv.ObjectBuilder).Set("effort", stream.JSValue(e)).Set("summary", stream.JSValue(summary)).Value())
		}
	}
	return b.Value(), nil
}

// effort is the reasoning effort sent for a requested one, whatever it
// holds: "none" is the model's "off" entry, any other the model's entry
// for String(requested); a missing or null entry leaves the request as it
// is. A null result sends no reasoning.
func effort(model *ai.Model, requested jsonv.Value) jsonv.Value {
	key, fallback := requested.JSString(), requested
	if requested.Kind() == jsonv.String && requested.Str() == "none" {
		key = "off"
	}
	if v, ok := model.ThinkingLevelMap.Get(key); ok && v.Kind() != jsonv.Null {
		return v
	}
	return fallback
}
