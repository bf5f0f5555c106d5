package openaicompletions

import (
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/openaisdk"
)

// What Pi 1.6 changed in this API, one entry per difference, each named
// once here; the code reads these and nothing else of the dialect.

// compatMembers are the settings Pi resolves in each dialect.
var compatMembers = dialect.Table[[]string]{
	dialect.V0_80: {
		"supportsStore", "supportsDeveloperRole", "supportsReasoningEffort", "supportsUsageInStreaming",
		"maxTokensField", "requiresToolResultName", "requiresAssistantAfterToolResult", "requiresThinkingAsText",
		"requiresReasoningContentOnAssistantMessages", "thinkingFormat", "chatTemplateKwargs", "zaiToolStream",
		"supportsStrictMode", "cacheControlFormat", "sendSessionAffinityHeaders", "supportsLongCacheRetention",
	},
	dialect.V1_6: {
		"supportsStore", "supportsDeveloperRole", "supportsReasoningEffort", "supportsUsageInStreaming",
		"supportsFinishReason", "maxTokensField", "requiresToolResultName", "requiresAssistantAfterToolResult",
		"requiresNonNullAssistantContent", "requiresToolsWithToolHistory", "requiresThinkingAsText",
		"requiresReasoningContentOnAssistantMessages", "thinkingFormat", "chatTemplateKwargs", "chatTemplateArgs",
		"zaiToolStream", "supportsThinkingTokenBudget", "thinkingTokenBudgetField", "supportsStrictMode",
		"supportsOpenAIGrammarTools", "supportsMidConvoSystemMessages", "supportsMidConvoToolAdditions",
		"cacheControlFormat", "sendSessionAffinityHeaders", "sessionAffinityFormat", "supportsLongCacheRetention",
		// Taken from model.compat alone (compatAlone).
		"promptCacheKeyMode", "vllmPriority",
	},
}

// compatAlone are the settings Pi takes from model.compat as they are,
// with nothing detected to fall back on: a null is kept.
var compatAlone = []string{"promptCacheKeyMode", "vllmPriority"}

var (
	// filtersUserText: a user message's parts of type "text" are kept only
	// when their text's length is above zero (jsonv.LengthAboveZero): "" is left out,
	// and so is a text of another type with no length above zero.
	filtersUserText = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// blankToolResultPlaceholder: a tool result whose text is blank (not
	// only empty) gets a placeholder, NoToolOutputText when it has no
	// images either.
	blankToolResultPlaceholder = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// marksToolResults: the Anthropic-style cache marker may go on the last
	// tool result too, not only on a user or assistant message.
	marksToolResults = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// keepsItemID: a "call|item" tool-call id keeps its item part too
	// (normalizeID), where 0.80 kept the call part alone.
	keepsItemID = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// replaysReasoningDetails: an assistant message's reasoning_details
	// (preservedReasoningDetails) are sent back as they were and stand for
	// the raw reasoning field, and no tool call adds its own detail
	// (convertAssistant).
	replaysReasoningDetails = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// emptyToolsOnRequest: tools: [] goes with a tool history only when
	// compat.requiresToolsWithToolHistory asks for it; 0.80 always sent it.
	emptyToolsOnRequest = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// affinityFormat: compat.sessionAffinityFormat decides the session
	// headers (sessionHeaders); 0.80 sent all three.
	affinityFormat = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
)

// countsRetriesFirst: the SDK computes the retry count from maxRetries
// before it checks the timeout, as SDK 6 does under Pi 0.80; Pi 1.6 hands
// SDK 7 no retries (its own loop counts them, provider.PiRetry).
var countsRetriesFirst = dialect.Table[bool]{dialect.V0_80: true, dialect.V1_6: false}

// Compat settings Pi detects (detectCompat).
var (
	// caselessDeepSeek: "deepseek.com" is found in the base URL whatever
	// its case, and the provider "deepseek" counts as a non-standard
	// endpoint as that URL does.
	caselessDeepSeek = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// maxTokensForDeepSeekAndZai: DeepSeek and Z.ai take max_tokens.
	maxTokensForDeepSeekAndZai = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// idReadForOpenRouterURL: Pi reads the model's id as a string
	// (startsWith) for an OpenRouter base URL too; 1.6 only for the
	// provider "openrouter".
	idReadForOpenRouterURL = dialect.Table[bool]{dialect.V0_80: true, dialect.V1_6: false}
	// detectsSettings16: the settings 1.6 detects differently or anew:
	// the developer role for OpenAI's own API only, no strict tools unless
	// the model says so, OpenRouter's session header and affinity format,
	// finish reasons supported, empty chat template arguments, and the
	// other settings 1.6 added, false.
	detectsSettings16 = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
)

// Reasoning in the request (thinkingParams).
var (
	// sendsThinkingBudget: a reasoning model gets a thinking budget
	// (thinkingBudget), sent in compat's budget field and as a chat
	// template's {"$var": "thinking.budget"}; 0.80 read that $var as a
	// level like any other.
	sendsThinkingBudget = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// zaiKeepsThinking: Z.ai's enabled thinking says clear_thinking false.
	zaiKeepsThinking = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// qwenEffort: the qwen format sends reasoning_effort too.
	qwenEffort = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// basetenFormat: the thinking format "baseten" exists (chat template
	// arguments and reasoning_effort); 0.80 treated it as unknown.
	basetenFormat = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
)

// Reading the answer (stream.go).
var (
	// providerErrorText: an error's message is Pi's provider error text
	// (provider.ProviderErrorText), and error.metadata.raw is appended only
	// when the message does not hold it already.
	providerErrorText = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// optionalFinishReason: with compat.supportsFinishReason false a stream
	// may end without a finish reason (stop, or toolUse after a tool call).
	optionalFinishReason = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// reasoningFirst: a delta's reasoning is read before its content (a
	// thinking block opens before the text block of the same delta), and
	// its reasoning_details too; 0.80 read content first and the encrypted
	// details of tool calls after.
	reasoningFirst = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// previewsArguments: the arguments shown while a call streams are the
	// incremental parser's (stream.ToolCallArgs); 0.80 re-parsed the whole
	// text with the partial parser.
	previewsArguments = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// topLevelCachedTokens: usage's top-level cached_tokens (Kimi) counts
	// as cache reads after prompt_cache_hit_tokens.
	topLevelCachedTokens = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// countsReasoningTokens: usage records the reasoning tokens.
	countsReasoningTokens = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// openRouterCost: an OpenRouter model's cost is the one its usage
	// reports (stream.ApplyOpenRouterCost).
	openRouterCost = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
)

// NoToolOutputText is the text Pi 1.6 sends for a tool result with neither
// text nor images.
const NoToolOutputText = "(no tool output)"

// laterClients are the client as later dialects have it (Client.Later).
var laterClients = dialect.Table[*provider.Client]{dialect.V1_6: client16}

// client16 is the openai SDK 7 under Pi 1.6: Pi retries itself (the SDK
// makes one attempt, so each says X-Stainless-Retry-Count 0), aborts
// before the call with its own text, and a lost connection names its
// cause.
var client16 = func() *provider.Client {
	c := provider.StainlessClient("OpenAI/JS *", "")
	c.AbortBeforeText = provider.RequestAbortedText
	c.NoResponseText = provider.ConnectionErrorText + ": " + provider.ConnectionClosedCause
	c.Retry = provider.PiRetry(openaisdk.RetryMessage)
	return &c
}()
