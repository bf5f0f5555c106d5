package openaicodexresponses

import "github.com/piconform/piconform/reference/provider"

// Driver is the reference for the openai-codex-responses API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), Build: provider.Streamer(Build),
	FromSimple: provider.SimpleMapper(FromSimple), LenientContext: true,
	Client: provider.Client{
		Retry: Retry, NoResponseText: provider.FetchFailedText,
		AbortText: provider.PiAbortedText, AbortBeforeText: provider.PiAbortedText,
		// IncidentalHeaders are the request headers (lower-case path.Match
		// patterns) that describe the client rather than the translation. Pi calls
		// fetch itself, so there are no SDK headers; the user agent is one a
		// client adds anyway.
		IncidentalHeaders: []string{}, MachineHeaders: MachineHeaders,
		IdentityHeaders: provider.ClientIdentity(""),
	},
}
