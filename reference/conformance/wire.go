package conformance

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"slices"
	"time"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// wireCase is the input of a wire case, decoded. The model's baseUrl is
// already the one the case gave (the runner's loopback server).
type wireCase struct {
	model   *ai.Model
	ctx     *ai.Context
	options jsonv.Value
	// apiKey is nil when the input has none.
	apiKey *string
	// simple is true when the case calls streamSimple: options are then
	// SimpleOptions, which the driver maps to its own.
	simple bool
	// abortAfter is the input's abort.afterEvents, -1 when it has none.
	abortAfter int
	dialect    dialect.Dialect
	// transcript is the messages of the transcript a 1.6 call gets
	// (provider.TranscriptMessages), for streamSimple's estimate of the
	// input (provider.SimpleOptions.Transcript).
	transcript []jsonv.Value
	// connectTo is the host:port every connection goes to when the input
	// names one (a case with its own baseUrl), else "".
	connectTo string
}

// Calls a wire case may make: the API's stream, the default, or its
// streamSimple (input "call").
const (
	CallStream       = "stream"
	CallStreamSimple = "streamSimple"
)

// send runs one wire case through d: build the request Pi makes, or Pi's
// refusal to make one (its error, as Pi reports it); send it; read the
// answer into Pi's message and events. The runner's key replaces the
// options' one, as the Pi adapter does it.
func send(ctx context.Context, d provider.Driver, c wireCase, client *http.Client, wait func(context.Context, time.Duration) error, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	opts, err := c.driverOptions(d)
	if err != nil {
		return nil, nil, err
	}
	call, err := d.BuildRequest(c.model, c.ctx, opts, now)
	cl := d.At(c.dialect)
	if c.abortAfter == 0 && errors.Is(err, stream.ErrAfterAbortCheck) {
		return c.failure(d, cl.AbortBeforeText, now)
	}
	if msg, ok := provider.Refusal(err); ok {
		re, _ := errors.AsType[*stream.RequestError](err)
		return withMarks(re.Marks)(c.failure(d, msg, now))
	}
	if err != nil {
		return nil, nil, err
	}
	if c.abortAfter == 0 {
		return c.failure(d, cl.AbortBeforeText, now)
	}
	var diagnostic jsonv.Value
	if hs := call.Handshake; hs != nil {
		switched, err := handshake(ctx, hs.Request, client, c.connectTo)
		if err != nil {
			return nil, nil, err
		}
		if switched {
			return nil, nil, fmt.Errorf("%w: the server accepted the WebSocket handshake, and a WebSocket conversation is not modelled", stream.ErrOutsideModel)
		}
		diagnostic = hs.Refused(now)
	}
	var out *ai.AssistantMessage
	var events []stream.Event
	if call.Unsent != "" {
		out, events, err = withMarks(call.Marks)(c.failure(d, call.Unsent, now))
	} else {
		out, events, err = c.answer(ctx, d, call, opts, client, wait, now)
	}
	if out != nil && !diagnostic.IsAbsent() {
		// Pi records the refusal on the message before it sends the
		// request, so every event's message carries it too, ahead of
		// what reading the answer records (its input transformations).
		out.Diagnostics = jsonv.ArrayValue(append([]jsonv.Value{diagnostic}, out.Diagnostics.Elems()...)...)
	}
	return out, events, err
}

// answer sends call's request, as often as d's client repeats it, and
// reads the answer.
func (c wireCase) answer(ctx context.Context, d provider.Driver, call *provider.Call, opts provider.Options, client *http.Client, wait func(context.Context, time.Duration) error, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	cl := d.At(c.dialect)
	var lost error
	resp, failures, err := exchange(ctx, cl, call, opts.Shared(), client, c.connectTo, wait, &lost)
	if msg, ok := provider.Refusal(err); ok {
		return withMarks(call.Marks)(c.failure(d, msg, now))
	}
	if err != nil {
		return nil, nil, err
	}
	if len(failures) > 0 {
		if msg, ok := cl.Retry.Exhausted(opts.Shared(), failures); ok {
			if resp != nil {
				resp.Body.Close()
			}
			return withMarks(call.Marks)(c.failure(d, msg, now))
		}
	}
	if resp == nil {
		return withMarks(call.Marks)(c.failure(d, cl.NoResponse(lost), now))
	}
	defer resp.Body.Close()
	if c.abortAfter > 0 {
		resp.Body = &stream.AbortAfter{ReadCloser: resp.Body, Events: c.abortAfter, Text: cl.AbortText}
	}
	out, events, err := call.Read(resp)
	if errors.Is(err, stream.ErrOutsideModel) {
		return nil, nil, err
	}
	if errors.Is(err, stream.ErrAborted) {
		stream.Aborted(out, events)
	}
	// A read error is already the stream's error event, as in Pi.
	return out, events, nil
}

