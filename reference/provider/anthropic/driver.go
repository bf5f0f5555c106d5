package anthropic

import "github.com/piconform/piconform/reference/provider"

// Driver is the reference for the anthropic-messages API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), BuildRequest: provider.Builder(BuildRequest),
	FromSimple: provider.SimpleMapper(FromSimple),
	Failure:    Failure, NoResponseText: provider.ConnectionErrorText,
	AbortText: provider.FetchAbortedText, AbortBeforeText: provider.SDKAbortedText,
	// IncidentalHeaders are the request headers (lower-case path.Match
	// patterns) that describe the SDK and the machine rather than the
	// translation: the x-stainless-* telemetry, whose values follow the retry
	// count, the timeout and the Node build. Conformance checks leave them out;
	// Request still carries them.
	IncidentalHeaders: []string{"x-stainless-*"}, MachineHeaders: provider.StainlessMachineHeaders,
	IdentityHeaders: provider.ClientIdentity("Anthropic/JS *", provider.StainlessIdentity),
}
