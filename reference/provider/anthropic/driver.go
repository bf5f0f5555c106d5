package anthropic

import "github.com/piconform/piconform/reference/provider"

// Driver is the reference for the anthropic-messages API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), Build: provider.Streamer(Build),
	FromSimple: provider.SimpleMapper(FromSimple), LenientContext: true, Client: client,
}