// driverOptions are the options d's stream gets: the case's own, or for
// streamSimple the ones d maps them to. A mapping error is Pi's throw.
func (c wireCase) driverOptions(d provider.Driver) (provider.Options, error) {
	if !c.simple {
		opts, err := d.DecodeOptions(c.options, "/options")
		if err != nil {
			return nil, err
		}
		opts.Shared().APIKey = c.apiKey
		opts.Shared().Dialect = c.dialect
		return opts, nil
	}
	if d.FromSimple == nil {
		return nil, fmt.Errorf("%w: streamSimple of API %q", ErrUnsupported, d.API)
	}
	s, err := provider.DecodeSimpleOptions(c.options, "/options")
	if err != nil {
		return nil, err
	}
	s.APIKey = c.apiKey
	s.Dialect = c.dialect
	s.Transcript = c.transcript
	opts, err := d.FromSimple(c.model, s)
	if err != nil {
		return nil, err // a *provider.SimpleThrow where streamSimple throws
	}
	return opts, nil
}

// failure is Pi's lone error event for a call that sent nothing or got no
// response; its stopReason is "aborted" when the caller's signal fired,
// whatever the error. No event has arrived yet, so only a signal aborted
// before the call (afterEvents 0) has fired.
func (c wireCase) failure(d provider.Driver, msg string, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	out, events := d.Failure(c.model, msg, now)
	if c.abortAfter == 0 {
		stream.Aborted(out, events)
	}
	return out, events, nil
}

// withMarks adds marks, members Pi had set on its message before the call
// failed (provider.Call.Marks), to a failure's message, which its error
// event holds too.
func withMarks(marks []jsonv.Member) func(*ai.AssistantMessage, []stream.Event, error) (*ai.AssistantMessage, []stream.Event, error) {
	return func(out *ai.AssistantMessage, events []stream.Event, err error) (*ai.AssistantMessage, []stream.Event, error) {
		if out != nil && len(marks) > 0 {
			out.Extra = append(slices.Clip(out.Extra), marks...)
		}
		return out, events, err
	}
}

// ErrRetriesWithoutEnd is the refusal of a wire case whose server fails
// every repeat of a request that Pi's client repeats without end
// (provider.RetriesCap): Pi never answers it.
var ErrRetriesWithoutEnd = fmt.Errorf("%w: Pi's client repeats the failed request without end", stream.ErrOutsideModel)

// exchange sends call, and sends it again as often as the client d repeats
// a failed request (d.Retry), with wait between as the client waits. It
// returns the last response (nil when none arrived) and, when d.Retry has
// Exhausted, every failed attempt; err is a broken request, ctx ending
// during a wait, ErrRetriesWithoutEnd, or the *stream.RequestError of a
// retry the client refuses (d.Retry.Refuse). A connectTo other than "" takes
// every connection, the request keeping its URL's host. *lost is the
// error of the last attempt that got no response.
func exchange(ctx context.Context, d provider.Client, call *provider.Call, o *provider.StreamOptions, client *http.Client, connectTo string, wait func(context.Context, time.Duration) error, lost *error) (*http.Response, []provider.Failure, error) {
	retries := 0
	if !d.Retry.LateLimit {
		retries = d.Retry.Retries(o)
	}
	var failures []provider.Failure
	for attempt := 0; ; attempt++ {
		if d.Retry.Stamp != nil {
			d.Retry.Stamp(call.Header, attempt, o)
		}
		hreq, err := newRequest(ctx, call.Request, call.Request.Payload(), connectTo)
		if err != nil {
			return nil, nil, err
		}
		resp, err := client.Do(hreq)
		if err == nil && resp.StatusCode >= 200 && resp.StatusCode <= 299 {
			return resp, nil, nil
		}
		if d.Retry.LateLimit && attempt == 0 {
			var lerr error
			if retries, lerr = d.Retry.RetriesAfterFailure(o); lerr != nil {
				if err == nil {
					resp.Body.Close()
				}
				return nil, nil, lerr
			}
		}
		last := attempt >= retries || ctx.Err() != nil
		if last && retries == provider.RetriesCap && ctx.Err() == nil {
			// Pi's client would go on as long as the server fails.
			return nil, nil, fmt.Errorf("%w: the server failed all %d", ErrRetriesWithoutEnd, retries)
		}
		if err != nil {
			resp, *lost = nil, err
		}
		if last && d.Retry.Exhausted == nil {
			return resp, nil, nil
		}
		var body []byte
		if resp != nil {
			// The failed answer is read whole, to decide, and kept for
			// reading it again if it is the last.
			body, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			resp.Body = io.NopCloser(bytes.NewReader(body))
			if err != nil {
				resp = nil
			}
		}
		if d.Retry.Exhausted != nil {
			failures = append(failures, provider.Failure{Response: resp, Body: body})
		}
		if last {
			return resp, failures, nil
		}
		pause, again := d.Retry.After(attempt, resp, body, o, rand.Float64())
		if !again {
			return resp, nil, nil
		}
		if d.Retry.Refuse != nil {
			if msg, refused := d.Retry.Refuse(resp, body, o); refused {
				return nil, nil, &stream.RequestError{Message: msg}
			}
		}
		if err := wait(ctx, pause); err != nil {
			return nil, nil, err
		}
	}
}

