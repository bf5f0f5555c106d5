package azureopenairesponses

import (
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/openairesponses"
)

// Driver is the reference for the azure-openai-responses API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), Build: provider.Streamer(Build),
	FromSimple: provider.SimpleMapper(FromSimple), LenientContext: true, Client: openairesponses.StainlessClientIn("AzureOpenAI/JS *"),
}
