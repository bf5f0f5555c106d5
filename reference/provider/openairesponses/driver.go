package openairesponses

import "github.com/piconform/piconform/reference/provider"

// Driver is the reference for the openai-responses API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), BuildRequest: provider.Builder(BuildRequest),
	FromSimple: provider.SimpleMapper(FromSimple), LenientContext: true, Client: provider.StainlessClient("OpenAI/JS *", ""),
}