// handshake sends a WebSocket opening handshake for req, as a WebSocket
// client does, and tells whether the server switched protocols. No answer
// at all is a refusal; err is only a broken request or ctx ending.
func handshake(ctx context.Context, req provider.Request, client *http.Client, connectTo string) (switched bool, err error) {
	hreq, err := newRequest(ctx, req, nil, connectTo)
	if err != nil {
		return false, err
	}
	var key [16]byte
	crand.Read(key[:])
	hreq.Header.Set("Connection", "Upgrade")
	hreq.Header.Set("Upgrade", "websocket")
	hreq.Header.Set("Sec-WebSocket-Version", "13")
	hreq.Header.Set("Sec-WebSocket-Key", base64.StdEncoding.EncodeToString(key[:]))
	// Node's client, as its fetch does, accepts anything: an identity
	// header (provider.ClientIdentity).
	hreq.Header.Set("Accept", "*/*")
	resp, err := client.Do(hreq)
	if err != nil {
		return false, ctx.Err()
	}
	// A client that did not get its upgrade drops the connection unread,
	// whatever body (even an endless one) follows.
	resp.Body.Close()
	return resp.StatusCode == http.StatusSwitchingProtocols, nil
}

// newRequest is req as an HTTP request with body; a connectTo other than
// "" takes the connection, the request keeping its URL's host.
func newRequest(ctx context.Context, req provider.Request, body []byte, connectTo string) (*http.Request, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	hreq, err := http.NewRequestWithContext(ctx, req.Method, req.URL, r)
	if err != nil {
		return nil, err
	}
	hreq.Header = req.Header.Clone()
	if hreq.Header == nil {
		hreq.Header = http.Header{}
	}
	sendUserAgentAsIs(hreq.Header)
	if connectTo != "" {
		hreq.Host = hreq.URL.Host
		hreq.URL.Scheme, hreq.URL.Host = "http", connectTo
	}
	return hreq, nil
}

// sendUserAgentAsIs makes net/http send an empty user-agent that h holds
// (a caller's "" in options.headers), as Pi's fetch does (spec/wire.md,
// wire.request.runtime-user-agent). net/http writes no User-Agent line for
// an empty one (nor its own default then), and writes the other headers
// as they are keyed, skipping only the canonical User-Agent: the same
// value under "user-agent" goes out as the empty header. A request with no
// user-agent is left alone: net/http's default then names the runtime, as
// Node's does for Pi.
func sendUserAgentAsIs(h http.Header) {
	if ua := h["User-Agent"]; len(ua) == 1 && ua[0] == "" {
		h["user-agent"] = ua
	}
}

// Sleep waits d, or until ctx ends: an Options.Wait that takes the time
// the client takes.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// APIs lists the provider APIs the reference can drive in wire cases.
func APIs() []string { return slices.Sorted(maps.Keys(drivers)) }

// IncidentalHeaders lists the request headers of an API that say nothing
// about the translation (SDK telemetry and the like), as lower-case
// path.Match patterns. A harness leaves them out of what it compares.
func IncidentalHeaders(api string) []string { return slices.Clone(drivers[api].IncidentalHeaders) }

