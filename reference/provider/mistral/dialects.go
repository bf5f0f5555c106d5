package mistral

import (
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/provider"
)

// What changed in this API from one Pi release line to the next, each
// difference named once here; the code reads these and nothing else of
// the dialect.

// ownFetch tells whether Pi sends the request with its own fetch (1.6 on)
// rather than through the Mistral SDK (0.80): then no SDK schema checks
// what Pi copies into the body, the body's members are renamed by Pi
// (toMistralWirePayload) and keep the order Pi wrote them in, and the
// headers are a fetch Headers Pi fills (buildHeader16).
var ownFetch = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// laterClients are the client as later dialects have it. Pi 1.6 sends the
// request with its own fetch: fetch's own texts when no answer comes or the
// caller aborts first, no cookie, and no user-agent but Pi's.
var laterClients = dialect.Table[*provider.Client]{dialect.V1_6: {
	NoResponseText: provider.FetchFailedText,
	AbortText:      provider.FetchAbortedText, AbortBeforeText: provider.FetchAbortedText,
	IncidentalHeaders: []string{},
	IdentityHeaders:   provider.ClientIdentity(""),
}}
