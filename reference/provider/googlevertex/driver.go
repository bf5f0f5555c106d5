package googlevertex

import (
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/google"
)

// Driver is the reference for the google-vertex API. Its client is
// google-generative-ai's: user-agent and x-goog-api-client name the SDK
// and the Node build.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), Build: provider.Streamer(Build),
	FromSimple: provider.SimpleMapper(FromSimple), Client: google.Client, LenientContext: true, FoldsSystemMessages: true,
}
