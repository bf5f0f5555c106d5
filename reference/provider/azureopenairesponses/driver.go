package azureopenairesponses

import "github.com/piconform/piconform/reference/provider"

var build = provider.Streamer(Build)

// Driver is the reference for the azure-openai-responses API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), BuildRequest: build.BuildRequest, Stream: build,
	FromSimple: provider.SimpleMapper(FromSimple), LenientContext: true, Client: provider.StainlessClient("AzureOpenAI/JS *", ""),
}
