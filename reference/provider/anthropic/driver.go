package anthropic

import "github.com/piconform/piconform/reference/provider"

// Driver is the reference for the anthropic-messages API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), BuildRequest: provider.Builder(BuildRequest),
	FromSimple: provider.SimpleMapper(FromSimple),
	Failure:    Failure, Retry: provider.StainlessRetry, NoResponseText: provider.ConnectionErrorText,
	AbortText: provider.FetchAbortedText, AbortBeforeText: provider.SDKAbortedText,
	// IncidentalHeaders are the request headers (lower-case path.Match
	// patterns) that describe the SDK and the machine rather than the
	// translation: the x-stainless-* telemetry, whose values follow the
	// timeout and the Node build, all but the retry count. Conformance checks
	// leave them out; Request still carries them.
	IncidentalHeaders: provider.StainlessIncidental, MachineHeaders: provider.StainlessMachineHeaders,
	IdentityHeaders: provider.ClientIdentity("Anthropic/JS *", provider.StainlessIdentity),
}
