package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"slices"
	"time"

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
}

// send runs one wire case through d: build the request Pi makes, or Pi's
// refusal to make one (its error, as Pi reports it); send it; read the
// answer into Pi's message and events. The runner's key replaces the
// options' one, as the Pi adapter does it.
func send(ctx context.Context, d provider.Driver, c wireCase, client *http.Client, wait func(context.Context, time.Duration) error, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	opts, err := d.DecodeOptions(c.options, "/options")
	if err != nil {
		return nil, nil, err
	}
	opts.Shared().APIKey = c.apiKey
	call, err := d.BuildRequest(c.model, c.ctx, opts, now)
	if msg, ok := provider.Refusal(err); ok {
		out, events := d.Failure(c.model, msg, now)
		return out, events, nil
	}
	if err != nil {
		return nil, nil, err
	}
	resp, err := exchange(ctx, d, call, opts.Shared(), client, wait)
	if err != nil {
		return nil, nil, err
	}
	if resp == nil {
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

// exchange sends call, and sends it again as often as d's client repeats
// a failed request (d.Retry), with wait between as the client waits. It
// returns the last response (nil when none arrived); err is only a broken
// request or ctx ending during a wait.
func exchange(ctx context.Context, d provider.Driver, call *provider.Call, o *provider.StreamOptions, client *http.Client, wait func(context.Context, time.Duration) error) (*http.Response, error) {
	retries := d.Retry.Retries(o)
	for attempt := 0; ; attempt++ {
		if attempt > 0 && d.Retry.Stamp != nil {
			d.Retry.Stamp(call.Header, attempt)
		}
		hreq, err := http.NewRequestWithContext(ctx, call.Method, call.URL, bytes.NewReader(call.Body.AppendJSON(nil)))
		if err != nil {
			return nil, err
		}
		hreq.Header = call.Header.Clone()
		resp, err := client.Do(hreq)
		if err == nil && resp.StatusCode >= 200 && resp.StatusCode <= 299 {
			return resp, nil
		}
		if attempt >= retries || ctx.Err() != nil {
			if err != nil {
				return nil, nil
			}
			return resp, nil
		}
		var body []byte
		if err == nil {
			// The failed answer is read whole, to decide, and kept for
			// reading it again if it is the last.
			body, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			resp.Body = io.NopCloser(bytes.NewReader(body))
			if err != nil {
				resp = nil
			}
		}
		pause, again := d.Retry.After(attempt, resp, body, o, rand.Float64())
		if !again {
			return resp, nil
		}
		if err := wait(ctx, pause); err != nil {
			return nil, err
		}
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

// IdentityHeaders lists the request headers an API's client library adds to
// say what it is (provider.Driver.IdentityHeaders).
func IdentityHeaders(api string) []provider.IdentityHeader {
	return slices.Clone(drivers[api].IdentityHeaders)
}

// wire runs one provider request and its streamed answer: input
// {baseUrl, apiKey, model, context, options}, output {message, events}.
func wire(ctx context.Context, input jsonv.Value, opts Options) (jsonv.Value, error) {
	f := jsonv.ReadFields(input, "")
	baseURL := f.String("baseUrl")
	apiKey := f.OptString("apiKey")
	rawModel := f.Object("model")
	rawCtx := f.Object("context")
	options := f.OptObject("options")
	if err := f.Err(); err != nil {
		return jsonv.Value{}, err
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
	msg, events, err := send(ctx, d, wireCase{model: model, ctx: c, options: options, apiKey: apiKey}, client, opts.wait(), opts.now())
	if err != nil {
		return jsonv.Value{}, err
	}
	return object(
		jsonv.Member{Key: "message", Value: msg.JSON()},
		jsonv.Member{Key: "events", Value: stream.EventsJSON(events)},
	), nil
}
