// Package provider is the shape every provider API of the reference has:
// one Driver value per API, exported by the API's package (anthropic.Driver
// and so on), one Request type, and the options all of them share
// (StreamOptions, pi-ai's StreamOptions).
//
// A driver goes the same way for every API: decode the options, build the
// request Pi sends (or Pi's refusal to send one, a *stream.RequestError),
// then read the answer into Pi's message and events.
package provider

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// Request is one HTTP request as Pi sends it.
type Request struct {
	Method string
	URL    string
	// Header holds every header Pi and its SDK set, except the ones the
	// driver names as MachineHeaders (present only when the caller set
	// them) and the ones fetch adds itself (host, connection,
	// content-length, accept-language, sec-fetch-mode, accept-encoding).
	Header http.Header
	// Body is the JSON body; Body.AppendJSON gives the exact wire bytes.
	Body jsonv.Value
}

// Call is a built request and the way to read its answer. Read keeps
// whatever the provider needs of the request to read it (the model, the
// tool names it sent, the clock).
type Call struct {
	Request
	// Read turns the response into Pi's message and events. Its error is
	// non-nil only for a read error (already the stream's error event, as
	// in Pi) or stream.ErrOutsideModel.
	Read func(resp *http.Response) (*ai.AssistantMessage, []stream.Event, error)
	// Handshake, when set, is a WebSocket opening Pi tries before Request.
	Handshake *Handshake
	// Unsent, when not empty, is Pi's error for a Request it builds and
	// then does not send (after the Handshake): the call fails with it.
	Unsent string
	// Marks are members Pi sets on its message once it has built the
	// request (anthropic's providerThinkingLevel): the message of every
	// failure from then on, a refusal or no answer, carries them too.
	Marks []jsonv.Member
}

// Handshake is a WebSocket opening handshake (RFC 6455) that Pi tries
// before its HTTP request, falling back to the request when the server
// does not switch protocols. Request (method GET, an http or https URL)
// holds Pi's headers; the WebSocket client adds the handshake's own
// (Upgrade, Connection, Sec-WebSocket-Key, Sec-WebSocket-Version). A
// server that accepts starts a WebSocket conversation, which the
// reference does not model.
type Handshake struct {
	Request
	// Refused is the diagnostic Pi appends to the message's diagnostics
	// when the server answers with anything but 101 Switching Protocols,
	// or not at all.
	Refused func(now transform.Clock) jsonv.Value
}

// Options are a provider's decoded options: the members of Pi's options
// type for the API that shape a request, as a harness case writes them in
// JSON. A member left out is nil or Absent, Pi's `undefined`; Pi's defaults
// are applied when the request is built. Every provider's options embed
// StreamOptions (the shared members, which the API's options type extends
// in Pi), which gives them Shared, and tag their own members (members.go),
// which EncodeOptions writes back.
type Options interface {
	// Shared returns the members every API reads, for a caller to change
	// (the runner replaces the apiKey).
	Shared() *StreamOptions
}

// Driver is the reference for one provider API.
type Driver struct {
	// API is the model.api value the driver serves.
	API string
	// DecodeOptions reads the options from a JSON object at ptr; a member
	// of the wrong type is an error naming its JSON Pointer.
	DecodeOptions func(v jsonv.Value, ptr string) (Options, error)
	// Build builds the request Pi sends for model, the context and opts
	// (the driver's own Options), reading the context's messages one at a
	// time and handing the body to a sink as it goes. now stamps what
	// transform adds. A *stream.RequestError means Pi sends nothing and
	// fails the stream with its message (see Refusal); so does a
	// stream.JSError it throws (stream.ToString on a value with no string
	// form). BuildRequest and WriteRequest are the two ways to call it.
	Build StreamBuild
	// FromSimple maps streamSimple's options to the driver's own, as the
	// API's streamSimple does before it calls stream. An error, or a
	// stream.JSError it throws, is Pi's throw: streamSimple returns no
	// stream and nothing is sent.
	FromSimple func(model *ai.Model, opts SimpleOptions) (Options, error)
	// LenientContext is true when BuildRequest reads a context decoded
	// leniently (ai.DecodeWireContext with lenient true) as Pi does: it
	// sends, skips or refuses *ai.ForeignBlock elements and the Loose
	// members of messages, blocks and tools as the API's Pi code reads
	// them (spec input.lenient). A driver without it gets only contexts
	// of the declared types.
	LenientContext bool
	// FoldsSystemMessages is true for an API that always folds the system
	// messages of a Pi 1.6 transcript into the leading one (Google,
	// Bedrock); the others fold them unless the model's compat allows
	// them where they stand (KeepsSystemMessages, WireContext).
	FoldsSystemMessages bool
	// CatchThrows, when set, tells whether the API's catch, which words
	// every failure of a call (a refusal before the request, no answer,
	// an HTTP error, a stream that fails or is aborted), itself throws for
	// model in dialect d: the stream function's promise then rejects with
	// nothing to catch it, no error event comes and Node ends the process.
	// The reference does not model that: a call that fails is then
	// refused with stream.ErrOutsideModel (FailureThrows).
	CatchThrows func(d dialect.Dialect, model *ai.Model) bool
	// Client is how the API's client library sends the request.
	Client
}

