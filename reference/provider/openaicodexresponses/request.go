// Package openaicodexresponses is the Go reference for Pi's
// openai-codex-responses API (pi-ai 0.80.2,
// dist/api/openai-codex-responses.js): the Responses API of the ChatGPT
// backend, called with plain fetch and a ChatGPT OAuth token. Its input
// items, tool definitions and event handling are openai-responses', so it
// is built on package openairesponses and keeps only the differences:
//
//   - options.go  what the API reads from the caller (DecodeOptions)
//   - request.go  URL, token and account id, headers and body
//     (Build)
//   - stream.go   Pi's own server-sent-event reading and event screening
//     in front of openairesponses' event handling (ParseStream), and HTTP
//     errors (ParseHTTPError)
//
// Any transport but "sse" first tries a WebSocket (Call.Handshake). Only
// the server's refusal is modelled, after which Pi falls back to SSE.
package openaicodexresponses

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/openairesponses"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
	"github.com/piconform/piconform/reference/wtf8"
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
	// SSETransport is the transport that goes straight to SSE. Any other
	// (AutoTransport when the options give none) tries a WebSocket first.
	SSETransport = "sse"
	// AutoTransport is the transport Pi reads when the options' is falsy.
	AutoTransport = "auto"
	// WebSocketBetaHeaderValue is the OpenAI-Beta header's value on the
	// WebSocket handshake.
	WebSocketBetaHeaderValue = "responses_websockets=2026-02-06"
	// TransportFailureDiagnostic is the type of the diagnostic Pi records
	// when the WebSocket fails and it falls back to SSE.
	TransportFailureDiagnostic = "provider_transport_failure"
	// WebSocketRefusedText is the error Node's WebSocket client (undici)
	// reports when the server does not switch protocols or does not
	// answer: the runtime's words, not Pi's.
	WebSocketRefusedText = "Received network error or non-101 status code."
)

// ToolCallProviders are the target providers whose tool-call ids keep the
// "<call id>|<item id>" pairing: the same list as openai-responses'.
var ToolCallProviders = openairesponses.PairedIDProviders

// NormalizeToolCallID is this API's tool-call id normalizer.
var NormalizeToolCallID = openairesponses.ToolCallIDNormalizer(ToolCallProviders)

// MachineHeaders are the request headers whose values name the machine
// (Pi's user-agent is "pi (<platform> <release>; <arch>)", which replaces
// the caller's): the request leaves them out, and a harness allows them
// without comparing them.
var MachineHeaders = []string{"user-agent"}

// ErrModelHeaders is Pi's TypeError for model headers that new Headers
// cannot take (neither an object nor a list of pairs, or a name that is
// not a token).
var ErrModelHeaders = errors.New("openaicodexresponses: model headers are not a headers init")

// BuildRequest returns the request Pi 0.80.2's stream(model, ctx, opts)
// sends (Build with the context's messages, the body kept).
func BuildRequest(model *ai.Model, ctx *ai.Context, opts Options, now transform.Clock) (*provider.Call, error) {
	return Driver.BuildRequest(model, ctx, &opts, now)
}

