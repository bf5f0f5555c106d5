package anthropic

import (
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/provider"
)

// Driver is the reference for the anthropic-messages API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), Build: provider.Streamer(Build),
	FromSimple: provider.SimpleMapper(FromSimple), LenientContext: true, Client: clients[dialect.V0_80], Clients: clients,
}

// clients is the SDK as Pi uses it: 0.80 lets the SDK repeat failed
// requests; 1.6 runs its own loop around it, and checks the caller's
// signal itself before the call (the DOMException's text).
var clients = dialect.Table[provider.Client]{
	dialect.V0_80: provider.StainlessClient("Anthropic/JS *", provider.FetchAbortedText),
	dialect.V1_6: func() provider.Client {
		c := provider.StainlessClient("Anthropic/JS *", provider.FetchAbortedText)
		c.Retry = provider.PiLoopRetry(HTTPErrorText)
		c.AbortBeforeText = provider.FetchAbortedText
		return c
	}(),
}
