package mistral

import (
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/sse"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
	"github.com/piconform/piconform/reference/wtf8"
)

// Texts Pi and the SDK use for failures.
const (
	// DoneData is the data that ends the stream.
	DoneData = "[DONE]"
	// MaxErrorBodyChars is where Pi cuts an error body (UTF-16 units).
	MaxErrorBodyChars = 4000
	// SSEContentType is the only content type the SDK reads as a stream.
	SSEContentType = "text/event-stream"
)

// jsError is an exception thrown while Pi reads the stream.
type jsError = stream.JSError

// readResponse turns a response into Pi's message and events: a 200 with
// an event-stream content-type is a stream, anything else is
// ParseHTTPError.
func readResponse(d dialect.Dialect, model *ai.Model, resp *http.Response, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	contentType := resp.Header.Get("Content-Type")
	if ownFetch.At(d) {
		// Pi 1.6 reads any 2xx as a stream, whatever its content type.
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			data, err := io.ReadAll(resp.Body)
			msg, events := parseHTTPError16(model, resp.StatusCode, provider.StatusText(resp), data, now)
			return msg, events, err
		}
		if nullBodyStatus(resp.StatusCode) {
			msg, events := stream.Failure(stream.NewOutputIn(d, model, model.API, now), NoBodyText)
			return msg, events, nil
		}
		return parseStream(d, resp.Body, model, now)
	}
	if resp.StatusCode != 200 || !isSSE(contentType) {
		data, err := io.ReadAll(resp.Body)
		msg, events := ParseHTTPError(model, resp.StatusCode, contentType, data, now)
		return msg, events, err
	}
	return ParseStream(resp.Body, model, now)
}

// NoBodyText is Pi 1.6's error for a 2xx response that fetch gives no
// body (204, 205).
const NoBodyText = "Mistral response has no body"

// nullBodyStatus reports the 2xx statuses whose fetch Response has a null
// body.
func nullBodyStatus(status int) bool { return status == 204 || status == 205 }

// parseHTTPError16 is Pi 1.6's failure for a response that is not 2xx:
// "Mistral API error (<status>): " and the body trimmed and cut at 4000
// UTF-16 units, or, for a blank body, the status text (else "Request
// failed with status <status>").
func parseHTTPError16(model *ai.Model, status int, statusText string, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event) {
	text := stream.JSTrim(sse.Text(body))
	if text == "" {
		text = statusText
		if text == "" {
			text = fmt.Sprintf("Request failed with status %d", status)
		}
	} else {
		text = provider.TruncateErrorText(text, MaxErrorBodyChars)
	}
	return stream.ModelFailure(model, fmt.Sprintf("Mistral API error (%d): %s", status, text), now)
}

// isSSE is the SDK's content-type match for text/event-stream: the media
// type compared without case, parameters allowed; a missing header counts
// as application/octet-stream.
func isSSE(contentType string) bool {
	ct := strings.ToLower(stream.JSTrim(contentType))
	if ct == "" {
		return false
	}
	typ, _, _ := strings.Cut(ct, ";")
	return strings.TrimRight(typ, " \t\n\r\f\v") == SSEContentType
}

// ParseHTTPError is what Pi produces for a response the SDK does not read
// as a stream: a lone error event whose errorMessage is
// "Mistral API error (<status>): <body>", the body trimmed and cut at 4000
// UTF-16 units ("... [truncated N chars]" appended). For a blank body the
// SDK's own message stands in for the body. A 422 whose content type is
// application/json is parsed as JSON first, and a body that is not JSON
// fails with JSON.parse's message alone.
func ParseHTTPError(model *ai.Model, status int, contentType string, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event) {
	text := sse.Text(body)
	if status == 422 && matchesJSON(contentType) {
		if _, err := stream.ParseJSON(text); err != nil {
			return stream.ModelFailure(model, err.Error(), now)
		}
	}
	if trimmed := stream.JSTrim(text); trimmed != "" {
		if n := wtf8.Len(trimmed); n > MaxErrorBodyChars {
			trimmed = fmt.Sprintf("%s... [truncated %d chars]", wtf8.Slice(trimmed, MaxErrorBodyChars), n-MaxErrorBodyChars)
		}
		return stream.ModelFailure(model, fmt.Sprintf("Mistral API error (%d): %s", status, trimmed), now)
	}
	return stream.ModelFailure(model, fmt.Sprintf("Mistral API error (%d): %s", status, sdkErrorMessage(status, contentType, text)), now)
}

