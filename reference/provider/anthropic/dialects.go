package anthropic

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/wtf8"
)

// What changed in this API from one Pi release line to the next, each
// difference named once here; the code reads these and nothing else of
// the dialect.

// messagesPath is the Messages endpoint. Pi 1.6 calls the SDK's beta
// namespace, which asks for it with ?beta=true.
var messagesPath = dialect.Table[string]{
	dialect.V0_80: MessagesPath,
	dialect.V1_6:  MessagesPath + "?beta=true",
}

// claudeCodeVersion is the Claude Code release an OAuth request's
// user-agent names.
var claudeCodeVersion = dialect.Table[string]{
	dialect.V0_80: ClaudeCodeVersion,
	dialect.V1_6:  "2.1.322",
}

// betasInBody tells whether Pi lists the betas in the request (its betas
// member, which the SDK's beta namespace turns into the last
// anthropic-beta header) rather than in a default header of the client.
var betasInBody = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// Betas Pi 1.6 asks for besides the ones 0.80 knew.
const (
	BetaServerSideFallback   = "server-side-fallback-2026-07-01"
	BetaMidConvoOutputConfig = "mid-conversation-output-config-2026-07-01"
	BetaThinkingBinding      = "thinking-binding-controls-2026-08-01"
	BetaMessageThreads       = "message-threads-2026-08-12"
)

// betaList is the anthropic-beta list of the request (Pi 0.80's client
// headers, Pi 1.6's getBetaFeatures; see betasInBody for where it goes).
//
// 0.80: fine-grained tool streaming when tools are sent to a model without
// eager input streaming, then interleaved thinking unless
// interleavedThinking is falsy or the model is forced to adaptive thinking,
// whether thinking is on or not; OAuth puts Claude Code's two betas first.
//
// 1.6: an anthropic-beta in the model's or the caller's headers (any case,
// the caller's last) replaces the list: its comma-separated names, trimmed,
// without empty ones and repeats, and none at all for null. Otherwise the
// list is OAuth's two, fine-grained tool streaming as before, interleaved
// thinking only when thinkingEnabled is the boolean true (another truthy
// value turns thinking on, but does not ask for the beta) for a reasoning
// model not forced to adaptive thinking, the server-side fallback beta when
// the model allows fallback models, the two managed-effort betas for a
// model with compat.supportsMidConvoEffort, and the threads beta when the
// request may use message threads; without repeats.
func betaList(d dialect.Dialect, model *ai.Model, tools bool, opts Options, oauth, threads bool, c provider.Compat) ([]string, error) {
	fineGrained := tools && !c.Truthy("supportsEagerToolInputStreaming", true)
	var out []string
	if !betasInBody.At(d) {
		if fineGrained {
			out = append(out, BetaFineGrainedToolStreaming)
		}
		if TruthyOr(opts.InterleavedThinking, true) && !c.IsTrue("forceAdaptiveThinking") {
			out = append(out, BetaInterleavedThinking)
		}
		if oauth {
			out = append([]string{BetaClaudeCode, BetaOAuth}, out...)
		}
		return out, nil
	}
	configured, found := jsonv.Value{}, false
	for _, h := range append(httpheader.FromModel(model), opts.Headers...) {
		if jsLower(h.Name) == "anthropic-beta" {
			configured, found = headerValue(h), true
		}
	}
	if found {
		switch configured.Kind() {
		case jsonv.Null:
			return nil, nil
		case jsonv.String:
			for _, name := range strings.Split(configured.Str(), ",") {
				out = appendNew(out, stream.JSTrim(name))
			}
			return out, nil
		}
		return nil, &stream.RequestError{Message: "configuredFeatures.split is not a function"}
	}
	if oauth {
		out = append(out, BetaClaudeCode, BetaOAuth)
	}
	if fineGrained {
		out = append(out, BetaFineGrainedToolStreaming)
	}
	if model.Reasoning && opts.thinkingIsTrue() && TruthyOr(opts.InterleavedThinking, true) && !c.IsTrue("forceAdaptiveThinking") {
		out = appendNew(out, BetaInterleavedThinking)
	}
	if len(fallbackModels(model)) > 0 {
		out = appendNew(out, BetaServerSideFallback)
	}
	if c.IsTrue("supportsMidConvoEffort") {
		out = appendNew(out, BetaMidConvoOutputConfig)
		out = appendNew(out, BetaThinkingBinding)
	}
	if threads {
		out = appendNew(out, BetaMessageThreads)
	}
	return out, nil
}

