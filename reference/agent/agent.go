// Package agent is Pi's AgentMessage layer (pi-agent-core): the Message layer
// plus custom messages that an application registers, the projection of a
// transcript onto Messages (convertToLlm), and the pipeline that runs before
// every model request.
//
// TypeScript adds custom messages by declaration merging. The Go counterpart
// is a Registry: an application registers each custom role with a decoder and
// a projection. This package knows no custom role itself.
package agent

import (
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// Message is one AgentMessage: an ai.Message, a registered custom message, or
// an *Unknown message whose role nobody registered.
type Message interface {
	Role() string
	JSON() jsonv.Value
}

// Unknown is a message whose role is not registered, or a value with no
// string role at all (RoleName is then ""). It is kept as written and
// convertToLlm drops it.
type Unknown struct {
	RoleName string
	Raw      jsonv.Value
}

func (u *Unknown) Role() string      { return u.RoleName }
func (u *Unknown) JSON() jsonv.Value { return u.Raw }

// CustomType registers one custom role.
type CustomType struct {
	// Role is the value of the message's "role" member.
	Role string
	// Decode reads a message of this role; the role member was already read.
	Decode func(f *jsonv.Fields) (Message, error)
	// ToLLM projects the message onto the Message layer. Returning no
	// Message drops it from the model's view; an error is what the
	// application's convertToLlm throws on it.
	ToLLM func(Message) (ai.Message, error)
}

// Registry maps custom roles to their types.
type Registry struct {
	types map[string]CustomType
	// dialect decides which roles belong to the Message layer (Pi 1.6 adds
	// "system"); the zero value is 0.80.
	dialect dialect.Dialect
}

// In returns a registry with r's types that reads the Message layer of
// dialect d: in 1.6 a system message is an *ai.SystemMessage, which
// ConvertToLLM and DefaultConvertToLLM keep; in 0.80 it is an *Unknown,
// which they drop.
func (r *Registry) In(d dialect.Dialect) *Registry {
	c := *r
	c.dialect = d
	return &c
}

// Dialect is the dialect r reads.
func (r *Registry) Dialect() dialect.Dialect { return r.dialect }

// NewRegistry makes a registry holding the given types.
func NewRegistry(types ...CustomType) (*Registry, error) {
	r := &Registry{types: map[string]CustomType{}}
	for _, t := range types {
		if err := r.Register(t); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Register adds a custom role. A role of the Message layer, or one already
// registered, is refused.
func (r *Registry) Register(t CustomType) error {
	switch {
	case t.Role == "":
		return fmt.Errorf("agent: custom type without a role")
	case ai.IsMessageRole(t.Role):
		return fmt.Errorf("agent: role %q belongs to the Message layer", t.Role)
	case t.Decode == nil || t.ToLLM == nil:
		return fmt.Errorf("agent: custom role %q needs Decode and ToLLM", t.Role)
	}
	if _, dup := r.types[t.Role]; dup {
		return fmt.Errorf("agent: role %q is already registered", t.Role)
	}
	r.types[t.Role] = t
	return nil
}

// Decode reads one AgentMessage as leniently as Pi's convertToLlm reads it
// (input.lenient): only null is refused, since Pi reads its role and throws.
// Any other value whose role is not a string, or is a string that is
// neither a Message role nor registered, gives an *Unknown. A message of a
// Message role that the ai types cannot hold gives an *ai.ForeignMessage
// that keeps it as written.
func (r *Registry) Decode(v jsonv.Value, ptr string) (Message, error) {
	return r.decode(v, func() string { return ptr })
}

// decode is Decode building the message's JSON Pointer only where an error
// may name it: DecodeAll runs it on every message of a transcript.
func (r *Registry) decode(v jsonv.Value, ptr func() string) (Message, error) {
	if v.IsNullish() {
		return nil, jsonv.Errorf(ptr(), "want a message, got %s", v.Kind())
	}
	roleValue, _ := v.Get("role")
	if v.Kind() != jsonv.Object || roleValue.Kind() != jsonv.String {
		return &Unknown{Raw: v}, nil
	}
	role := roleValue.Str()
	if ai.IsMessageRoleIn(r.dialect, role) {
		// An error here only makes the message foreign, so no pointer is
		// needed; and this Fields stays on the stack.
		f := jsonv.ReadFields(v, "")
		f.String("role")
		m, err := ai.DecodeMessageFields(f, role)
		if err != nil {
			return &ai.ForeignMessage{RoleName: role, Raw: v}, nil
		}
		return m, nil
	}
	if t, ok := r.types[role]; ok {
		f := jsonv.ReadFields(v, ptr())
		f.String("role")
		m, err := t.Decode(f)
		if err == nil {
			err = f.Err()
		}
		return m, err
	}
	return &Unknown{RoleName: role, Raw: v}, nil
}

// Clone returns a deep copy of m, made by decoding its JSON again. A custom
// message of a role the registry does not know cannot be rebuilt with its
// type, so it is returned as it is.
func (r *Registry) Clone(m Message) Message {
	if _, known := r.types[m.Role()]; !known && !ai.IsMessageRoleIn(r.dialect, m.Role()) {
		if _, unknown := m.(*Unknown); !unknown {
			return m
		}
	}
	c, err := r.Decode(m.JSON(), "")
	if err != nil {
		// Only a custom type whose JSON its own decoder rejects gets here;
		// sharing it is the best that can be done.
		return m
	}
	return c
}

// DecodeEach reads a transcript, a JSON array of AgentMessages, from rd and
// hands each decoded message to each in order, holding neither the input nor
// the whole transcript: a caller that keeps only what ToLLM makes of each
// message reads a long session in the memory of its Messages. Errors are
// DecodeAll's, with syntax errors placed in the whole input (jsonv.ReadArray).
func (r *Registry) DecodeEach(rd io.Reader, each func(Message) error) error {
	return jsonv.ReadArray(rd, func(i int, v jsonv.Value) error {
		m, err := r.decode(v, func() string { return jsonv.Index("", i) })
		if err != nil {
			return err
		}
		return each(m)
	})
}

// LLMMessages reads a JSON array of AgentMessages from rd one message at a
// time, as DecodeEach does, and yields what ToLLM makes of each one it
// keeps: a transcript for a provider's streaming request
// (provider.Transcript) that is never held whole. A decoding or conversion
// error is the last thing yielded.
func (r *Registry) LLMMessages(rd io.Reader) iter.Seq2[ai.Message, error] {
	return func(yield func(ai.Message, error) bool) {
		stopped := errors.New("stopped")
		i := 0
		err := r.DecodeEach(rd, func(m Message) error {
			am, err := r.ToLLM(m)
			if err != nil {
				return &ConvertError{Index: i, Err: err}
			}
			i++
			if am != nil && !yield(am, nil) {
				return stopped
			}
			return nil
		})
		if err != nil && err != stopped {
			yield(nil, err)
		}
	}
}

// DecodeAll reads an array of AgentMessages.
func (r *Registry) DecodeAll(v jsonv.Value, ptr string) ([]Message, error) {
	if v.Kind() != jsonv.Array {
		return nil, jsonv.Errorf(ptr, "want an array of messages, got %s", v.Kind())
	}
	msgs := make([]Message, 0, len(v.Elems()))
	for i, e := range v.Elems() {
		m, err := r.decode(e, func() string { return jsonv.Index(ptr, i) })
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// ConvertToLLM is the coding agent's convertToLlm: a new slice in the same
// order, each message mapped to at most one Message and never merged with its
// neighbours. Messages of the Message roles (three in 0.80, with system in
// 1.6) pass through as they are,
// registered custom messages are projected, and unknown roles are dropped.
// A message its type cannot project is a *ConvertError, and no slice.
func (r *Registry) ConvertToLLM(msgs []Message) ([]ai.Message, error) {
	out := make([]ai.Message, 0, len(msgs))
	for i, m := range msgs {
		am, err := r.ToLLM(m)
		if err != nil {
			return nil, &ConvertError{Index: i, Err: err}
		}
		if am != nil {
			out = append(out, am)
		}
	}
	return out, nil
}

// ToLLM is ConvertToLLM for one message: the Message it becomes, or none
// when convertToLlm drops it.
func (r *Registry) ToLLM(m Message) (ai.Message, error) {
	if am, ok := m.(ai.Message); ok {
		return am, nil
	}
	if t, ok := r.types[m.Role()]; ok {
		return t.ToLLM(m)
	}
	return nil, nil
}

// ConvertError is the message of a transcript on which convertToLlm throws:
// the custom type's projection failed, as Pi's throws (a summary with no
// string form, jsonv.ErrNoPrimitive).
type ConvertError struct {
	Index int // in the transcript
	Err   error
}

func (e *ConvertError) Error() string { return fmt.Sprintf("message %d: %v", e.Index, e.Err) }
func (e *ConvertError) Unwrap() error { return e.Err }

// DefaultConvertToLLM is what the Agent uses when the application gives no
// convertToLlm: it keeps the Message roles the messages were decoded with
// (the three of 0.80; in 1.6 system too) and drops everything else.
func DefaultConvertToLLM(msgs []Message) []ai.Message {
	out := make([]ai.Message, 0, len(msgs))
	for _, m := range msgs {
		if am, ok := m.(ai.Message); ok {
			out = append(out, am)
		}
	}
	return out
}

// MessagesJSON encodes a transcript.
func MessagesJSON(msgs []Message) jsonv.Value {
	return jsonv.ArrayOf(msgs)
}