// matchesJSON is the SDK's content-type match for application/json.
func matchesJSON(contentType string) bool {
	ct := strings.ToLower(stream.JSTrim(contentType))
	typ, _, _ := strings.Cut(ct, ";")
	return strings.TrimRight(typ, " \t\n\r\f\v") == "application/json"
}

// sdkErrorMessage is the message of the SDK's SDKError for a response it
// could not match ("API error occurred" for a 4xx or 5xx status,
// "Unexpected Status or Content-Type" for any other).
func sdkErrorMessage(status int, contentType, body string) string {
	msg := "Unexpected Status or Content-Type"
	if status >= 400 && status <= 599 {
		msg = "API error occurred"
	}
	msg += fmt.Sprintf(": Status %d", status)
	ct := contentType
	if ct == "" {
		ct = `""`
	}
	if ct != "application/json" {
		if strings.Contains(ct, " ") {
			ct = `"` + ct + `"`
		}
		msg += " Content-Type " + ct
	}
	if body == "" {
		body = `""`
	}
	if wtf8.Len(body) > 100 {
		msg += "\n"
	} else {
		msg += ". "
	}
	if n := wtf8.Len(body); n > 10000 {
		body = fmt.Sprintf("%s...and %d more chars", wtf8.Slice(body, 10000), n-10000)
	}
	return stream.JSTrim(msg + "Body: " + body)
}

// ParseStream is the stream.Parse of a 200 text/event-stream body, as the
// SDK under Pi 0.80 reads it.
func ParseStream(r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	return parseStream(dialect.V0_80, r, model, now)
}

// parseStream is ParseStream of dialect d. Pi 1.6 reads the events itself
// (event16, chunk16).
func parseStream(d dialect.Dialect, r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
	p := &parser{d: d, model: model, out: stream.NewOutputIn(d, model, model.API, now), keys: map[string]int{}}
	p.emit(stream.Event{Type: stream.TypeStart})
	err := p.run(r)
	if p.outside {
		return p.out, p.events, stream.ErrOutsideModel
	}
	return p.out, p.events, err
}

type parser struct {
	d       dialect.Dialect
	model   *ai.Model
	out     *ai.AssistantMessage
	events  []stream.Event
	current ai.Block // the open text or thinking block
	// keys maps "<id>:<index>" to the tool call's content index; order
	// keeps the calls in the order they were opened.
	keys    map[string]int
	order   []int
	partial map[int]string
	// args are the argument texts of the calls (1.6), by content index.
	args    map[int]*stream.ToolCallArgs
	outside bool
	// started is set once the first event is decoded (1.6 drops a BOM at
	// the start of the body only).
	started bool
}

func (p *parser) emit(e stream.Event) { p.events = append(p.events, e) }

// emitted is the number of events emitted so far (stream.Steps.Events).
func (p *parser) emitted() int { return len(p.events) }

func (p *parser) fail(msg string) { p.emit(stream.ErrorEvent(p.out, msg)) }

// run reads the body, handles each event and ends the stream.
func (p *parser) run(r io.Reader) error {
	own := ownFetch.At(p.d)
	f := &framer{keepTail: own}
	feed := func(data []byte, eof bool) bool {
		for _, m := range f.feed(data, eof) {
			if own && p.event16(m) || !own && p.message(m) {
				return true
			}
		}
		return false
	}
	end := func() {
		p.finish()
		stream.RequireStop(p.out, NoFinishReasonText)
		if p.out.StopReason == ai.StopError || p.out.StopReason == ai.StopAborted {
			msg := stream.UnknownErrorText
			if own && p.out.ErrorMessage != nil && *p.out.ErrorMessage != "" {
				msg = *p.out.ErrorMessage
			}
			panic(jsError{Msg: msg})
		}
		p.emit(stream.DoneEvent(p.out))
	}
	return stream.Run(r, stream.Steps{Feed: feed, End: end, Fail: p.fail, Outside: func() { p.outside = true }, Events: p.emitted})
}

