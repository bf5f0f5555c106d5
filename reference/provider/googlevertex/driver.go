package googlevertex

import (
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/google"
)

// Driver is the reference for the google-vertex API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), BuildRequest: provider.Builder(BuildRequest),
	FromSimple: provider.SimpleMapper(FromSimple),
	Failure:    Failure, NoResponseText: provider.FetchFailedText,
	AbortText: provider.FetchAbortedText, AbortBeforeText: provider.RequestAbortedText,
	// IncidentalHeaders are google-generative-ai's: user-agent and
	// x-goog-api-client name the SDK and the Node build.
	IncidentalHeaders: google.IncidentalHeaders,
	IdentityHeaders:   google.Identity,
}