// appendNew appends name unless it is empty or listed already.
func appendNew(list []string, name string) []string {
	for _, n := range list {
		if n == name {
			return list
		}
	}
	if name == "" {
		return list
	}
	return append(list, name)
}

// headerValue is a header's value as written: null, a string, or the
// value of another type.
func headerValue(h httpheader.Header) jsonv.Value {
	switch {
	case !h.Raw.IsAbsent():
		return h.Raw
	case h.Value == nil:
		return jsonv.NullValue()
	}
	return jsonv.StringValue(*h.Value)
}

// fallbackModels is model.compat.allowedFallbackModels when it is an array
// with elements (Pi 1.6 reads nothing else of it).
// sendsFallbackList is Pi's test for sending fallbacks: the model's
// allowedFallbackModels is truthy and its length above 0. A list of
// another type that passes it (a string, an object with a length) cannot
// be mapped: Pi throws building the body (a stream.JSError panic).
func sendsFallbackList(model *ai.Model) bool {
	v := stream.Member(model.Compat, "allowedFallbackModels")
	if !v.Truthy() {
		return false
	}
	var length jsonv.Value
	switch v.Kind() {
	case jsonv.Array:
		return len(v.Elems()) > 0
	case jsonv.String:
		length = jsonv.NumberValue(strconv.Itoa(len(wtf8.ToUTF16(v.Str()))))
	case jsonv.Object:
		length, _ = v.Get("length")
	}
	if long, err := jsonv.Greater(length, jsonv.NumberValue("0")); err != nil || long {
		if err != nil {
			panic(stream.JSError{Msg: stream.NoPrimitiveText})
		}
		panic(stream.JSError{Msg: "allowedFallbackModels.map is not a function"})
	}
	return false
}

// fallbacksOfAnswer are the allowed fallback models Pi looks the model
// that answered up in (model.compat?.allowedFallbackModels?.find): none
// when the list is nullish; a list of another type has no find, and Pi's
// reading of the answer throws (a stream.JSError panic).
func fallbacksOfAnswer(model *ai.Model) []jsonv.Value {
	v := stream.Member(model.Compat, "allowedFallbackModels")
	if !v.IsNullish() && v.Kind() != jsonv.Array {
		panic(stream.JSError{Msg: "model.compat?.allowedFallbackModels?.find is not a function"})
	}
	return v.Elems()
}

func fallbackModels(model *ai.Model) []jsonv.Value {
	return stream.Member(model.Compat, "allowedFallbackModels").Elems()
}

// sessionAffinity is the header a session id goes in and whether Pi sends
// it (the caller's sessionId and a cache retention other than "none"
// still needed). 0.80: x-session-affinity, only where
// compat.sendSessionAffinityHeaders is truthy. 1.6: by default on, and
// named x-session-id, for OpenRouter (the provider, or a base URL on
// openrouter.ai); compat.sendSessionAffinityHeaders and
// compat.sessionAffinityFormat ("openrouter" for x-session-id) decide when
// set.
func sessionAffinity(d dialect.Dialect, model *ai.Model, c provider.Compat) (name string, on bool) {
	if !d.AtLeast(dialect.V1_6) {
		return "x-session-affinity", c.Truthy("sendSessionAffinityHeaders", false)
	}
	openRouter := model.Provider == "openrouter" || strings.Contains(model.BaseURL, "openrouter.ai")
	format := stream.Member(model.Compat, "sessionAffinityFormat")
	if format.IsNullish() && openRouter {
		format = jsonv.StringValue("openrouter")
	}
	name = "x-session-affinity"
	if format.Kind() == jsonv.String && format.Str() == "openrouter" {
		name = "x-session-id"
	}
	return name, c.Truthy("sendSessionAffinityHeaders", openRouter)
}

// usesThreads tells whether a Pi 1.6 request may use message threads: the
// model supports them (compat.supportsMessageThreads, by default only on a
// base URL at api.anthropic.com), and a session id is given (any value)
// with a cache retention other than "none". Such a request asks for the
// threads beta and, unless the caller's disableContinuation is true, sends
// thread {type: "create"}: a request builds on no earlier one of its own
// (Pi would continue a thread from a reply it saw in the same process).
func usesThreads(d dialect.Dialect, model *ai.Model, opts Options, retention string, c provider.Compat) bool {
	return d.AtLeast(dialect.V1_6) && c.Truthy("supportsMessageThreads", strings.Contains(model.BaseURL, "api.anthropic.com")) &&
		retention != "none" && !opts.SessionID.IsAbsent()
}