// FailureThrows is the refusal (stream.ErrOutsideModel) of a call of
// dialect dl for model that ended in msg, when msg is a failure and the
// API's catch throws as it words it (CatchThrows); else nil.
func (d Driver) FailureThrows(dl dialect.Dialect, model *ai.Model, msg *ai.AssistantMessage) error {
	if msg == nil || msg.StopReason != ai.StopError && msg.StopReason != ai.StopAborted ||
		d.CatchThrows == nil || !d.CatchThrows(dl, model) {
		return nil
	}
	return fmt.Errorf("%w: Pi's catch throws as it words the failure, and the stream never ends", stream.ErrOutsideModel)
}

// Failure is the message and lone error event Pi makes of a failure
// before any response: an error message naming the driver's API.
func (d Driver) Failure(model *ai.Model, message string, now transform.Clock) (*ai.AssistantMessage, []stream.Event) {
	return stream.Failure(stream.NewOutput(model, d.API, now), message)
}

// Client is how an API's client library (an SDK, or Pi's own fetch) acts
// around the request Pi builds: what it says when no answer comes or the
// caller aborts, how it repeats a failed request, and the headers it adds.
type Client struct {
	// NoResponseText is Pi's error when no response arrives at all.
	NoResponseText string
	// UnresolvedHostText, when set, is Pi's error instead when no
	// response arrives because the request's host has no address (a DNS
	// lookup that finds none, such as any name under .invalid); host is
	// the name looked up (NoResponse).
	UnresolvedHostText func(host string) string
	// AbortText is Pi's error when the caller aborts while Pi waits for
	// more of a streamed response (the error of the pending read);
	// AbortBeforeText when the signal was aborted before the call, so
	// nothing is sent.
	AbortText, AbortBeforeText string
	// Retry is how the API's client repeats a failed request (the zero
	// Retry never does).
	Retry Retry
	// IncidentalHeaders are the request headers (lower-case path.Match
	// patterns) that describe the client library rather than the
	// translation; a harness leaves them out of what it compares.
	IncidentalHeaders []string
	// MachineHeaders are the headers whose values depend on the machine
	// that runs Pi; Request leaves them out unless the caller set them.
	MachineHeaders []string
	// IdentityHeaders are the request headers the API's client library adds
	// on its own to say what it is (spec/wire.md, wire.request.identity): a
	// port in another language cannot and need not send them.
	IdentityHeaders []IdentityHeader
	// Later is the client as later dialects have it, where it changed (a
	// newer SDK, Pi's own fetch or retry loop): the entry of the newest
	// dialect at or before a request's replaces the whole Client (At). The
	// Client itself is the oldest dialect's.
	Later dialect.Table[*Client]
}

// NoResponse is Pi's error when no response arrived, the last attempt
// having failed with err (nil when unknown): UnresolvedHostText for a
// host the DNS does not know, else NoResponseText.
func (c Client) NoResponse(err error) string {
	if dns, ok := errors.AsType[*net.DNSError](err); ok && dns.IsNotFound && c.UnresolvedHostText != nil {
		return c.UnresolvedHostText(dns.Name)
	}
	return c.NoResponseText
}

// At is the client of dialect d: the newest Later entry at or before d,
// else c itself.
func (c Client) At(d dialect.Dialect) Client {
	if l := c.Later.At(d); l != nil {
		return *l
	}
	return c
}

