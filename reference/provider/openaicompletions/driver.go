package openaicompletions

import "github.com/piconform/piconform/reference/provider"

// Driver is the reference for the openai-completions API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), Build: provider.Streamer(Build),
	FromSimple: provider.SimpleMapper(FromSimple), LenientContext: true,
	Client: func() provider.Client {
		c := provider.StainlessClient("OpenAI/JS *", "")
		c.Later = laterClients
		return c
	}(),
}
