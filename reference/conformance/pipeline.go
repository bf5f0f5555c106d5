package conformance

import (
	"context"
	"errors"
	"math"
	"slices"

	"github.com/piconform/piconform/reference/agent"
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/codingagent"
	"github.com/piconform/piconform/reference/jsonv"
)

// pipeline prepares the one model request of a continued run (spec/SPEC.md
// section 5): the transcript goes through the case's transformContext (if
// any) and convertToLlm, and the output is the Context the provider would
// get together with the transcript as it stands once the request is
// prepared. A failing hook gives {"error": <its message>} instead, and so
// does the loop where it throws (an empty transcript, one that ends with
// an assistant or a null, a convertToLlm that meets a null or a value with
// no string form, and in 1.6 tools or declared tools it cannot read).
func pipeline(ctx context.Context, input jsonv.Value, opts Options) (jsonv.Value, error) {
	f := jsonv.ReadFields(input, "")
	rawSys := f.Any("systemPrompt")
	rawMsgs := f.Any("messages")
	rawTools := f.Any("tools")
	rawTransform := f.OptObject("transform")
	rawConvert := f.Any("convert")
	if err := f.Err(); err != nil {
		return jsonv.Value{}, err
	}
	reg := codingagent.Registry().In(opts.Dialect)
	msgs, err := decodeTranscript(reg, rawMsgs, "/messages")
	if err != nil {
		return jsonv.Value{}, err
	}
	// A continued run needs something to answer: Pi's loop throws on an
	// empty transcript and on one that ends with an assistant before any
	// hook runs (and reading the role of a null there throws): the loop
	// rejects with that error.
	if msg, ok := continueThrows(msgs); ok {
		return object(jsonv.Member{Key: "error", Value: jsonv.StringValue(msg)}), nil
	}
	state := agent.State{SystemPrompt: rawSys.Str(), Messages: msgs}
	if agent.ToolsAsMessages(opts.Dialect) {
		// Pi 1.6 reads no systemPrompt, and declares the tools as a system
		// message it appends to the transcript. It reads every message's
		// role for that, which a null has not: the loop rejects.
		if slices.ContainsFunc(msgs, isNull) {
			return object(jsonv.Member{Key: "error", Value: jsonv.StringValue(nullRoleText)}), nil
		}
		update, err := agent.DeclareToolChanges(msgs, rawTools, opts.now())
		if pe, ok := errors.AsType[*jsonv.PathError](err); ok {
			// Pi's loop throws declaring the tools: it rejects with that
			// error, whose words are V8's.
			return object(jsonv.Member{Key: "error", Value: jsonv.StringValue(pe.Msg)}), nil
		}
		if err != nil {
			return jsonv.Value{}, err
		}
		if update != nil {
			state.Messages = append(state.Messages, update)
		}
	} else if rawSys.Kind() != jsonv.String {
		// The loop hands systemPrompt and tools to the provider as they
		// are, whatever they hold (input.lenient).
		state.Passed = append(state.Passed, jsonv.Member{Key: "systemPrompt", Value: rawSys})
	}
	if !rawTools.IsAbsent() && !agent.ToolsAsMessages(opts.Dialect) {
		tools, err := decodeTools(rawTools.Elems(), "/tools")
		if rawTools.Kind() == jsonv.Array && err == nil {
			state.Tools = tools
		} else {
			state.Passed = append(state.Passed, jsonv.Member{Key: "tools", Value: rawTools})
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
		var input *jsonv.PathError
		if errors.As(err, &step) && !errors.As(step.Err, &input) {
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

// decodeTranscript reads the agent's messages. A null among them is kept (as
// an *agent.Unknown holding null): Pi only throws on it if it reaches
// convertToLlm, and a transform may drop it first.
func decodeTranscript(reg *agent.Registry, v jsonv.Value, ptr string) ([]agent.Message, error) {
	if v.Kind() != jsonv.Array {
		return reg.DecodeAll(v, ptr)
	}
	msgs := make([]agent.Message, len(v.Elems()))
	for i, e := range v.Elems() {
		if e.Kind() == jsonv.Null {
			msgs[i] = &agent.Unknown{Raw: e}
			continue
		}
		m, err := reg.Decode(e, jsonv.Index(ptr, i))
		if err != nil {
			return nil, err
		}
		msgs[i] = m
	}
	return msgs, nil
}

func isNull(m agent.Message) bool {
	u, ok := m.(*agent.Unknown)
	return ok && u.Raw.Kind() == jsonv.Null
}

// nullRoleText is V8's text for reading the role of a null message.
var nullRoleText = jsonv.ReadPropertyText(jsonv.NullValue(), "role")

// continueThrows is the error Pi's runAgentLoopContinue throws before it
// runs anything, in its own words (V8's for the null), if any.
func continueThrows(msgs []agent.Message) (string, bool) {
	if len(msgs) == 0 {
		return "Cannot continue: no messages in context", true
	}
	switch last := msgs[len(msgs)-1]; {
	case isNull(last):
		return nullRoleText, true
	case last.Role() == ai.RoleAssistant:
		return "Cannot continue from message role: assistant", true
	}
	return "", false
}

// failWherePiThrows makes a convertToLlm fail as Pi's throws, with V8's
// text: when a null message reaches it (both convertToLlm functions read
// every message's role), or when it cannot project a message
// (*agent.ConvertError). The loop rejects with that error.
func failWherePiThrows(convert agent.ConvertToLLM) agent.ConvertToLLM {
	return func(ctx context.Context, msgs []agent.Message) ([]ai.Message, error) {
		for i, m := range msgs {
			if isNull(m) {
				// A message before it that fails to project throws first.
				if _, err := convert(ctx, msgs[:i]); err != nil {
					return nil, errors.New(convertThrowText(err))
				}
				return nil, errors.New(nullRoleText)
			}
		}
		llm, err := convert(ctx, msgs)
		if _, ok := errors.AsType[*agent.ConvertError](err); ok {
			return nil, errors.New(convertThrowText(err))
		}
		return llm, err
	}
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
		// A null appended is kept: convertToLlm throws on it.
		extra, err := decodeTranscript(reg, m.Value, at)
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
		return failWherePiThrows(agent.Converter(reg)), nil
	case jsonv.String:
		switch v.Str() {
		case "coding-agent":
			return failWherePiThrows(agent.Converter(reg)), nil
		case "default":
			return failWherePiThrows(func(_ context.Context, msgs []agent.Message) ([]ai.Message, error) {
				return agent.DefaultConvertToLLM(msgs), nil
			}), nil
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