// boundaries are the SDK's event delimiters, in the order it tries them
// at each position.
var boundaries = [][]byte{
	{'\r', '\n', '\r', '\n'}, {'\r', '\n', '\r'}, {'\r', '\n', '\n'}, {'\r', '\r', '\n'},
	{'\n', '\r', '\n'}, {'\r', '\r'}, {'\n', '\r'}, {'\n', '\n'},
}

// framer cuts the body into events as the SDK's EventStream (0.80) and
// Pi's own reader (1.6) do: at the first position holding a delimiter, the
// first delimiter of the list that fits. They decide with the bytes they
// have; the framer waits while a longer delimiter could still complete,
// which is what they decide for the whole body. Bytes after the last
// delimiter are dropped, unless keepTail (1.6): then they are one more
// event when they are not blank.
type framer struct {
	pending  []byte
	keepTail bool
}

func (f *framer) feed(chunk []byte, eof bool) [][]byte {
	f.pending = append(f.pending, chunk...)
	var out [][]byte
	for {
		at, n, wait := findBoundary(f.pending, eof)
		if wait || at < 0 {
			if eof {
				if f.keepTail && stream.JSTrim(sse.DecodeUTF8(f.pending)) != "" {
					out = append(out, f.pending)
				}
				f.pending = nil
			}
			return out
		}
		out = append(out, f.pending[:at])
		f.pending = f.pending[at+n:]
	}
}

func findBoundary(b []byte, eof bool) (at, n int, wait bool) {
	for i, c := range b {
		if c != '\r' && c != '\n' {
			continue
		}
		for _, d := range boundaries {
			if i+len(d) > len(b) {
				if !eof && hasPrefix(d, b[i:]) {
					return -1, 0, true
				}
				continue
			}
			if hasPrefix(b[i:], d) {
				return i, len(d), false
			}
		}
	}
	return -1, 0, false
}

func hasPrefix(s, prefix []byte) bool {
	if len(prefix) > len(s) {
		return false
	}
	for i := range prefix {
		if s[i] != prefix[i] {
			return false
		}
	}
	return true
}

// message handles one event's bytes (the SDK's parseMessage and the
// stream's parse function); it reports whether the stream is over.
func (p *parser) message(raw []byte) bool {
	// Each event is decoded on its own by a fresh TextDecoder, which drops
	// a leading BOM.
	text := sse.Text(raw)
	var data []string
	ignore := true
	for _, line := range splitLines(text) {
		if line == "" || strings.HasPrefix(line, ":") {
			continue
		}
		ignore = false
		field, value := line, ""
		if i := strings.IndexByte(line, ':'); i > 0 {
			field = line[:i]
			value = strings.TrimPrefix(line[i+1:], " ")
		}
		if field == "data" {
			data = append(data, value)
		}
	}
	if ignore || len(data) == 0 {
		return false
	}
	joined := strings.Join(data, "\n")
	if joined == DoneData {
		return true
	}
	chunk, err := stream.ParseJSON(joined)
	if err != nil {
		panic(jsError{Msg: zodCustomIssue("malformed json: SyntaxError: "+err.Error(), "data")})
	}
	p.chunk(chunk)
	return false
}

// splitLines is text.split(/\r\n|\r|\n/).
func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\r':
			out = append(out, s[start:i])
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			start = i + 1
		case '\n':
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// zodCustomIssue is the message of a zod error holding one custom issue,
// as JSON.stringify(issues, null, 2) writes it.
func zodCustomIssue(message, path string) string {
	return "[\n  {\n    \"code\": \"custom\",\n    \"message\": " + string(jsonv.StringValue(message).AppendJSON(nil)) +
		",\n    \"path\": [\n      " + string(jsonv.StringValue(path).AppendJSON(nil)) + "\n    ]\n  }\n]"
}

// The SDK's response schema, as far as the reference models it. A value
// the schema rejects is outside the model.

func isString(v jsonv.Value) bool { return v.Kind() == jsonv.String }

// optional checks a member that may be missing; nullable also lets it be
// null.
func optional(v jsonv.Value, nullable bool, ok func(jsonv.Value) bool) bool {
	switch v.Kind() {
	case jsonv.Absent:
		return true
	case jsonv.Null:
		return nullable
	}
	return ok(v)
}