// keptSchemaKeywords are the keywords of a tool's parameters schema sent
// in its input_schema, as written, besides type, properties and required,
// when the schema has them (null included). Pi 1.6 keeps whether other
// arguments are allowed and the definitions its $refs name.
var keptSchemaKeywords = dialect.Table[[]string]{
	dialect.V0_80: nil,
	dialect.V1_6:  {"additionalProperties", "$defs", "definitions"},
}

// signedBlankThinking tells whether a replayed thinking block whose text is
// blank but whose signature is not is sent (as thinking, with its
// signature); Pi 0.80 leaves every blank one out. Pi 1.6 also reads the
// signature before the text, so of two members of other types the
// signature's is the one it throws on.
var signedBlankThinking = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// errorImagesLast tells whether the images of an error tool result are
// sent after all the tool results of its turn, each result's run of images
// replaced by provider.ErrorImagePlaceholder and the images led by a
// caption (provider.SplitErrorImages): Anthropic takes only text in an
// error result. Pi 0.80 sends them inside the result.
var errorImagesLast = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// simpleFitsBudget tells whether streamSimple cuts a thinking budget to
// leave room for the answer under the final max_tokens
// (provider.FitThinkingBudget); Pi 0.80 does so only when the budget would
// take all of it.
var simpleFitsBudget = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// sensitiveText is the error of a stop the safety filters made ("" for
// none: Pi 0.80 then fails with stream.UnknownErrorText).
var sensitiveText = dialect.Table[string]{dialect.V0_80: "", dialect.V1_6: SensitiveText}

// answersModel tells whether message_start's model and
// input_transformations are read (Pi 1.6): a model other than the
// request's becomes responseModel and may be priced as a fallback model,
// and input transformations become a diagnostic of the finished answer.
var answersModel = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// readsFullDelta tells whether message_delta is read as Pi 1.6 reads it:
// a delta without usage changes no count (0.80 throws reading it), and the
// counts include the one-hour cache writes (cache_creation) and the
// thinking tokens (output_tokens_details.thinking_tokens, as
// usage.reasoning), an OpenRouter model's usage may carry the cost it
// billed (stream.ApplyOpenRouterCost), and input_transformations are
// noted too.
var readsFullDelta = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// leaksScratch tells whether the provider's block index and the raw
// argument text, which Pi 0.80 keeps on a block while it streams, reach a
// block that never got content_block_stop. Pi 1.6 keeps them off the
// blocks.
var leaksScratch = dialect.Table[bool]{dialect.V0_80: true, dialect.V1_6: false}

// startsWithContent tells whether content_block_start is read as Pi 1.6
// reads it: a text or thinking block starts with the block's text,
// thinking and signature as sent (0.80 starts them empty), and a fallback
// block is skipped before any content and fails after it.
var startsWithContent = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// tracksOpenBlocks tells whether an event's index names the block last
// started under it until its stop (Pi 1.6's openBlocks, whose tool calls
// read their arguments with stream.ToolCallArgs) rather than the first
// block whose index still matches (0.80).
var tracksOpenBlocks = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// noAuthText is the SDK's error for a request with no credential (none
// set, none explicitly removed).
var noAuthText = dialect.Table[string]{
	dialect.V0_80: `Could not resolve authentication method. Expected either apiKey or authToken to be set. Or for one of the "X-Api-Key" or "Authorization" headers to be explicitly omitted`,
	dialect.V1_6:  `Could not resolve authentication method. Expected one of apiKey, authToken, credentials, config, or profile to be set. Or for one of the "X-Api-Key" or "Authorization" headers to be explicitly omitted`,
}

// sdkVersion is the @anthropic-ai/sdk release Pi pins, which its user
// agent and x-stainless-package-version name.
var sdkVersion = dialect.Table[string]{dialect.V0_80: SDKVersion, dialect.V1_6: "0.129.0"}

// sendsFallbacks tells whether the model's allowed fallback models are
// sent (fallbacks, wire.anthropic.fallback-models); Pi 0.80 knows none.
// abortCheckedBeforeBody: from 1.6 on Pi checks the caller's signal just
// before it builds the body, so a signal aborted before the call wins over
// whatever building the body and the request would throw; 0.80 builds it
// first, and the SDK checks the signal only when it sends.
var abortCheckedBeforeBody = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

