package agent

import "github.com/piconform/piconform/reference/dialect"

// What changed in the agent loop from one Pi release line to the next,
// each difference a member of loopRules; the code reads these and nothing
// else of the dialect.

// loopRules are the ways the agent loop's request differs between dialects.
type loopRules struct {
	// toolsAsMessages: the request is the converted transcript alone
	// ({messages}); the prompt must already be a system message of the
	// transcript, and before each request the loop appends a system message
	// declaring how the tools it can run differ from those the transcript
	// declares (DeclareToolChanges). Before, the request was {systemPrompt,
	// messages, tools} from the agent's state.
	toolsAsMessages bool
}

var loopRulesOf = dialect.Table[loopRules]{
	dialect.V0_80: {},
	dialect.V1_6:  {toolsAsMessages: true},
}

// ToolsAsMessages reports whether the agent loop of dialect d declares its
// tools as system messages of the transcript and sends the messages alone
// (Pi 1.6), rather than sending the state's prompt and tools beside them.
func ToolsAsMessages(d dialect.Dialect) bool { return loopRulesOf.At(d).toolsAsMessages }
