package openaicodexresponses

import (
	"bytes"
	"io"
	"math"
	"net/http"
	"regexp"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/openairesponses"
	"github.com/piconform/piconform/reference/provider/sse"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// Texts Pi uses for failures of this API.
const (
	// InvalidJSONText prefixes JSON.parse's message for an event whose
	// data is not JSON.
	InvalidJSONText = "Invalid Codex SSE JSON: "
	// EventErrorText prefixes the text of an "error" event.
	EventErrorText = "Codex error: "
	// FailedText is the message of a response.failed event without one.
	FailedText = "Codex response failed"
	// RequestFailedText is an error response's message when it has no body
	// and no status text.
	RequestFailedText = "Request failed"
	// EndedEarlyText is the message of a stream without a terminal event.
	EndedEarlyText = openairesponses.EndedEarlyText
)

// statuses are the response statuses Pi keeps; any other becomes
// undefined (a stop) before the event is handled.
var statuses = map[string]bool{"completed": true, "incomplete": true, "failed": true, "cancelled": true, "queued": true, "in_progress": true}

// readResponse turns the response to a request into Pi's message and
// events: a 2xx status is a stream (priced with the request's service
// tier when the answer names none), anything else ParseHTTPError, whose
// status text is the response's reason phrase.
func readResponse(d dialect.Dialect, model *ai.Model, tier *string, resp *http.Response, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, err := io.ReadAll(resp.Body)
		msg, events := ParseHTTPError(model, resp.StatusCode, provider.StatusText(resp), data, now)
		return msg, events, err
	}
	return ParseStreamIn(d, resp.Body, model, tier, now)
}

// PendingText is Pi 1.6's error of an answer that ends without a stop
// reason.
const PendingText = "Codex stream ended without a stop reason"

// ParseStream reads a 2xx response body and returns the message and
// events Pi produces for it. tier is the request's serviceTier. Bytes may
// arrive split anywhere. The error is non-nil only for a read error on r
// (which Pi also reports as the stream's error event) or stream.ErrOutsideModel.
//
// Pi reads the body itself: the decoded text is cut at each "\n\n" (and
// only there: a CR is an ordinary character), the lines of a piece that
// start with "data:" give their trimmed rest, joined with "\n" and
// trimmed; an empty result or "[DONE]" is skipped, anything else must be
// JSON. A piece left without its "\n\n" at the end is never read. Events
// are then screened (see screen) and handed to openairesponses' event
// handling; the first terminal event ends the reading.
func ParseStream(r io.Reader, model *ai.Model, tier *string, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	return ParseStreamIn(dialect.V0_80, r, model, tier, now)
}

// ParseStreamIn is ParseStream as Pi of dialect d reads the body: 1.6
// also reads a last piece that no "\n\n" ends (when it is not blank),
// records the terminal response's end_turn, and hands the events to Pi
// 1.6's reader.
func ParseStreamIn(d dialect.Dialect, r io.Reader, model *ai.Model, tier *string, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	f := openairesponses.Flavor{Requested: tier, Resolve: resolveTier, PendingText: PendingText}
	s := &screener{ep: openairesponses.NewEventParserIn(d, model, f, now), d: d}
	var pending []byte
	first := true
	feed := func(data []byte, eof bool) bool {
		pending = append(pending, data...)
		if eof && readsLastPiece.At(d) && !stream.IsBlank(sse.DecodeUTF8(pending)) {
			pending = append(pending, "\n\n"...)
		}
		for {
			i := bytes.Index(pending, []byte("\n\n"))
			if i < 0 {
				return false
			}
			piece := pending[:i]
			pending = pending[i+2:]
			if first {
				piece = sse.StripBOM(piece)
			}
			first = false
			if s.piece(piece) {
				return true
			}
		}
	}
	readErr := stream.Run(r, stream.Steps{Feed: feed, End: s.ep.End, Fail: s.ep.Fail, Events: s.ep.Count})
	msg, events, err := s.ep.Result()
	switch {
	case readErr != nil:
		err = readErr
	case err == nil && s.outside:
		err = stream.ErrOutsideModel
	}
	return msg, events, err
}

// screener is Pi's mapping of the parsed events before the shared
// handling sees them.
type screener struct {
	ep      *openairesponses.EventParser
	d       dialect.Dialect
	outside bool
}

// piece handles one piece of the body; it reports whether reading stops
// (a terminal event, or a failure).
func (s *screener) piece(raw []byte) (stop bool) {
	var data []string
	for _, line := range strings.Split(sse.DecodeUTF8(raw), "\n") {
		if strings.HasPrefix(line, "data:") {
			data = append(data, stream.JSTrim(line[len("data:"):]))
		}
	}
	if len(data) == 0 {
		return false
	}
	text := stream.JSTrim(strings.Join(data, "\n"))
	if text == "" || text == "[DONE]" {
		return false
	}
	v, err := stream.ParseJSON(text)
	if err != nil {
		s.ep.Fail(InvalidJSONText + err.Error())
		return true
	}
	defer func() {
		if x := recover(); x != nil {
			e, ok := x.(stream.JSError)
			if !ok {
				panic(x)
			}
			s.ep.Fail(e.Msg)
			stop = true
		}
	}()
	return s.screen(v)
}

