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
	"github.com/piconform/piconform/reference/provider/azureopenairesponses"
	"github.com/piconform/piconform/reference/provider/bedrock"
	"github.com/piconform/piconform/reference/provider/google"
	"github.com/piconform/piconform/reference/provider/googlevertex"
	"github.com/piconform/piconform/reference/provider/mistral"
	"github.com/piconform/piconform/reference/provider/openaicodexresponses"
	"github.com/piconform/piconform/reference/provider/openaicompletions"
	"github.com/piconform/piconform/reference/provider/openairesponses"
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

// wireAPI is the reference's driver for one provider API. Every API goes
// the same way (see send): build the request Pi makes, or Pi's refusal to
// make one; send it; read the answer into Pi's message and events.
type wireAPI struct {
	// prepare decodes the case's options and builds the request. A
	// non-empty refusal is the error Pi reports instead of sending.
	prepare func(c wireCase, now transform.Clock) (p *prepared, refusal string, err error)
	// failure is the message and events Pi makes of an error.
	failure func(model *ai.Model, message string, now transform.Clock) (*ai.AssistantMessage, []stream.Event)
	// noResponse is Pi's error when no response arrives at all.
	noResponse string
	// outsideModel marks an answer the reference cannot reproduce.
	outsideModel error
	// incidental lists request headers (lower-case names, path.Match
	// patterns) that describe the client library rather than the
	// translation; a cassette does not keep them.
	incidental []string
}

// prepared is a request ready to send and the way to read its answer.
type prepared struct {
	method, url string
	header      http.Header
	body        jsonv.Value
	read        func(resp *http.Response) (*ai.AssistantMessage, []stream.Event, error)
}

// send runs one wire case through api.
func (api wireAPI) send(ctx context.Context, c wireCase, client *http.Client, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	p, refusal, err := api.prepare(c, now)
	if err != nil {
		return nil, nil, err
	}
	if refusal != "" {
		msg, events := api.failure(c.model, refusal, now)
		return msg, events, nil
	}
	hreq, err := http.NewRequestWithContext(ctx, p.method, p.url, bytes.NewReader(p.body.AppendJSON(nil)))
	if err != nil {
		return nil, nil, err
	}
	hreq.Header = p.header.Clone()
	resp, err := client.Do(hreq)
	if err != nil {
		msg, events := api.failure(c.model, api.noResponse, now)
		return msg, events, nil
	}
	defer resp.Body.Close()
	msg, events, err := p.read(resp)
	if errors.Is(err, api.outsideModel) {
		return nil, nil, err
	}
	// A read error is already the stream's error event, as in Pi.
	return msg, events, nil
}

// wireAPIs are the provider APIs the reference drives, by model.api. Adding
// an API is adding its package under reference/provider and one entry here.
var wireAPIs = map[string]wireAPI{
	anthropic.API:         anthropicAPI,
	google.API:            googleAPI,
	mistral.API:           mistralAPI,
	openaicompletions.API: openaiCompletionsAPI,
	openairesponses.API:   openaiResponsesAPI,

	azureopenairesponses.API: azureOpenAIResponsesAPI,
	openaicodexresponses.API: openaiCodexResponsesAPI,
	googlevertex.API:         googleVertexAPI,
	bedrock.API:              bedrockAPI,
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
	msg, events, err := api.send(ctx, wireCase{model: model, ctx: c, options: options, apiKey: apiKey}, client, opts.now())
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
