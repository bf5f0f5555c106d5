package pipeline

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// Mixed returns a transcript of about n messages that exercises what
// Session leaves out, for checking that the bodies agree with Pi's rather
// than for timing: assistants of other providers and models (whose
// thinking, signatures and tool-call ids transformMessages rewrites),
// redacted and empty thinking, images in user messages and tool results
// (which a text-only model gets as placeholders), assistants that ended in
// an error or were aborted, tool calls left without a result, runs of tool
// results, custom messages shown and hidden, blank texts, and lone
// surrogates. seed picks one of many such transcripts. Tool calls left
// without a result get Pi's synthetic result, stamped with the clock; no
// API sends that stamp, so the bodies do not depend on it.
func Mixed(n int, seed uint64) []byte {
	g := &gen{r: rand.New(rand.NewPCG(seed, uint64(n))), ts: 1_760_000_000_000}
	var msgs []jsonv.Value
	for len(msgs) < n {
		msgs = append(msgs, g.mixedTurn()...)
	}
	return jsonv.ArrayValue(msgs...).AppendJSON(nil)
}

// producers are the models an assistant message may come from: its api,
// provider and model id, and the shape of its tool-call ids.
var producers = []struct{ api, provider, model, idFormat string }{
	{"anthropic-messages", "anthropic", "claude-sonnet-4-5", "toolu_01%016x"},
	{"openai-responses", "openai", "gpt-5", "call_%016x|fc_%016x"},
	{"openai-responses", "openai", "gpt-5-mini", "call_%016x|fc_%016x"},
	{"openai-completions", "openai", "gpt-4.1-mini", "call_%016x"},
	{"google-generative-ai", "google", "gemini-2.5-pro", "bash_%d_%d"},
	{"mistral-conversations", "mistral", "mistral-large-latest", "%09x"},
	{"openai-completions", "deepseek", "deepseek-chat", "call_00_%x+%x=="},
}

// pixel is a 1x1 PNG.
const pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="

func (g *gen) mixedTurn() []jsonv.Value {
	msgs := []jsonv.Value{g.mixedUser()}
	switch g.r.IntN(12) {
	case 0:
		msgs = append(msgs, g.custom())
	case 1:
		msgs = append(msgs, g.bash())
	}
	p := producers[g.r.IntN(len(producers))]
	calls := g.r.IntN(4)
	ids := make([]string, calls)
	for i := range ids {
		ids[i] = fmt.Sprintf(p.idFormat, g.r.Uint64()>>8, g.r.Uint64()>>8)
		if g.r.IntN(20) == 0 {
			ids[i] += "🚀/" + ids[i] // over 64 units, with characters no API allows
		}
	}
	stop := "toolUse"
	if calls == 0 {
		stop = "stop"
	}
	switch g.r.IntN(15) {
	case 0:
		stop = "error"
	case 1:
		stop = "aborted"
	}
	msgs = append(msgs, g.mixedAssistant(p.api, p.provider, p.model, ids, stop))
	for i, id := range ids {
		if g.r.IntN(8) == 0 && i == len(ids)-1 {
			break // left without a result
		}
		msgs = append(msgs, g.mixedToolResult(id))
	}
	return msgs
}

func (g *gen) mixedUser() jsonv.Value {
	var blocks []jsonv.Value
	switch g.r.IntN(6) {
	case 0:
		return obj("role", jsonv.StringValue("user"), "content", jsonv.StringValue(g.oddText()), "timestamp", g.stamp())
	case 1:
		blocks = append(blocks, g.image(), g.image())
	case 2:
		blocks = append(blocks, textBlock("  \n "))
	}
	blocks = append(blocks, textBlock(g.oddText()))
	if g.r.IntN(5) == 0 {
		blocks = append(blocks, g.image())
	}
	return obj("role", jsonv.StringValue("user"), "content", jsonv.ArrayValue(blocks...), "timestamp", g.stamp())
}

// oddText is prose that now and then holds a lone surrogate, which
// JSON.stringify escapes and the APIs' sanitizers remove.
func (g *gen) oddText() string {
	text := g.prose(5 + g.r.IntN(40))
	if g.r.IntN(6) == 0 {
		text = string(wtf8.AppendRune([]byte(text+" "), 0xD83D)) + " end"
	}
	return text
}

func (g *gen) image() jsonv.Value {
	return obj("type", jsonv.StringValue("image"), "data", jsonv.StringValue(pixel), "mimeType", jsonv.StringValue("image/png"))
}

