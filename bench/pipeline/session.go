// Package pipeline measures the work Pi does before every model request,
// on a coding agent's transcript: parse the JSON, decode the messages, the
// coding agent's convertToLlm, transformMessages, and the provider's
// request body. Session makes the transcripts; Build runs the Go
// reference's pipeline; bench/pipeline/compare times it against the real Pi
// on Node (pi.mjs) on the same bytes.
package pipeline

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/piconform/piconform/reference/jsonv"
)

// Session returns a coding agent's transcript of n messages as the JSON
// array Pi keeps: turns of a user's request, an assistant with thinking,
// text and a bash tool call (with usage), the tool's result, and a command
// the user ran (bashExecution), some failing, cancelled or truncated; now
// and then a compaction or branch summary. The same n gives the same bytes.
// Every tool call has its result, so no request depends on the clock.
func Session(n int) []byte {
	g := &gen{r: rand.New(rand.NewPCG(12, uint64(n))), ts: 1_760_000_000_000}
	var msgs []jsonv.Value
	for turn := 0; ; turn++ {
		t := g.turn(turn)
		if len(msgs)+len(t) > n {
			break
		}
		msgs = append(msgs, t...)
	}
	for len(msgs) < n {
		msgs = append(msgs, g.user())
	}
	return jsonv.ArrayValue(msgs...).AppendJSON(nil)
}

type gen struct {
	r  *rand.Rand
	ts int64
}

func (g *gen) turn(i int) []jsonv.Value {
	msgs := []jsonv.Value{g.user()}
	if i > 0 && i%40 == 0 {
		msgs = append(msgs, g.summary(i))
	}
	id := fmt.Sprintf("toolu_01%016x", g.r.Uint64())
	isError := g.r.IntN(10) == 0
	msgs = append(msgs, g.assistant(id), g.toolResult(id, isError), g.bash())
	return msgs
}

func (g *gen) stamp() jsonv.Value {
	g.ts += int64(1 + g.r.IntN(20_000))
	return jsonv.NumberValue(fmt.Sprint(g.ts))
}

func (g *gen) user() jsonv.Value {
	text := g.prose(8 + g.r.IntN(60))
	var content jsonv.Value
	if g.r.IntN(3) == 0 {
		content = jsonv.StringValue(text)
	} else {
		content = jsonv.ArrayValue(textBlock(text))
	}
	return obj("role", jsonv.StringValue("user"), "content", content, "timestamp", g.stamp())
}

func (g *gen) assistant(toolID string) jsonv.Value {
	sig := make([]byte, 64+g.r.IntN(160))
	for i := range sig {
		sig[i] = byte(g.r.Uint32())
	}
	content := jsonv.ArrayValue(
		obj("type", jsonv.StringValue("thinking"), "thinking", jsonv.StringValue(g.prose(30+g.r.IntN(120))),
			"thinkingSignature", jsonv.StringValue(base64.StdEncoding.EncodeToString(sig))),
		textBlock(g.prose(10+g.r.IntN(60))),
		obj("type", jsonv.StringValue("toolCall"), "id", jsonv.StringValue(toolID), "name", jsonv.StringValue("bash"),
			"arguments", obj("command", jsonv.StringValue(g.command()), "timeout", jsonv.NumberValue("120"))),
	)
	in, out, read := 2+g.r.IntN(4000), 50+g.r.IntN(2000), 10_000+g.r.IntN(150_000)
	usage := obj("input", num(in), "output", num(out), "cacheRead", num(read), "cacheWrite", num(g.r.IntN(3000)),
		"totalTokens", num(in+out+read),
		"cost", obj("input", jsonv.NumberValue("0.003"), "output", jsonv.NumberValue("0.0135"),
			"cacheRead", jsonv.NumberValue("0.0081"), "cacheWrite", jsonv.NumberValue("0"), "total", jsonv.NumberValue("0.0246")))
	return obj("role", jsonv.StringValue("assistant"), "content", content,
		"api", jsonv.StringValue("anthropic-messages"), "provider", jsonv.StringValue("anthropic"),
		"model", jsonv.StringValue("claude-sonnet-4-5"), "usage", usage,
		"stopReason", jsonv.StringValue("toolUse"), "timestamp", g.stamp())
}