func require(ok bool) {
	if !ok {
		panic(stream.Outside{})
	}
}

// checkChunk is CompletionChunk's schema for the members Pi reads and the
// ones the schema requires.
func checkChunk(chunk jsonv.Value) {
	require(chunk.Kind() == jsonv.Object)
	m := func(k string) jsonv.Value { return stream.Member(chunk, k) }
	require(isString(m("id")) && isString(m("model")))
	require(optional(m("object"), false, isString) && optional(m("created"), false, isInt))
	require(optional(m("usage"), false, func(u jsonv.Value) bool {
		if u.Kind() != jsonv.Object {
			return false
		}
		for _, k := range []string{"prompt_tokens", "completion_tokens", "total_tokens"} {
			if !optional(stream.Member(u, k), false, isInt) {
				return false
			}
		}
		return optional(stream.Member(u, "prompt_audio_seconds"), true, isInt)
	}))
	choices := m("choices")
	require(choices.Kind() == jsonv.Array)
	for _, c := range choices.Elems() {
		require(c.Kind() == jsonv.Object && isInt(stream.Member(c, "index")))
		reason := stream.Member(c, "finish_reason")
		require(reason.Kind() == jsonv.Null || isString(reason))
		d := stream.Member(c, "delta")
		require(d.Kind() == jsonv.Object)
		dm := func(k string) jsonv.Value { return stream.Member(d, k) }
		require(optional(dm("role"), true, isString) && optional(dm("tool_call_id"), true, isString))
		require(optional(dm("index"), true, isInt))
		require(optional(dm("metadata"), true, func(v jsonv.Value) bool { return v.Kind() == jsonv.Object }))
		require(optional(dm("content"), true, func(v jsonv.Value) bool { return isString(v) || v.Kind() == jsonv.Array }))
		require(optional(dm("tool_calls"), true, func(v jsonv.Value) bool {
			if v.Kind() != jsonv.Array {
				return false
			}
			for _, tc := range v.Elems() {
				if tc.Kind() != jsonv.Object || !optional(stream.Member(tc, "id"), false, isString) ||
					!optional(stream.Member(tc, "type"), false, isString) || !optional(stream.Member(tc, "index"), false, isInt) {
					return false
				}
				fn := stream.Member(tc, "function")
				args := stream.Member(fn, "arguments")
				if fn.Kind() != jsonv.Object || !isString(stream.Member(fn, "name")) || !(isString(args) || args.Kind() == jsonv.Object) {
					return false
				}
			}
			return true
		}))
	}
}

// intOf reads a member the schema checked as an optional integer.
func intOf(v jsonv.Value) float64 {
	f, _ := v.Float64()
	return f
}

// chunk is one iteration of Pi's loop over the SDK's completion chunks.
func (p *parser) chunk(chunk jsonv.Value) {
	checkChunk(chunk)
	if id := stream.Member(chunk, "id").Str(); p.out.ResponseID == nil || *p.out.ResponseID == "" {
		p.out.ResponseID = &id
	}
	if usage := stream.Member(chunk, "usage"); usage.Kind() == jsonv.Object {
		prompt := intOf(stream.Member(usage, "prompt_tokens"))
		cached := cachedTokens(usage, prompt)
		u := ai.ZeroUsage()
		input := math.Max(0, prompt-cached)
		output := intOf(stream.Member(usage, "completion_tokens"))
		total := intOf(stream.Member(usage, "total_tokens"))
		if total == 0 {
			total = input + output + cached
		}
		u.Input, u.Output = jsonv.FloatValue(input), jsonv.FloatValue(output)
		u.CacheRead, u.CacheWrite = jsonv.FloatValue(cached), jsonv.FloatValue(0)
		u.TotalTokens = jsonv.FloatValue(total)
		// Pi stores the counts before it prices them: they stay when that throws.
		p.out.Usage = u
		stream.Price(p.model, &p.out.Usage)
	}
	choices := stream.Member(chunk, "choices").Elems()
	if len(choices) == 0 {
		return
	}
	choice := choices[0]
	if reason := stream.Member(choice, "finish_reason"); reason.Truthy() {
		p.out.StopReason = mapStopReason(reason.Str())
	}
	delta := stream.Member(choice, "delta")
	switch content := stream.Member(delta, "content"); content.Kind() {
	case jsonv.String:
		p.text(content.Str())
	case jsonv.Array:
		for _, item := range content.Elems() {
			p.contentItem(item)
		}
	}
	if calls := stream.Member(delta, "tool_calls"); calls.Kind() == jsonv.Array {
		for _, tc := range calls.Elems() {
			p.toolCall(tc)
		}
	}
}