func (g *gen) mixedAssistant(api, provider, model string, ids []string, stop string) jsonv.Value {
	var content []jsonv.Value
	switch g.r.IntN(5) {
	case 0:
		content = append(content, obj("type", jsonv.StringValue("thinking"), "thinking", jsonv.StringValue(""),
			"thinkingSignature", jsonv.StringValue(g.thinkingSignature(api)), "redacted", jsonv.BoolValue(true)))
	case 1:
		content = append(content, obj("type", jsonv.StringValue("thinking"), "thinking", jsonv.StringValue(" ")))
	case 2, 3:
		content = append(content, obj("type", jsonv.StringValue("thinking"), "thinking", jsonv.StringValue(g.prose(20)),
			"thinkingSignature", jsonv.StringValue(g.thinkingSignature(api))))
	}
	if g.r.IntN(4) != 0 {
		text := []any{"type", jsonv.StringValue("text"), "text", jsonv.StringValue(g.oddText())}
		switch {
		case api != "openai-responses":
		case g.r.IntN(3) == 0:
			text = append(text, "textSignature", jsonv.StringValue(fmt.Sprintf(`{"v":1,"id":"msg_%016x","phase":"final_answer"}`, g.r.Uint64())))
		case g.r.IntN(2) == 0:
			text = append(text, "textSignature", jsonv.StringValue(fmt.Sprintf("msg_%064x", g.r.Uint64())))
		}
		content = append(content, obj(text...))
	}
	for _, id := range ids {
		call := []any{"type", jsonv.StringValue("toolCall"), "id", jsonv.StringValue(id), "name", jsonv.StringValue("bash"),
			"arguments", obj("command", jsonv.StringValue(g.command()))}
		if provider == "google" && g.r.IntN(2) == 0 {
			call = append(call, "thoughtSignature", jsonv.StringValue(g.signature()))
		}
		content = append(content, obj(call...))
	}
	m := []any{"role", jsonv.StringValue("assistant"), "content", jsonv.ArrayValue(content...),
		"api", jsonv.StringValue(api), "provider", jsonv.StringValue(provider), "model", jsonv.StringValue(model),
		"usage", obj("input", num(10), "output", num(5), "cacheRead", num(0), "cacheWrite", num(0), "totalTokens", num(15),
			"cost", obj("input", num(0), "output", num(0), "cacheRead", num(0), "cacheWrite", num(0), "total", num(0))),
		"stopReason", jsonv.StringValue(stop)}
	if stop == "error" || stop == "aborted" {
		m = append(m, "errorMessage", jsonv.StringValue("the stream broke"))
	}
	return obj(append(m, "timestamp", g.stamp())...)
}

// thinkingSignature is what an API keeps as a thinking block's signature:
// the Responses API its reasoning item as JSON, the others an opaque text.
func (g *gen) thinkingSignature(api string) string {
	if api != "openai-responses" {
		return g.signature()
	}
	return string(obj("type", jsonv.StringValue("reasoning"), "id", jsonv.StringValue(fmt.Sprintf("rs_%016x", g.r.Uint64())),
		"summary", jsonv.ArrayValue(obj("type", jsonv.StringValue("summary_text"), "text", jsonv.StringValue(g.prose(6)))),
		"encrypted_content", jsonv.StringValue(g.signature())).AppendJSON(nil))
}

func (g *gen) signature() string {
	sig := make([]byte, 24+g.r.IntN(40))
	for i := range sig {
		sig[i] = byte(g.r.Uint32())
	}
	return base64.StdEncoding.EncodeToString(sig)
}

func (g *gen) mixedToolResult(id string) jsonv.Value {
	content := []jsonv.Value{textBlock(g.output(1 + g.r.IntN(6)))}
	if g.r.IntN(6) == 0 {
		content = append(content, g.image())
	}
	return obj("role", jsonv.StringValue("toolResult"), "toolCallId", jsonv.StringValue(id),
		"toolName", jsonv.StringValue("bash"), "content", jsonv.ArrayValue(content...),
		"isError", jsonv.BoolValue(g.r.IntN(7) == 0), "timestamp", g.stamp())
}

// custom is the coding agent's custom message, shown or hidden, its content
// a string or blocks.
func (g *gen) custom() jsonv.Value {
	var content jsonv.Value = jsonv.StringValue(g.prose(12))
	if g.r.IntN(2) == 0 {
		content = jsonv.ArrayValue(textBlock(g.prose(12)), g.image())
	}
	return obj("role", jsonv.StringValue("custom"), "customType", jsonv.StringValue("note"), "content", content,
		"display", jsonv.BoolValue(g.r.IntN(2) == 0), "timestamp", g.stamp())
}
