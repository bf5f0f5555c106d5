package google

import "github.com/piconform/piconform/reference/provider"

// Driver is the reference for the google-generative-ai API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), Build: provider.Streamer(Build),
	FromSimple: provider.SimpleMapper(FromSimple), Client: Client, LenientContext: true, FoldsSystemMessages: true,
}

// Client is the Gen AI SDK, which calls fetch: fetch's errors, Pi's
// Google check for a signal aborted before the call, and no retries.
var Client = provider.Client{
	NoResponseText: provider.FetchFailedText,
	AbortText:      provider.FetchAbortedText, AbortBeforeText: provider.RequestAbortedText,
	IncidentalHeaders: IncidentalHeaders,
	IdentityHeaders:   Identity,
}

// Identity is the Gen AI SDK's: its user agent, and its second one in
// x-goog-api-client.
var Identity = provider.ClientIdentity("google-genai-sdk/*", provider.IdentityHeader{Name: "x-goog-api-client", Value: "*"})
