package bedrock

import "github.com/piconform/piconform/reference/provider"

// Driver is the reference for the bedrock-converse-stream API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), BuildRequest: provider.Builder(BuildRequest),
	Failure: Failure, NoResponseText: ConnectionErrorText, ErrOutsideModel: ErrOutsideModel,
	IncidentalHeaders: IncidentalHeaders,
}
