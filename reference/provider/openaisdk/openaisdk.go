// Package openaisdk is what the OpenAI APIs (openai-completions and the
// Responses APIs) get alike from the openai SDK under Pi (6.26.0 in Pi
// 0.80, 7.59.0 in Pi 1.6): the SDK's own headers, the message of an API
// error and the iterator over a streamed response.
package openaisdk

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/sse"
	"github.com/piconform/piconform/reference/provider/stream"
)

// The SDK's version in Pi 0.80, which its headers name, and the base URL
// it uses when the model gives none.
const (
	Version        = "6.26.0"
	DefaultBaseURL = "https://api.openai.com/v1"
)

// Headers are the headers the SDK of Pi 0.80 adds on its own (HeadersAt).
func Headers(client string, timeoutMs jsonv.Value) ([]httpheader.Header, error) {
	return HeadersAt(dialect.V0_80, client, timeoutMs)
}

// HeadersAt are the headers the SDK of dialect d adds on its own for a
// client class (its user agent names it: "OpenAI", "AzureOpenAI") and the
// request's timeoutMs. A *stream.RequestError is the SDK's refusal of the
// timeout; in 1.6 Pi makes the call inside its own retry loop, which
// answers any failure of it with its abort error once the caller's signal
// has fired (ErrAfterAbortCheck). (SDK 7 writes the names in lower case;
// HTTP does not tell.)
func HeadersAt(d dialect.Dialect, client string, timeoutMs jsonv.Value) ([]httpheader.Header, error) {
	timeout, err := httpheader.StainlessTimeout(timeoutMs, 0)
	if err != nil {
		return nil, RequestFailure(d, err.Error())
	}
	v := Versions.At(d)
	return httpheader.Stainless(client+"/JS "+v, v, timeout, httpheader.Header{Name: "OpenAI-Organization"}, httpheader.Header{Name: "OpenAI-Project"}), nil
}

// NoAuthText is SDK 7's refusal of a request without a credential.
const NoAuthText = `Could not resolve authentication method. Expected either apiKey or adminAPIKey to be set. Or for one of the "Authorization" or "api-key" headers to be explicitly omitted`

// CheckAuth is the last check the SDK of dialect d makes of a request's
// headers, built from layers in the SDK's order (SDK 6 makes none): SDK 7
// refuses (RequestFailure, NoAuthText) a request whose authorization and
// api-key headers both read as empty, unless the last layer to name one of
// them removed it with null. A header reads as its values, each trimmed as
// fetch trims it, joined with ", " (so two values are never empty). A
// member of a layer that gives any value replaces the values before it;
// one that gives none (an empty array) leaves them.
func CheckAuth(d dialect.Dialect, layers [][]httpheader.Header) error {
	if !checksAuth.At(d) {
		return nil
	}
	removed := map[string]bool{}
	values := map[string][]string{}
	for _, layer := range layers {
		for _, h := range layer {
			name := strings.ToLower(h.Name)
			if name != "authorization" && name != "api-key" {
				continue
			}
			vals := h.SDKValues()
			if len(vals) == 0 {
				continue
			}
			values[name] = nil
			for _, v := range vals {
				removed[name] = v == nil
				if v == nil {
					values[name] = nil
				} else {
					values[name] = append(values[name], strings.Trim(*v, " \t\r\n"))
				}
			}
		}
	}
	for _, name := range []string{"authorization", "api-key"} {
		if removed[name] || strings.Join(values[name], ", ") != "" {
			return nil
		}
	}
	return RequestFailure(d, NoAuthText)
}

// RequestFailure is a failure, with message, that the SDK of dialect d
// raises as it makes the request (a timeout it refuses, a header value it
// cannot convert or fetch will not take): in 1.6 Pi makes the call inside
// its own retry loop, which answers any failure of it with its abort error
// once the caller's signal has fired (ErrAfterAbortCheck).
func RequestFailure(d dialect.Dialect, message string) *stream.RequestError {
	return &stream.RequestError{Message: message, AfterAbortCheck: insidePiRetry.At(d)}
}

// ErrorBody is the body Pi 1.6 finds on the SDK's error
// (provider.ProviderErrorText): the JSON of the body's error member when
// that is an object with members, else none.
func ErrorBody(errMember jsonv.Value) string {
	if errMember.Kind() != jsonv.Object || len(errMember.Members()) == 0 {
		return ""
	}
	return string(errMember.AppendJSON(nil))
}

// Texts of an error without a message.
const (
	NoStatusNoBodyText   = "(no status code or body)"
	StatusCodeNoBodyText = "status code (no body)"
)

// BodyError is what the SDK of Pi 0.80 reads from the body of a non-2xx
// response (BodyErrorAt).
func BodyError(body []byte) (errMember, message jsonv.Value) {
	return BodyErrorAt(dialect.V0_80, body)
}

