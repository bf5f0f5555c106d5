package stream

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
)

// What changed in reading an answer, for every API, from one Pi release
// line to the next, each difference named once here; the functions of
// answer.go, args.go and json.go read these and nothing else of the
// dialect.

var (
	// startStopReason is the stop reason a message starts streaming with:
	// 0.80 starts at "stop", 1.6 at "pending", which a stream must leave
	// (RequireStop).
	startStopReason = dialect.Table[string]{dialect.V0_80: ai.StopStop, dialect.V1_6: ai.StopPending}
	// keepsRawStopReason tells whether the message records the provider's
	// own stop value (rawStopReason).
	keepsRawStopReason = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// timesAnswer tells whether the event stream stamps durationMs on the
	// final message.
	timesAnswer = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
)

// onceParsedArguments tells whether a finished tool call's arguments come
// from one strict parse of the whole text, with argumentsError on a
// failure (1.6 on), rather than from the partial parser that kept what a
// prefix of the text gave (0.80).
var onceParsedArguments = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// validEscapes are the characters after a backslash that repairJson keeps
// as an escape. In 0.80 a "u" always counts; from 1.6 on only a "u" with
// four hex digits does (checked first in both), so a bad \u escape gets its
// backslash doubled.
var validEscapes = dialect.Table[string]{dialect.V0_80: `"\/bfnrtu`, dialect.V1_6: `"\/bfnrt`}