// cachedTokens is the first of six spellings of the cached prompt tokens
// that is set, counted only when it is a finite number, and held between
// 0 and the prompt tokens.
func cachedTokens(usage jsonv.Value, prompt float64) float64 {
	return math.Min(prompt, math.Max(0, rawCachedTokens(usage)))
}

// rawCachedTokens is the first of the six spellings that is set, when it
// is a finite number, else 0.
func rawCachedTokens(usage jsonv.Value) float64 {
	paths := [][2]string{
		{"promptTokensDetails", "cachedTokens"}, {"prompt_tokens_details", "cached_tokens"},
		{"promptTokenDetails", "cachedTokens"}, {"prompt_token_details", "cached_tokens"},
		{"numCachedTokens", ""}, {"num_cached_tokens", ""},
	}
	var raw jsonv.Value
	for _, path := range paths {
		v := stream.Member(usage, path[0])
		if path[1] != "" {
			v = stream.Member(v, path[1])
		}
		if k := v.Kind(); k != jsonv.Absent && k != jsonv.Null {
			raw = v
			break
		}
	}
	if raw.Kind() == jsonv.Number {
		if f, ok := raw.Float64(); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return f
		}
	}
	return 0
}

// event16 is one event as Pi 1.6 reads it (parseMistralEvent): the values
// of its lines that start with "data:", each without the white space that
// leads it, joined with "\n" and trimmed. Nothing is skipped; "[DONE]" ends
// the stream (it reports true); anything else must be JSON (JSON.parse's
// error alone), an object with a choices array (InvalidEventText).
func (p *parser) event16(raw []byte) bool {
	if !p.started {
		raw = sse.StripBOM(raw)
		p.started = true
	}
	var data []string
	for _, line := range splitLines(sse.DecodeUTF8(raw)) {
		if strings.HasPrefix(line, "data:") {
			data = append(data, stream.JSTrimStart(line[len("data:"):]))
		}
	}
	joined := stream.JSTrim(strings.Join(data, "\n"))
	switch joined {
	case "":
		return false
	case DoneData:
		return true
	}
	chunk, err := stream.ParseJSON(joined)
	if err != nil {
		panic(jsError{Msg: err.Error()})
	}
	if chunk.Kind() != jsonv.Object || stream.Member(chunk, "choices").Kind() != jsonv.Array {
		panic(jsError{Msg: InvalidEventText})
	}
	p.chunk16(chunk)
	return false
}

// Texts of Pi 1.6's own reading of the stream.
const (
	InvalidEventText   = "Invalid Mistral streaming event"
	NoFinishReasonText = "Mistral stream ended without a finish reason"
	StoppedWithText    = "Provider stopped with: "
	// ServerErrorStopText is the error of finish_reason "error" (1.6.0).
	ServerErrorStopText = StoppedWithText + "error (server error)"
)

// chunk16 is one iteration of Pi 1.6's loop over the chunks, which no
// schema checked: members are read as JavaScript reads them.
func (p *parser) chunk16(chunk jsonv.Value) {
	if !stream.KeepResponseID(p.out, stream.Member(chunk, "id")) {
		p.outside = true
	}
	if usage := stream.Member(chunk, "usage"); usage.Truthy() {
		p.usage16(usage)
	}
	choice := jsonv.Value{}
	if elems := stream.Member(chunk, "choices").Elems(); len(elems) > 0 {
		choice = elems[0]
	}
	if !choice.Truthy() {
		return
	}
	if reason := stream.Member(choice, "finish_reason"); reason.Truthy() {
		stream.SetRawStopReason(p.out, reason)
		stop, errMsg := mapStopReason16(reason)
		p.out.StopReason = stop
		if errMsg != "" {
			p.out.ErrorMessage = &errMsg
		}
	}
	delta := stream.Member(choice, "delta")
	if delta.IsNullish() {
		panic(jsError{Msg: jsonv.ReadPropertyText(delta, "content")})
	}
	switch content := stream.Member(delta, "content"); content.Kind() {
	case jsonv.Absent, jsonv.Null:
	case jsonv.String:
		p.text16(content)
	case jsonv.Array:
		for _, item := range content.Elems() {
			p.contentItem16(item)
		}
	default:
		panic(jsError{Msg: "contentItems is not iterable"})
	}
	calls := stream.Member(delta, "tool_calls")
	switch {
	case !calls.Truthy():
	case calls.Kind() == jsonv.Array:
		for _, tc := range calls.Elems() {
			p.toolCall16(tc)
		}
	default:
		p.outside = true
	}
}

