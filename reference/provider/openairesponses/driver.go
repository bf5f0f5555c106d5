package openairesponses

import "github.com/piconform/piconform/reference/provider"

// Driver is the reference for the openai-responses API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), BuildRequest: provider.Builder(BuildRequest),
	FromSimple: provider.SimpleMapper(FromSimple),
	Failure:    Failure, Retry: provider.StainlessRetry, NoResponseText: provider.ConnectionErrorText,
	AbortText: "", AbortBeforeText: provider.SDKAbortedText,
	// IncidentalHeaders are the request headers (lower-case path.Match
	// patterns) that describe the SDK and the machine rather than the
	// translation; conformance checks leave them out.
	IncidentalHeaders: provider.StainlessIncidental, MachineHeaders: provider.StainlessMachineHeaders,
	IdentityHeaders: provider.ClientIdentity("OpenAI/JS *", provider.StainlessIdentity),
}
