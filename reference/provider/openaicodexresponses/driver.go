package openaicodexresponses

import "github.com/piconform/piconform/reference/provider"

// Driver is the reference for the openai-codex-responses API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), BuildRequest: provider.Builder(BuildRequest),
	Failure: Failure, NoResponseText: provider.FetchFailedText, ErrOutsideModel: ErrOutsideModel,
	IncidentalHeaders: IncidentalHeaders, MachineHeaders: MachineHeaders,
}
