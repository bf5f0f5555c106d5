package codingagent_test

import (
	"fmt"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/codingagent"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/transform"
)

// Example decodes a transcript that JavaScript wrote, projects it onto the
// Message layer and normalizes it for a model without image input.
func Example() {
	transcript := []byte(`[
	  {"role":"user","content":[{"type":"text","text":"look"},{"type":"image","data":"AAAA","mimeType":"image/png"}],"timestamp":1},
	  {"role":"bashExecution","command":"ls","output":"a\nb","exitCode":2,"cancelled":false,"truncated":false,"timestamp":2},
	  {"role":"notification","text":"dropped: nobody registered this role"}
	]`)
	v, err := jsonv.Parse(transcript)
	if err != nil {
		panic(err)
	}
	reg := codingagent.Registry() // the coding agent's four custom roles
	msgs, err := reg.DecodeAll(v, "")
	if err != nil {
		panic(err) // strict decoding: the error names the JSON path
	}
	llm, err := reg.ConvertToLLM(msgs)
	if err != nil {
		panic(err) // convertToLlm throws on this transcript
	}
	model, err := ai.DecodeModel(mustParse(`{"id":"m","name":"M","api":"anthropic-messages","provider":"anthropic",
	  "baseUrl":"https://api.anthropic.com","reasoning":false,"input":["text"],
	  "cost":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75},"contextWindow":200000,"maxTokens":8192}`), "")
	if err != nil {
		panic(err)
	}
	for _, m := range transform.Messages(llm, model, nil, transform.SystemClock) {
		fmt.Println(m.JSON())
	}
	// Output:
	// {"role":"user","content":[{"type":"text","text":"look"},{"type":"text","text":"(image omitted: model does not support images)"}],"timestamp":1}
	// {"role":"user","content":[{"type":"text","text":"Ran `ls`\n```\na\nb\n```\n\nCommand exited with code 2"}],"timestamp":2}
}

func mustParse(s string) jsonv.Value {
	v, err := jsonv.Parse([]byte(s))
	if err != nil {
		panic(err)
	}
	return v
}
