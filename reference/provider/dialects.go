package provider

import "github.com/piconform/piconform/reference/dialect"

// What changed from one Pi release line to the next in what every API
// shares (the context it reads, the identity it sends, what streamSimple
// hands to stream), each difference named once here; the code reads these
// and nothing else of the dialect. (The client of each line is
// Client.Later, per API.)

// transcriptContext tells whether a provider call reads its context as a
// transcript (Pi 1.6): the system prompt and the tools reach the API only
// as system messages, the first of which normalizeContext makes of them.
var transcriptContext = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// sendsIdentity tells whether Pi sends its own identity headers (a
// user-agent naming Pi, and the caller's attribution where the provider
// reads one) below the model's and the caller's headers: from 1.6 on.
var sendsIdentity = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// What streamSimple does per dialect (the API packages read them through
// the functions of this file).
var (
	// thinkingLevels are Pi's thinking levels, from none to the most; the
	// last ones (optInLevels) count only where the model's thinkingLevelMap
	// names them. 1.6 adds "max".
	thinkingLevels = dialect.Table[[]string]{
		dialect.V0_80: {"off", "minimal", "low", "medium", "high", "xhigh"},
		dialect.V1_6:  {"off", "minimal", "low", "medium", "high", "xhigh", "max"},
	}
	optInLevels = dialect.Table[[]string]{dialect.V0_80: {"xhigh"}, dialect.V1_6: {"xhigh", "max"}}
	// capsOutput tells whether buildBaseOptions always sets maxTokens: the
	// caller's or the model's, fitted in the context window (1.6 on).
	capsOutput = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
	// keepsToolChoice tells whether every API's streamSimple hands the
	// caller's toolChoice to stream (1.6 on).
	keepsToolChoice = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
)