// BodyErrorAt is what the SDK of dialect d reads from the body of a non-2xx
// response: its "error" member when the body is JSON, and the body's text
// as the message when the body is not JSON or not truthy. SDK 7 takes a
// JSON object body whose error member is nullish as the error itself.
func BodyErrorAt(d dialect.Dialect, body []byte) (errMember, message jsonv.Value) {
	text := sse.Text(body)
	parsed, err := stream.ParseJSON(text)
	if err != nil || !parsed.Truthy() {
		message = jsonv.StringValue(text)
	}
	if err == nil {
		errMember = stream.Member(parsed, "error")
		k := parsed.Kind()
		if wholeBodyIsError.At(d) && (k == jsonv.Object || k == jsonv.Array) && errMember.IsNullish() {
			errMember = parsed
		}
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

// NewReader is the SDK's reading of server-sent events in dialect d:
// every line is decoded on its own (so each loses a leading BOM); SDK 6
// drops an event no blank line ends, SDK 7 dispatches it when the body
// ends.
func NewReader(d dialect.Dialect) *sse.Reader {
	return &sse.Reader{BOMEachLine: true, DropUnfinished: dropsUnfinishedEvent.At(d)}
}

// MalformedEventText is SDK 7's error for event data that is not JSON.
const MalformedEventText = "Error reading response: malformed server-sent event JSON."

// Stream is the SDK's Stream iterator over server-sent events. Dialect
// picks the SDK (the zero value is Pi 0.80's).
type Stream struct {
	Dialect dialect.Dialect
	done    bool // the [DONE] marker was seen
}

// Next is what the iterator yields for ev: nothing (ok false) for the
// [DONE] marker and every event after it, {event, data} for a thread.*
// event, else the event's data. A truthy error member of that data is
// errMember, which the SDK throws as an APIError instead of yielding; SDK
// 7 throws the data of an "error" event too (its error member, else the
// data). SDK 6 takes any data that starts with [DONE] for the marker and
// throws JSON.parse's error for data that is not JSON; SDK 7 takes only
// [DONE] itself and throws MalformedEventText (stream.JSError panics).
func (s *Stream) Next(ev sse.Event) (data, errMember jsonv.Value, ok bool) {
	if s.done {
		return jsonv.Value{}, jsonv.Value{}, false
	}
	if ev.Data == "[DONE]" || !exactDoneMarker.At(s.Dialect) && strings.HasPrefix(ev.Data, "[DONE]") {
		s.done = true
		return jsonv.Value{}, jsonv.Value{}, false
	}
	data, err := stream.ParseJSON(ev.Data)
	if err != nil {
		if malformedEventText.At(s.Dialect) {
			panic(stream.JSError{Msg: MalformedEventText})
		}
		panic(stream.JSError{Msg: err.Error()})
	}
	if ev.Name != nil && strings.HasPrefix(*ev.Name, "thread.") {
		return jsonv.ObjectValue(jsonv.Member{Key: "event", Value: jsonv.StringValue(*ev.Name)}, jsonv.Member{Key: "data", Value: data}), jsonv.Value{}, true
	}
	if throwsErrorEvents.At(s.Dialect) && ev.Name != nil && *ev.Name == "error" {
		if e := stream.Member(data, "error"); !e.IsNullish() {
			return jsonv.Value{}, e, true
		}
		return jsonv.Value{}, data, true
	}
	if e := stream.Member(data, "error"); data.Truthy() && e.Truthy() {
		return jsonv.Value{}, e, true
	}
	return data, jsonv.Value{}, true
}

// ChatChunk is the chunk the stream of chat.completions.create hands on
// for data, a chunk Next yielded, in dialect d. SDK 7 rewrites a chunk
// whose choices are an array: a copy whose choices are each spread into
// an object (JavaScript's {...choice}) with finish_reason set to the
// choice's own, null when that is null or missing. A null choice throws
// where its finish_reason is read (a stream.JSError panic). Any other
// chunk, and every chunk of SDK 6, is handed on as it is.
func ChatChunk(d dialect.Dialect, data jsonv.Value) jsonv.Value {
	choices := stream.Member(data, "choices")
	if !normalizesChatChunks.At(d) || choices.Kind() != jsonv.Array {
		return data
	}
	out := make([]jsonv.Value, len(choices.Elems()))
	for i, c := range choices.Elems() {
		reason := stream.Prop(c, "finish_reason")
		out[i] = jsonv.Spread(c).With("finish_reason", stream.Nullish(reason, jsonv.NullValue()))
	}
	return data.With("choices", jsonv.ArrayValue(out...))
}

// RetryMessage is SDK 7's message for a failed attempt (status and body),
// which Pi 1.6's retry loop quotes when it refuses to wait as long as the
// server asks (provider.PiRetry).
func RetryMessage(resp *http.Response, body []byte) string {
	errMember, message := BodyErrorAt(dialect.V1_6, body)
	return ErrorMessage(resp.StatusCode, errMember, message)
}
