// Package openaisdk is what the OpenAI APIs (openai-completions and the
// Responses APIs) get alike from the openai SDK (6.26.0) under Pi: the
// SDK's own headers, the message of an API error and the iterator over a
// streamed response.
package openaisdk

import (
	"fmt"
	"strings"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/sse"
	"github.com/piconform/piconform/reference/provider/stream"
)

// The SDK's version, which its headers name, and the base URL it uses when
// the model gives none.
const (
	Version        = "6.26.0"
	DefaultBaseURL = "https://api.openai.com/v1"
)

// Headers are the headers the SDK adds on its own for a client class (its
// user agent names it: "OpenAI", "AzureOpenAI") and the request's
// timeoutMs. A *stream.RequestError is the SDK's refusal of the timeout.
func Headers(client string, timeoutMs jsonv.Value) ([]httpheader.Header, error) {
	timeout, err := httpheader.StainlessTimeout(timeoutMs, 0)
	if err != nil {
		return nil, &stream.RequestError{Message: err.Error()}
	}
	return httpheader.Stainless(client+"/JS "+Version, Version, timeout, httpheader.Header{Name: "OpenAI-Organization"}, httpheader.Header{Name: "OpenAI-Project"}), nil
}

// Texts of an error without a message.
const (
	NoStatusNoBodyText   = "(no status code or body)"
	StatusCodeNoBodyText = "status code (no body)"
)

// BodyError is what the SDK reads from the body of a non-2xx response:
// its "error" member when the body is JSON, and the body's text as the
// message when the body is not JSON or not truthy.
func BodyError(body []byte) (errMember, message jsonv.Value) {
	text := sse.Text(body)
	parsed, err := stream.ParseJSON(text)
	if err != nil || !parsed.Truthy() {
		message = jsonv.StringValue(text)
	}
	if err == nil {
		errMember = stream.Member(parsed, "error")
	}
	return errMember, message
}

// ErrorMessage is the SDK's APIError.makeMessage: the error member's
// message (its JSON when it is not a string), else the member's JSON, else
// message, after "<status> " when there is a status (0 means none).
func ErrorMessage(status int, errMember, message jsonv.Value) string {
	var msg string
	switch m := stream.Member(errMember, "message"); {
	case m.Truthy() && m.Kind() == jsonv.String:
		msg = m.Str()
	case m.Truthy():
		msg = m.String()
	case errMember.Truthy():
		msg = errMember.String()
	case message.Kind() == jsonv.String:
		msg = message.Str()
	}
	switch {
	case status != 0 && msg != "":
		return fmt.Sprintf("%d %s", status, msg)
	case status != 0:
		return fmt.Sprintf("%d %s", status, StatusCodeNoBodyText)
	case msg != "":
		return msg
	}
	return NoStatusNoBodyText
}

// Stream is the SDK's Stream iterator over server-sent events.
type Stream struct {
	done bool // the [DONE] marker was seen
}

// Next is what the iterator yields for ev: nothing (ok false) for the
// [DONE] marker and every event after it, {event, data} for a thread.*
// event, else the event's data. A truthy error member of that data is
// errMember, which the SDK throws as an APIError instead of yielding.
// Data that is not JSON throws JSON.parse's error (a stream.JSError panic).
func (s *Stream) Next(ev sse.Event) (data, errMember jsonv.Value, ok bool) {
	if s.done {
		return jsonv.Value{}, jsonv.Value{}, false
	}
	if strings.HasPrefix(ev.Data, "[DONE]") {
		s.done = true
		return jsonv.Value{}, jsonv.Value{}, false
	}
	data, err := stream.ParseJSON(ev.Data)
	if err != nil {
		panic(stream.JSError{Msg: err.Error()})
	}
	if ev.Name != nil && strings.HasPrefix(*ev.Name, "thread.") {
		return jsonv.ObjectValue(jsonv.Member{Key: "event", Value: jsonv.StringValue(*ev.Name)}, jsonv.Member{Key: "data", Value: data}), jsonv.Value{}, true
	}
	if e := stream.Member(data, "error"); data.Truthy() && e.Truthy() {
		return jsonv.Value{}, e, true
	}
	return data, jsonv.Value{}, true
}
