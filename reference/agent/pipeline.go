package agent

import (
	"context"
	"fmt"
	"slices"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
)

// State is what the agent keeps between requests.
type State struct {
	SystemPrompt string
	Messages     []Message
	// Tools is nil when the agent has no tools.
	Tools []ai.Tool
	// Passed holds the context members systemPrompt or tools when they are
	// not of the types Pi declares, or absent (an Absent value): Pi hands
	// them to the provider as they are (input.lenient), and each one stands
	// in for the field of the same name.
	Passed []jsonv.Member
}

// TransformContext rewrites the transcript for one request (pruning, injected
// context). Its result serves that request only.
type TransformContext func(ctx context.Context, msgs []Message) ([]Message, error)

// ConvertToLLM projects a transcript onto the Message layer.
type ConvertToLLM func(ctx context.Context, msgs []Message) ([]ai.Message, error)

// Pipeline is the work done before every model request: TransformContext
// (optional) and then ConvertToLLM.
type Pipeline struct {
	Transform TransformContext
	Convert   ConvertToLLM
	// Registry decodes the copies of custom messages the steps get; nil
	// means a registry without custom roles (their copies keep their JSON).
	Registry *Registry
}

// Converter adapts a registry's projection to the ConvertToLLM signature.
func Converter(r *Registry) ConvertToLLM {
	return func(_ context.Context, msgs []Message) ([]ai.Message, error) { return r.ConvertToLLM(msgs) }
}

// StepError tells which pipeline step failed.
type StepError struct {
	Step string // "transformContext" or "convertToLlm"
	Err  error
}

func (e *StepError) Error() string { return fmt.Sprintf("%s: %v", e.Step, e.Err) }
func (e *StepError) Unwrap() error { return e.Err }

// Prepare builds the Context of one model request from the agent's state.
// The steps work on a deep copy of the transcript (as the coding agent's
// structuredClone does), so neither can change the state, not even by
// editing a message in place; what the transform returns is used for this
// request and then forgotten. If either step fails, Prepare returns its error and no Context:
// a failed step never yields a partial request.
//
// In Pi 1.6 (the registry's dialect; ToolsAsMessages) the Context holds
// the converted messages alone, and the state's SystemPrompt, Tools and
// Passed are not read: the prompt and the tools are system messages of the
// transcript (see DeclareToolChanges).
func (p Pipeline) Prepare(ctx context.Context, state State) (*ai.Context, error) {
	if p.Convert == nil {
		return nil, fmt.Errorf("agent: the pipeline has no ConvertToLLM")
	}
	reg := p.Registry
	if reg == nil {
		reg = &Registry{}
	}
	msgs := make([]Message, len(state.Messages))
	for i, m := range state.Messages {
		msgs[i] = reg.Clone(m)
	}
	if p.Transform != nil {
		var err error
		if msgs, err = p.Transform(ctx, msgs); err != nil {
			return nil, &StepError{Step: "transformContext", Err: err}
		}
	}
	llm, err := p.Convert(ctx, slices.Clone(msgs))
	if err != nil {
		return nil, &StepError{Step: "convertToLlm", Err: err}
	}
	if ToolsAsMessages(reg.dialect) {
		// normalizeContext({messages}): the messages alone.
		return &ai.Context{Messages: llm}, nil
	}
	sys := state.SystemPrompt
	c := &ai.Context{SystemPrompt: &sys, Messages: llm, Tools: state.Tools, HasTools: state.Tools != nil}
	for _, m := range state.Passed {
		switch m.Key {
		case "systemPrompt":
			c.SystemPrompt = nil
		case "tools":
			c.Tools, c.HasTools = nil, false
		}
		if !m.Value.IsAbsent() {
			c.Extra = append(c.Extra, m)
		}
	}
	return c, nil
}