func (g *gen) toolResult(id string, isError bool) jsonv.Value {
	return obj("role", jsonv.StringValue("toolResult"), "toolCallId", jsonv.StringValue(id),
		"toolName", jsonv.StringValue("bash"), "content", jsonv.ArrayValue(textBlock(g.output(4+g.r.IntN(40)))),
		"details", obj("exitCode", num(map[bool]int{false: 0, true: 1}[isError])),
		"isError", jsonv.BoolValue(isError), "timestamp", g.stamp())
}

func (g *gen) bash() jsonv.Value {
	m := []any{"role", jsonv.StringValue("bashExecution"), "command", jsonv.StringValue(g.command()),
		"output", jsonv.StringValue(g.output(g.r.IntN(30)))}
	code := 0
	switch g.r.IntN(8) {
	case 0:
		code = 1
	case 1:
		code = 127
	}
	cancelled := g.r.IntN(50) == 0
	if cancelled {
		m = append(m, "exitCode", jsonv.Value{})
	} else {
		m = append(m, "exitCode", num(code))
	}
	truncated := g.r.IntN(10) == 0
	m = append(m, "cancelled", jsonv.BoolValue(cancelled), "truncated", jsonv.BoolValue(truncated))
	if truncated {
		m = append(m, "fullOutputPath", jsonv.StringValue(fmt.Sprintf("/tmp/pi-bash-%08x.log", g.r.Uint32())))
	}
	m = append(m, "timestamp", g.stamp())
	return obj(m...)
}

func (g *gen) summary(turn int) jsonv.Value {
	if turn%80 == 0 {
		return obj("role", jsonv.StringValue("compactionSummary"), "summary", jsonv.StringValue(g.prose(150)),
			"tokensBefore", num(100_000+g.r.IntN(50_000)), "timestamp", g.stamp())
	}
	return obj("role", jsonv.StringValue("branchSummary"), "summary", jsonv.StringValue(g.prose(80)),
		"fromId", jsonv.StringValue(fmt.Sprintf("%08x", g.r.Uint32())), "timestamp", g.stamp())
}

var words = strings.Fields(`the a to of and in is it that for this we file function test error value
	build config return should need change check run output line module package struct handler request
	response parse decode encode cache token message stream request's "quoted" path/to/file.go café naïve
	→ ✓ 日本語 🚀 <tag> a&b x=1; {braces} [list] back\slash tab	here`)

func (g *gen) prose(n int) string {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			if g.r.IntN(12) == 0 {
				sb.WriteString(".\n\n")
			} else {
				sb.WriteByte(' ')
			}
		}
		sb.WriteString(words[g.r.IntN(len(words))])
	}
	return sb.String()
}

var commands = []string{"go test ./...", "ls -la", "git status --short", `grep -rn "func main" .`,
	"cat README.md | head -40", "npm run build", "make -j2 && ./bin/app --help", `python3 -c 'print("hi")'`}

func (g *gen) command() string { return commands[g.r.IntN(len(commands))] }

var outputLines = []string{
	"ok  \tgithub.com/example/project/internal/parse\t0.412s",
	"--- FAIL: TestDecode (0.00s)\n    decode_test.go:42: got \"a\\tb\", want \"a b\"",
	"drwxr-xr-x  5 user staff   160 Dec  3 06:12 .",
	"src/main.go:17:\tfunc main() {",
	"\t\tif err := run(os.Args[1:]); err != nil {",
	"error: cannot find module '@scope/pkg' — did you mean “pkg”?",
	" M reference/jsonv/encode.go",
	"{\"level\":\"info\",\"msg\":\"listening\",\"addr\":\"127.0.0.1:8080\"}",
	"warning: 3 files changed, 120 insertions(+), 45 deletions(-) ✓",
}

func (g *gen) output(lines int) string {
	var sb strings.Builder
	for i := 0; i < lines; i++ {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(outputLines[g.r.IntN(len(outputLines))])
	}
	return sb.String()
}

func textBlock(s string) jsonv.Value {
	return obj("type", jsonv.StringValue("text"), "text", jsonv.StringValue(s))
}

func num(n int) jsonv.Value { return jsonv.NumberValue(fmt.Sprint(n)) }

// obj builds an object from key, value pairs.
func obj(kv ...any) jsonv.Value {
	members := make([]jsonv.Member, 0, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		members = append(members, jsonv.Member{Key: kv[i].(string), Value: kv[i+1].(jsonv.Value)})
	}
	return jsonv.ObjectValue(members...)
}