// IdentityHeader is a request header a client library adds to say what it
// is. Name is a lower-case path.Match pattern; Value is the value the
// library sends, where "*" stands for any text (a version, a Node build).
// A header with another value was chosen by Pi or by the caller's options:
// it is Pi's behaviour, not the client's identity.
type IdentityHeader struct{ Name, Value string }

// ClientIdentity lists the headers every API's client sets on its own:
// accept whatever its value, and user-agent with userAgent, the SDK's own
// value ("" when the SDK sends none, so a recorded user-agent is Pi's).
func ClientIdentity(userAgent string, more ...IdentityHeader) []IdentityHeader {
	out := []IdentityHeader{{Name: "accept", Value: "*"}}
	if userAgent != "" {
		out = append(out, IdentityHeader{Name: "user-agent", Value: userAgent})
	}
	return append(out, more...)
}

// StainlessIdentity is the telemetry of the Stainless-generated SDKs
// (Anthropic, OpenAI): x-stainless-lang, -package-version, -os, -arch,
// -runtime, -runtime-version, -retry-count, -timeout.
var StainlessIdentity = IdentityHeader{Name: "x-stainless-*", Value: "*"}

// Texts Pi reports when no response arrives: the SDKs' and fetch's own.
const (
	ConnectionErrorText = "Connection error."
	FetchFailedText     = "fetch failed"
)

// ConnectionClosedCause is the cause undici gives when the server closes
// the connection without answering, which Pi 1.6 appends to a client's
// message of a failure without an answer ("<message>: <cause>").
const ConnectionClosedCause = "other side closed (UND_ERR_SOCKET)"

// UnresolvedHostText is Client.UnresolvedHostText for a client whose
// failure without an answer says message, as Pi 1.6 words it: Node's
// getaddrinfo error, the deepest cause, after it.
func UnresolvedHostText(message string) func(host string) string {
	return func(host string) string { return message + ": getaddrinfo ENOTFOUND " + host }
}

// SeeAttachedImageText is the text Pi writes for a tool result that has
// images but no text, in every API that needs text there (or before the
// images).
const SeeAttachedImageText = "(see attached image)"

// Texts of an aborted call (Client.AbortText, Client.AbortBeforeText):
// Pi's own, the Stainless SDKs' error for a signal aborted before the call,
// fetch's AbortError, and the text both Pi's Google check and the AWS SDK
// use for a signal aborted before the call.
const (
	PiAbortedText      = "Request was aborted"
	SDKAbortedText     = "Request was aborted."
	FetchAbortedText   = "This operation was aborted"
	RequestAbortedText = "Request aborted"
)

// StainlessIncidental are the Stainless SDKs' telemetry headers that say
// nothing about the request: every x-stainless-* header but
// x-stainless-retry-count, which counts the attempts (StainlessRetry) and
// is recorded.
var StainlessIncidental = []string{
	"x-stainless-lang", "x-stainless-package-version", "x-stainless-os", "x-stainless-arch",
	"x-stainless-runtime", "x-stainless-runtime-version", "x-stainless-timeout",
	"x-stainless-helper", "x-stainless-helper-method",
}

// StainlessMachineHeaders are the Stainless SDKs' headers that name the
// machine (operating system, architecture, Node build).
var StainlessMachineHeaders = []string{"x-stainless-os", "x-stainless-arch", "x-stainless-runtime-version"}

// StainlessClient is a Stainless-generated SDK (Anthropic's, OpenAI's and
// Azure's OpenAI client): it retries as StainlessRetry, says
// ConnectionErrorText when no answer comes and SDKAbortedText for a signal
// aborted before the call, and adds its x-stainless-* telemetry, which
// conformance checks leave out but for the retry count
// (StainlessIncidental). userAgent is the pattern of its user-agent;
// abortText is the error Pi reports when the caller aborts while the
// stream is read.
func StainlessClient(userAgent, abortText string) Client {
	return Client{
		NoResponseText: ConnectionErrorText, AbortText: abortText, AbortBeforeText: SDKAbortedText,
		Retry: StainlessRetry, IncidentalHeaders: StainlessIncidental, MachineHeaders: StainlessMachineHeaders,
		IdentityHeaders: ClientIdentity(userAgent, StainlessIdentity),
	}
}

