package bedrock

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/stream"
)

// What changed in this API from one Pi release line to the next, each
// difference named once here; the code reads these and nothing else of
// the dialect.

// tracksOpenBlocks tells whether a contentBlockIndex names the block last
// opened under it until its stop (Pi 1.6's openBlocks, whose tool calls
// read their arguments with stream.ToolCallArgs, and which leave nothing
// on the blocks) rather than the first block whose index still matches,
// with the index and the raw argument text kept on it (0.80).
var tracksOpenBlocks = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// readsRedacted tells whether the stream's newer members are read (Pi
// 1.6): a reasoning delta's redactedContent makes a redacted thinking
// block (RedactedThinkingText, the payload as base64 in its signature,
// further signatures ignored), and metadata's cacheDetails give
// cacheWrite1h.
var readsRedacted = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// namesStopReason tells whether a stop reason that ends nothing well is
// named in the error (ProviderStoppedText); Pi 0.80 fails with
// stream.UnknownErrorText.
var namesStopReason = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// reportsFailures tells whether a failed answer gets Pi 1.6's
// FailureDiagnostic (noteFailure).
var reportsFailures = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// apiKeyIsBearer tells whether the apiKey option is a Bedrock API key,
// sent as a bearer token when bearerToken is not set (Pi 1.6); Pi 0.80
// ignores it and signs with SigV4.
var apiKeyIsBearer = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// sdkVersion is the version the AWS SDK Pi pins names itself with in
// x-amz-user-agent.
var sdkVersion = dialect.Table[string]{dialect.V0_80: SDKVersion, dialect.V1_6: "3.1126.0"}

// amzUserAgent is x-amz-user-agent: the SDK's, to which Pi 1.6 appends
// its own name (identity userAgent "short": "pi"; a custom one as given)
// and version.
func amzUserAgent(d dialect.Dialect, identity jsonv.Value) string {
	ua := "aws-sdk-js/" + sdkVersion.At(d)
	if !d.AtLeast(dialect.V1_6) {
		return ua
	}
	mode := stream.Member(identity, "userAgent")
	switch {
	case mode.Kind() == jsonv.Object:
		return ua + " " + stream.ToString(stream.Member(mode, "custom"))
	case mode.Kind() == jsonv.String && mode.Str() == "short":
		return ua + " pi"
	}
	return ua + " pi/" + stream.ToString(stream.Nullish(stream.Member(identity, "version"), jsonv.StringValue(d.Release())))
}

// adaptiveModels are the Claude models that think adaptively: their id or
// name (as candidates writes them) holds one of these.
var adaptiveModels = dialect.Table[[]string]{
	dialect.V0_80: {"opus-4-6", "opus-4-7", "opus-4-8", "sonnet-4-6", "fable-5"},
	dialect.V1_6:  {"opus-4-6", "opus-4-7", "opus-4-8", "opus-5", "sonnet-4-6", "sonnet-5", "haiku-5", "fable-5"},
}

// nativeXhighModels are the adaptive Claude models whose effort has an
// xhigh of its own.
var nativeXhighModels = dialect.Table[[]string]{
	dialect.V0_80: {"opus-4-7", "opus-4-8", "fable-5"},
	dialect.V1_6:  {"opus-4-7", "opus-4-8", "opus-5", "sonnet-5", "haiku-5", "fable-5"},
}

// blockBindingModels are the adaptive Claude models Pi 1.6 asks to drop
// thinking blocks whose prefix no longer matches (thinking.block_binding,
// with ThinkingBindingBeta), except on GovCloud.
var blockBindingModels = dialect.Table[[]string]{
	dialect.V0_80: nil,
	dialect.V1_6:  {"opus-4-7", "opus-4-8", "opus-5", "sonnet-5", "haiku-5", "fable-5"},
}

// ThinkingBindingBeta is the anthropic_beta of block binding.
const ThinkingBindingBeta = "thinking-binding-controls-2026-08-01"

// cachingClaude5 are the Claude 5 models Pi 1.6 also puts cache points
// for.
var cachingClaude5 = dialect.Table[[]string]{
	dialect.V0_80: nil,
	dialect.V1_6:  {"fable-5", "opus-5", "sonnet-5", "haiku-5"},
}

