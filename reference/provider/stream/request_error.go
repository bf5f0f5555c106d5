package stream

import (
	"errors"

	"github.com/piconform/piconform/reference/jsonv"
)

// ErrOutsideModel marks an answer that made Pi (or its SDK) rely on
// behaviour the reference does not reproduce: JavaScript coercions (a
// token count that is a string, a content delta that is an array), a
// response the SDK's schema rejects, a frame that does not decode. The
// message and events are still returned, but they may differ from Pi's.
var ErrOutsideModel = errors.New("stream outside the modelled JavaScript and SDK semantics")

// RequestError is a failure Pi meets before it sends anything (no key, a
// header fetch refuses, an option the SDK rejects). Pi reports it as a lone
// error event whose errorMessage is Message; each provider package's
// Failure builds that event.
type RequestError struct {
	Message string
	// AfterAbortCheck is set for a failure the client library raises
	// after Pi has checked the caller's signal (ErrAfterAbortCheck).
	AfterAbortCheck bool
	// Marks are members Pi had already set on its message when it failed
	// (provider.Call.Marks).
	Marks []jsonv.Member
}

func (e *RequestError) Error() string { return e.Message }

// Is makes a RequestError raised after the abort check an
// ErrAfterAbortCheck.
func (e *RequestError) Is(target error) bool {
	return target == ErrAfterAbortCheck && e.AfterAbortCheck
}

// ErrAfterAbortCheck marks a failure (a refusal, or a throw the reference
// refuses) that the client library raises after Pi has checked the
// caller's signal: with a signal aborted before the call, Pi fails with its
// abort error instead.
var ErrAfterAbortCheck = errors.New("raised after the abort check")

// MarkAfterAbortCheck makes *err, and a JSError panic (as the
// *RequestError it becomes), a failure raised after Pi has checked the
// caller's signal: it must be deferred by a builder whose remaining steps
// all come after that check. An error outside the model stays as it is.
func MarkAfterAbortCheck(err *error) {
	if x := recover(); x != nil {
		e, ok := x.(JSError)
		if !ok {
			panic(x)
		}
		*err = &RequestError{Message: e.Msg, AfterAbortCheck: true}
		return
	}
	var re *RequestError
	switch {
	case *err == nil || errors.Is(*err, ErrOutsideModel):
	case errors.As(*err, &re) && re == *err:
		*err = &RequestError{Message: re.Message, AfterAbortCheck: true, Marks: re.Marks}
	default:
		*err = afterAbortCheck{*err}
	}
}

// afterAbortCheck is an error raised after the abort check.
type afterAbortCheck struct{ error }

func (e afterAbortCheck) Unwrap() error        { return e.error }
func (e afterAbortCheck) Is(target error) bool { return target == ErrAfterAbortCheck }

// Marked makes a *RequestError err, and a JSError panic (as the
// *RequestError it becomes), carry marks, Pi's members already on its
// message. It must be deferred; other errors stay as they are.
func Marked(err *error, marks []jsonv.Member) {
	if x := recover(); x != nil {
		e, ok := x.(JSError)
		if !ok {
			panic(x)
		}
		*err = &RequestError{Message: e.Msg}
	}
	var re *RequestError
	if len(marks) > 0 && errors.As(*err, &re) && re == *err {
		*err = &RequestError{Message: re.Message, AfterAbortCheck: re.AfterAbortCheck, Marks: marks}
	}
}
