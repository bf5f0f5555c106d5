package conformance

import (
	"errors"

	"github.com/piconform/piconform/protocol"
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/codingagent"
	"github.com/piconform/piconform/reference/codingagent/session"
	"github.com/piconform/piconform/reference/jsonv"
)

// sessionCase loads a session file's text from a leaf and converts the
// rebuilt messages with the coding agent's convertToLlm (spec/session.md).
// Where Pi throws, the output is {"throws": {category, message}}.
func sessionCase(input jsonv.Value, opts Options) (jsonv.Value, error) {
	f := jsonv.ReadFields(input, "")
	text := f.String("text")
	rawLeaf := f.Any("leaf")
	if err := f.Err(); err != nil {
		return jsonv.Value{}, err
	}
	var leaf session.Leaf
	switch rawLeaf.Kind() {
	case jsonv.Absent:
	case jsonv.Null:
		leaf.Null = true
	case jsonv.String:
		leaf.ID = rawLeaf.Str()
	default:
		leaf.Value = rawLeaf
	}
	ctx, err := session.Load(text, leaf, session.Options{Dialect: opts.Dialect})
	if thrown, ok := errors.AsType[*session.Thrown](err); ok {
		return protocol.Throws(thrown.Category, thrown.Message), nil
	}
	if err != nil {
		return jsonv.Value{}, jsonv.Errorf("/text", "%v", err)
	}
	messages := jsonv.ArrayValue(ctx.Messages...)
	reg := codingagent.Registry().In(opts.Dialect)
	msgs, err := reg.DecodeAll(messages, "")
	if err != nil {
		return jsonv.Value{}, jsonv.Errorf("/text", "a rebuilt message the reference cannot read, at /messages%v", err)
	}
	llm, err := reg.ConvertToLLM(msgs)
	if errors.Is(err, jsonv.ErrNoPrimitive) {
		return protocol.Throws(session.CategoryTypeError, err.Error()), nil
	}
	if err != nil {
		return jsonv.Value{}, jsonv.Errorf("/text", "%v", err)
	}
	out := new(jsonv.ObjectBuilder).Set("messages", messages).Set("thinkingLevel", ctx.ThinkingLevel).Set("model", ctx.Model)
	return out.Set("llmMessages", ai.MessagesJSON(llm)).Value(), nil
}
