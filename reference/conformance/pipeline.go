package conformance

import (
	"context"
	"errors"
	"math"

	"github.com/piconform/piconform/reference/agent"
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/codingagent"
	"github.com/piconform/piconform/reference/jsonv"
)

// pipeline prepares the one model request of a continued run (spec/SPEC.md
// section 5): the transcript goes through the case's transformContext (if
// any) and convertToLlm, and the output is the Context the provider would
// get together with the transcript as it stands once the request is
// prepared. A failing hook gives {"error": <its message>} instead.
func pipeline(ctx context.Context, input jsonv.Value, _ Options) (jsonv.Value, error) {
	f := jsonv.ReadFields(input, "")
	sys := f.String("systemPrompt")
	rawMsgs := f.Any("messages")
	rawTools, hasTools := f.OptArray("tools")
	rawTransform := f.OptObject("transform")
	rawConvert := f.Any("convert")
	if err := f.Err(); err != nil {
		return jsonv.Value{}, err
	}
	reg := codingagent.Registry()
	msgs, err := reg.DecodeAll(rawMsgs, "/messages")
	if err != nil {
		return jsonv.Value{}, err
	}
	// A continued run needs something to answer: Pi refuses an empty
	// transcript and one that ends with an assistant before any hook runs.
	if len(msgs) == 0 {
		return jsonv.Value{}, jsonv.Errorf("/messages", "a pipeline case needs at least one message")
	}
	if last := msgs[len(msgs)-1]; last.Role() == ai.RoleAssistant {
		return jsonv.Value{}, jsonv.Errorf(jsonv.Index("/messages", len(msgs)-1), "the last message of a pipeline case must not be an assistant")
	}
	state := agent.State{SystemPrompt: sys, Messages: msgs}
	if hasTools {
		if state.Tools, err = decodeTools(rawTools, "/tools"); err != nil {
			return jsonv.Value{}, err
		}
	}
	p := agent.Pipeline{Registry: reg}
	if !rawTransform.IsAbsent() {
		if p.Transform, err = transformOp(rawTransform, reg); err != nil {
			return jsonv.Value{}, err
		}
	}
	if p.Convert, err = convertOp(rawConvert, reg); err != nil {
		return jsonv.Value{}, err
	}
	llm, err := p.Prepare(ctx, state)
	if err != nil {
		var step *agent.StepError
		if errors.As(err, &step) {
			// Pi rejects with the hook's own error; the step name is the
			// reference's addition and not part of what is compared.
			return object(jsonv.Member{Key: "error", Value: jsonv.StringValue(step.Err.Error())}), nil
		}
		return jsonv.Value{}, err
	}
	return object(
		jsonv.Member{Key: "context", Value: llm.JSON()},
		jsonv.Member{Key: "transcript", Value: agent.MessagesJSON(state.Messages)},
	), nil
}

// decodeTools reads an array of Tools.
func decodeTools(elems []jsonv.Value, ptr string) ([]ai.Tool, error) {
	tools := make([]ai.Tool, 0, len(elems))
	for i, t := range elems {
		tf := jsonv.ReadFields(t, jsonv.Index(ptr, i))
		tool := ai.Tool{Name: tf.String("name"), Description: tf.String("description"), Parameters: tf.Object("parameters")}
		tool.Extra = tf.Rest()
		if err := tf.Err(); err != nil {
			return nil, err
		}
		tools = append(tools, tool)
	}
	return tools, nil
}

// transformOp builds the transformContext a case describes: exactly one of
// {"append": AgentMessage[]}, {"keepLast": n} or {"fail": message}.
func transformOp(v jsonv.Value, reg *agent.Registry) (agent.TransformContext, error) {
	const ptr = "/transform"
	if n := len(v.Members()); n != 1 {
		return nil, jsonv.Errorf(ptr, "want exactly one of append, keepLast, fail; got %d members", n)
	}
	m := v.Members()[0]
	at := jsonv.Child(ptr, m.Key)
	switch m.Key {
	case "append":
		extra, err := reg.DecodeAll(m.Value, at)
		if err != nil {
			return nil, err
		}
		return func(_ context.Context, msgs []agent.Message) ([]agent.Message, error) {
			out := make([]agent.Message, 0, len(msgs)+len(extra))
			out = append(out, msgs...)
			for _, e := range extra {
				out = append(out, reg.Clone(e))
			}
			return out, nil
		}, nil
	case "keepLast":
		f, ok := m.Value.Float64()
		if m.Value.Kind() != jsonv.Number || !ok || f < 0 || f != math.Trunc(f) {
			return nil, jsonv.Errorf(at, "want a non-negative integer, got %s", m.Value)
		}
		keep := int(min(f, math.MaxInt32))
		return func(_ context.Context, msgs []agent.Message) ([]agent.Message, error) {
			return msgs[max(len(msgs)-keep, 0):], nil
		}, nil
	case "fail":
		if m.Value.Kind() != jsonv.String {
			return nil, jsonv.Errorf(at, "want string, got %s", m.Value.Kind())
		}
		msg := m.Value.Str()
		return func(context.Context, []agent.Message) ([]agent.Message, error) { return nil, errors.New(msg) }, nil
	}
	return nil, jsonv.Errorf(at, "unknown transform %q; want append, keepLast or fail", m.Key)
}

// convertOp builds the convertToLlm a case names: "coding-agent" (also when
// absent), "default" (the Agent's filter) or {"fail": message}.
func convertOp(v jsonv.Value, reg *agent.Registry) (agent.ConvertToLLM, error) {
	const ptr = "/convert"
	switch v.Kind() {
	case jsonv.Absent:
		return agent.Converter(reg), nil
	case jsonv.String:
		switch v.Str() {
		case "coding-agent":
			return agent.Converter(reg), nil
		case "default":
			return func(_ context.Context, msgs []agent.Message) ([]ai.Message, error) {
				return agent.DefaultConvertToLLM(msgs), nil
			}, nil
		}
		return nil, jsonv.Errorf(ptr, "unknown convert %q; want coding-agent or default", v.Str())
	case jsonv.Object:
		f := jsonv.ReadFields(v, ptr)
		msg := f.String("fail")
		if err := f.Err(); err != nil {
			return nil, err
		}
		if rest := f.Rest(); len(rest) > 0 {
			return nil, jsonv.Errorf(jsonv.Child(ptr, rest[0].Key), "unknown member; want only fail")
		}
		return func(context.Context, []agent.Message) ([]ai.Message, error) { return nil, errors.New(msg) }, nil
	}
	return nil, jsonv.Errorf(ptr, "want a string or an object, got %s", v.Kind())
}
