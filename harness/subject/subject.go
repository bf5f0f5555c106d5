// Package subject puts an implementation under test: the Go reference in
// process, or any program that speaks the subprocess protocol
// (spec/PROTOCOL.md).
package subject

import (
	"context"
	"errors"
	"fmt"

	"github.com/piconform/piconform/protocol"
	"github.com/piconform/piconform/reference/conformance"
)

// ProtocolVersion is the version of spec/PROTOCOL.md this runner speaks.
const ProtocolVersion = protocol.Version

// Implementation is what a subject says about itself in its hello.
type Implementation = protocol.Implementation

// Reply is a subject's answer to one case: Type is "result", "skip" or
// "error".
type Reply = protocol.Answer

// Reply types.
const (
	ReplyResult = protocol.TypeResult
	ReplySkip   = protocol.TypeSkip
	ReplyError  = protocol.TypeError
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
type Case = protocol.Case

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
	// Version is what its hello says: piconform's own version, since the
	// reference is built with it ("devel" when empty).
	Version string
}

func (r *Reference) Start(context.Context) (Implementation, error) {
	v := r.Version
	if v == "" {
		v = "devel"
	}
	return conformance.Adapter(v, r.Options).Implementation(), nil
}

// Run gives the answer `piconform serve` gives, from the same function.
// The case's deadline (--timeout) holds as for a process: an answer not
// given by then is a timeout, and the work is left to finish on its own.
func (r *Reference) Run(ctx context.Context, c Case) (Reply, error) {
	type answer struct {
		reply Reply
		err   error
	}
	if ctx.Err() != nil {
		return Reply{}, &Failure{Outcome: FailTimeout, Msg: "no answer before the deadline"}
	}
	done := make(chan answer, 1)
	go func() {
		defer func() {
			// The reference must never panic on input; if it does, that is a bug
			// to report as a crash of this case, not of the whole run.
			if p := recover(); p != nil {
				done <- answer{err: &Failure{Outcome: FailCrash, Msg: fmt.Sprintf("panic: %v", p)}}
			}
		}()
		done <- answer{reply: conformance.Answer(ctx, c, r.Options)}
	}()
	select {
	case a := <-done:
		return a.reply, a.err
	case <-ctx.Done():
		return Reply{}, &Failure{Outcome: FailTimeout, Msg: "no answer before the deadline"}
	}
}

func (r *Reference) Close() error { return nil }
