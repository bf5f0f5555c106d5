package transform

import "github.com/piconform/piconform/reference/dialect"

// What changed in transformMessages from one Pi release line to the next,
// each difference a member of rules; the code reads rulesOf and nothing
// else of the dialect.

// rules are the ways transformMessages differs between dialects.
type rules struct {
	// fillContent: absent or null content becomes [] first (FillContent).
	fillContent bool
	// dropForeignThinking: every thinking block of another model is
	// dropped; before, one with text became a text block.
	dropForeignThinking bool
	// holdSystem: a system message that comes while tool calls are pending
	// waits until their turn is closed, after their (synthetic) results.
	holdSystem bool
}

var rulesOf = dialect.Table[rules]{
	dialect.V0_80: {},
	dialect.V1_6:  {fillContent: true, dropForeignThinking: true, holdSystem: true},
}