// usage16 is Pi 1.6's reading of a truthy usage object, its counts read as
// JavaScript reads them: input is the prompt tokens less the cached ones
// (held between 0 and the prompt tokens), the total is total_tokens when
// truthy, else the sum.
func (p *parser) usage16(usage jsonv.Value) {
	// Go's max and min are Math.max and Math.min: NaN when either is NaN.
	prompt := stream.Count(stream.Member(usage, "prompt_tokens"))
	cached := jsonv.JSNumberValue(min(stream.ToNumber(prompt), max(0, rawCachedTokens(usage))))
	u := &p.out.Usage
	u.Input = jsonv.JSNumberValue(max(0, stream.Minus(prompt, cached).JSNumber()))
	u.Output = stream.Count(stream.Member(usage, "completion_tokens"))
	u.CacheRead, u.CacheWrite = cached, stream.Zero
	// `||` adds the counts up only when total_tokens is falsy.
	if total := stream.Member(usage, "total_tokens"); total.Truthy() {
		u.TotalTokens = stream.JSValue(total)
	} else {
		u.TotalTokens = stream.JSValue(stream.Sum(u.Input, u.Output, u.CacheRead, u.CacheWrite))
	}
	stream.PriceIn(p.d, p.model, u)
}

// mapStopReason16 is Pi 1.6's finish_reason table: a value it does not
// know is an error named after it.
func mapStopReason16(reason jsonv.Value) (stop, errMsg string) {
	if reason.Kind() == jsonv.String {
		switch reason.Str() {
		case "stop":
			return ai.StopStop, ""
		case "length", "model_length":
			return ai.StopLength, ""
		case "tool_calls":
			return ai.StopToolUse, ""
		case "error":
			return ai.StopError, ServerErrorStopText
		}
	}
	return ai.StopError, StoppedWithText + stream.ToString(reason)
}

// text16 appends a string delta (sanitized; an empty one is skipped) to
// the open text block, opening one when needed. A delta that is no string
// throws where sanitizing calls its replace.
func (p *parser) text16(v jsonv.Value) {
	if v.Kind() != jsonv.String {
		panic(jsError{Msg: "text.replace is not a function"})
	}
	if delta := ai.SanitizeSurrogates(v.Str()); delta != "" {
		p.text(delta)
	}
}

// contentItem16 handles one item of an array content (1.6): a string or a
// text item is text, a thinking item thinking; others are skipped.
func (p *parser) contentItem16(item jsonv.Value) {
	if item.Kind() == jsonv.String {
		p.text16(item)
		return
	}
	if item.IsNullish() {
		panic(jsError{Msg: jsonv.ReadPropertyText(item, "type")})
	}
	switch typ := stream.Member(item, "type"); {
	case typ.Kind() == jsonv.String && typ.Str() == "thinking":
		parts := stream.Member(item, "thinking")
		if parts.IsNullish() {
			return
		}
		if parts.Kind() != jsonv.Array {
			p.outside = true
			return
		}
		var texts []string
		for _, part := range parts.Elems() {
			if part.IsNullish() {
				panic(jsError{Msg: jsonv.ReadPropertyText(part, "text")})
			}
			switch t := stream.Member(part, "text"); t.Kind() {
			case jsonv.String:
				if t.Str() != "" {
					texts = append(texts, t.Str())
				}
			case jsonv.Absent, jsonv.Null, jsonv.Number, jsonv.Bool:
				// No length: left out.
			default:
				p.outside = true
			}
		}
		if delta := ai.SanitizeSurrogates(wtf8.Concat(texts...)); delta != "" {
			b, ok := p.current.(*ai.ThinkingBlock)
			if !ok {
				b = &ai.ThinkingBlock{}
				p.open(b, stream.TypeThinkingStart)
			}
			p.emit(stream.AppendThinking(b, len(p.out.Content)-1, delta))
		}
	case typ.Kind() == jsonv.String && typ.Str() == "text":
		text := stream.Member(item, "text")
		if text.IsNullish() {
			return
		}
		p.text16(text)
	}
}

