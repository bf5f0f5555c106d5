package provider

import (
	"errors"
	"fmt"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/wtf8"
)

// StreamOptions are the members of pi-ai's StreamOptions that can be
// written in JSON, which every API's options extend. A member left out is
// nil or Absent, which is what Pi's `undefined` means; each API applies
// its own defaults when it builds the request. Members an API does not
// read are kept all the same.
type StreamOptions struct {
	// Dialect is the Pi release line whose behaviour the request and its
	// reading follow. It is the runner's choice, never a case's member.
	Dialect     dialect.Dialect
	APIKey      *string
	Temperature jsonv.Value
	MaxTokens   jsonv.Value
	// Transport is "sse", "websocket" or "auto" as Pi declares it, kept as
	// written: only openai-codex-responses reads it.
	Transport jsonv.Value
	// CacheRetention is "none", "short" or "long" as Pi declares it, but
	// kept as written: Pi only tests it for truthiness and compares it
	// with === (Retention).
	CacheRetention jsonv.Value
	// SessionID is a string as Pi declares it, kept as written: Pi tests
	// it for truthiness and writes it into headers (Session) and bodies
	// (PromptCacheKey) whatever it holds.
	SessionID jsonv.Value
	// Headers are extra request headers, in the order given; a nil Value
	// removes a header Pi or the SDK would send.
	Headers                   []httpheader.Header
	TimeoutMs                 jsonv.Value
	WebsocketConnectTimeoutMs jsonv.Value
	// MaxRetries is how often an SDK retries a failed request. It does not
	// change the request, only how many of them are sent.
	MaxRetries jsonv.Value
	// MaxRetryDelayMs caps the wait a 429 asks for (codex); any value.
	MaxRetryDelayMs jsonv.Value
	// Metadata is an object as Pi declares it, kept as written: Pi reads
	// its user_id only when that is a string, and a member of anything
	// else is undefined.
	Metadata jsonv.Value
	// Identity is Pi 1.6's identity option ({userAgent, version,
	// attribution}), kept as written: Pi reads its members with ?.
	// (IdentityHeaders). Absent when not given.
	Identity jsonv.Value
	// Env holds provider environment values. Pi also falls back to the
	// process environment, which the reference never reads.
	Env []jsonv.Member
	// Extra keeps the members neither StreamOptions nor the API reads
	// (signal, onPayload and the like cannot appear in JSON anyway).
	Extra []jsonv.Member
}

// Shared makes every options type that embeds StreamOptions an Options.
func (o *StreamOptions) Shared() *StreamOptions { return o }

// DecodeOptions reads the shared members of the object v at ptr, then
// calls own, which reads the API's own members from the same fields; the
// members neither read are kept in Extra. A member of the wrong type is an
// error naming its JSON Pointer.
func DecodeOptions(v jsonv.Value, ptr string, own func(f *jsonv.Fields)) (StreamOptions, error) {
	f := jsonv.ReadFields(v, ptr)
	o := StreamOptions{
		APIKey:                    f.OptString("apiKey"),
		Temperature:               f.Any("temperature"),
		MaxTokens:                 f.Any("maxTokens"),
		Transport:                 f.Any("transport"),
		CacheRetention:            f.Any("cacheRetention"),
		SessionID:                 f.Any("sessionId"),
		TimeoutMs:                 f.Any("timeoutMs"),
		WebsocketConnectTimeoutMs: f.Any("websocketConnectTimeoutMs"),
		MaxRetries:                f.Any("maxRetries"),
		MaxRetryDelayMs:           f.Any("maxRetryDelayMs"), // read with JavaScript's > and Math.min
		Metadata:                  f.Any("metadata"),        // only its user_id is read, with a type check
		Identity:                  f.Any("identity"),
	}
	headers := f.Any("headers")
	env := f.OptObject("env")
	if own != nil {
		own(f)
	}
	o.Extra = f.Rest()
	if err := f.Err(); err != nil {
		return StreamOptions{}, err
	}
	o.Headers = httpheader.Decode(headers)
	var err error
	if o.Env, err = jsonv.StringMembers(env, f.At("env")); err != nil {
		return StreamOptions{}, err
	}
	return o, nil
}

// Decode reads the options of an API whose options O embed StreamOptions:
// the shared members, then the API's own, which own reads from the same
// fields into o.
func Decode[O any, P interface {
	*O
	Options
}](v jsonv.Value, ptr string, own func(o P, f *jsonv.Fields)) (O, error) {
	var o O
	shared, err := DecodeOptions(v, ptr, func(f *jsonv.Fields) { own(&o, f) })
	if err != nil {
		var zero O
		return zero, err
	}
	*P(&o).Shared() = shared
	return o, nil
}

// Builder starts the JSON of the options with the shared members; the API
// adds its own and ends with Extend(o.Extra).
func (o StreamOptions) Builder() *jsonv.ObjectBuilder {
	b := new(jsonv.ObjectBuilder).SetOptString("apiKey", o.APIKey)
	b.Set("temperature", o.Temperature).Set("maxTokens", o.MaxTokens)
	b.Set("transport", o.Transport).Set("cacheRetention", o.CacheRetention)
	b.Set("sessionId", o.SessionID)
	if o.Headers != nil {
		b.Set("headers", httpheader.JSON(o.Headers))
	}
	b.Set("timeoutMs", o.TimeoutMs).Set("websocketConnectTimeoutMs", o.WebsocketConnectTimeoutMs)
	b.Set("maxRetries", o.MaxRetries).Set("maxRetryDelayMs", o.MaxRetryDelayMs).Set("metadata", o.Metadata)
	b.Set("identity", o.Identity)
	if o.Env != nil {
		b.Set("env", jsonv.ObjectValue(o.Env...))
	}
	return b
}