// Build builds the request Pi 0.80.2's stream(model, ctx, opts) sends,
// with the context's messages read from msgs and the body handed to body
// (provider.StreamBuild). now stamps the synthetic tool results transform
// adds. A *stream.RequestError means Pi sends nothing and fails with that
// message.
func Build(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, now transform.Clock, body provider.BodySink) (*provider.Call, error) {
	token, err := opts.APIKeyOr(model, "")
	if err != nil {
		return nil, err
	}
	account, ok := AccountID(token)
	if !ok {
		return nil, &stream.RequestError{Message: BadTokenText}
	}
	transport := opts.Transport
	if !transport.Truthy() {
		transport = jsonv.StringValue(AutoTransport)
	}
	webSocket := transport.Kind() != jsonv.String || transport.Str() != SSETransport
	// Pi reports the body's size when the WebSocket fails.
	var size byteCount
	if webSocket {
		body = provider.NewTeeBody(body, &size)
	}
	if err := buildBody(model, ctx, msgs, opts, now, body); err != nil {
		return nil, err
	}
	d := opts.Dialect
	header, err := buildHeaders(model, opts, token, account, nil)
	if err != nil {
		return nil, err
	}
	requestID, ok := sessionID(opts)
	if !ok {
		requestID = newRequestIDs.At(d)()
	}
	wsHeader, err := buildHeaders(model, opts, token, account, &requestID)
	if err != nil {
		return nil, err
	}
	if compressesBody.At(d) {
		// The SSE body only: the WebSocket sends its JSON as it is.
		header.Set("content-encoding", "zstd")
	}
	// Both timeouts must be finite numbers of at least 0 when given (the
	// WebSocket's with the same message); null is given.
	for _, t := range []jsonv.Value{opts.TimeoutMs, opts.WebsocketConnectTimeoutMs} {
		if f, ok := t.Float64(); !t.IsAbsent() && (!ok || t.Kind() != jsonv.Number || f < 0) {
			return nil, &stream.RequestError{Message: "Invalid timeoutMs: " + stream.ToString(t)}
		}
	}
	// Pi's retry loop runs after any WebSocket attempt: one that makes no
	// attempt fails then, having sent only the handshake.
	unsent, _ := provider.Refusal(LoopOutcome(&opts.StreamOptions))
	url := ResolveURL(model.BaseURL)
	req := provider.Request{Method: http.MethodPost, URL: url, Header: header}
	tier := openairesponses.StringOf(opts.ServiceTier)
	call := &provider.Call{Request: req, Unsent: unsent, Read: func(resp *http.Response) (*ai.AssistantMessage, []stream.Event, error) {
		return readResponse(d, model, tier, resp, now)
	}}
	if webSocket {
		call.Handshake = &provider.Handshake{
			Request: provider.Request{Method: http.MethodGet, URL: url, Header: wsHeader},
			Refused: transportFailure(transport, int(size)),
		}
	}
	if unsent != "" && call.Handshake == nil {
		return nil, &stream.RequestError{Message: unsent}
	}
	return call, nil
}

// byteCount is an io.Writer that only counts.
type byteCount int

func (n *byteCount) Write(p []byte) (int, error) {
	*n += byteCount(len(p))
	return len(p), nil
}

// transportFailure is the diagnostic Pi records when the WebSocket
// handshake fails and it falls back to SSE: the runtime's error (its
// stack is only the first line V8 writes, the frames being the
// runtime's), the transport the options asked for, and the size of the
// body in UTF-8 bytes.
func transportFailure(transport jsonv.Value, requestBytes int) func(transform.Clock) jsonv.Value {
	return func(now transform.Clock) jsonv.Value {
		return jsonv.ObjectValue(
			jsonv.Member{Key: "type", Value: jsonv.StringValue(TransportFailureDiagnostic)},
			jsonv.Member{Key: "timestamp", Value: now()},
			jsonv.Member{Key: "error", Value: jsonv.ObjectValue(
				jsonv.Member{Key: "name", Value: jsonv.StringValue("Error")},
				jsonv.Member{Key: "message", Value: jsonv.StringValue(WebSocketRefusedText)},
				jsonv.Member{Key: "stack", Value: jsonv.StringValue("Error: " + WebSocketRefusedText)},
			)},
			jsonv.Member{Key: "details", Value: jsonv.ObjectValue(
				jsonv.Member{Key: "configuredTransport", Value: transport},
				jsonv.Member{Key: "fallbackTransport", Value: jsonv.StringValue(SSETransport)},
				jsonv.Member{Key: "eventsEmitted", Value: jsonv.BoolValue(false)},
				jsonv.Member{Key: "phase", Value: jsonv.StringValue("before_message_stream_start")},
				jsonv.Member{Key: "requestBytes", Value: jsonv.NumberValue(strconv.Itoa(requestBytes))},
			)},
		)
	}
}

// newRequestID draws the id of a WebSocket request without a sessionId:
// a random UUID, as Pi draws one; tests fix it.
var newRequestID = provider.NewUUID