// AbortTexts are the errors an API's stream ends with when the caller
// aborts, in any dialect: before the call, or while Pi waits for more of
// the answer.
func AbortTexts(api string) []string {
	var out []string
	for _, dl := range dialect.All() {
		cl := drivers[api].At(dl)
		for _, t := range []string{cl.AbortBeforeText, cl.AbortText} {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// IdentityHeaders lists the request headers an API's client library adds to
// say what it is, in any dialect (provider.Client.IdentityHeaders of each,
// and from 1.6 on Pi's own user-agent, provider.PiIdentity): a recorded
// header whose value matches one of them is the client's identity.
func IdentityHeaders(api string) []provider.IdentityHeader {
	var out []provider.IdentityHeader
	for _, dl := range dialect.All() {
		list := drivers[api].At(dl).IdentityHeaders
		if _, ok, _ := provider.UserAgent(dl, jsonv.Value{}); ok {
			list = append(slices.Clone(list), provider.PiIdentity)
		}
		for _, h := range list {
			if !slices.Contains(out, h) {
				out = append(out, h)
			}
		}
	}
	return out
}

// wire runs one provider request and its streamed answer: input
// {baseUrl, connectTo, apiKey, model, context, options, call, abort},
// output {message, events}.
func wire(ctx context.Context, input jsonv.Value, opts Options) (jsonv.Value, error) {
	started := time.Now()
	f := jsonv.ReadFields(input, "")
	baseURL := f.String("baseUrl")
	apiKey := f.OptString("apiKey")
	rawModel := f.Object("model")
	rawCtx := f.Object("context")
	options := jsonv.Spread(f.Any("options"))
	call := f.OptString("call")
	connectTo := f.OptString("connectTo")
	abortAfter, err := ReadAbort(f.OptObject("abort"), "/abort")
	if err != nil {
		return jsonv.Value{}, err
	}
	if err := f.Err(); err != nil {
		return jsonv.Value{}, err
	}
	// call is the case's, not Pi's: which function the runner asks for.
	simple := call != nil && *call == CallStreamSimple
	if call != nil && !simple && *call != CallStream {
		return jsonv.Value{}, jsonv.Errorf("/call", "want %q or %q, got %q", CallStream, CallStreamSimple, *call)
	}
	// The model is called at the runner's server, as Pi's adapter does it.
	model, err := ai.DecodeWireModel(rawModel.With("baseUrl", jsonv.StringValue(baseURL)), "/model")
	if err != nil {
		return jsonv.Value{}, err
	}
	d, ok := drivers[model.API]
	if !ok {
		return jsonv.Value{}, fmt.Errorf("%w API %q", ErrUnsupported, model.API)
	}
	c, err := d.WireContext(opts.Dialect, model, rawCtx, "/context")
	if tt, ok := errors.AsType[*provider.TranscriptThrow](err); ok {
		// Pi's call throws before it sends: the caller gets no stream.
		// streamSimple throws first where it refuses its options (a
		// missing key): only the caller's normalizeContext reads the
		// context before it, and the API's stream resolves the transcript
		// after it.
		if simple {
			if _, nerr := ai.NormalizeContext(rawCtx, "/context"); nerr == nil {
				wc := wireCase{model: model, options: options, apiKey: apiKey, simple: true, dialect: opts.Dialect}
				if _, err := wc.driverOptions(d); err != nil {
					if st, ok := errors.AsType[*provider.SimpleThrow](err); ok {
						return piThrows(st.Category, st.Message), nil
					}
				}
			}
		}
		return piThrows("type-error", tt.Error()), nil
	}
	if err != nil {
		return jsonv.Value{}, err
	}
	client := opts.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	wc := wireCase{model: model, ctx: c, options: options, apiKey: apiKey, simple: simple, abortAfter: abortAfter, dialect: opts.Dialect}
	if simple {
		// Only a 1.6 streamSimple reads it, whose WireContext read the
		// same transcript without failing.
		wc.transcript, _ = provider.TranscriptMessages(rawCtx, "/context")
	}
	if connectTo != nil {
		wc.connectTo = *connectTo
	}
	msg, events, err := send(ctx, d, wc, client, opts.wait(), opts.now())
	if st, ok := errors.AsType[*provider.SimpleThrow](err); ok {
		return piThrows(st.Category, st.Message), nil
	}
	if err == nil {
		err = d.FailureThrows(opts.Dialect, model, msg)
	}
	if err != nil {
		return jsonv.Value{}, err
	}
	// Pi's event stream is made when the call starts and times the answer.
	stream.Finish(opts.Dialect, msg, events, time.Since(started))
	return object(
		jsonv.Member{Key: "message", Value: msg.JSON()},
		jsonv.Member{Key: "events", Value: stream.EventsJSON(events)},
	), nil
}

// ReadAbort reads a wire input's abort ({"afterEvents": k}, k a
// non-negative integer) at ptr: k, or -1 when v is absent.
func ReadAbort(v jsonv.Value, ptr string) (int, error) {
	if v.IsAbsent() {
		return -1, nil
	}
	f := jsonv.ReadFields(v, ptr)
	n := f.Number("afterEvents")
	if rest := f.Rest(); len(rest) > 0 && f.Err() == nil {
		return 0, jsonv.Errorf(f.At(rest[0].Key), "unknown member")
	}
	if err := f.Err(); err != nil {
		return 0, err
	}
	k, _ := n.Float64()
	if k < 0 || k != float64(int(k)) {
		return 0, jsonv.Errorf(f.At("afterEvents"), "want a non-negative integer, got %s", n)
	}
	return int(k), nil
}

// piThrows is the output of a case on which Pi throws instead of giving
// its result: {"throws": {category, message}}, the category being the
// error's class (type-error for a TypeError) and the message its text,
// which the suite compares by type only (it is the runtime's wording).
func piThrows(category, message string) jsonv.Value {
	return object(jsonv.Member{Key: "throws", Value: new(jsonv.ObjectBuilder).
		SetString("category", category).SetString("message", message).Value()})
}
