package conformance

import (
	"errors"
	"net/http"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider"
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

// The drivers of the provider APIs: each decodes the case's options (the
// runner's key replacing the options' one, as the Pi adapter does), builds
// the request and says how to read the answer. send does the rest.

// refused reports a request Pi will not send: a *stream.RequestError
// carries Pi's error text. Any other error is the case's own.
func refused(err error) (*prepared, string, error) {
	var re *stream.RequestError
	if errors.As(err, &re) {
		return nil, re.Message, nil
	}
	return nil, "", err
}

// noResponseText is the SDKs' error when no response arrives at all.
const noResponseText = "Connection error."

// fromDriver drives an API through its provider.Driver.
func fromDriver(d provider.Driver) wireAPI {
	return wireAPI{
		prepare: func(c wireCase, now transform.Clock) (*prepared, string, error) {
			o, err := d.DecodeOptions(c.options, "/options")
			if err != nil {
				return nil, "", err
			}
			o.Shared().APIKey = c.apiKey
			call, err := d.BuildRequest(c.model, c.ctx, o, now)
			if err != nil {
				return refused(err)
			}
			return &prepared{method: call.Method, url: call.URL, header: call.Header, body: call.Body, read: call.Read}, "", nil
		},
		failure: d.Failure, noResponse: d.NoResponseText, outsideModel: d.ErrOutsideModel, incidental: d.IncidentalHeaders,
	}
}

var anthropicAPI = fromDriver(anthropic.Driver)

var openaiCompletionsAPI = fromDriver(openaicompletions.Driver)

var openaiResponsesAPI = fromDriver(openairesponses.Driver)

var googleAPI = fromDriver(google.Driver)

var googleVertexAPI = fromDriver(googlevertex.Driver)

var azureOpenAIResponsesAPI = fromDriver(azureopenairesponses.Driver)

var mistralAPI = fromDriver(mistral.Driver)

// Codex calls fetch itself: its answer's reason phrase is Pi's status text.
var openaiCodexResponsesAPI = fromDriver(openaicodexresponses.Driver)

// Bedrock signs with AWS credentials from the options (the runner's key is
// ignored, as Pi ignores it) and answers with an AWS event stream; an HTTP
// error's name is in x-amzn-errortype.
var bedrockAPI = wireAPI{
	prepare: func(c wireCase, now transform.Clock) (*prepared, string, error) {
		o, err := bedrock.DecodeOptions(c.options, "/options")
		if err != nil {
			return nil, "", err
		}
		o.APIKey = c.apiKey
		req, err := bedrock.BuildRequest(c.model, c.ctx, o, now)
		if err != nil {
			return refused(err)
		}
		return &prepared{method: req.Method, url: req.URL, header: req.Header, body: req.Body,
			read: func(r *http.Response) (*ai.AssistantMessage, []stream.Event, error) {
				return req.ParseResponse(r.StatusCode, r.Header.Get("x-amzn-errortype"), r.Body, now)
			}}, "", nil
	},
	failure: bedrock.Failure, noResponse: bedrock.ConnectionErrorText, outsideModel: bedrock.ErrOutsideModel,
	incidental: bedrock.IncidentalHeaders,
}
