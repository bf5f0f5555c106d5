package google

import (
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/sse"
	"github.com/piconform/piconform/reference/provider/stream"
)

// Driver is the reference for the google-generative-ai API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), Build: provider.Streamer(Build),
	FromSimple: provider.SimpleMapper(FromSimple), Client: Client, LenientContext: true, FoldsSystemMessages: true,
}

// Client is the Gen AI SDK, which calls fetch: fetch's errors, Pi's
// Google check for a signal aborted before the call, and in 0.80 no
// retries. From 1.6 on (Later) Pi wraps the call in its own retry loop
// (GenAIRetry), and fetch's error names its cause.
var Client = provider.Client{
	NoResponseText: provider.FetchFailedText,
	AbortText:      provider.FetchAbortedText, AbortBeforeText: provider.RequestAbortedText,
	IncidentalHeaders: IncidentalHeaders,
	IdentityHeaders:   Identity,
	Later:             laterClients,
}

// Identity is the Gen AI SDK's: its user agent, and its second one in
// x-goog-api-client.
var Identity = provider.ClientIdentity("google-genai-sdk/*", provider.IdentityHeader{Name: "x-goog-api-client", Value: "*"})

// GenAIRetry is Pi 1.6's retry loop (provider.PiRetry's count of repeats)
// around the Gen AI SDK, whose errors carry a status but no headers: a
// response is repeated when the SDK made an ApiError of it (a status from
// 400 to 599, and a JSON body when its content-type says so) and its
// status is 408, 409, 429 or 5xx; the server's retry-after and
// x-should-retry are never read, so the wait is always 0.5 s doubling per
// repeat up to 8 s, less up to a quarter of jitter. A request without an
// answer is not repeated (fetch's TypeError has no status). As in every
// use of Pi's loop, maxRetries is read only once an attempt failed
// (provider.Retry.LateLimit).
var GenAIRetry = provider.Retry{Limit: provider.PiRetry(nil).Limit, After: genAIAfter, LateLimit: true}

func genAIAfter(done int, resp *http.Response, body []byte, o *provider.StreamOptions, jitter float64) (time.Duration, bool) {
	if resp == nil {
		return 0, false
	}
	s := resp.StatusCode
	if s < 400 || s >= 600 || s != 408 && s != 409 && s != 429 && s < 500 {
		return 0, false
	}
	if strings.Contains(strings.Join(resp.Header.Values("Content-Type"), ", "), "application/json") {
		if _, err := stream.ParseJSON(sse.Text(body)); err != nil {
			return 0, false // the SDK's JSON.parse threw: no status
		}
	}
	secs := math.Min(0.5*math.Pow(2, provider.StainlessCount(o, done)), 8) * (1 - jitter*0.25)
	return provider.Millis(secs * 1000), true
}
