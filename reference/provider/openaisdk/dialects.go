package openaisdk

import "github.com/piconform/piconform/reference/dialect"

// What changed in the openai SDK under Pi from one release line to the
// next (SDK 6 in 0.80, SDK 7 in 1.6), each difference named once here; the
// code reads these and nothing else of the dialect.

// Versions is the SDK's version in each dialect.
var Versions = dialect.Table[string]{dialect.V0_80: Version, dialect.V1_6: "7.59.0"}

// wholeBodyIsError tells whether the SDK of a dialect wraps an error body
// without an error member as {error: body} (SDK 7's makeStatusError).
var wholeBodyIsError = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// dropsUnfinishedEvent tells whether the SDK's event reader drops an event
// no blank line ends (SDK 6); SDK 7 dispatches it when the body ends.
var dropsUnfinishedEvent = dialect.Table[bool]{dialect.V0_80: true, dialect.V1_6: false}

// The SDK's Stream iterator (Stream.Next).
var (
	// exactDoneMarker: only data that is [DONE] itself ends the stream;
	// SDK 6 took any data starting with [DONE].
	exactDoneMarker = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// malformedEventText: data that is not JSON throws MalformedEventText;
	// SDK 6 threw JSON.parse's error.
	malformedEventText = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// throwsErrorEvents: an "error" event throws its data (its error
	// member, else the data itself).
	throwsErrorEvents = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
)

// normalizesChatChunks tells whether the stream chat.completions.create
// returns (SDK 7) rewrites each chunk before handing it on (ChatChunk).
var normalizesChatChunks = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// checksAuth tells whether the SDK refuses a request that carries no
// credential header (CheckAuth; SDK 7).
var checksAuth = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// insidePiRetry tells whether Pi calls the SDK inside its own retry loop
// (1.6, provider.PiRetry), which turns any failure of the call into its
// abort error when the caller's signal has fired.
var insidePiRetry = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
