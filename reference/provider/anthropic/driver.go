package anthropic

import (
	"net/http"

	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/provider"
)

// Driver is the reference for the anthropic-messages API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), Build: provider.Streamer(Build),
	FromSimple: provider.SimpleMapper(FromSimple), LenientContext: true, Client: client,
}

// client is the SDK as Pi uses it: 0.80 lets the SDK repeat failed
// requests; 1.6 runs its own loop around it (provider.PiRetry), and checks
// the caller's signal itself before the call (the DOMException's text).
var client = func() provider.Client {
	c := provider.StainlessClient("Anthropic/JS *", provider.FetchAbortedText)
	later := c
	later.Retry = provider.PiRetry(func(resp *http.Response, body []byte) string { return HTTPErrorText(resp.StatusCode, body) })
	later.AbortBeforeText = provider.FetchAbortedText
	c.Later = dialect.Table[*provider.Client]{dialect.V1_6: &later}
	return c
}()
