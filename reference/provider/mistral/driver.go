package mistral

import "github.com/piconform/piconform/reference/provider"

// Driver is the reference for the mistral-conversations API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), Build: provider.Streamer(Build),
	FromSimple: provider.SimpleMapper(FromSimple), LenientContext: true,
	Client: provider.Client{
		NoResponseText: ConnectionErrorText,
		AbortText:      provider.FetchAbortedText, AbortBeforeText: AbortBeforeText,
		// IncidentalHeaders are the request headers (lower-case path.Match
		// patterns) that describe the client rather than the translation. The
		// Mistral SDK sends none that vary: its user-agent and its empty cookie
		// header are fixed, so they are compared like the rest.
		IncidentalHeaders: []string{},
		// The SDK always sets the cookie header of its security scheme, empty
		// here; a cookie with a value would be the caller's.
		IdentityHeaders: provider.ClientIdentity("mistral-client-typescript/*", provider.IdentityHeader{Name: "cookie", Value: ""}),
		Later:           laterClients,
	},
}

// AbortBeforeText is the SDK's error for a signal aborted before the call:
// its own words around fetch's AbortError, as the error prints.
const AbortBeforeText = "Request aborted by client: AbortError: " + provider.FetchAbortedText

// ConnectionErrorText is Pi's error when no answer arrives: the SDK's
// ConnectionError, which quotes fetch's TypeError.
const ConnectionErrorText = "Unable to make request: TypeError: " + provider.FetchFailedText