// defaultBudgets are the thinking budgets of budget-thinking Claude models
// by level; Pi 1.6 has a max level, budgeted as high.
var defaultBudgets = dialect.Table[map[string]string]{
	dialect.V0_80: {"minimal": "1024", "low": "2048", "medium": "8192", "high": "16384", "xhigh": "16384"},
	dialect.V1_6:  {"minimal": "1024", "low": "2048", "medium": "8192", "high": "16384", "xhigh": "16384", "max": "16384"},
}

// highBudgetLevels are the levels whose custom budget is the high one's.
var highBudgetLevels = dialect.Table[[]string]{
	dialect.V0_80: {"xhigh"},
	dialect.V1_6:  {"xhigh", "max"},
}

// reasonsForGPT tells whether OpenAI's models on Bedrock get their
// reasoning fields (gptFields); Pi 0.80 sends none for any model but
// Claude.
var reasonsForGPT = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// gptEffort and gptOSSEffort map a thinking level to OpenAI's effort on
// Bedrock: GPT models take every level but minimal, gpt-oss only low,
// medium and high.
var (
	gptEffort    = map[string]string{"minimal": "low", "low": "low", "medium": "medium", "high": "high", "xhigh": "xhigh", "max": "max"}
	gptOSSEffort = map[string]string{"minimal": "low", "low": "low", "medium": "medium", "high": "high", "xhigh": "high", "max": "high"}
)

// gptFields are the reasoning fields of a model that is not Claude (Pi
// 1.6): a gpt-oss model's flat reasoning_effort, another GPT model's
// reasoning.effort (its thinkingLevelMap's string for the level first),
// nothing for any other model. A level with no effort leaves the member
// empty.
func gptFields(model *ai.Model, reasoning jsonv.Value) jsonv.Value {
	c := candidates(model)
	level := stream.ToString(reasoning)
	effortOf := func(m map[string]string) jsonv.Value {
		if e, ok := m[level]; ok {
			return jsonv.StringValue(e)
		}
		return jsonv.Value{}
	}
	switch {
	case anyContains(c, "gpt-oss"):
		return new(jsonv.ObjectBuilder).Set("reasoning_effort", effortOf(gptOSSEffort)).Value()
	case anyContains(c, "gpt-"):
		e := provider.LevelEntry(model, reasoning)
		if e.Kind() != jsonv.String {
			e = effortOf(gptEffort)
		}
		return new(jsonv.ObjectBuilder).Set("reasoning", new(jsonv.ObjectBuilder).Set("effort", e).Value()).Value()
	}
	return jsonv.Value{}
}

// simpleFitsBudget tells whether streamSimple cuts a Claude budget to leave
// room for the answer under the final maxTokens
// (provider.FitThinkingBudget), writing NaN when there is none; Pi 0.80
// does so only when the budget would take all of it.
var simpleFitsBudget = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// errorImagesLast tells whether, for Claude, the images of an error tool
// result go after all the tool results of its turn
// (provider.SplitErrorImages); Pi 0.80 keeps them in the result.
var errorImagesLast = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// dropsEmptyKeys tells whether replayed tool-call arguments lose their
// members named "" (withoutEmptyKeys), which Bedrock rejects.
var dropsEmptyKeys = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// replaysRedacted tells whether a redacted thinking block is replayed as
// reasoningContent.redactedContent, the bytes of its stored payload (none
// when that is empty or not base64); Pi 0.80 replays it as thinking text.
var replaysRedacted = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// laterClients are the client as later dialects use it.
var laterClients = dialect.Table[*provider.Client]{dialect.V1_6: &client16}

// client16 is the SDK as Pi 1.6 uses it: an abort before the call reads
// with the cause Pi appends (the DOMException's text and code).
var client16 = func() provider.Client {
	c := client
	c.AbortBeforeText = AbortBeforeText16
	return c
}()

// AbortBeforeText16 is Pi 1.6's error for a call whose signal was aborted
// before it: the SDK's, with the deepest cause's message and code.
const AbortBeforeText16 = provider.RequestAbortedText + ": This operation was aborted (20)"

// readsSampling tells whether a tool's constrainedSampling is read (Pi
// 1.6, provider.JSONSchemaSampling, with compat.supportsStrictMode as the model's support).
var readsSampling = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
