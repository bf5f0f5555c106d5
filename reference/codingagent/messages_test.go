package codingagent_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/agent"
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/codingagent"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/wtf8"
)

// parse parses JSON text a test wrote, or fails the test.
var parse = jsonvtest.Parse

// decodeBash reads one bashExecution message from its JSON members.
func decodeBash(t *testing.T, members string) *codingagent.BashExecution {
	t.Helper()
	m, err := codingagent.Registry().Decode(parse(t, `{"role":"bashExecution"`+members+`}`), "")
	if err != nil {
		t.Fatal(err)
	}
	return m.(*codingagent.BashExecution)
}

// TestBashExecutionToText covers convert.bash.*; the expected texts were
// printed by bashExecutionToText of pi-coding-agent 0.80.2 under Node 22.
func TestBashExecutionToText(t *testing.T) {
	const out = "Ran `ls`\n```\nx\n```"
	for _, tc := range []struct {
		name, members, want string
	}{
		// convert.bash.header
		{"header", `,"command":"ls","output":"","cancelled":false,"truncated":false`, "Ran `ls`\n(no output)"},
		{"empty command", `,"command":"","output":"","cancelled":false,"truncated":false`, "Ran ``\n(no output)"},
		{"command not escaped", `,"command":"echo ` + "`a`" + `\nls \"q\"","output":"","cancelled":false,"truncated":false`, "Ran `echo `a`\nls \"q\"`\n(no output)"},
		// convert.bash.output
		{"output", `,"command":"ls","output":"a\nb","cancelled":false,"truncated":false`, "Ran `ls`\n```\na\nb\n```"},
		{"trailing newline", `,"command":"ls","output":"a\n","cancelled":false,"truncated":false`, "Ran `ls`\n```\na\n\n```"},
		{"white space is output", `,"command":"ls","output":"   ","cancelled":false,"truncated":false`, "Ran `ls`\n```\n   \n```"},
		{"lone newline is output", `,"command":"ls","output":"\n","cancelled":false,"truncated":false`, "Ran `ls`\n```\n\n\n```"},
		{"fences copied", `,"command":"ls","output":"` + "```" + `","cancelled":false,"truncated":false`, "Ran `ls`\n```\n```\n```"},
		{"crlf kept", `,"command":"ls","output":"a\r\nb\u0000","cancelled":false,"truncated":false`, "Ran `ls`\n```\na\r\nb\x00\n```"},
		// convert.bash.cancelled
		{"cancelled", `,"command":"ls","output":"","cancelled":true,"truncated":false`, "Ran `ls`\n(no output)\n\n(command cancelled)"},
		{"cancelled hides exit code", `,"command":"ls","output":"x","exitCode":137,"cancelled":true,"truncated":false`, out + "\n\n(command cancelled)"},
		// convert.bash.exit-code: JavaScript's String(number)
		{"exit -1", `,"command":"ls","output":"x","exitCode":-1,"cancelled":false,"truncated":false`, out + "\n\nCommand exited with code -1"},
		{"exit 2", `,"command":"ls","output":"x","exitCode":2,"cancelled":false,"truncated":false`, out + "\n\nCommand exited with code 2"},
		{"exit 0", `,"command":"ls","output":"x","exitCode":0,"cancelled":false,"truncated":false`, out},
		{"exit -0", `,"command":"ls","output":"x","exitCode":-0,"cancelled":false,"truncated":false`, out},
		{"exit 0.0", `,"command":"ls","output":"x","exitCode":0.0e5,"cancelled":false,"truncated":false`, out},
		{"exit absent", `,"command":"ls","output":"x","cancelled":false,"truncated":false`, out},
		{"exit 1.5", `,"command":"ls","output":"x","exitCode":1.5,"cancelled":false,"truncated":false`, out + "\n\nCommand exited with code 1.5"},
		{"exit 1e21", `,"command":"ls","output":"x","exitCode":1e21,"cancelled":false,"truncated":false`, out + "\n\nCommand exited with code 1e+21"},
		{"exit 1e21 spelled out", `,"command":"ls","output":"x","exitCode":1000000000000000000000,"cancelled":false,"truncated":false`, out + "\n\nCommand exited with code 1e+21"},
		{"exit 137.0", `,"command":"ls","output":"x","exitCode":137.0,"cancelled":false,"truncated":false`, out + "\n\nCommand exited with code 137"},
		{"exit 1E2", `,"command":"ls","output":"x","exitCode":1E2,"cancelled":false,"truncated":false`, out + "\n\nCommand exited with code 100"},
		{"exit 1e-7", `,"command":"ls","output":"x","exitCode":1e-7,"cancelled":false,"truncated":false`, out + "\n\nCommand exited with code 1e-7"},
		{"exit beyond 2^53", `,"command":"ls","output":"x","exitCode":12345678901234567890,"cancelled":false,"truncated":false`, out + "\n\nCommand exited with code 12345678901234567000"},
		{"exit no output", `,"command":"ls","output":"","exitCode":1,"cancelled":false,"truncated":false`, "Ran `ls`\n(no output)\n\nCommand exited with code 1"},
		// convert.bash.truncated
		{"truncated with path", `,"command":"ls","output":"x","cancelled":false,"truncated":true,"fullOutputPath":"/tmp/out.txt"`, out + "\n\n[Output truncated. Full output: /tmp/out.txt]"},
		{"truncated without path", `,"command":"ls","output":"x","cancelled":false,"truncated":true`, out},
		{"truncated empty path", `,"command":"ls","output":"x","cancelled":false,"truncated":true,"fullOutputPath":""`, out},
		{"path without truncated", `,"command":"ls","output":"x","cancelled":false,"truncated":false,"fullOutputPath":"/p"`, out},
		// convert.bash.order: the spec's two examples
		{"all parts", `,"command":"ls","output":"x","exitCode":1,"cancelled":false,"truncated":true,"fullOutputPath":"/p","timestamp":1735689605000`,
			"Ran `ls`\n```\nx\n```\n\nCommand exited with code 1\n\n[Output truncated. Full output: /p]"},
		{"all parts cancelled", `,"command":"ls","output":"x","exitCode":1,"cancelled":true,"truncated":true,"fullOutputPath":"/p","timestamp":1735689605000`,
			"Ran `ls`\n```\nx\n```\n\n(command cancelled)\n\n[Output truncated. Full output: /p]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := bashText(t, decodeBash(t, tc.members))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLoneSurrogatesAcrossParts: lone surrogates in each part are copied as
// they are and never joined with the wording around them; halves that do
// meet at a part boundary make one character, as JavaScript's + does.
func TestLoneSurrogatesAcrossParts(t *testing.T) {
	hi := wtf8.FromUTF16([]uint16{0xD83D})
	lo := wtf8.FromUTF16([]uint16{0xDE00})
	str := jsonv.StringValue
	b := &codingagent.BashExecution{Command: str("a" + hi), Output: str(lo + "b"), Truncated: jsonv.BoolValue(true), FullOutputPath: str(hi), ExitCode: jsonv.NumberValue("1")}
	want := "Ran `a" + hi + "`\n```\n" + lo + "b\n```\n\nCommand exited with code 1\n\n[Output truncated. Full output: " + hi + "]"
	if got := bashText(t, b); got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	// Node 22: JSON.stringify(bashExecutionToText({command:"\ud83d", output:"\ude00", ...}))
	b = &codingagent.BashExecution{Command: str(hi), Output: str(lo)}
	if got := jsonv.StringValue(bashText(t, b)).String(); got != `"Ran `+"`"+`\ud83d`+"`"+`\n`+"```"+`\n\ude00\n`+"```"+`"` {
		t.Errorf("JSON = %s", got)
	}
	// A part holding a pair as two lone halves gives canonical text.
	b = &codingagent.BashExecution{Command: str(hi + lo), Output: str("")}
	if got := bashText(t, b); got != "Ran `😀`\n(no output)" {
		t.Errorf("text = %q", got)
	}
	// Summaries: the summary sits between the wrappers unchanged.
	msgs := convert(t, `[{"role":"branchSummary","summary":"\ude00","fromId":"x","timestamp":1},{"role":"compactionSummary","summary":"\ud83d","tokensBefore":5}]`)
	want2 := `[{"role":"user","content":[{"type":"text","text":"The following is a summary of a branch that this conversation came back from:\n\n<summary>\n\ude00</summary>"}],"timestamp":1},` +
		`{"role":"user","content":[{"type":"text","text":"The conversation history before this point was compacted into the following summary:\n\n<summary>\n\ud83d\n</summary>"}]}]`
	if got := msgs.String(); got != want2 {
		t.Errorf("summaries:\n got %s\nwant %s", got, want2)
	}
}

func convert(t *testing.T, in string) jsonv.Value {
	t.Helper()
	r := codingagent.Registry()
	msgs, err := r.DecodeAll(parse(t, in), "/messages")
	if err != nil {
		t.Fatal(err)
	}
	llm, err := codingagent.ConvertToLlm(msgs)
	if err != nil {
		t.Fatal(err)
	}
	return ai.MessagesJSON(llm)
}

func bashText(t *testing.T, b *codingagent.BashExecution) string {
	t.Helper()
	text, err := codingagent.BashExecutionToText(b)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// TestNoStringForm: convertToLlm throws (Node 22: "Cannot convert object to
// primitive value") where a value it writes into a text is an object with
// its own toString member, and only there.
func TestNoStringForm(t *testing.T) {
	const bash = `{"role":"bashExecution","command":"ls","output":"x","exitCode":1,"cancelled":false,"truncated":true,"fullOutputPath":"/p","timestamp":1`
	for _, tc := range []struct {
		name, message string
		throws        bool
	}{
		{"command", bash + `,"command":{"toString":1}}`, true},
		{"output", bash + `,"output":[{"toString":1}]}`, true},
		{"exit code", bash + `,"exitCode":{"toString":null}}`, true},
		{"full output path", bash + `,"fullOutputPath":{"toString":"p"}}`, true},
		{"exit code not written when cancelled", bash + `,"cancelled":true,"exitCode":{"toString":1}}`, false},
		{"path not written when not truncated", bash + `,"truncated":false,"fullOutputPath":{"toString":1}}`, false},
		{"branch summary", `{"role":"branchSummary","summary":{"toString":"x"},"fromId":"a","timestamp":1}`, true},
		{"compaction summary", `{"role":"compactionSummary","summary":[{"toString":{}}],"tokensBefore":1,"timestamp":1}`, true},
		{"valueOf alone", `{"role":"branchSummary","summary":{"valueOf":1},"fromId":"a","timestamp":1}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msgs, err := codingagent.Registry().DecodeAll(parse(t, `[{"role":"user","content":"q","timestamp":0},`+tc.message+`]`), "")
			if err != nil {
				t.Fatal(err)
			}
			_, err = codingagent.ConvertToLlm(msgs)
			ce, isConvert := errors.AsType[*agent.ConvertError](err)
			switch {
			case !tc.throws && err != nil:
				t.Errorf("ConvertToLlm: %v, want no error", err)
			case tc.throws && (!isConvert || ce.Index != 1 || !errors.Is(err, jsonv.ErrNoPrimitive)):
				t.Errorf("ConvertToLlm error = %v, want message 1's jsonv.ErrNoPrimitive", err)
			}
		})
	}
}

// TestProjections covers convert.custom.*, convert.branch-summary,
// convert.compaction-summary, convert.bash.shape/exclude, convert.timestamp,
// convert.order and convert.unknown-role.
func TestProjections(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"custom string", `[{"role":"custom","customType":"note","content":"hello","display":false,"details":{"a":1},"timestamp":5,"x":1}]`,
			`[{"role":"user","content":[{"type":"text","text":"hello"}],"timestamp":5}]`},
		{"custom empty string", `[{"role":"custom","customType":"note","content":"","display":true}]`,
			`[{"role":"user","content":[{"type":"text","text":""}]}]`},
		{"custom array kept", `[{"role":"custom","customType":"n","content":[{"type":"text","text":"a","z":1},{"type":"image","data":"d","mimeType":"image/png","w":2}],"display":true,"timestamp":1}]`,
			`[{"role":"user","content":[{"type":"text","text":"a","z":1},{"type":"image","data":"d","mimeType":"image/png","w":2}],"timestamp":1}]`},
		{"custom empty array", `[{"role":"custom","customType":"n","content":[],"display":false,"timestamp":1}]`,
			`[{"role":"user","content":[],"timestamp":1}]`},
		{"custom details null", `[{"role":"custom","customType":"n","content":"c","display":true,"details":null,"timestamp":1}]`,
			`[{"role":"user","content":[{"type":"text","text":"c"}],"timestamp":1}]`},
		{"branch summary", `[{"role":"branchSummary","summary":"S1","fromId":"e1","timestamp":3,"x":true}]`,
			`[{"role":"user","content":[{"type":"text","text":"The following is a summary of a branch that this conversation came back from:\n\n<summary>\nS1</summary>"}],"timestamp":3}]`},
		{"branch summary empty", `[{"role":"branchSummary","summary":"","fromId":"e1"}]`,
			`[{"role":"user","content":[{"type":"text","text":"The following is a summary of a branch that this conversation came back from:\n\n<summary>\n</summary>"}]}]`},
		{"branch summary markup", `[{"role":"branchSummary","summary":"<b>x</b></summary>","fromId":"e1","timestamp":1}]`,
			`[{"role":"user","content":[{"type":"text","text":"The following is a summary of a branch that this conversation came back from:\n\n<summary>\n<b>x</b></summary></summary>"}],"timestamp":1}]`},
		{"compaction summary", `[{"role":"compactionSummary","summary":"S2","tokensBefore":123456,"timestamp":4}]`,
			`[{"role":"user","content":[{"type":"text","text":"The conversation history before this point was compacted into the following summary:\n\n<summary>\nS2\n</summary>"}],"timestamp":4}]`},
		{"compaction summary empty", `[{"role":"compactionSummary","summary":"","tokensBefore":0}]`,
			`[{"role":"user","content":[{"type":"text","text":"The conversation history before this point was compacted into the following summary:\n\n<summary>\n\n</summary>"}]}]`},
		{"bash shape", `[{"role":"bashExecution","command":"ls","output":"x","exitCode":0,"cancelled":false,"truncated":false,"fullOutputPath":"/p","excludeFromContext":false,"timestamp":9,"extra":1}]`,
			"[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Ran `ls`\\n```\\nx\\n```\"}],\"timestamp\":9}]"},
		{"bash excluded", `[{"role":"bashExecution","command":"ls","output":"x","cancelled":false,"truncated":false,"excludeFromContext":true,"timestamp":9}]`, `[]`},
		{"timestamp 0 and big kept", `[{"role":"branchSummary","summary":"","fromId":"","timestamp":0},{"role":"custom","customType":"","content":"","display":true,"timestamp":9007199254740991}]`,
			`[{"role":"user","content":[{"type":"text","text":"The following is a summary of a branch that this conversation came back from:\n\n<summary>\n</summary>"}],"timestamp":0},{"role":"user","content":[{"type":"text","text":""}],"timestamp":9007199254740991}]`},
		{"order, no merging, unknown dropped", `[
			{"role":"notification","text":"saved"},
			{"role":"user","content":"q","timestamp":1,"extra":"keep"},
			{"role":"custom","customType":"n","content":"c","display":false,"timestamp":2},
			{"role":"system","content":"s"},
			{"role":"User","content":"s"},
			{"role":"bash_execution"},
			{"role":"BashExecution"},
			{"role":"user","content":[],"timestamp":3},
			{"role":"toolResult","toolCallId":"t","toolName":"n","content":[],"details":null,"isError":true,"timestamp":4}]`,
			`[{"role":"user","content":"q","timestamp":1,"extra":"keep"},{"role":"user","content":[{"type":"text","text":"c"}],"timestamp":2},` +
				`{"role":"user","content":[],"timestamp":3},{"role":"toolResult","toolCallId":"t","toolName":"n","content":[],"details":null,"isError":true,"timestamp":4}]`},
		{"empty", `[]`, `[]`},
		{"all dropped", `[{"role":"x"},{"role":"bashExecution","command":"","output":"","cancelled":false,"truncated":false,"excludeFromContext":true}]`, `[]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := convert(t, tc.in)
			want := parse(t, tc.want)
			if !jsonv.Equal(got, want) {
				t.Errorf("convertToLlm:\n got %s\nwant %s", got, want)
			}
		})
	}
}

// TestTranscriptRoundTrip: the four messages keep every member in the
// transcript (the projection is what drops them).
func TestTranscriptRoundTrip(t *testing.T) {
	in := parse(t, `[
		{"role":"bashExecution","command":"ls","output":"x","exitCode":-1,"cancelled":false,"truncated":true,"fullOutputPath":"/p","timestamp":1,"excludeFromContext":false,"x":[1]},
		{"role":"bashExecution","command":"ls","output":"","cancelled":true,"truncated":false},
		{"role":"custom","customType":"note","content":[{"type":"text","text":"a"}],"display":true,"details":{"k":null},"timestamp":2,"y":"z"},
		{"role":"custom","customType":"note","content":"s","display":false},
		{"role":"branchSummary","summary":"s","fromId":"f","timestamp":3,"z":{}},
		{"role":"compactionSummary","summary":"s","tokensBefore":1e3,"w":false}
	]`)
	msgs, err := codingagent.Registry().DecodeAll(in, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := agent.MessagesJSON(msgs); !jsonv.Equal(got, in) {
		t.Errorf("round trip:\n got %s\nwant %s", got, in)
	}
	wantRoles := []string{"bashExecution", "bashExecution", "custom", "custom", "branchSummary", "compactionSummary"}
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m.Role())
	}
	if diff := cmp.Diff(wantRoles, roles); diff != "" {
		t.Errorf("roles (-want +got):\n%s", diff)
	}
}

// TestLenientFields: input.lenient for the four roles. Pi reads their
// members without checking types, so every value converts, as JavaScript
// reads it; the outputs were printed by convertToLlm of pi-coding-agent
// 0.80.2 under Node 22.
func TestLenientFields(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"role":"bashExecution","command":"ls","output":"","cancelled":false,"truncated":false,"exitCode":"0"}`,
			"[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Ran `ls`\\n(no output)\\n\\nCommand exited with code 0\"}]}]"},
		{`{"role":"bashExecution","command":"ls","output":"","cancelled":false,"truncated":false,"exitCode":null}`,
			"[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Ran `ls`\\n(no output)\"}]}]"},
		{`{"role":"bashExecution","command":"ls","output":"","cancelled":false,"truncated":false,"exitCode":false}`,
			"[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Ran `ls`\\n(no output)\\n\\nCommand exited with code false\"}]}]"},
		{`{"role":"bashExecution","command":"ls","output":"","cancelled":false,"truncated":false,"exitCode":[]}`,
			"[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Ran `ls`\\n(no output)\\n\\nCommand exited with code \"}]}]"},
		{`{"role":"bashExecution","command":"ls","output":"","cancelled":false,"truncated":false,"excludeFromContext":"yes"}`,
			`[]`},
		{`{"role":"bashExecution","command":"ls","output":"","cancelled":false,"truncated":false,"excludeFromContext":0}`,
			"[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Ran `ls`\\n(no output)\"}]}]"},
		{`{"role":"bashExecution","command":"ls","output":"","cancelled":false,"truncated":false,"timestamp":null}`,
			"[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Ran `ls`\\n(no output)\"}],\"timestamp\":null}]"},
		{`{"role":"bashExecution","command":"ls","output":"x","cancelled":false,"truncated":true,"fullOutputPath":1}`,
			"[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Ran `ls`\\n```\\nx\\n```\\n\\n[Output truncated. Full output: 1]\"}]}]"},
		{`{"role":"bashExecution","output":"","cancelled":false,"truncated":false}`,
			"[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Ran `undefined`\\n(no output)\"}]}]"},
		{`{"role":"bashExecution","command":[1,null,[2,"a"]],"output":{},"cancelled":"","truncated":false}`,
			"[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Ran `1,,2,a`\\n```\\n[object Object]\\n```\"}]}]"},
		{`{"role":"bashExecution","command":"ls","output":0,"cancelled":[],"truncated":false}`,
			"[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Ran `ls`\\n(no output)\\n\\n(command cancelled)\"}]}]"},
		{`{"role":"custom","customType":"n","display":true}`,
			`[{"role":"user"}]`},
		{`{"role":"custom","customType":"n","content":42,"display":true}`,
			`[{"role":"user","content":42}]`},
		{`{"role":"custom","customType":"n","content":[{"type":"audio"}],"display":true}`,
			`[{"role":"user","content":[{"type":"audio"}]}]`},
		{`{"role":"branchSummary","summary":null,"fromId":"f"}`,
			`[{"role":"user","content":[{"type":"text","text":"The following is a summary of a branch that this conversation came back from:\n\n<summary>\nnull</summary>"}]}]`},
		{`{"role":"branchSummary","fromId":"f","timestamp":"t"}`,
			`[{"role":"user","content":[{"type":"text","text":"The following is a summary of a branch that this conversation came back from:\n\n<summary>\nundefined</summary>"}],"timestamp":"t"}]`},
		{`{"role":"compactionSummary","summary":{"a":1},"tokensBefore":"1"}`,
			`[{"role":"user","content":[{"type":"text","text":"The conversation history before this point was compacted into the following summary:\n\n<summary>\n[object Object]\n</summary>"}]}]`},
		{`{"role":"compactionSummary","summary":1e21}`,
			`[{"role":"user","content":[{"type":"text","text":"The conversation history before this point was compacted into the following summary:\n\n<summary>\n1e+21\n</summary>"}]}]`},
	} {
		if got := convert(t, `[`+tc.in+`]`); !jsonv.Equal(got, parse(t, tc.want)) {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
	// Only null is refused: Pi reads its role and throws.
	if _, err := codingagent.Registry().DecodeAll(parse(t, `[null]`), "/messages"); err == nil || err.Error() != "/messages/0: want a message, got null" {
		t.Errorf("null message: error %v", err)
	}
}

func TestTypesAndConstants(t *testing.T) {
	var roles []string
	for _, ty := range codingagent.Types() {
		roles = append(roles, ty.Role)
	}
	if diff := cmp.Diff([]string{"bashExecution", "custom", "branchSummary", "compactionSummary"}, roles); diff != "" {
		t.Errorf("roles (-want +got):\n%s", diff)
	}
	// The constants of agent.coding-messages, as JSON strings.
	for got, want := range map[string]string{
		codingagent.BranchSummaryPrefix:     `"The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"`,
		codingagent.BranchSummarySuffix:     `"</summary>"`,
		codingagent.CompactionSummaryPrefix: `"The conversation history before this point was compacted into the following summary:\n\n<summary>\n"`,
		codingagent.CompactionSummarySuffix: `"\n</summary>"`,
	} {
		if s := jsonv.StringValue(got).String(); s != want {
			t.Errorf("constant %s, want %s", s, want)
		}
	}
	// The types register next to an application's own role.
	r, err := agent.NewRegistry(append(codingagent.Types(), agent.CustomType{
		Role:   "notification",
		Decode: func(f *jsonv.Fields) (agent.Message, error) { return &agent.Unknown{RoleName: "notification"}, nil },
		ToLLM: func(agent.Message) (ai.Message, error) {
			return &ai.UserMessage{Content: ai.StringContent("n")}, nil
		},
	})...)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := r.DecodeAll(parse(t, `[{"role":"notification"},{"role":"custom","customType":"c","content":"x","display":true}]`), "")
	if err != nil {
		t.Fatal(err)
	}
	llm, err := r.ConvertToLLM(msgs)
	if err != nil {
		t.Fatal(err)
	}
	if got := ai.MessagesJSON(llm).String(); !strings.HasPrefix(got, `[{"role":"user","content":"n"},{"role":"user","content":[{"type":"text","text":"x"}]`) {
		t.Errorf("mixed registry = %s", got)
	}
}
