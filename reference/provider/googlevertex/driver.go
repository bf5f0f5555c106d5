package googlevertex

import "github.com/piconform/piconform/reference/provider"

// Driver is the reference for the google-vertex API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), BuildRequest: provider.Builder(BuildRequest),
	Failure: Failure, NoResponseText: FetchFailedText, ErrOutsideModel: ErrOutsideModel,
	IncidentalHeaders: IncidentalHeaders,
}