// cacheSessionID is Pi 1.6's clamped session id of a request whose
// cacheRetention is not exactly "none" (Absent when it is, or when there
// is no session id).
func cacheSessionID(opts Options) (jsonv.Value, error) {
	if r := opts.CacheRetention; r.Kind() == jsonv.String && r.Str() == "none" {
		return jsonv.Value{}, nil
	}
	return opts.PromptCacheKey()
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

// buildHeaders is Pi's header object for SSE, or, with a requestID, for
// the WebSocket handshake: model.headers as new Headers takes them
// (headersInit), the caller's headers over them (null deletes, any other
// value is String()ed, an array's elements joined with commas), then Pi's
// own, which always win. Names compare without case.
func buildHeaders(model *ai.Model, opts Options, token, account string, requestID *string) (http.Header, error) {
	d := opts.Dialect
	set := httpheader.NewSet()
	check := func(v string) error {
		if err := httpheader.CheckByteString(v); err != nil {
			return &stream.RequestError{Message: err.Error()}
		}
		return nil
	}
	if callerWins.At(d) {
		// Pi's own first: the originator, then its identity.
		set.Append("originator", Originator)
		identity, err := provider.IdentityHeaders(d, model, opts.Identity)
		if err != nil {
			return nil, err
		}
		for _, h := range identity {
			if h.Value != nil {
				set.Delete(h.Name)
				set.Append(h.Name, *h.Value)
			}
		}
	}
	init, err := modelHeaders.At(d)(model.Headers)
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
		if callerWins.At(d) {
			set.Delete(h.Name) // headers.set
		}
		set.Append(h.Name, *h.Value)
	}
	put := func(h httpheader.Header) error {
		if h.Value == nil {
			set.Delete(h.Name)
			return nil
		}
		v := *h.Stored()
		if err := check(v); err != nil {
			return err
		}
		// headers.set: one value, String() of an array.
		set.Delete(h.Name)
		set.Append(h.Name, v)
		return nil
	}
	own := append([]httpheader.Header(nil), opts.Headers...)
	own = append(own,
		httpheader.New("Authorization", "Bearer "+token),
		httpheader.New(AccountHeader, account),
	)
	if !callerWins.At(d) {
		own = append(own, httpheader.New("originator", Originator))
	}
	switch s, ok := sessionID(opts); {
	case requestID != nil:
		// The handshake drops what only an HTTP request needs, the
		// caller's too.
		own = append(own,
			httpheader.Header{Name: "accept"}, httpheader.Header{Name: "content-type"},
			httpheader.New("OpenAI-Beta", WebSocketBetaHeaderValue),
			httpheader.New("x-client-request-id", *requestID), httpheader.New("session-id", *requestID),
		)
	default:
		own = append(own,
			httpheader.New("OpenAI-Beta", BetaHeaderValue),
			httpheader.New("accept", "text/event-stream"),
			httpheader.New("content-type", "application/json"),
		)
		if ok {
			own = append(own, httpheader.New("session-id", s), httpheader.New("x-client-request-id", s))
		}
	}
	for _, h := range own {
		if err := put(h); err != nil {
			return nil, err
		}
	}
	if !callerWins.At(d) {
		// Pi 0.80 sets its user-agent last, over the caller's (null, "" or
		// any value): it names the machine, so the request leaves it out.
		set.Delete("user-agent")
	}
	return set.Header(), nil
}