// toolCall16 handles one tool-call delta as Pi 1.6 does: the call is found
// by its index, else by its id (an id missing, empty or "null" is derived
// from the index), and opened when new; the arguments text (JSON of a
// non-string) is appended.
func (p *parser) toolCall16(tc jsonv.Value) {
	// The open block is closed before the call is read at all.
	p.closeCurrent()
	if tc.IsNullish() {
		panic(jsError{Msg: jsonv.ReadPropertyText(tc, "id")})
	}
	index := stream.Member(tc, "index")
	id := stream.Member(tc, "id")
	if !id.Truthy() || id.Kind() == jsonv.String && id.Str() == "null" {
		id = jsonv.StringValue(DeriveToolCallID("toolcall:"+stream.ToString(stream.Nullish(index, stream.Zero)), 0))
	}
	keyOf := stream.Nullish(index, id)
	key := keyOf.Kind().String() + ":" + string(keyOf.AppendJSON(nil))
	// function is read for its name when the call opens, and for its
	// arguments every time: a nullish one throws at the first of these.
	fn := stream.Member(tc, "function")
	i, ok := p.keys[key]
	if !ok {
		name := stream.Prop(fn, "name")
		if id.Kind() != jsonv.String || name.Kind() != jsonv.String {
			p.outside = true // a block member of another type
		}
		p.out.Content = append(p.out.Content, &ai.ToolCallBlock{ID: id.Str(), Name: name.Str(), Arguments: jsonv.ObjectValue()})
		i = len(p.out.Content) - 1
		p.keys[key] = i
		p.order = append(p.order, i)
		if p.args == nil {
			p.args = map[int]*stream.ToolCallArgs{}
		}
		p.args[i] = &stream.ToolCallArgs{}
		p.emit(stream.Event{Type: stream.TypeToolCallStart, ContentIndex: i})
	}
	var delta string
	if args := stream.Prop(fn, "arguments"); args.Kind() == jsonv.String {
		delta = args.Str()
	} else {
		if !args.Truthy() {
			args = jsonv.ObjectValue()
		}
		delta = string(stream.JSValue(args).AppendJSON(nil))
	}
	p.out.Content[i].(*ai.ToolCallBlock).Arguments = p.args[i].Append(delta)
	p.emit(stream.Event{Type: stream.TypeToolCallDelta, ContentIndex: i, Delta: delta})
}

// mapStopReason is Pi's finish_reason table; a value it does not know is
// a normal stop.
func mapStopReason(reason string) string {
	switch reason {
	case "length", "model_length":
		return ai.StopLength
	case "tool_calls":
		return ai.StopToolUse
	case "error":
		return ai.StopError
	}
	return ai.StopStop
}

// contentItem handles one chunk of an array content. The SDK turns an
// item its schema rejects into an unknown chunk, which Pi skips.
func (p *parser) contentItem(item jsonv.Value) {
	switch stream.Member(item, "type").Kind() {
	case jsonv.String:
	default:
		return
	}
	switch stream.Member(item, "type").Str() {
	case "text":
		if text := stream.Member(item, "text"); isString(text) {
			p.text(text.Str())
		}
	case "thinking":
		p.thinking(item)
	case "image_url", "document_url", "reference", "file", "input_audio":
		// Known chunks Pi skips; whether the SDK accepts them does not
		// change anything Pi does.
	}
}

