package openairesponses

import "github.com/piconform/piconform/reference/provider"

// Driver is the reference for the openai-responses API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), Build: provider.Streamer(Build),
	FromSimple: provider.SimpleMapper(FromSimple), LenientContext: true, Client: StainlessClientIn("OpenAI/JS *"),
	CatchThrows: catchThrows,
}

// StainlessClientIn is the openai SDK as a Responses API of Pi uses it
// (userAgent is the pattern of the SDK's user agent): 0.80 lets the SDK
// repeat failed requests; 1.6 runs its own loop around it
// (provider.PiRetry, whose refusal quotes the SDK's message of the failed
// response), and checks the caller's signal itself before the call.
func StainlessClientIn(userAgent string) provider.Client {
	c := provider.StainlessClient(userAgent, "")
	c.Later = laterClients(c)
	return c
}