var sendsFallbacks = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// client is the SDK as Pi uses it: 0.80 lets the SDK repeat failed
// requests; 1.6 runs its own loop around it (provider.PiRetry), checks
// the caller's signal itself before the call (the DOMException's text),
// and names the cause of a connection error after the SDK's message.
var client = func() provider.Client {
	c := provider.StainlessClient("Anthropic/JS *", provider.FetchAbortedText)
	later := c
	later.Retry = provider.PiRetry(func(resp *http.Response, body []byte) string { return HTTPErrorText(resp.StatusCode, body) })
	later.AbortBeforeText = provider.FetchAbortedText
	later.NoResponseText = provider.ConnectionErrorText + ": " + provider.ConnectionClosedCause
	c.Later = dialect.Table[*provider.Client]{dialect.V1_6: &later}
	return c
}()

// changesToolsNatively tells whether Pi 1.6 would declare tool changes in
// the transcript's system messages themselves (tool_addition and
// tool_removal blocks, a deferred placeholder tool, the inline-tools beta):
// for a model that keeps system messages where they stand and takes tool
// changes (compat.supportsMidConvoSystemMessages and
// supportsMidConvoToolChanges), when tools are declared. The reference
// does not model that request.
func changesToolsNatively(d dialect.Dialect, c provider.Compat, ctx *ai.Context) bool {
	return d.AtLeast(dialect.V1_6) && c.Truthy("supportsMidConvoSystemMessages", false) &&
		c.Truthy("supportsMidConvoToolChanges", false) && len(ctx.Tools) > 0
}

// takesNoTemperature tells whether the model never gets temperature: in
// Pi 1.6 one with managed effort (compat.supportsMidConvoEffort true).
func takesNoTemperature(d dialect.Dialect, c provider.Compat) bool {
	return d.AtLeast(dialect.V1_6) && c.IsTrue("supportsMidConvoEffort")
}

// managedEffort tells whether Pi 1.6 manages the model's effort per reply
// (compat.supportsMidConvoEffort true, thinking not turned off): adaptive
// thinking with block binding and a fixed low top-level effort, and effort
// markers among the messages (converter.effort).
func managedEffort(d dialect.Dialect, c provider.Compat, thinkingOff bool) bool {
	return takesNoTemperature(d, c) && !thinkingOff
}

// effortMarkers are what managed effort puts among the messages (Pi 1.6):
// before each replayed reply of this provider that recorded its effort,
// and at the end, a system message of no content whose
// output_config.effort is that reply's, or for the end the effort asked
// for now (active).
type effortMarkers struct {
	active   jsonv.Value
	provider jsonv.Value
}

// effortMarkersOf are the markers of a request, nil without managed effort
// (managedEffort). The active effort is options.effort, "high" when
// nullish.
func effortMarkersOf(d dialect.Dialect, model *ai.Model, opts Options, c provider.Compat) *effortMarkers {
	if !managedEffort(d, c, thinkingTurnedOff(model, opts)) {
		return nil
	}
	return &effortMarkers{active: stream.Nullish(opts.Effort, jsonv.StringValue("high")), provider: model.ProviderValue()}
}

// anthropicEfforts are the efforts a replayed reply may have recorded.
var anthropicEfforts = []string{"low", "medium", "high", "xhigh", "max"}

// replayed is the effort a replayed assistant message recorded
// (providerThinkingLevel), when it is one of this API and provider and an
// effort Anthropic knows; ok is false otherwise, or without markers.
func (e *effortMarkers) replayed(m *ai.AssistantMessage) (jsonv.Value, bool) {
	if e == nil || !jsonv.StrictEqual(m.APIValue(), jsonv.StringValue(API)) || !jsonv.StrictEqual(m.ProviderValue(), e.provider) {
		return jsonv.Value{}, false
	}
	level, _ := jsonv.ObjectValue(m.Extra...).Get("providerThinkingLevel")
	if level.Kind() != jsonv.String || !slices.Contains(anthropicEfforts, level.Str()) {
		return jsonv.Value{}, false
	}
	return level, true
}

// readsSampling tells whether a tool's constrainedSampling is read (Pi
// 1.6, provider.JSONSchemaSampling, with compat.supportsStrictTools as the model's support).
var readsSampling = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// federates tells whether Pi 1.6 would authenticate a keyless request to
// the anthropic provider by workload identity federation: the env names a
// federation rule, an organization and an identity token file. The SDK
// then exchanges the token with Anthropic first, which the reference does
// not model.
func federates(d dialect.Dialect, model *ai.Model, opts Options) bool {
	return d.AtLeast(dialect.V1_6) && model.Provider == "anthropic" && opts.EnvValue("ANTHROPIC_FEDERATION_RULE_ID") != "" &&
		opts.EnvValue("ANTHROPIC_ORGANIZATION_ID") != "" && opts.EnvValue("ANTHROPIC_IDENTITY_TOKEN_FILE") != ""
}