// thinking handles a thinking chunk: the texts of its parts joined,
// sanitized, and skipped when nothing is left.
func (p *parser) thinking(item jsonv.Value) {
	parts := stream.Member(item, "thinking")
	if parts.Kind() != jsonv.Array {
		return
	}
	if !optional(stream.Member(item, "signature"), true, isString) ||
		!optional(stream.Member(item, "closed"), false, func(v jsonv.Value) bool { return v.Kind() == jsonv.Bool }) {
		return
	}
	var texts []string
	for _, part := range parts.Elems() {
		typ := stream.Member(part, "type")
		text := stream.Member(part, "text")
		switch {
		case part.Kind() != jsonv.Object:
			return
		case typ.Kind() == jsonv.String && (typ.Str() == "reference" || typ.Str() == "tool_reference"):
			panic(stream.Outside{})
		case (typ.IsAbsent() || typ.Kind() == jsonv.String && typ.Str() == "text") && isString(text):
			if text.Str() != "" {
				texts = append(texts, text.Str())
			}
		default:
			return
		}
	}
	delta := ai.SanitizeSurrogates(wtf8.Concat(texts...))
	if delta == "" {
		return
	}
	b, ok := p.current.(*ai.ThinkingBlock)
	if !ok {
		b = &ai.ThinkingBlock{}
		p.open(b, stream.TypeThinkingStart)
	}
	p.emit(stream.AppendThinking(b, len(p.out.Content)-1, delta))
}

// text appends a sanitized text delta (an empty one too) to the open text
// block, opening one when needed.
func (p *parser) text(raw string) {
	delta := ai.SanitizeSurrogates(raw)
	b, ok := p.current.(*ai.TextBlock)
	if !ok {
		b = &ai.TextBlock{}
		p.open(b, stream.TypeTextStart)
	}
	p.emit(stream.AppendText(b, len(p.out.Content)-1, delta))
}

// toolCall handles one tool-call delta: it closes the open text or
// thinking block, finds the call by id and index (opening a new one), and
// appends the argument text.
func (p *parser) toolCall(tc jsonv.Value) {
	p.closeCurrent()
	index := 0.0
	if v := stream.Member(tc, "index"); !v.IsAbsent() {
		index = intOf(v)
	}
	id := "null"
	if v := stream.Member(tc, "id"); !v.IsAbsent() {
		id = v.Str()
	}
	if id == "" || id == "null" {
		id = DeriveToolCallID("toolcall:"+jsonv.FloatValue(index).JSString(), 0)
	}
	key := id + ":" + jsonv.FloatValue(index).JSString()
	fn := stream.Member(tc, "function")
	i, ok := p.keys[key]
	if !ok {
		p.out.Content = append(p.out.Content, &ai.ToolCallBlock{ID: id, Name: stream.Member(fn, "name").Str(), Arguments: jsonv.ObjectValue()})
		i = len(p.out.Content) - 1
		p.keys[key] = i
		p.order = append(p.order, i)
		if p.partial == nil {
			p.partial = map[int]string{}
		}
		p.emit(stream.Event{Type: stream.TypeToolCallStart, ContentIndex: i})
	}
	var delta string
	if args := stream.Member(fn, "arguments"); isString(args) {
		delta = args.Str()
	} else {
		delta = string(stream.JSValue(args).AppendJSON(nil))
	}
	partial := p.partial[i]
	p.emit(stream.AppendArgs(p.out.Content[i].(*ai.ToolCallBlock), &partial, i, delta))
	p.partial[i] = partial
}

func (p *parser) push(b ai.Block, start string) { p.emit(stream.Push(p.out, b, start)) }

// open closes the open block and opens b, a text or thinking block.
func (p *parser) open(b ai.Block, start string) {
	p.closeCurrent()
	p.push(b, start)
	p.current = b
}

// closeCurrent sends the end event of the open text or thinking block
// (always the last block).
func (p *parser) closeCurrent() {
	if e, ok := stream.EndOf(p.current, len(p.out.Content)-1); ok {
		p.emit(e)
	}
	p.current = nil
}

// finish closes the open block, then ends every tool call in the order
// they were opened, with its arguments parsed a last time.
func (p *parser) finish() {
	p.closeCurrent()
	for _, i := range p.order {
		b := p.out.Content[i].(*ai.ToolCallBlock)
		if a := p.args[i]; a != nil {
			args, argsErr := a.Finish()
			b.Arguments = args
			stream.SetArgumentsError(b, argsErr)
		} else {
			b.Arguments = stream.ParseStreamingJSON(p.partial[i])
		}
		snapshot := *b
		p.emit(stream.Event{Type: stream.TypeToolCallEnd, ContentIndex: i, ToolCall: &snapshot})
	}
}
