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

// BashExecution records a command the user ran with "!" in the terminal.
type BashExecution struct {
	Command string
	Output  string
	// ExitCode is a number, or Absent when the process gave none.
	ExitCode       jsonv.Value
	Cancelled      bool
	Truncated      bool
	FullOutputPath *string
	Timestamp      jsonv.Value
	// ExcludeFromContext keeps the command out of the model's view ("!!").
	ExcludeFromContext *bool
	Extra              []jsonv.Member
}

// Custom is a message an extension injects, shown in the UI when Display is set.
type Custom struct {
	CustomType string
	Content    ai.Content
	Display    bool
	Details    jsonv.Value
	Timestamp  jsonv.Value
	Extra      []jsonv.Member
}

// BranchSummary summarizes a branch the conversation came back from.
type BranchSummary struct {
	Summary   string
	FromID    string
	Timestamp jsonv.Value
	Extra     []jsonv.Member
}

// CompactionSummary stands for the history that compaction replaced.
type CompactionSummary struct {
	Summary      string
	TokensBefore jsonv.Value
	Timestamp    jsonv.Value
	Extra        []jsonv.Member
}

func (*BashExecution) Role() string     { return RoleBashExecution }
func (*Custom) Role() string            { return RoleCustom }
func (*BranchSummary) Role() string     { return RoleBranchSummary }
func (*CompactionSummary) Role() string { return RoleCompactionSummary }

func (m *BashExecution) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("role", RoleBashExecution).SetString("command", m.Command)
	o.SetString("output", m.Output).Set("exitCode", m.ExitCode).SetBool("cancelled", m.Cancelled)
	o.SetBool("truncated", m.Truncated).SetOptString("fullOutputPath", m.FullOutputPath)
	o.Set("timestamp", m.Timestamp).SetOptBool("excludeFromContext", m.ExcludeFromContext)
	return o.Extend(m.Extra).Value()
}

func (m *Custom) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("role", RoleCustom).SetString("customType", m.CustomType)
	o.Set("content", m.Content.JSON()).SetBool("display", m.Display).Set("details", m.Details)
	return o.Set("timestamp", m.Timestamp).Extend(m.Extra).Value()
}

func (m *BranchSummary) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("role", RoleBranchSummary).SetString("summary", m.Summary)
	return o.SetString("fromId", m.FromID).Set("timestamp", m.Timestamp).Extend(m.Extra).Value()
}

func (m *CompactionSummary) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).SetString("role", RoleCompactionSummary).SetString("summary", m.Summary)
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
func ConvertToLlm(msgs []agent.Message) []ai.Message { return Registry().ConvertToLLM(msgs) }

func decodeBash(f *jsonv.Fields) (agent.Message, error) {
	m := &BashExecution{
		Command: f.String("command"), Output: f.String("output"), ExitCode: f.OptNumber("exitCode"),
		Cancelled: f.Bool("cancelled"), Truncated: f.Bool("truncated"), FullOutputPath: f.OptString("fullOutputPath"),
		Timestamp: f.OptNumber("timestamp"), ExcludeFromContext: f.OptBool("excludeFromContext"),
	}
	m.Extra = f.Rest()
	return m, f.Err()
}

func decodeCustom(f *jsonv.Fields) (agent.Message, error) {
	m := &Custom{CustomType: f.String("customType"), Display: f.Bool("display"), Details: f.Any("details"), Timestamp: f.OptNumber("timestamp")}
	content := f.Any("content")
	m.Extra = f.Rest()
	if err := f.Err(); err != nil {
		return nil, err
	}
	var err error
	m.Content, err = ai.DecodeContent(content, f.At("content"), ai.UserBlocks)
	return m, err
}

func decodeBranch(f *jsonv.Fields) (agent.Message, error) {
	m := &BranchSummary{Summary: f.String("summary"), FromID: f.String("fromId"), Timestamp: f.OptNumber("timestamp")}
	m.Extra = f.Rest()
	return m, f.Err()
}

func decodeCompaction(f *jsonv.Fields) (agent.Message, error) {
	m := &CompactionSummary{Summary: f.String("summary"), TokensBefore: f.Number("tokensBefore"), Timestamp: f.OptNumber("timestamp")}
	m.Extra = f.Rest()
	return m, f.Err()
}

// userText is the shape every projection produces: one user message with one
// text block and the source's timestamp, nothing else.
func userText(text string, timestamp jsonv.Value) *ai.UserMessage {
	return &ai.UserMessage{Content: ai.BlockContent(&ai.TextBlock{Text: text}), Timestamp: timestamp}
}

func bashToLLM(m agent.Message) (ai.Message, bool) {
	b := m.(*BashExecution)
	if b.ExcludeFromContext != nil && *b.ExcludeFromContext {
		return nil, false
	}
	return userText(BashExecutionToText(b), b.Timestamp), true
}

// BashExecutionToText renders a command for the model: the header, the output
// in a fence or "(no output)", then either the cancellation note or the exit
// code when it is not zero, then the truncation note when the full output was
// saved. There is no trailing newline.
func BashExecutionToText(b *BashExecution) string {
	parts := []string{"Ran `", b.Command, "`\n"}
	if b.Output != "" {
		parts = append(parts, "```\n", b.Output, "\n```")
	} else {
		parts = append(parts, "(no output)")
	}
	if b.Cancelled {
		parts = append(parts, "\n\n(command cancelled)")
	} else if code, ok := b.ExitCode.Float64(); ok && code != 0 {
		parts = append(parts, "\n\nCommand exited with code ", jsonv.FormatFloat(code))
	}
	if b.Truncated && b.FullOutputPath != nil && *b.FullOutputPath != "" {
		parts = append(parts, "\n\n[Output truncated. Full output: ", *b.FullOutputPath, "]")
	}
	return wtf8.Concat(parts...)
}

func customToLLM(m agent.Message) (ai.Message, bool) {
	c := m.(*Custom)
	// Display only matters to the UI: hidden messages still reach the model.
	content := c.Content
	if content.IsString {
		content = ai.BlockContent(&ai.TextBlock{Text: content.Text})
	}
	return &ai.UserMessage{Content: content, Timestamp: c.Timestamp}, true
}

func branchToLLM(m agent.Message) (ai.Message, bool) {
	b := m.(*BranchSummary)
	return userText(wtf8.Concat(BranchSummaryPrefix, b.Summary, BranchSummarySuffix), b.Timestamp), true
}

func compactionToLLM(m agent.Message) (ai.Message, bool) {
	c := m.(*CompactionSummary)
	return userText(wtf8.Concat(CompactionSummaryPrefix, c.Summary, CompactionSummarySuffix), c.Timestamp), true
}
