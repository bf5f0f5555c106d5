package openairesponses

import (
	"fmt"
	"math"
	"net/http"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/openaisdk"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// What changed in this API (and in the reading Azure's and Codex's share)
// from one Pi release line to the next, each difference named once here;
// the rest of the package reads these and nothing else of the dialect.

// readsBySlot tells whether the events are read as Pi 1.6 reads them
// (slotReader: a slot per output_index, arguments parsed once) rather than
// following one current item (parser, 0.80).
var readsBySlot = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// sessionHeaderNames are the headers that carry the session id. 0.80
// sends session_id (unless compat.sendSessionIdHeader is false) and
// x-client-request-id. 1.6 picks them by compat.sessionAffinityFormat,
// "openrouter" for an OpenRouter model (its provider, or a base URL on
// openrouter.ai) and "openai" otherwise: x-session-id for "openrouter",
// session-id and x-client-request-id for "openai", and only
// x-client-request-id for any other format.
func sessionHeaderNames(d dialect.Dialect, model *ai.Model, c provider.Compat) []string {
	if !d.AtLeast(dialect.V1_6) {
		if c.Truthy("sendSessionIdHeader", true) {
			return []string{"session_id", "x-client-request-id"}
		}
		return []string{"x-client-request-id"}
	}
	format := c.Value("sessionAffinityFormat")
	if format.IsNullish() {
		format = jsonv.StringValue("openai")
		if model.Provider == "openrouter" || strings.Contains(model.BaseURL, "openrouter.ai") {
			format = jsonv.StringValue("openrouter")
		}
	}
	switch {
	case format.Kind() == jsonv.String && format.Str() == "openrouter":
		return []string{"x-session-id"}
	case format.Kind() == jsonv.String && format.Str() == "openai":
		return []string{"session-id", "x-client-request-id"}
	}
	return []string{"x-client-request-id"}
}

// PromptCacheKeyDisabled tells whether the model's
// compat.promptCacheKeyMode "disabled" leaves prompt_cache_key out (read
// from 1.6 on).
func PromptCacheKeyDisabled(d dialect.Dialect, c provider.Compat) bool {
	return readsCacheCompat.At(d) && c.Is("promptCacheKeyMode", "disabled")
}

// readsCacheCompat tells whether the compat flags of 1.6 about caching and
// the output cap are read (promptCacheKeyMode,
// supportsExplicitPromptCacheMode, supportsMaxOutputTokens).
var readsCacheCompat = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// explicitCacheMode tells whether the model asks for prompt_cache_options
// instead of prompt_cache_retention (compat.supportsExplicitPromptCacheMode,
// from 1.6 on).
func explicitCacheMode(d dialect.Dialect, c provider.Compat) bool {
	return readsCacheCompat.At(d) && c.Truthy("supportsExplicitPromptCacheMode", false)
}

// OutputCapAllowed tells whether max_output_tokens may be sent: always in
// 0.80; in 1.6 unless compat.supportsMaxOutputTokens is falsy.
func OutputCapAllowed(d dialect.Dialect, c provider.Compat) bool {
	return !readsCacheCompat.At(d) || c.Truthy("supportsMaxOutputTokens", true)
}

// isChatGPTSignIn is Pi 1.6's test for a key that is no API key (it does
// not start with "sk-") sent to OpenAI itself: a ChatGPT sign-in, which
// the API takes without prompt_cache_retention, prompt_cache_options,
// max_output_tokens and temperature. 0.80 has no such test.
func isChatGPTSignIn(d dialect.Dialect, model *ai.Model, apiKey *string) bool {
	return knowsSignIn.At(d) && model.Provider == "openai" && model.BaseURL == openaisdk.DefaultBaseURL &&
		apiKey != nil && !strings.HasPrefix(*apiKey, "sk-")
}

// knowsSignIn tells whether a ChatGPT sign-in is told from an API key
// (1.6).
var knowsSignIn = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// MinOutputTokens is the least max_output_tokens Pi 1.6 sends.
const MinOutputTokens = 16

// MaxOutputTokens is max_output_tokens for a truthy maxTokens: sent as it
// is in 0.80, raised to MinOutputTokens in 1.6 (Math.max, which reads it
// as a number).
func MaxOutputTokens(d dialect.Dialect, maxTokens jsonv.Value) jsonv.Value {
	if !floorsOutputCap.At(d) {
		return stream.JSValue(maxTokens)
	}
	n := stream.ToNumber(maxTokens)
	if !math.IsNaN(n) {
		n = math.Max(n, MinOutputTokens)
	}
	return jsonv.JSNumberValue(n)
}

// floorsOutputCap tells whether max_output_tokens is raised to
// MinOutputTokens (1.6).
var floorsOutputCap = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// SetToolChoice sends the caller's toolChoice, whatever it holds, as
// tool_choice: from 1.6 on (0.80's stream never read it).
func SetToolChoice(d dialect.Dialect, b *jsonv.ObjectBuilder, toolChoice jsonv.Value) {
	if sendsToolChoice.At(d) && !toolChoice.IsAbsent() {
		b.Set("tool_choice", stream.JSValue(toolChoice))
	}
}

// sendsToolChoice tells whether stream sends the caller's toolChoice
// (1.6).
var sendsToolChoice = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// strictByCompat tells whether a tool's strict member is written only when
// the model's compat.supportsStrictMode allows it (1.6; 0.80 always
// writes it).
var strictByCompat = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// xaiIncludes tells whether a reasoning model of xAI always asks for the
// encrypted reasoning (include), whichever reasoning it gets (1.6).
var xaiIncludes = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// reasoningAsked tells whether the caller asks for reasoning with a
// summary: 0.80 when the effort or the summary is truthy; 1.6 reads the
// effort as reasoningEffort ?? (summary ? "medium" : undefined), so an
// effort that is given but falsy asks for none, whatever the summary.
func reasoningAsked(d dialect.Dialect, effort, summary jsonv.Value) bool {
	if !effortFirst.At(d) {
		return effort.Truthy() || summary.Truthy()
	}
	return effort.Truthy() || effort.IsNullish() && summary.Truthy()
}

// effortFirst tells whether a given effort decides over the summary
// (reasoningAsked).
var effortFirst = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// Unmodelled refuses (stream.ErrOutsideModel) the opt-ins of Pi 1.6 the
// reference does not model: sampling parameters, constrained sampling of
// tools and the compat flags that change the input's shape
// (mid-conversation system messages and efforts, additional tools, tool
// search, grammar tools).
func Unmodelled(d dialect.Dialect, model *ai.Model, ctx *ai.Context, opts provider.StreamOptions) error {
	if !refusesOptIns.At(d) {
		return nil
	}
	c := provider.CompatOf(model)
	for _, flag := range []string{"supportsMidConvoSystemMessages", "supportsMidConvoEffort", "supportsAdditionalTools", "supportsToolSearch", "supportsOpenAIGrammarTools"} {
		if c.Truthy(flag, false) {
			return fmt.Errorf("%w: compat.%s of Pi 1.6", stream.ErrOutsideModel, flag)
		}
	}
	for _, m := range append(append([]jsonv.Member(nil), model.Extra...), opts.Extra...) {
		switch m.Key {
		case "samplingParams", "samplingParamsByThinkingLevel":
			return fmt.Errorf("%w: %s of Pi 1.6", stream.ErrOutsideModel, m.Key)
		}
	}
	for _, t := range ctx.Tools {
		for _, m := range t.Extra {
			if m.Key == "constrainedSampling" {
				return fmt.Errorf("%w: constrainedSampling of a tool (Pi 1.6)", stream.ErrOutsideModel)
			}
		}
	}
	return nil
}

// refusesOptIns tells whether the dialect has opt-ins the reference does
// not model (Unmodelled).
var refusesOptIns = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// dropsItemID tells whether a replayed function call goes without its item
// id: 0.80 drops an "fc_" id of another model of the same provider and
// API; 1.6 drops every id of such a model, and any id not starting with
// "fc_".
func dropsItemID(d dialect.Dialect, itemID *string, differentModel bool) bool {
	if !onlyFcItemIDs.At(d) {
		return itemID != nil && differentModel && strings.HasPrefix(*itemID, "fc_")
	}
	return differentModel || itemID == nil || !strings.HasPrefix(*itemID, "fc_")
}

// onlyFcItemIDs tells whether only item ids starting with fc_ are replayed
// (dropsItemID).
var onlyFcItemIDs = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// blankTextIsNone tells whether a tool result whose text is white space
// only counts as having none (1.6).
var blankTextIsNone = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// splitsCallIDFirst tells whether a tool result's toolCallId is split
// before its content is read (1.6), so that a toolCallId that is not a
// string throws first; 0.80 reads the content first.
var splitsCallIDFirst = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// NoToolOutputText is what Pi 1.6 sends for a tool result with neither
// text nor images.
const NoToolOutputText = "(no tool output)"

// noTextOutput is the output of a tool result without text (or without
// the images the model reads): 0.80 always says SeeAttachedImageText;
// 1.6 only when there are images, else NoToolOutputText.
func noTextOutput(d dialect.Dialect, hasImages bool) string {
	if blankTextIsNone.At(d) && !hasImages {
		return NoToolOutputText
	}
	return provider.SeeAttachedImageText
}

// ParseHTTPErrorIn is ParseHTTPError as Pi of dialect d words it (see
// HTTPErrorTextIn) under this API's prefix: "OpenAI" for the openai
// provider and, from 1.6 on, the provider's id for any other.
func ParseHTTPErrorIn(d dialect.Dialect, model *ai.Model, status int, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	if catchThrows(d, model) {
		return nil, nil, provider.Driver{CatchThrows: catchThrows}.FailureThrows(d, model, &ai.AssistantMessage{StopReason: ai.StopError})
	}
	prefix := "OpenAI API error"
	if quotesErrorBody.At(d) && model.Provider != "openai" {
		prefix = stream.ToString(model.ProviderValue()) + " API error"
	}
	msg, events := stream.ModelFailure(model, usageLimitHintIn(d, HTTPErrorTextIn(d, prefix, status, body)), now)
	return msg, events, nil
}

// HTTPErrorTextIn is Pi's message for a non-2xx response under prefix
// ("OpenAI API error", "Azure OpenAI API error", ...): 0.80 puts the SDK's
// message after "<prefix> (<status>): "; 1.6 puts there the body's error
// (as JSON, cut at 4000 characters) unless the SDK's message already holds
// it (provider.ProviderErrorText).
func HTTPErrorTextIn(d dialect.Dialect, prefix string, status int, body []byte) string {
	errMember, message := openaisdk.BodyErrorAt(d, body)
	text := openaisdk.ErrorMessage(status, errMember, message)
	if !quotesErrorBody.At(d) {
		return fmt.Sprintf("%s (%d): %s", prefix, status, text)
	}
	return provider.ProviderErrorText(status, text, openaisdk.ErrorBody(errMember), prefix)
}

func usageLimitHintIn(d dialect.Dialect, msg string) string {
	if !quotesErrorBody.At(d) {
		return msg
	}
	return usageLimitHint(msg)
}

// catchThrows tells whether Pi's catch throws as it words a failure
// (provider.Driver.CatchThrows): 1.6 computes the prefix "<provider> API
// error" for every failure, used or not, converting a provider other than
// "openai" to a string, which throws for one with no string form.
func catchThrows(d dialect.Dialect, model *ai.Model) bool {
	p := model.ProviderValue()
	return quotesErrorBody.At(d) && !(p.Kind() == jsonv.String && p.Str() == "openai") && p.ConversionThrows()
}

// quotesErrorBody tells whether an HTTP error is worded as Pi 1.6 words
// it (HTTPErrorTextIn): the body's error quoted, the provider named, the
// ChatGPT usage-limit hints added.
var quotesErrorBody = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// laterClients are the client c as later dialects have it (Client.Later):
// 1.6 runs its own retry loop around the SDK (provider.PiRetry, whose
// refusal quotes the SDK's message of the failed response), checks the
// caller's signal itself before the call, and words a failure without an
// answer with its deepest cause after the SDK's message: the server
// closing the connection, or a host the DNS does not know.
func laterClients(c provider.Client) dialect.Table[*provider.Client] {
	later := c
	later.Retry = provider.PiRetry(func(resp *http.Response, body []byte) string {
		errMember, message := openaisdk.BodyErrorAt(dialect.V1_6, body)
		return openaisdk.ErrorMessage(resp.StatusCode, errMember, message)
	})
	later.AbortBeforeText = provider.RequestAbortedText
	later.NoResponseText = provider.ConnectionErrorText + ": " + provider.ConnectionClosedCause
	later.UnresolvedHostText = provider.UnresolvedHostText(provider.ConnectionErrorText)
	return dialect.Table[*provider.Client]{dialect.V1_6: &later}
}
