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
	rawText := f.Any("text")
	rawLeaf := f.Any("leaf")
	// Only true asks for the tree, as the driver of the real Pi reads it.
	tree := f.Any("tree")
	assistantTimestamp, guard := input.Get("assistantTimestamp")
	f.Any("assistantTimestamp")
	if err := f.Err(); err != nil {
		return jsonv.Value{}, err
	}
	// parseSessionEntries first trims the text, a string method.
	switch rawText.Kind() {
	case jsonv.String:
	case jsonv.Absent, jsonv.Null:
		return protocol.Throws(session.CategoryTypeError, jsonv.ReadPropertyText(rawText, "trim")), nil
	default:
		return protocol.Throws(session.CategoryTypeError, "content.trim is not a function"), nil
	}
	text := rawText.Str()
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
	sopts := session.Options{Dialect: opts.Dialect}
	entries, err := session.LoadEntries(text, sopts)
	var ctx session.Context
	if err == nil {
		ctx, err = session.BuildContextIn(opts.Dialect, entries, leaf)
	}
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
	out.Set("llmMessages", ai.MessagesJSON(llm))
	// What the session manager and the agent session make of the entries'
	// timestamps, where the case asks (session.tree, session.compaction-age).
	if tree.Kind() == jsonv.Bool && tree.Bool() {
		nodes, err := session.Tree(entries)
		if fail, ferr, ok := sessionFailure(err); ok {
			return fail, ferr
		}
		out.Set("tree", session.TreeJSON(nodes))
	}
	if guard {
		before, err := session.BeforeLatestCompaction(entries, assistantTimestamp)
		if fail, ferr, ok := sessionFailure(err); ok {
			return fail, ferr
		}
		out.Set("beforeLatestCompaction", jsonv.BoolValue(before))
	}
	return out.Value(), nil
}

// sessionFailure is the answer for an error of the session package: the
// expected failure where Pi throws, else an input error at /text; ok is
// false for no error.
func sessionFailure(err error) (jsonv.Value, error, bool) {
	if err == nil {
		return jsonv.Value{}, nil, false
	}
	if thrown, ok := errors.AsType[*session.Thrown](err); ok {
		return protocol.Throws(thrown.Category, thrown.Message), nil, true
	}
	return jsonv.Value{}, jsonv.Errorf("/text", "%v", err), true
}
