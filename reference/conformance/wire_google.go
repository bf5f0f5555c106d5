package conformance

import (
	"bytes"
	"context"
	"errors"
	"net/http"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider/google"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// googleWire drives google-generative-ai: the request Pi builds, sent with
// client, and the message and events Pi makes of the answer.
func googleWire(ctx context.Context, c wireCase, client *http.Client, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	o, err := google.DecodeOptions(c.options, "/options")
	if err != nil {
		return nil, nil, err
	}
	// The runner's key replaces the options' one, as the Pi adapter does.
	o.APIKey = c.apiKey
	req, err := google.BuildRequest(c.model, c.ctx, o, now)
	var re *google.RequestError
	if errors.As(err, &re) {
		msg, events := google.Failure(c.model, re.Message, now)
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
		msg, events := google.Failure(c.model, google.FetchFailedText, now)
		return msg, events, nil
	}
	defer resp.Body.Close()
	msg, events, err := req.ParseResponse(resp.StatusCode, google.StatusText(resp), resp.Header, resp.Body, now)
	if errors.Is(err, google.ErrOutsideModel) {
		return nil, nil, err
	}
	// A read error is already the stream's error event, as in Pi.
	return msg, events, nil
}