// JSON encodes the shared members and Extra, for an API with no members
// of its own.
func (o StreamOptions) JSON() jsonv.Value { return o.Builder().Extend(o.Extra).Value() }

// EnvValue is getProviderEnvValue without the process environment: the
// value of name in Env, or "" when it is missing or empty.
func (o StreamOptions) EnvValue(name string) string { return jsonv.LastString(o.Env, name) }

// StringOrObject checks a member that is a string or an object (a tool
// choice, say), Absent when left out.
func StringOrObject(f *jsonv.Fields, key string) jsonv.Value {
	v := f.Any(key)
	switch v.Kind() {
	case jsonv.Absent, jsonv.String, jsonv.Object:
		return v
	}
	f.Fail(key, "want a string or an object, got %s", v.Kind())
	return jsonv.Value{}
}

// NoAPIKeyText starts Pi's failure for a request without a key; the
// model's provider follows.
const NoAPIKeyText = "No API key for provider: "

// APIKeyOr is the key the SDK gets: the apiKey option when it is set and
// not empty, else instead when the caller's headers carry a non-blank one
// of authHeaders (they authenticate the request in its place). Without
// either Pi sends nothing: a *stream.RequestError.
func (o StreamOptions) APIKeyOr(model *ai.Model, instead string, authHeaders ...string) (string, error) {
	if o.APIKey != nil && *o.APIKey != "" {
		return *o.APIKey, nil
	}
	if len(authHeaders) > 0 {
		if ok, err := httpheader.HasNonBlank(o.Headers, authHeaders...); ok || err != nil {
			return instead, err
		}
	}
	return "", &stream.RequestError{Message: NoAPIKeyText + stream.ToString(model.ProviderValue())}
}

// Retention is Pi's resolveCacheRetention: the cacheRetention option when
// it is truthy, else "long" when the provider environment's
// PI_CACHE_RETENTION is "long", else "short". A truthy cacheRetention of
// another type is OtherRetention: Pi keeps it, and it equals none of the
// three names.
func (o StreamOptions) Retention() string {
	switch {
	case o.CacheRetention.Kind() == jsonv.String && o.CacheRetention.Str() != "":
		return o.CacheRetention.Str()
	case o.CacheRetention.Truthy():
		return OtherRetention
	case o.EnvValue("PI_CACHE_RETENTION") == "long":
		return "long"
	}
	return "short"
}

// Session is the session id where Pi tests it for truthiness (ok) and
// then sets it as a header: what String() makes of it, which is how a
// fetch Headers stores a value ("" for an empty array, which is truthy),
// and which throws where String() does (stream.ToString).
func (o StreamOptions) Session() (id string, ok bool) {
	if !o.SessionID.Truthy() {
		return "", false
	}
	return stream.ToString(o.SessionID), true
}

// SessionHeader is the header name: sessionId where Pi tests the session
// id for truthiness (ok) and then sets it as a header, kept as written
// (httpheader.Decode): a Stainless SDK sets each element of an array as a
// value of its own.
func (o StreamOptions) SessionHeader(name string) (h httpheader.Header, ok bool) {
	if !o.SessionID.Truthy() {
		return httpheader.Header{}, false
	}
	return httpheader.Member(name, o.SessionID), true
}

// PromptCacheKeyMax is the most elements (code points of a string) Pi
// keeps of a prompt_cache_key.
const PromptCacheKeyMax = 64

// ErrNullSessionID is Pi's TypeError for a null sessionId where it clamps
// a prompt_cache_key: Array.from(null) throws.
var ErrNullSessionID = errors.New("provider: Array.from(null) throws on a null sessionId")

// PromptCacheKey is Pi's clampOpenAIPromptCacheKey(sessionId): Absent
// when there is none; otherwise Array.from of it, and the sessionId as it
// is when that has at most PromptCacheKeyMax elements, else the first of
// them joined as text. A string's elements are its code points, an
// array's its elements, an object's those its length counts; a number or
// a boolean has none.
func (o StreamOptions) PromptCacheKey() (jsonv.Value, error) {
	v := o.SessionID
	switch v.Kind() {
	case jsonv.Null:
		return jsonv.Value{}, ErrNullSessionID
	case jsonv.String:
		return jsonv.StringValue(wtf8.Prefix(v.Str(), PromptCacheKeyMax)), nil
	case jsonv.Array:
		if len(v.Elems()) <= PromptCacheKeyMax {
			return v, nil
		}
		var text strings.Builder
		for _, e := range v.Elems()[:PromptCacheKeyMax] {
			if e.Kind() != jsonv.Null {
				text.WriteString(e.JSString())
			}
		}
		return jsonv.StringValue(text.String()), nil
	case jsonv.Object:
		if n, _ := v.Get("length"); n.JSNumber() > PromptCacheKeyMax {
			return jsonv.Value{}, fmt.Errorf("%w: a sessionId object with a length", stream.ErrOutsideModel)
		}
	}
	return v, nil
}

// OtherRetention is the retention of a truthy cacheRetention that is not a
// string (no string Pi compares with can equal it).
const OtherRetention = "\x00other"

// OrEmpty is JavaScript's `value || ""` for an optional string member:
// "" when it is missing.
func OrEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TruthyString reads the optional string member key that Pi reads only
// when it is truthy (input.lenient): a string as it is, a falsy value of
// another type (null, false, 0) as left out. A truthy value of another type
// is an error.
func TruthyString(f *jsonv.Fields, key string) *string {
	v := f.Any(key)
	switch {
	case v.Kind() == jsonv.String:
		s := v.Str()
		return &s
	case !v.Truthy():
		return nil
	}
	f.Fail(key, "want string, got %s", v.Kind())
	return nil
}
