package openaicodexresponses

import (
	"crypto/rand"
	"fmt"
	"time"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/stream"
)

// What changed in this API from one Pi release line to the next, each
// difference named once here; the rest of the package reads these and
// nothing else of the dialect. (What it shares with openai-responses, the
// reading of the events among it, is that package's.)

// newRequestIDs is newRequestID in each dialect: Pi 0.80 draws a version-4
// UUID, Pi 1.6 a version-7 one.
var newRequestIDs = dialect.Table[func() string]{
	dialect.V0_80: func() string { return newRequestID() },
	dialect.V1_6:  func() string { return newRequestIDv7() },
}

// newRequestIDv7 draws a version-7 UUID (RFC 9562): the time in
// milliseconds, then random bits; tests fix it.
var newRequestIDv7 = func() string {
	var b [16]byte
	ms := uint64(time.Now().UnixMilli())
	for i := 0; i < 6; i++ {
		b[i] = byte(ms >> (40 - 8*i))
	}
	if _, err := rand.Read(b[6:]); err != nil {
		panic(err)
	}
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// compressesBody tells whether Pi sends the SSE body zstd-compressed, with
// content-encoding: zstd (1.6, on a runtime that has zstd: Node 22 does).
var compressesBody = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// sessionID is the session id of the session headers and the WebSocket
// request id: the sessionId (0.80), or from 1.6 on its clamped prompt
// cache key, and none when cacheRetention is exactly "none". ok is false
// when there is none (or it is falsy).
func sessionID(opts Options) (string, bool) {
	if !clampsSession.At(opts.Dialect) {
		return opts.Session()
	}
	key, err := cacheSessionID(opts)
	if err != nil || !key.Truthy() {
		return "", false
	}
	return stream.ToString(key), true
}

// clampsSession tells whether the session headers, the WebSocket request
// id and prompt_cache_key carry the clamped session id, and none when
// cacheRetention is exactly "none" (1.6; 0.80 sends the session id whole
// for the headers and clamps it for the key, whatever the retention).
var clampsSession = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// promptCacheKeys is prompt_cache_key in each dialect (clampsSession).
var promptCacheKeys = dialect.Table[func(Options) (jsonv.Value, error)]{
	dialect.V0_80: func(o Options) (jsonv.Value, error) { return o.PromptCacheKey() },
	dialect.V1_6:  cacheSessionID,
}

// callerWins tells whether a caller's (model or option) originator and
// user-agent replace Pi's own, which then come first (1.6, with Pi's
// identity: provider.IdentityHeaders); 0.80 sets its own last, over the
// caller's, and its user-agent names the machine, so the request leaves it
// out.
var callerWins = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// modelHeaders reads model.headers as each dialect does: 0.80 as new
// Headers(v) takes them (headersInit); 1.6 as Object.entries(v || {})
// lists them (entriesInit), each then set as its own header.
var modelHeaders = dialect.Table[func(jsonv.Value) ([]httpheader.Header, error)]{
	dialect.V0_80: headersInit,
	dialect.V1_6:  entriesInit,
}

// promptAsItem tells whether the system prompt is the first input item
// (a developer item for a reasoning model) and no instructions member is
// sent (1.6); 0.80 sends it as instructions, with a default.
var promptAsItem = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// toolChoiceFromOptions tells whether tool_choice is the caller's
// toolChoice when given (1.6; 0.80 always sends "auto").
var toolChoiceFromOptions = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// sendsOutputCap tells whether a truthy maxTokens is sent as
// max_output_tokens (1.6; 0.80 ignores it).
var sendsOutputCap = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// offEffortByDefault tells whether a reasoning model gets its "off" effort
// when the caller gives no reasoningEffort (1.6; 0.80 sends no reasoning).
var offEffortByDefault = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// effortIn is effort as Pi of dialect d resolves it: 1.6 takes a null
// "off" entry for "none" as it is, so the request sends no reasoning.
func effortIn(d dialect.Dialect, model *ai.Model, requested jsonv.Value) jsonv.Value {
	if nullOffSendsNone.At(d) && requested.Kind() == jsonv.String && requested.Str() == "none" {
		if off := provider.LevelEntry(model, jsonv.StringValue("off")); !off.IsAbsent() {
			return off
		}
	}
	return effort(model, requested)
}

// nullOffSendsNone tells whether the effort "none" takes a null off entry
// of the model's map as it is, so no reasoning is sent (1.6; 0.80 sends
// "none").
var nullOffSendsNone = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// simpleOffIsNone tells whether streamSimple hands the effort "none" for
// no level (or one clamped to off) on a reasoning model (1.6; 0.80 hands
// none).
var simpleOffIsNone = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// readsLastPiece tells whether Pi reads a last piece of the body that no
// "\n\n" ends, as if one did (1.6).
var readsLastPiece = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// recordsEndTurn tells whether a terminal response's boolean end_turn
// becomes the message's endTurn (1.6).
var recordsEndTurn = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// noResponseText is fetch's error when the server closes the connection
// without answering, in each dialect: 1.6 appends its cause.
var noResponseText = dialect.Table[string]{
	dialect.V0_80: provider.FetchFailedText,
	dialect.V1_6:  provider.FetchFailedText + ": " + ConnectionClosedCause,
}

// laterClients are the client c as later dialects have it (Client.Later):
// 1.6 refuses a long server wait (Retry16), words a failed fetch with its
// cause, and a read the caller aborts with fetch's own AbortError.
func laterClients(c provider.Client) dialect.Table[*provider.Client] {
	later := c
	later.Retry = Retry16
	later.NoResponseText = noResponseText.At(dialect.V1_6)
	later.AbortText = provider.FetchAbortedText
	return dialect.Table[*provider.Client]{dialect.V1_6: &later}
}
