package conformance

import (
	"bytes"
	"context"
	"errors"
	"net/http"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider/openaicompletions"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// openaiCompletionsWire drives the openai-completions API for a wire case.
func openaiCompletionsWire(ctx context.Context, c wireCase, client *http.Client, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	o, err := openaicompletions.DecodeOptions(c.options, "/options")
	if err != nil {
		return nil, nil, err
	}
	// The runner's key replaces the options' one, as the Pi adapter does.
	o.APIKey = c.apiKey
	req, err := openaicompletions.BuildRequest(c.model, c.ctx, o, now)
	var re *openaicompletions.RequestError
	if errors.As(err, &re) {
		msg, events := openaicompletions.Failure(c.model, re.Message, now)
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
		msg, events := openaicompletions.Failure(c.model, ConnectionErrorText, now)
		return msg, events, nil
	}
	defer resp.Body.Close()
	msg, events, err := req.ParseResponse(resp.StatusCode, resp.Body, now)
	if errors.Is(err, openaicompletions.ErrOutsideModel) {
		return nil, nil, err
	}
	// A read error is already the stream's error event, as in Pi.
	return msg, events, nil
}

// The wireAPIs entry of openai-completions, named here so that the shared
// table only needs one line.
const openaiCompletionsAPI = openaicompletions.API

var openaiCompletionsIncidental = openaicompletions.IncidentalHeaders
