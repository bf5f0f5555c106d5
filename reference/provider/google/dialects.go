package google

import (
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/provider"
)

// release is what one Pi release line's Google code (google-shared.js and
// the two adapters on top of it, with the Gen AI SDK that release pins)
// does differently from another's. Each field names one difference and
// the rule of spec/wire-google.md it belongs to; the values are in
// releases, one per dialect. Both google-generative-ai and google-vertex
// read it.
type release struct {
	// sdkVersion is the Gen AI SDK's version, named in x-goog-api-client
	// (wire.google.headers).
	sdkVersion string
	// identityHeaders: Pi's own identity headers (its user agent) lie
	// under the model's and the caller's, and those two merge with names
	// compared without case, a later one replacing an earlier one and a
	// null removing it (wire.google.header-merge). Without it they merge
	// as plain objects, and the SDK names itself in user-agent.
	identityHeaders bool
	// gemini3ToolCallIDs: models of Gemini 3 and later take tool-call ids
	// too (wire.google.tool-call-ids).
	gemini3ToolCallIDs bool
	// signedBlanks: a blank text or thinking block is still replayed when
	// it carries a signature for the same model
	// (wire.google.thought-signatures).
	signedBlanks bool
	// trimmedResultText: a tool result whose text is only white space
	// counts as one without text (wire.google.tool-results).
	trimmedResultText bool
	// constAsEnum: a string or number const in a tool's schema is sent as
	// a one-value enum (wire.google.tools).
	constAsEnum bool
	// sdkLevelMap: thinking.level goes through Pi's map of the SDK's level
	// names on google-generative-ai too, as it always did on google-vertex
	// (wire.google.thinking).
	sdkLevelMap bool
	// levelModels: which models take a thinking level and how thinking is
	// turned off follow Pi's one rule for both APIs, with the model's
	// thinkingLevelMap (wire.google.thinking, wire.google.simple).
	levelModels bool
	// idFirst: Pi reads the model's id as a string on every request,
	// before it checks the signal (wire.google.lenient).
	idFirst bool
	// sdkMajor is the Gen AI SDK's major version, whose serializers
	// rewrite Pi's contents and declarations (wire.google.body,
	// wire.google-vertex.key-order): GeminiContent, VertexContent.
	sdkMajor int
	// finishRequired: a stream that ends without a finishReason fails
	// (wire.google.termination), an error stop names the reason, and only
	// a clean stop becomes toolUse (wire.google.finish-reason).
	finishRequired bool
	// moreFinishReasons: CONTINUATION (length) and TOO_MANY_TOOL_CALLS
	// (error) are known finish reasons (wire.google.finish-reason).
	moreFinishReasons bool
	// reasoningUsage: the usage counts thoughtsTokenCount as reasoning too
	// (wire.google.usage).
	reasoningUsage bool
	// eventErrorObjects: an error object in an SSE data line fails the
	// stream, and only a number code counts
	// (wire.google.stream-error-object).
	eventErrorObjects bool
}

var releases = dialect.Table[*release]{
	dialect.V0_80: {sdkVersion: "1.52.0", sdkMajor: 1},
	dialect.V1_6: {
		sdkVersion: "2.32.0", identityHeaders: true, gemini3ToolCallIDs: true, signedBlanks: true,
		trimmedResultText: true, constAsEnum: true, sdkLevelMap: true, levelModels: true, idFirst: true,
		sdkMajor: 2, finishRequired: true, moreFinishReasons: true, reasoningUsage: true, eventErrorObjects: true,
	},
}

// SDKMajor is the major version of the Gen AI SDK that Pi of dialect d
// pins.
func SDKMajor(d dialect.Dialect) int { return rules(d).sdkMajor }

// rules is the release of dialect d.
func rules(d dialect.Dialect) *release { return releases.At(d) }

// laterClients are the client as later dialects have it (Client.Later):
// from 1.6 on Pi wraps the call in its own retry loop (GenAIRetry), and
// fetch's error names its cause.
var laterClients = dialect.Table[*provider.Client]{dialect.V1_6: &client16}

var client16 = provider.Client{
	// A server that closes the connection without an answer, as a case's
	// disconnect does: undici's cause, which Pi 1.6 appends.
	NoResponseText: provider.FetchFailedText + ": " + provider.ConnectionClosedCause,
	AbortText:      provider.FetchAbortedText, AbortBeforeText: provider.RequestAbortedText,
	Retry:             GenAIRetry,
	IncidentalHeaders: IncidentalHeaders,
	// The SDK still names itself in x-goog-api-client; Pi's own
	// user-agent is every 1.6 API's (provider.PiIdentity).
	IdentityHeaders: Identity,
}