// entriesInit is Object.entries(v || {}) of model.headers, each value as
// String() writes it: an object's members, an array's elements under
// their indexes, a string's characters; nothing for a falsy value, a
// number or a boolean.
func entriesInit(v jsonv.Value) ([]httpheader.Header, error) {
	var out []httpheader.Header
	switch v.Kind() {
	case jsonv.Object:
		for _, m := range stream.JSValue(v).Members() {
			out = append(out, httpheader.New(m.Key, stream.ToString(m.Value)))
		}
	case jsonv.Array:
		for i, e := range v.Elems() {
			out = append(out, httpheader.New(strconv.Itoa(i), stream.ToString(e)))
		}
	case jsonv.String:
		for i, u := range wtf8.ToUTF16(v.Str()) {
			out = append(out, httpheader.New(strconv.Itoa(i), wtf8.FromUTF16([]uint16{u})))
		}
	}
	return out, nil
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
			out = append(out, httpheader.New(m.Key, stream.ToString(m.Value)))
		}
	case jsonv.Array:
		for i, pair := range v.Elems() {
			if pair.Kind() != jsonv.Array || len(pair.Elems()) != 2 {
				return nil, fmt.Errorf("%w: element %d is not a pair [name, value]", ErrModelHeaders, i)
			}
			out = append(out, httpheader.New(stream.ToString(pair.Elems()[0]), stream.ToString(pair.Elems()[1])))
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
func buildBody(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, now transform.Clock, body provider.BodySink) error {
	d := opts.Dialect
	if err := openairesponses.Unmodelled(d, model, ctx, opts.StreamOptions); err != nil {
		return err
	}
	head := new(jsonv.ObjectBuilder).Set("model", model.IDValue()).SetBool("store", false).SetBool("stream", true)
	if !promptAsItem.At(d) {
		// systemPrompt || the default: copied unread, whatever its type.
		instructions := jsonv.StringValue(DefaultInstructions)
		if sp := ctx.SystemPromptValue(); sp.Truthy() {
			instructions = sp
		}
		head.Set("instructions", stream.JSValue(instructions))
	}
	body.Begin(head.Members(), "input")
	convert := openairesponses.ConvertInputWithoutSystemPrompt
	if promptAsItem.At(d) {
		convert = func(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, normalize transform.IDNormalizer, now transform.Clock, body provider.BodySink) error {
			return openairesponses.ConvertInputIn(d, model, ctx, msgs, normalize, now, body)
		}
	}
	if err := convert(model, ctx, msgs, NormalizeToolCallID, now, body); err != nil {
		return err
	}
	verbosity := jsonv.StringValue(DefaultVerbosity)
	if opts.TextVerbosity.Truthy() {
		verbosity = opts.TextVerbosity
	}
	b := new(jsonv.ObjectBuilder).Set("text", new(jsonv.ObjectBuilder).Set("verbosity", stream.JSValue(verbosity)).Value()).
		Set("include", jsonv.ArrayValue(jsonv.StringValue("reasoning.encrypted_content")))
	key, err := promptCacheKeys.At(d)(opts)
	if err != nil {
		return err
	}
	b.Set("prompt_cache_key", key)
	toolChoice := jsonv.StringValue("auto")
	if toolChoiceFromOptions.At(d) && !opts.ToolChoice.IsNullish() {
		toolChoice = stream.JSValue(opts.ToolChoice)
	}
	b.Set("tool_choice", toolChoice).SetBool("parallel_tool_calls", true)
	if sendsOutputCap.At(d) && opts.MaxTokens.Truthy() && provider.CompatOf(model).Truthy("supportsMaxOutputTokens", true) {
		b.Set("max_output_tokens", openairesponses.MaxOutputTokens(d, opts.MaxTokens))
	}
	if !opts.Temperature.IsAbsent() {
		b.Set("temperature", stream.JSValue(opts.Temperature))
	}
	b.Set("service_tier", stream.JSValue(opts.ServiceTier))
	strict := openairesponses.ToolStrictness{Strict: jsonv.NullValue(), Sent: provider.CompatOf(model).Truthy("supportsStrictMode", true)}
	if err := openairesponses.SetToolsIn(d, b, ctx, strict); err != nil {
		return err
	}
	switch r := opts.ReasoningEffort; {
	case !r.IsAbsent():
		if e := effortIn(d, model, r); e.Kind() != jsonv.Null {
			summary := opts.ReasoningSummary
			if summary.IsNullish() {
				summary = jsonv.StringValue("auto")
			}
			b.Set("reasoning", new(jsonv.ObjectBuilder).Set("effort", stream.JSValue(e)).Set("summary", stream.JSValue(summary)).Value())
		}
	case model.Reasoning && offEffortByDefault.At(d):
		openairesponses.SetOffEffort(b, model)
	}
	body.End(b.Members())
	return nil
}

// effort is the reasoning effort sent for a requested one, whatever it
// holds: "none" is the model's "off" entry, any other the model's entry
// for String(requested); a missing or null entry leaves the request as it
// is. A null result sends no reasoning.
func effort(model *ai.Model, requested jsonv.Value) jsonv.Value {
	key := requested
	if requested.Kind() == jsonv.String && requested.Str() == "none" {
		key = jsonv.StringValue("off")
	}
	if v := provider.LevelEntry(model, key); !v.IsNullish() {
		return v
	}
	return requested
}
