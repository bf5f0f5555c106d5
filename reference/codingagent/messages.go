// Package codingagent holds the four custom messages that Pi's coding agent
// registers (bashExecution, custom, branchSummary, compactionSummary) and
// their projection onto the Message layer. Register them with Types or use
// Registry.
package codingagent

import (
	"github.com/piconform/piconform/reference/agent"
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// Roles registered by the coding agent.
const (
	RoleBashExecution     = "bashExecution"
	RoleCustom            = "custom"
	RoleBranchSummary     = "branchSummary"
	RoleCompactionSummary = "compactionSummary"
)

// The wrappers put around summaries for the model. The branch suffix has no
// newline before the closing tag; the compaction suffix has one.
const (
	BranchSummaryPrefix     = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"
	BranchSummarySuffix     = "</summary>"
	CompactionSummaryPrefix = "The conversation history before this point was compacted into the following summary:\n\n<summary>\n"
	CompactionSummarySuffix = "\n</summary>"
)

// The fields of the four messages are JSON values as written, since Pi reads
// them without checking their types (input.lenient): a field the projection
// uses is read as JavaScript reads it (String(v), truthiness), and every
// field goes back out unchanged. Absent means the member was left out.

// BashExecution records a command the user ran with "!" in the terminal.
type BashExecution struct {
	Command jsonv.Value
	Output  jsonv.Value
	// ExitCode is a number, or null or Absent when the process gave none.
	ExitCode       jsonv.Value
	Cancelled      jsonv.Value
	Truncated      jsonv.Value
	FullOutputPath jsonv.Value
	Timestamp      jsonv.Value
	// ExcludeFromContext keeps the command out of the model's view ("!!").
	ExcludeFromContext jsonv.Value
	Extra              []jsonv.Member
}

// Custom is a message an extension injects, shown in the UI when Display is set.
type Custom struct {
	CustomType jsonv.Value
	// Content is a string or an array of blocks; anything else is passed on
	// to the model's message as it is.
	Content   jsonv.Value
	Display   jsonv.Value
	Details   jsonv.Value
	Timestamp jsonv.Value
	Extra     []jsonv.Member
}

// BranchSummary summarizes a branch the conversation came back from.
type BranchSummary struct {
	Summary   jsonv.Value
	FromID    jsonv.Value
	Timestamp jsonv.Value
	Extra     []jsonv.Member
}

// CompactionSummary stands for the history that compaction replaced.
type CompactionSummary struct {
	Summary      jsonv.Value
	TokensBefore jsonv.Value
	Timestamp    jsonv.Value
	Extra        []jsonv.Member
}

func (*BashExecution) Role() string     { return RoleBashExecution }
func (*Custom) Role() string            { return RoleCustom }
func (*BranchSummary) Role() string     { return RoleBranchSummary }
func (*CompactionSummary) Role() string { return RoleCompactionSummary }

func (m *BashExecution) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("role", RoleBashExecution).Set("command", m.Command)
	o.Set("output", m.Output).Set("exitCode", m.ExitCode).Set("cancelled", m.Cancelled)
	o.Set("truncated", m.Truncated).Set("fullOutputPath", m.FullOutputPath)
	o.Set("timestamp", m.Timestamp).Set("excludeFromContext", m.ExcludeFromContext)
	return o.Extend(m.Extra).Value()
}

func (m *Custom) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("role", RoleCustom).Set("customType", m.CustomType)
	o.Set("content", m.Content).Set("display", m.Display).Set("details", m.Details)
	return o.Set("timestamp", m.Timestamp).Extend(m.Extra).Value()
}

func (m *BranchSummary) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("role", RoleBranchSummary).Set("summary", m.Summary)
	return o.Set("fromId", m.FromID).Set("timestamp", m.Timestamp).Extend(m.Extra).Value()
}

func (m *CompactionSummary) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("role", RoleCompactionSummary).Set("summary", m.Summary)
	return o.Set("tokensBefore", m.TokensBefore).Set("timestamp", m.Timestamp).Extend(m.Extra).Value()
}

// Types returns the coding agent's four custom types, ready to register.
func Types() []agent.CustomType {
	return []agent.CustomType{
		{Role: RoleBashExecution, Decode: decodeBash, ToLLM: bashToLLM},
		{Role: RoleCustom, Decode: decodeCustom, ToLLM: customToLLM},
		{Role: RoleBranchSummary, Decode: decodeBranch, ToLLM: branchToLLM},
		{Role: RoleCompactionSummary, Decode: decodeCompaction, ToLLM: compactionToLLM},
	}
}

// Registry returns a registry with the coding agent's types.
func Registry() *agent.Registry {
	r, err := agent.NewRegistry(Types()...)
	if err != nil {
		panic(err) // the four roles are distinct and complete
	}
	return r
}

// ConvertToLlm is the coding agent's convertToLlm.
func ConvertToLlm(msgs []agent.Message) ([]ai.Message, error) { return Registry().ConvertToLLM(msgs) }

func decodeBash(f *jsonv.Fields) (agent.Message, error) {
	m := &BashExecution{
		Command: f.Any("command"), Output: f.Any("output"), ExitCode: f.Any("exitCode"),
		Cancelled: f.Any("cancelled"), Truncated: f.Any("truncated"), FullOutputPath: f.Any("fullOutputPath"),
		Timestamp: f.Any("timestamp"), ExcludeFromContext: f.Any("excludeFromContext"),
	}
	m.Extra = f.Rest()
	return m, f.Err()
}

