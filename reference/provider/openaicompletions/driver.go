package openaicompletions

import "github.com/piconform/piconform/reference/provider"

// Driver is the reference for the openai-completions API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), BuildRequest: provider.Builder(BuildRequest),
	FromSimple: provider.SimpleMapper(FromSimple),
	Failure:    Failure, Retry: provider.StainlessRetry, NoResponseText: provider.ConnectionErrorText,
	AbortText: "", AbortBeforeText: provider.SDKAbortedText,
	// IncidentalHeaders are the request headers (lower-case path.Match
	// patterns) that describe the SDK rather than the translation: the
	// x-stainless-* telemetry but the retry count. Conformance checks leave
	// them out.
	IncidentalHeaders: provider.StainlessIncidental, MachineHeaders: provider.StainlessMachineHeaders,
	IdentityHeaders: provider.ClientIdentity("OpenAI/JS *", provider.StainlessIdentity),
}
