package session_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/codingagent/session"
	"github.com/piconform/piconform/reference/dialect"
)

// TestDialects: what the coding agent of each dialect rebuilds from the same
// file (Pi 1.6's buildSessionProjection against 0.80's buildSessionContext).
func TestDialects(t *testing.T) {
	const (
		noSettings = `,"thinkingLevel":"off","model":null}`
		summary    = `{"role":"compactionSummary","summary":"S","tokensBefore":7,"timestamp":5}`
		snapshot   = `{"role":"system","content":"snap","timestamp":5}`
	)
	compaction := func(id, parent, kept, extra string) string {
		return `{"type":"compaction","id":"` + id + `","parentId":"` + parent + `","timestamp":5,"summary":"S","firstKeptEntryId":"` + kept + `","tokensBefore":7` + extra + `}`
	}
	sysEntry := func(id, parent, content string) string {
		return `{"type":"message","id":"` + id + `","parentId":` + parent + `,"message":{"role":"system","content":"` + content + `","timestamp":1}}`
	}
	edit := func(id, parent, target, replacement string) string {
		return `{"type":"context_edit","id":"` + id + `","parentId":"` + parent + `","targetId":"` + target + `"` + replacement + `}`
	}
	u := func(s string) string { return `{"role":"user","content":"` + s + `","timestamp":1}` }
	for _, tc := range []struct {
		name, text string
		want080    string
		want16     string
	}{
		{"content filled",
			lines(header3,
				`{"type":"message","id":"a","parentId":null,"message":{"role":"user","timestamp":1}}`,
				`{"type":"message","id":"b","parentId":"a","message":{"role":"assistant","content":null}}`,
				`{"type":"message","id":"c","parentId":"b","message":{"role":"toolResult"}}`,
				`{"type":"message","id":"d","parentId":"c","message":{"role":"system"}}`,
				`{"type":"message","id":"e","parentId":"d","message":{"role":"custom"}}`,
				`{"type":"message","id":"f","parentId":"e","message":"text"}`),
			`{"messages":[{"role":"user","timestamp":1},{"role":"assistant","content":null},{"role":"toolResult"},{"role":"system"},{"role":"custom"},"text"],"thinkingLevel":"off","model":{}}`,
			`{"messages":[{"role":"user","timestamp":1,"content":[]},{"role":"assistant","content":[]},{"role":"toolResult","content":[]},{"role":"system","content":""},{"role":"custom"},"text"],"thinkingLevel":"off","model":{}}`},
		{"custom content default",
			lines(header3, `{"type":"custom_message","id":"c","parentId":null,"timestamp":0,"customType":"x","display":true}`),
			`{"messages":[{"role":"custom","customType":"x","display":true,"timestamp":0}]` + noSettings,
			`{"messages":[{"role":"custom","customType":"x","content":[],"display":true,"timestamp":0}]` + noSettings},
		{"compaction snapshot first, kept system skipped",
			lines(header3, user("a", "null", "old"), sysEntry("s", `"a"`, "mid"), user("b", `"s"`, "kept"),
				compaction("k", "b", "a", `,"systemMessage":`+snapshot), sysEntry("t", `"k"`, "after")),
			`{"messages":[` + summary + `,` + u("old") + `,{"role":"system","content":"mid","timestamp":1},` + u("kept") + `,{"role":"system","content":"after","timestamp":1}]` + noSettings,
			`{"messages":[` + snapshot + `,` + summary + `,` + u("old") + `,` + u("kept") + `,{"role":"system","content":"after","timestamp":1}]` + noSettings},
		{"falsy snapshot adds nothing",
			lines(header3, user("a", "null", "old"), compaction("k", "a", "a", `,"systemMessage":0`)),
			`{"messages":[` + summary + `,` + u("old") + `]` + noSettings,
			`{"messages":[` + summary + `,` + u("old") + `]` + noSettings},
		{"edits: later wins, null drops, off-path ignored",
			lines(header3, user("a", "null", "one"), user("b", `"a"`, "two"),
				edit("e1", "b", "a", `,"replacement":{"content":"first"}`),
				edit("e2", "e1", "a", `,"replacement":{"content":"second"}`),
				edit("e3", "e2", "b", `,"replacement":null`),
				edit("e4", "e3", "zz", `,"replacement":null`)),
			`{"messages":[` + u("one") + `,` + u("two") + `]` + noSettings,
			`{"messages":[` + u("second") + `]` + noSettings},
		{"edit of an assistant: a string becomes a text block",
			lines(header3, `{"type":"message","id":"a","parentId":null,"message":{"role":"assistant","content":[],"provider":"p","model":"m"}}`,
				edit("e", "a", "a", `,"replacement":{"content":"new"}`)),
			`{"messages":[{"role":"assistant","content":[],"provider":"p","model":"m"}],"thinkingLevel":"off","model":{"provider":"p","modelId":"m"}}`,
			`{"messages":[{"role":"assistant","content":[{"type":"text","text":"new"}],"provider":"p","model":"m"}],"thinkingLevel":"off","model":{"provider":"p","modelId":"m"}}`},
		{"edit without content removes it; system untouched",
			lines(header3, user("a", "null", "one"), sysEntry("s", `"a"`, "sys"),
				edit("e1", "s", "a", `,"replacement":{}`), edit("e2", "e1", "s", `,"replacement":{"content":"x"}`)),
			`{"messages":[` + u("one") + `,{"role":"system","content":"sys","timestamp":1}]` + noSettings,
			`{"messages":[{"role":"user","timestamp":1},{"role":"system","content":"sys","timestamp":1}]` + noSettings},
		{"null edit of the compaction drops summary and snapshot",
			lines(header3, user("a", "null", "kept"), compaction("k", "a", "a", `,"systemMessage":`+snapshot),
				edit("e", "k", "k", `,"replacement":null`)),
			`{"messages":[` + summary + `,` + u("kept") + `]` + noSettings,
			`{"messages":[` + u("kept") + `]` + noSettings},
		{"edit without replacement throws on a user message",
			lines(header3, user("a", "null", "one"), edit("e", "a", "a", ``)),
			`{"messages":[` + u("one") + `]` + noSettings,
			"throws: type-error"},
		{"edit without replacement of a system message does not throw",
			lines(header3, sysEntry("s", "null", "sys"), edit("e", "s", "s", ``)),
			`{"messages":[{"role":"system","content":"sys","timestamp":1}]` + noSettings,
			`{"messages":[{"role":"system","content":"sys","timestamp":1}]` + noSettings},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, d := range []struct {
				d    dialect.Dialect
				want string
			}{{dialect.V0_80, tc.want080}, {dialect.V1_6, tc.want16}} {
				if diff := cmp.Diff(d.want, loaded(t, tc.text, session.Leaf{}, session.Options{Dialect: d.d})); diff != "" {
					t.Errorf("%s (-want +got):\n%s", d.d, diff)
				}
			}
		})
	}
}
