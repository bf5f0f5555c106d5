package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"

	"github.com/piconform/piconform/reference/ai"
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
func send(ctx context.Context, d provider.Driver, c wireCase, client *http.Client, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	opts, err := c.driverOptions(d)
	if err != nil {
		return nil, nil, err
	}
	call, err := d.BuildRequest(c.model, c.ctx, opts, now)
	if msg, ok := provider.Refusal(err); ok {
		out, events := d.Failure(c.model, msg, now)
		return out, events, nil
	}
	if err != nil {
		return nil, nil, err
	}
	hreq, err := http.NewRequestWithContext(ctx, call.Method, call.URL, bytes.NewReader(call.Body.AppendJSON(nil)))
	if err != nil {
		return nil, nil, err
	}
	hreq.Header = call.Header.Clone()
	resp, err := client.Do(hreq)
	if err != nil {
		out, events := d.Failure(c.model, d.NoResponseText, now)
		return out, events, nil
	}
	defer resp.Body.Close()
	out, events, err := call.Read(resp)
	if errors.Is(err, stream.ErrOutsideModel) {
		return nil, nil, err
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
	opts, err := d.FromSimple(c.model, s)
	if err != nil {
		return nil, fmt.Errorf("streamSimple throws: %w", err)
	}
	return opts, nil
}

// APIs lists the provider APIs the reference can drive in wire cases.
func APIs() []string { return slices.Sorted(maps.Keys(drivers)) }

// IncidentalHeaders lists the request headers of an API that say nothing
// about the translation (SDK telemetry and the like), as lower-case
// path.Match patterns. A harness leaves them out of what it compares.
func IncidentalHeaders(api string) []string { return slices.Clone(drivers[api].IncidentalHeaders) }

// IdentityHeaders lists the request headers an API's client library adds to
// say what it is (provider.Driver.IdentityHeaders).
func IdentityHeaders(api string) []provider.IdentityHeader {
	return slices.Clone(drivers[api].IdentityHeaders)
}

// wire runs one provider request and its streamed answer: input
// {baseUrl, apiKey, model, context, options, call}, output {message, events}.
func wire(ctx context.Context, input jsonv.Value, opts Options) (jsonv.Value, error) {
	f := jsonv.ReadFields(input, "")
	baseURL := f.String("baseUrl")
	apiKey := f.OptString("apiKey")
	rawModel := f.Object("model")
	rawCtx := f.Object("context")
	options := f.OptObject("options")
	call := f.OptString("call")
	if err := f.Err(); err != nil {
		return jsonv.Value{}, err
	}
	simple := call != nil && *call == CallStreamSimple
	if call != nil && !simple && *call != CallStream {
		return jsonv.Value{}, jsonv.Errorf("/call", "want %q or %q, got %q", CallStream, CallStreamSimple, *call)
	}
	if options.IsAbsent() {
		options = jsonv.ObjectValue()
	}
	// The model is called at the runner's server, as Pi's adapter does it.
	model, err := ai.DecodeModel(rawModel.With("baseUrl", jsonv.StringValue(baseURL)), "/model")
	if err != nil {
		return jsonv.Value{}, err
	}
	c, err := ai.DecodeContext(rawCtx, "/context")
	if err != nil {
		return jsonv.Value{}, err
	}
	d, ok := drivers[model.API]
	if !ok {
		return jsonv.Value{}, fmt.Errorf("%w API %q", ErrUnsupported, model.API)
	}
	client := opts.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	msg, events, err := send(ctx, d, wireCase{model: model, ctx: c, options: options, apiKey: apiKey, simple: simple}, client, opts.now())
	if err != nil {
		return jsonv.Value{}, err
	}
	return object(
		jsonv.Member{Key: "message", Value: msg.JSON()},
		jsonv.Member{Key: "events", Value: stream.EventsJSON(events)},
	), nil
}