// screen is Pi's mapping of one event: one without a string type (or an
// empty one) is dropped; "error" and response.failed fail the message
// with Pi's own texts; response.done, response.completed and
// response.incomplete all become response.completed with the status
// narrowed to the known ones, are handled, and end the reading; anything
// else is handled as it is.
func (s *screener) screen(v jsonv.Value) (stop bool) {
	typ := stream.Prop(v, "type")
	if typ.Kind() != jsonv.String || typ.Str() == "" {
		return false
	}
	switch typ.Str() {
	case "error":
		nested := stream.Member(v, "error")
		code, msg := stringMember(v, nested, "code"), stringMember(v, nested, "message")
		text := msg
		if text == "" {
			text = code
		}
		if text == "" {
			text = v.String()
		}
		s.ep.Fail(EventErrorText + text)
		return true
	case "response.failed":
		msg := stream.Member(stream.Member(stream.Member(v, "response"), "error"), "message")
		text := FailedText
		if msg.Truthy() {
			text = stream.ToString(msg)
		}
		s.ep.Fail(text)
		return true
	case "response.done", "response.completed", "response.incomplete":
		resp := stream.Member(v, "response")
		if e := stream.Member(resp, "end_turn"); recordsEndTurn.At(s.d) && e.Kind() == jsonv.Bool {
			s.ep.SetEndTurn(e)
		}
		switch {
		case resp.Kind() == jsonv.Object:
			b := new(jsonv.ObjectBuilder)
			for _, m := range resp.Members() {
				if m.Key != "status" {
					b.Set(m.Key, m.Value)
				}
			}
			if st := stream.Member(resp, "status"); st.Kind() == jsonv.String && statuses[st.Str()] {
				b.Set("status", st)
			}
			resp = b.Value()
		case resp.Truthy():
			// Spreading a string or an array into an object.
			s.outside = true
		}
		s.ep.Event(jsonv.ObjectValue(
			jsonv.Member{Key: "type", Value: jsonv.StringValue("response.completed")},
			jsonv.Member{Key: "response", Value: resp}))
		return true
	}
	s.ep.Event(v)
	return s.ep.Failed()
}

// stringMember is the event's own key when it is a string, else the
// nested error object's, else "".
func stringMember(event, nested jsonv.Value, key string) string {
	if v := stream.Member(event, key); v.Kind() == jsonv.String {
		return v.Str()
	}
	if v := stream.Member(nested, key); v.Kind() == jsonv.String {
		return v.Str()
	}
	return ""
}

// resolveTier is the service tier that prices an answer: the requested
// flex or priority when the answer says "default", else the answer's
// unless it is undefined or null, else the requested one.
func resolveTier(answer jsonv.Value, requested *string) jsonv.Value {
	if requested != nil && answer.Kind() == jsonv.String && answer.Str() == "default" && (*requested == "flex" || *requested == "priority") {
		return jsonv.StringValue(*requested)
	}
	if answer.IsNullish() && requested != nil {
		return jsonv.StringValue(*requested)
	}
	return answer
}

// usageLimitCode is the error code Pi reads as a usage limit.
var usageLimitCode = regexp.MustCompile(`(?i)usage_limit_reached|usage_not_included|rate_limit_exceeded`)

// ParseHTTPError is what Pi produces for a non-2xx response: a lone error
// event whose errorMessage is HTTPErrorText.
func ParseHTTPError(model *ai.Model, status int, statusText string, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event) {
	return stream.ModelFailure(model, HTTPErrorText(status, statusText, body, now), now)
}

// HTTPErrorText is Pi's message for a non-2xx response. The body is read
// as text; when it is JSON with a truthy "error" member, that member's
// message wins, except that a usage limit (status 429, or an error code
// or type matching usage_limit_reached, usage_not_included or
// rate_limit_exceeded) gives "You have hit your ChatGPT usage limit
// (<plan> plan). Try again in ~<n> min." (plan and wait each only when
// the error has plan_type and resets_at). Otherwise it is the body, else
// the status text, else "Request failed".
func HTTPErrorText(status int, statusText string, body []byte, now transform.Clock) string {
	raw := sse.Text(body)
	message := raw
	if message == "" {
		message = statusText
	}
	if message == "" {
		message = RequestFailedText
	}
	parsed, err := stream.ParseJSON(raw)
	if err != nil {
		return message
	}
	e := stream.Member(parsed, "error")
	if !e.Truthy() {
		return message
	}
	friendly := ""
	code := stream.Member(e, "code")
	if !code.Truthy() {
		code = stream.Member(e, "type")
	}
	if code.ConversionThrows() {
		// The usage-limit test throws converting it, inside Pi's try: the
		// raw message stands.
		return message
	}
	codeText := ""
	if code.Truthy() {
		codeText = code.JSString()
	}
	if usageLimitCode.MatchString(codeText) || status == 429 {
		plan := ""
		if p := stream.Member(e, "plan_type"); p.Truthy() {
			if p.Kind() != jsonv.String {
				// toLowerCase is not a function: Pi's parse gives up.
				return message
			}
			plan = " (" + strings.ToLower(p.Str()) + " plan)"
		}
		when := ""
		if at := stream.Member(e, "resets_at"); at.Truthy() && at.Kind() == jsonv.Number {
			secs, _ := at.Float64()
			nowMs, _ := now().Float64()
			mins := math.Max(0, math.Floor((secs*1000-nowMs)/60000+0.5))
			when = " Try again in ~" + jsonv.FormatFloat(mins) + " min."
		}
		friendly = stream.JSTrim("You have hit your ChatGPT usage limit" + plan + "." + when)
	}
	if friendly != "" {
		return friendly
	}
	if m := stream.Member(e, "message"); m.Truthy() {
		if m.ConversionThrows() {
			// Pi keeps the value, and new Error(value) throws converting it.
			return stream.NoPrimitiveText
		}
		return m.JSString()
	}
	return message
}