// Refusal reports the message of a request Pi will not send: err is a
// *stream.RequestError. Any other error is not a refusal.
func Refusal(err error) (string, bool) {
	var re *stream.RequestError
	if errors.As(err, &re) {
		return re.Message, true
	}
	return "", false
}

// catchJSError makes a stream.JSError panic the *stream.RequestError *err.
// It must be deferred.
func catchJSError(err *error) {
	if x := recover(); x != nil {
		e, ok := x.(stream.JSError)
		if !ok {
			panic(x)
		}
		*err = &stream.RequestError{Message: e.Msg}
	}
}

// Decoder adapts a provider's DecodeOptions, whose options are O, to
// Driver.DecodeOptions.
func Decoder[O any, P interface {
	*O
	Options
}](decode func(v jsonv.Value, ptr string) (O, error)) func(jsonv.Value, string) (Options, error) {
	return func(v jsonv.Value, ptr string) (Options, error) { return asOptions[O, P](decode(v, ptr)) }
}

// asOptions is a provider's options O, or its error, as Options.
func asOptions[O any, P interface {
	*O
	Options
}](o O, err error) (Options, error) {
	if err != nil {
		return nil, err
	}
	return P(&o), nil
}

// own is opts as a provider's own options O, or an error when they are
// another provider's.
func own[O any, P interface {
	*O
	Options
}](opts Options) (O, error) {
	o, ok := opts.(P)
	if !ok {
		var zero O
		return zero, fmt.Errorf("provider: options %T are not %T", opts, o)
	}
	return *o, nil
}

// SimpleMapper adapts a provider's FromSimple, whose options are O, to
// Driver.FromSimple. What the mapping throws (Pi's Error for a missing
// key, a TypeError of a value with no string form) comes back as a
// *SimpleThrow.
func SimpleMapper[O any, P interface {
	*O
	Options
}](from func(model *ai.Model, opts SimpleOptions) (O, error)) func(*ai.Model, SimpleOptions) (Options, error) {
	return func(model *ai.Model, opts SimpleOptions) (_ Options, err error) {
		defer func() {
			if x := recover(); x != nil {
				e, ok := x.(stream.JSError)
				if !ok {
					panic(x)
				}
				err = &SimpleThrow{Category: "type-error", Message: e.Msg}
			}
		}()
		o, err := asOptions[O, P](from(model, opts))
		if re, ok := errors.AsType[*stream.RequestError](err); ok {
			return nil, &SimpleThrow{Category: "error", Message: re.Message}
		}
		return o, err
	}
}

// SimpleThrow is streamSimple throwing to its caller before it returns a
// stream, so nothing is sent. Category is the error's class as the suite
// names it: "error" for Pi's own Error, "type-error" for a TypeError.
type SimpleThrow struct{ Category, Message string }

func (e *SimpleThrow) Error() string { return e.Message }

// Answer is the Call of a request whose answer is read the way most APIs
// read it: a 2xx status is a stream, read by parseStream; anything else is
// an HTTP error, read whole and turned into Pi's failure by httpError
// (whose error is stream.ErrOutsideModel where Pi has none to give).
func Answer(req Request, model *ai.Model, now transform.Clock,
	parseStream func(body io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error),
	httpError func(model *ai.Model, status int, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error),
) *Call {
	return &Call{Request: req, Read: func(resp *http.Response) (*ai.AssistantMessage, []stream.Event, error) {
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			data, err := io.ReadAll(resp.Body)
			msg, events, herr := httpError(model, resp.StatusCode, data, now)
			if err == nil {
				err = herr
			}
			return msg, events, err
		}
		return parseStream(resp.Body, model, now)
	}}
}

// JoinURL is the Stainless SDKs' buildURL for an absolute base: base, or
// defaultBase when base is empty, and path (which starts with a slash)
// with one slash between them.
func JoinURL(base, defaultBase, path string) string {
	if base == "" {
		base = defaultBase
	}
	if strings.HasSuffix(base, "/") {
		path = path[1:]
	}
	return base + path
}

// StatusText is the reason phrase of resp, the statusText fetch gives Pi.
func StatusText(resp *http.Response) string {
	return strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)+" ")
}
