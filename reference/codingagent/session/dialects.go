package session

import "github.com/piconform/piconform/reference/dialect"

// What changed in rebuilding a session's messages from one Pi release line
// to the next, each difference a member of rules; the code reads rulesOf
// and nothing else of the dialect.

// rules are the ways rebuilding the messages differs between dialects.
type rules struct {
	// fillContent: a message of role user, assistant or toolResult whose
	// content is null or absent gets a copy with content [], one of role
	// system a copy with content "".
	fillContent bool
	// customContent: a custom_message entry without content (null or
	// absent) gives content [].
	customContent bool
	// compactionSystem: the compaction's systemMessage, when truthy, comes
	// before its summary, and the kept entries before the compaction leave
	// out message entries of role system.
	compactionSystem bool
	// standInByID: the first entry on the path with the compaction's id,
	// of whatever type, stands for the compaction (before: the first
	// compaction with that id).
	standInByID bool
	// contextEdits: context_edit entries among the entries that count
	// replace the content of, or drop, their target's messages.
	contextEdits bool
}

var rulesOf = dialect.Table[rules]{
	dialect.V0_80: {},
	dialect.V1_6:  {fillContent: true, customContent: true, compactionSystem: true, standInByID: true, contextEdits: true},
}
