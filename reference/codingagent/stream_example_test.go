package codingagent_test

import (
	"os"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/codingagent"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/anthropic"
)

// Example_stream writes the Anthropic request body for a transcript read
// from a stream, one message at a time: neither the transcript, its
// Messages nor the body is held whole, however long the session.
func Example_stream() {
	transcript := strings.NewReader(`[
	  {"role":"user","content":"list the files","timestamp":1},
	  {"role":"bashExecution","command":"ls","output":"a\nb","exitCode":0,"cancelled":false,"truncated":false,"timestamp":2}
	]`)
	model, err := ai.DecodeModel(mustParse(`{"id":"m","name":"M","api":"anthropic-messages","provider":"anthropic",
	  "baseUrl":"https://api.anthropic.com","reasoning":false,"input":["text"],
	  "cost":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75},"contextWindow":200000,"maxTokens":8192}`), "")
	if err != nil {
		panic(err)
	}
	opts, err := anthropic.Driver.DecodeOptions(mustParse(`{"apiKey":"sk-test"}`), "")
	if err != nil {
		panic(err)
	}
	msgs := codingagent.Registry().LLMMessages(transcript) // decode and convertToLlm, one message at a time
	_, err = anthropic.Driver.WriteRequest(model, &ai.Context{}, msgs, opts, func() jsonv.Value { return jsonv.NumberValue("0") }, os.Stdout)
	if err != nil {
		panic(err) // Pi's refusal, or the transcript's decoding error naming its JSON path
	}
	// Output:
	// {"model":"m","messages":[{"role":"user","content":"list the files"},{"role":"user","content":[{"type":"text","text":"Ran `ls`\n```\na\nb\n```","cache_control":{"type":"ephemeral"}}]}],"max_tokens":8192,"stream":true}
}