func decodeCustom(f *jsonv.Fields) (agent.Message, error) {
	m := &Custom{CustomType: f.Any("customType"), Content: f.Any("content"), Display: f.Any("display"), Details: f.Any("details"), Timestamp: f.Any("timestamp")}
	m.Extra = f.Rest()
	return m, f.Err()
}

func decodeBranch(f *jsonv.Fields) (agent.Message, error) {
	m := &BranchSummary{Summary: f.Any("summary"), FromID: f.Any("fromId"), Timestamp: f.Any("timestamp")}
	m.Extra = f.Rest()
	return m, f.Err()
}

func decodeCompaction(f *jsonv.Fields) (agent.Message, error) {
	m := &CompactionSummary{Summary: f.Any("summary"), TokensBefore: f.Any("tokensBefore"), Timestamp: f.Any("timestamp")}
	m.Extra = f.Rest()
	return m, f.Err()
}

// userText is the shape every projection produces: one user message with one
// text block and the source's timestamp, nothing else.
func userText(text string, timestamp jsonv.Value) *ai.UserMessage {
	return &ai.UserMessage{Content: ai.BlockContent(&ai.TextBlock{Text: text}), Timestamp: timestamp}
}

func bashToLLM(m agent.Message) (ai.Message, error) {
	b := m.(*BashExecution)
	if b.ExcludeFromContext.Truthy() {
		return nil, nil
	}
	text, err := BashExecutionToText(b)
	if err != nil {
		return nil, err
	}
	return userText(text, b.Timestamp), nil
}

// BashExecutionToText renders a command for the model: the header, the output
// in a fence or "(no output)", then either the cancellation note or the exit
// code when there is one and it is not zero, then the truncation note when
// the full output was saved. There is no trailing newline. It fails with
// jsonv.ErrNoPrimitive, as Pi's template literal throws, when a value it
// writes has no string form.
func BashExecutionToText(b *BashExecution) (string, error) {
	noString := false
	str := func(v jsonv.Value) string {
		noString = noString || v.ConversionThrows()
		return v.JSString()
	}
	parts := []string{"Ran `", str(b.Command), "`\n"}
	if b.Output.Truthy() {
		parts = append(parts, "```\n", str(b.Output), "\n```")
	} else {
		parts = append(parts, "(no output)")
	}
	if b.Cancelled.Truthy() {
		parts = append(parts, "\n\n(command cancelled)")
	} else if hasExitCode(b.ExitCode) {
		parts = append(parts, "\n\nCommand exited with code ", str(b.ExitCode))
	}
	if b.Truncated.Truthy() && b.FullOutputPath.Truthy() {
		parts = append(parts, "\n\n[Output truncated. Full output: ", str(b.FullOutputPath), "]")
	}
	if noString {
		return "", jsonv.ErrNoPrimitive
	}
	return wtf8.Concat(parts...), nil
}

// hasExitCode reports whether an exit code is worth telling the model: it is
// there, not null, and not the number zero. Pi compares with !==, so a
// string "0" or false counts as a code.
func hasExitCode(code jsonv.Value) bool {
	switch code.Kind() {
	case jsonv.Absent, jsonv.Null:
		return false
	case jsonv.Number:
		f, _ := code.Float64()
		return f != 0
	}
	return true
}

func customToLLM(m agent.Message) (ai.Message, error) {
	c := m.(*Custom)
	// Display only matters to the UI: hidden messages still reach the model.
	// String content becomes one text block; any other content is passed on
	// as it is, readable by the ai types or not.
	if c.Content.Kind() == jsonv.String {
		return userText(c.Content.Str(), c.Timestamp), nil
	}
	if blocks, err := ai.DecodeContent(c.Content, "", ai.UserBlocks); err == nil && !blocks.IsString {
		return &ai.UserMessage{Content: blocks, Timestamp: c.Timestamp}, nil
	}
	raw := new(jsonv.ObjectBuilder).SetString("role", ai.RoleUser).Set("content", c.Content).Set("timestamp", c.Timestamp)
	return &ai.ForeignMessage{RoleName: ai.RoleUser, Raw: raw.Value()}, nil
}

func branchToLLM(m agent.Message) (ai.Message, error) {
	b := m.(*BranchSummary)
	return summaryToLLM(BranchSummaryPrefix, b.Summary, BranchSummarySuffix, b.Timestamp)
}

func compactionToLLM(m agent.Message) (ai.Message, error) {
	c := m.(*CompactionSummary)
	return summaryToLLM(CompactionSummaryPrefix, c.Summary, CompactionSummarySuffix, c.Timestamp)
}

// summaryToLLM is a summary between its tags as the user's text; Pi's `+`
// throws on a summary with no string form.
func summaryToLLM(prefix string, summary jsonv.Value, suffix string, timestamp jsonv.Value) (ai.Message, error) {
	if summary.ConversionThrows() {
		return nil, jsonv.ErrNoPrimitive
	}
	return userText(wtf8.Concat(prefix, summary.JSString(), suffix), timestamp), nil
}
