// Package subject puts an implementation under test: the Go reference in
// process, or any program that speaks the subprocess protocol
// (spec/PROTOCOL.md).
package subject

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/jsonv"
)

// ProtocolVersion is the version of spec/PROTOCOL.md this runner speaks.
const ProtocolVersion = 1

// Implementation is what a subject says about itself in its hello.
type Implementation struct {
	Name     string   `json:"name"`
	Version  string   `json:"version"`
	Language string   `json:"language"`
	Homepage string   `json:"homepage,omitempty"`
	Kinds    []string `json:"kinds"`
	APIs     []string `json:"apis"`
}

// Supports reports whether the implementation claims the case kind.
func (i Implementation) Supports(kind string) bool { return slices.Contains(i.Kinds, kind) }

// SupportsAPI reports whether the implementation claims the provider API.
func (i Implementation) SupportsAPI(api string) bool { return slices.Contains(i.APIs, api) }

// Reply is a subject's answer to one case.
type Reply struct {
	// Type is "result", "skip" or "error".
	Type    string
	Output  jsonv.Value
	Reason  string // skip
	Link    string // skip, optional
	Message string // error
}

// Reply types.
const (
	ReplyResult = "result"
	ReplySkip   = "skip"
	ReplyError  = "error"
)

// Failure is a subject that broke instead of answering: it crashed, ran past
// its deadline, or broke the protocol. The runner restarts it.
type Failure struct {
	// Outcome is "crash", "timeout" or "protocol".
	Outcome string
	Msg     string
	// Final is set when a restart cannot help (the implementation speaks
	// another protocol version), so the runner should not try again.
	Final bool
}

func (f *Failure) Error() string { return f.Outcome + ": " + f.Msg }

// Failure outcomes.
const (
	FailCrash    = "crash"
	FailTimeout  = "timeout"
	FailProtocol = "protocol"
)

// AsFailure returns err as a *Failure, wrapping unknown errors as crashes.
func AsFailure(err error) *Failure {
	var f *Failure
	if errors.As(err, &f) {
		return f
	}
	return &Failure{Outcome: FailCrash, Msg: err.Error()}
}

// Case is what a subject needs to run one case.
type Case struct {
	ID    string
	Kind  string
	Input jsonv.Value
}

// Subject is one running implementation. A subject runs one case at a time.
type Subject interface {
	// Start brings the implementation up and returns its hello.
	Start(ctx context.Context) (Implementation, error)
	// Run runs one case. A non-nil error is a *Failure; the subject must then
	// be restarted with Start before it runs another case.
	Run(ctx context.Context, c Case) (Reply, error)
	// Close stops the implementation.
	Close() error
}

// Reference runs the Go reference in process.
type Reference struct {
	Options conformance.Options
}

// ReferenceVersion is reported in the reference's hello.
var ReferenceVersion = "0.80.2"

func (r *Reference) Start(context.Context) (Implementation, error) {
	return Implementation{
		Name: "piconform-reference", Version: ReferenceVersion, Language: "go",
		Kinds: conformance.Kinds(), APIs: conformance.APIs(),
	}, nil
}

func (r *Reference) Run(ctx context.Context, c Case) (reply Reply, err error) {
	defer func() {
		// The reference must never panic on input; if it does, that is a bug
		// to report as a crash of this case, not of the whole run.
		if p := recover(); p != nil {
			err = &Failure{Outcome: FailCrash, Msg: fmt.Sprintf("panic: %v", p)}
		}
	}()
	out, err := conformance.HandleContext(ctx, c.Kind, c.Input, r.Options)
	if errors.Is(err, conformance.ErrUnsupported) {
		return Reply{Type: ReplySkip, Reason: err.Error()}, nil
	}
	if err != nil {
		// Name the path in the case file, where the input is under "input".
		return Reply{Type: ReplyError, Message: jsonv.Under("input", err).Error()}, nil
	}
	return Reply{Type: ReplyResult, Output: out}, nil
}

func (r *Reference) Close() error { return nil }
