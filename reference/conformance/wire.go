package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/anthropic"
	"github.com/piconform/piconform/reference/provider/google"
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

// wireAPI is the reference's driver for one provider API: it makes the
// request Pi makes, sends it with client, and turns the answer into Pi's
// message and events.
type wireAPI struct {
	run func(ctx context.Context, c wireCase, client *http.Client, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error)
	// incidental lists request headers (lower-case names, path.Match
	// patterns) that describe the client library rather than the
	// translation; a cassette does not keep them.
	incidental []string
}

// wireAPIs are the provider APIs the reference drives, by model.api. Adding
// an API is adding its package under reference/provider and one entry here.
var wireAPIs = map[string]wireAPI{
	openaiResponsesAPI: {run: openaiResponsesWire, incidental: openaiResponsesIncidental},

	anthropic.API: {run: anthropicWire, incidental: anthropic.IncidentalHeaders},
	google.API:    {run: googleWire, incidental: google.IncidentalHeaders},

	openaiCompletionsAPI: {run: openaiCompletionsWire, incidental: openaiCompletionsIncidental},
}

// APIs lists the provider APIs the reference can drive in wire cases.
func APIs() []string {
	apis := make([]string, 0, len(wireAPIs))
	for api := range wireAPIs {
		apis = append(apis, api)
	}
	slices.Sort(apis)
	return apis
}

// IncidentalHeaders lists the request headers of an API that say nothing
// about the translation (SDK telemetry and the like), as lower-case
// path.Match patterns. A harness leaves them out of what it compares.
func IncidentalHeaders(api string) []string { return slices.Clone(wireAPIs[api].incidental) }

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
	model, err := ai.DecodeModel(withMember(rawModel, "baseUrl", jsonv.StringValue(baseURL)), "/model")
	if err != nil {
		return jsonv.Value{}, err
	}
	c, err := ai.DecodeContext(rawCtx, "/context")
	if err != nil {
		return jsonv.Value{}, err
	}
	api, ok := wireAPIs[model.API]
	if !ok {
		return jsonv.Value{}, fmt.Errorf("%w API %q", ErrUnsupported, model.API)
	}
	client := opts.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	msg, events, err := api.run(ctx, wireCase{model: model, ctx: c, options: options, apiKey: apiKey}, client, opts.now())
	if err != nil {
		return jsonv.Value{}, err
	}
	return object(
		jsonv.Member{Key: "message", Value: msg.JSON()},
		jsonv.Member{Key: "events", Value: stream.EventsJSON(events)},
	), nil
}

// withMember returns obj with key set to v, in place when present.
func withMember(obj jsonv.Value, key string, v jsonv.Value) jsonv.Value {
	members := slices.Clone(obj.Members())
	for i := range members {
		if members[i].Key == key {
			members[i].Value = v
			return jsonv.ObjectValue(members...)
		}
	}
	return jsonv.ObjectValue(append(members, jsonv.Member{Key: key, Value: v})...)
}

// ConnectionErrorText is what Pi reports when no response arrives at all.
const ConnectionErrorText = "Connection error."

func anthropicWire(ctx context.Context, c wireCase, client *http.Client, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	o, err := anthropic.DecodeOptions(c.options, "/options")
	if err != nil {
		return nil, nil, err
	}
	// The runner's key replaces the options' one, as the Pi adapter does.
	o.APIKey = c.apiKey
	req, err := anthropic.BuildRequest(c.model, c.ctx, o, now)
	var re *anthropic.RequestError
	if errors.As(err, &re) {
		msg, events := anthropic.Failure(c.model, re.Message, now)
		return msg, events, nil
	}
	if err != nil {
		return nil, nil, err
	}
	hreq, err := http.NewRequestWithContext(ctx, req.Method, req.URL, bytes.NewReader(req.Body.AppendJSON(nil)))
	if err != nil {
		return nil, nil, err
	}
	hreq.Header = req.Header.Clone()
	resp, err := client.Do(hreq)
	if err != nil {
		msg, events := anthropic.Failure(c.model, ConnectionErrorText, now)
		return msg, events, nil
	}
	defer resp.Body.Close()
	msg, events, err := req.ParseResponse(resp.StatusCode, resp.Body, now)
	if errors.Is(err, anthropic.ErrOutsideModel) {
		return nil, nil, err
	}
	// A read error is already the stream's error event, as in Pi.
	return msg, events, nil
}
