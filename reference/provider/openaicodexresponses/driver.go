package openaicodexresponses

import "github.com/piconform/piconform/reference/provider"

// Driver is the reference for the openai-codex-responses API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), Build: provider.Streamer(Build),
	FromSimple: provider.SimpleMapper(FromSimple), LenientContext: true, Client: client,
}

// ConnectionClosedCause is what Pi 1.6 appends to fetch's error when the
// server closes the connection without answering (the cause undici gives).
const ConnectionClosedCause = provider.ConnectionClosedCause

// client is fetch as Pi calls it, with Pi's own retry loop. 1.6 refuses a
// long server wait (Retry16), words a failed fetch with its cause, and a
// read the caller aborts with fetch's own AbortError.
var client = func() provider.Client {
	c := provider.Client{
		Retry: Retry, NoResponseText: provider.FetchFailedText,
		AbortText: provider.PiAbortedText, AbortBeforeText: provider.PiAbortedText,
		// IncidentalHeaders are the request headers (lower-case path.Match
		// patterns) that describe the client rather than the translation. Pi calls
		// fetch itself, so there are no SDK headers; the user agent is one a
		// client adds anyway.
		IncidentalHeaders: []string{}, MachineHeaders: MachineHeaders,
		IdentityHeaders: provider.ClientIdentity(""),
	}
	c.Later = laterClients(c)
	return c
}()
