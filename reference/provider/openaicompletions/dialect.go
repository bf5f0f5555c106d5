package openaicompletions

import (
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/openaisdk"
)

// What Pi 1.6 changed in this API, one entry per difference; the compat
// settings Pi detects are in compat.go (detectCompat), the tool-call id
// normalizer in convert.go (normalizer).
var (
	// dropsEmptyUserText: user text parts whose text is "" are left out.
	dropsEmptyUserText = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// blankToolResultPlaceholder: a tool result whose text is blank (not
	// only empty) gets a placeholder, NoToolOutputText when it has no
	// images either.
	blankToolResultPlaceholder = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// marksToolResults: the Anthropic-style cache marker may go on the last
	// tool result too, not only on a user or assistant message.
	marksToolResults = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
)

// NoToolOutputText is the text Pi 1.6 sends for a tool result with neither
// text nor images.
const NoToolOutputText = "(no tool output)"

// client16 is the openai SDK 7 under Pi 1.6: Pi retries itself (the SDK
// makes one attempt, so each says X-Stainless-Retry-Count 0), aborts
// before the call with its own text, and a lost connection names its
// cause.
var client16 = func() *provider.Client {
	c := provider.StainlessClient("OpenAI/JS *", "")
	c.AbortBeforeText = provider.RequestAbortedText
	c.NoResponseText = provider.ConnectionErrorText + ": other side closed (UND_ERR_SOCKET)"
	c.Retry = provider.PiRetry(openaisdk.RetryMessage)
	return &c
}()
