package provider

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/stream"
)

// Retry is how an API's client repeats a request that failed. The zero
// Retry never repeats one (the Gen AI and Mistral clients as Pi sets them
// up).
type Retry struct {
	// Limit is how many times a request may be repeated for the options
	// (RetriesCap for a client that would repeat it without end).
	Limit func(o *StreamOptions) int
	// After tells whether the client repeats a failed attempt, and how long
	// it waits first. done counts the repeats already made; resp is nil when
	// no response arrived (a connection error), else the failed response,
	// whose body is body; jitter, in [0, 1), is the random number the client
	// draws for its backoff.
	After func(done int, resp *http.Response, body []byte, o *StreamOptions, jitter float64) (time.Duration, bool)
	// Stamp, when set, writes into h the headers that count the attempts,
	// before each of them: attempt is 0 for the first request.
	Stamp func(h http.Header, attempt int, o *StreamOptions)
	// Exhausted, when set, may replace the error of the last attempt
	// once Limit is reached: failures are every attempt's, in order. ok
	// false keeps the last failure's own error.
	Exhausted func(o *StreamOptions, failures []Failure) (message string, ok bool)
	// Refuse, when set, is asked once After has chosen to repeat a failed
	// attempt: a message ends the call there with that error instead (a
	// server asking for a longer wait than the client allows).
	Refuse func(resp *http.Response, body []byte, o *StreamOptions) (message string, refuse bool)
	// LateLimit tells that Limit is read only once the first attempt has
	// failed, as Pi's own retry loop compares what remains of maxRetries
	// then: a maxRetries with no number form throws there (the call fails
	// with V8's TypeError), and a call whose first attempt succeeds never
	// reads it. A client that reads it before it sends leaves it false.
	LateLimit bool
}

// RetriesAfterFailure is Retries for a client whose first attempt has
// just failed, read as late as LateLimit says: the throw of a maxRetries
// with no number form is a *stream.RequestError (the call fails with
// it).
func (r Retry) RetriesAfterFailure(o *StreamOptions) (n int, err error) {
	defer func() {
		if x := recover(); x != nil {
			e, ok := x.(stream.JSError)
			if !ok {
				panic(x)
			}
			err = &stream.RequestError{Message: e.Msg}
		}
	}()
	return r.Retries(o), nil
}

// Failure is a failed attempt: its response (nil when none came) and the
// response's body.
type Failure struct {
	Response *http.Response
	Body     []byte
}

// Retries is how many times the client may repeat a request for o.
func (r Retry) Retries(o *StreamOptions) int {
	if r.Limit == nil || r.After == nil {
		return 0
	}
	return r.Limit(o)
}

// RetriesCap stands for a client that repeats a failed request without
// end (a count that passes 0 without stopping): Pi repeats it as long as
// the server fails, and the reference this many times, far more than a
// case lists answers, and few enough for a case to be checked without
// sending when it is loaded. A server that fails them all (a case's server
// fails a request too many) leaves Pi without an answer, which the
// reference reports as not modelled.
const RetriesCap = 1000

// MaxRetries is the maxRetries option as the clients compute with it: Pi
// hands them `options.maxRetries ?? 0`, and JavaScript's arithmetic and
// comparisons read that with ToNumber ("2" and [2] are 2, [] 0, "x" and {}
// NaN; one with no number form throws, a stream.JSError panic).
func MaxRetries(o *StreamOptions) float64 {
	if o.MaxRetries.IsNullish() {
		return 0
	}
	return stream.ToNumber(o.MaxRetries)
}

// StainlessRetries is how many times a Stainless SDK repeats a failed
// request. It counts maxRetries down by one per repeat while the count is
// truthy: a falsy maxRetries never repeats, one that reads as NaN repeats
// once (NaN - 1 is falsy), a whole number from 1 up that many times, and
// any other truthy one ("0", [], a fraction, a negative number, Infinity)
// passes 0 without stopping (RetriesCap).
func StainlessRetries(o *StreamOptions) int {
	if !o.MaxRetries.Truthy() {
		return 0
	}
	switch n := MaxRetries(o); {
	case math.IsNaN(n):
		return 1
	case n >= 1 && n == math.Trunc(n):
		return int(math.Min(n, RetriesCap))
	}
	return RetriesCap
}

// StainlessCount is a Stainless SDK's number for an attempt (0 for the
// first): maxRetries less the repeats it has left, computed in floating
// point as JavaScript computes it. It is NaN on every attempt when
// maxRetries reads as NaN or is infinite; the SDK sends it in
// X-Stainless-Retry-Count and waits 0.5 s × 2^count before a repeat (no
// time for NaN).
func StainlessCount(o *StreamOptions, attempt int) float64 {
	n := MaxRetries(o)
	if n == math.Trunc(n) && math.Abs(n) < 1<<52 {
		// Whole numbers count down exactly.
		return float64(attempt)
	}
	left := n
	for range attempt {
		left--
	}
	return n - left
}

// StainlessRetry is the retry policy of the Stainless SDKs (Anthropic,
// OpenAI, Azure OpenAI), with maxRetries from Pi's options (Pi's default
// is 0) counted as StainlessRetries says. A connection error is repeated;
// a response is repeated when its x-should-retry header says "true", or,
// unless it says "false", when its status is 408, 409, 429 or 5xx. The
// wait is the response's retry-after-ms, else its retry-after (seconds,
// or an HTTP date), else 0.5 s doubling per repeat (StainlessCount) up to
// 8 s, less up to a quarter of jitter. Each attempt sends its
// StainlessCount in X-Stainless-Retry-Count, unless the model's or the
// caller's headers set that header (they come later, and win).
var StainlessRetry = Retry{Limit: StainlessRetries, After: stainlessAfter, Stamp: stainlessStamp}

// stainlessStamp replaces the count the SDK wrote for the attempt before
// ("0", as httpheader.Stainless writes it, before the first): a header
// that holds anything else, or none, was set by the model's or the
// caller's headers, and so was one the caller's headers name.
func stainlessStamp(h http.Header, attempt int, o *StreamOptions) {
	for _, c := range o.Headers {
		if strings.EqualFold(c.Name, StainlessCountHeader) && len(c.SDKValues()) > 0 {
			return
		}
	}
	before := "0"
	if attempt > 0 {
		before = jsonv.FormatFloat(StainlessCount(o, attempt-1))
	}
	if h.Get(StainlessCountHeader) != before {
		return
	}
	h.Set(StainlessCountHeader, jsonv.FormatFloat(StainlessCount(o, attempt)))
}

// StainlessCountHeader is the header a Stainless SDK counts attempts in.
const StainlessCountHeader = "X-Stainless-Retry-Count"

// stainlessRepeats tells whether a Stainless SDK, and Pi's own loop in
// its place, repeats a failed response: its x-should-retry says "true",
// or, unless it says "false", its status is 408, 409, 429 or 5xx.
func stainlessRepeats(resp *http.Response) bool {
	switch resp.Header.Get("x-should-retry") {
	case "true":
		return true
	case "false":
		return false
	}
	s := resp.StatusCode
	return s == 408 || s == 409 || s == 429 || s >= 500
}

func stainlessAfter(done int, resp *http.Response, _ []byte, o *StreamOptions, jitter float64) (time.Duration, bool) {
	if resp != nil {
		if !stainlessRepeats(resp) {
			return 0, false
		}
		if d, ok := stainlessRetryAfter(resp.Header); ok {
			return d, true
		}
	}
	secs := math.Min(0.5*math.Pow(2, StainlessCount(o, done)), 8) * (1 - jitter*0.25)
	return Millis(secs * 1000), true
}

// stainlessRetryAfter is the wait a response asks for: retry-after-ms in
// milliseconds; else (or when that is 0) retry-after in seconds or as a
// date.
func stainlessRetryAfter(h http.Header) (time.Duration, bool) {
	ms, found := math.NaN(), false
	if v := h.Get("retry-after-ms"); v != "" {
		if f, ok := ParseFloatPrefix(v); ok {
			ms, found = f, true
		}
	}
	if v := h.Get("retry-after"); v != "" && (!found || ms == 0) {
		if f, ok := ParseFloatPrefix(v); ok {
			ms, found = f*1000, true
		} else if t, err := http.ParseTime(v); err == nil {
			ms, found = float64(time.Until(t).Milliseconds()), true
		} else {
			// Date.parse gives NaN, and a timer of NaN fires at once.
			ms, found = 0, true
		}
	}
	return Millis(ms), found
}

// Millis is a JavaScript timer's delay of ms milliseconds as a Duration:
// a negative or NaN delay fires at once.
func Millis(ms float64) time.Duration {
	if math.IsNaN(ms) || ms <= 0 {
		return 0
	}
	return time.Duration(math.Min(ms, float64(math.MaxInt64/int64(time.Millisecond))) * float64(time.Millisecond))
}

// ParseFloatPrefix is JavaScript's parseFloat: the longest decimal number
// at the start of s (after white space), false when there is none.
func ParseFloatPrefix(s string) (float64, bool) {
	s = strings.TrimLeft(s, " \t\n\r\v\f")
	end, digits := 0, false
	if end < len(s) && (s[end] == '+' || s[end] == '-') {
		end++
	}
	if strings.HasPrefix(s[end:], "Infinity") {
		f, _ := strconv.ParseFloat(s[:end+len("Infinity")], 64)
		return f, true
	}
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end, digits = end+1, true
	}
	if end < len(s) && s[end] == '.' {
		end++
		for end < len(s) && s[end] >= '0' && s[end] <= '9' {
			end, digits = end+1, true
		}
	}
	if !digits {
		return 0, false
	}
	if end < len(s) && (s[end] == 'e' || s[end] == 'E') {
		exp := end + 1
		if exp < len(s) && (s[exp] == '+' || s[exp] == '-') {
			exp++
		}
		if exp < len(s) && s[exp] >= '0' && s[exp] <= '9' {
			for exp < len(s) && s[exp] >= '0' && s[exp] <= '9' {
				exp++
			}
			end = exp
		}
	}
	f, err := strconv.ParseFloat(strings.TrimSuffix(s[:end], "."), 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// PiRetry is Pi's own retry loop (1.6 on; retryProviderRequest), which
// wraps an SDK told to make one attempt only, so every attempt is the
// SDK's first (a Stainless SDK sends X-Stainless-Retry-Count 0 each time).
// maxRetries (0 when nullish) is read as a number, counted down by one per
// repeat while it is above 0: a whole number repeats that often, a
// fraction rounds up, and one that reads as NaN or Infinity never stops
// (RetriesCap). A connection error is repeated; a response when its
// x-should-retry says "true", or, unless it says "false", when its status
// is 408, 409, 429 or 5xx. The wait is the server's (ServerDelay), else
// 0.5 s doubling per repeat up to 8 s, less up to a quarter of jitter. A
// server's wait above maxRetryDelayMs (60000 when nullish; 0 or less
// allows any) ends the call with "Server requested <s>s retry delay (max:
// <s>s). " and message, the SDK's message of the failed response.
func PiRetry(message func(resp *http.Response, body []byte) string) Retry {
	return Retry{Limit: piRetries, After: piAfter, LateLimit: true, Refuse: func(resp *http.Response, body []byte, o *StreamOptions) (string, bool) {
		if resp == nil {
			return "", false
		}
		ms, ok := ServerDelay(resp.Header)
		if !ok {
			return "", false
		}
		limit := 60000.0
		if !o.MaxRetryDelayMs.IsNullish() {
			limit = stream.ToNumber(o.MaxRetryDelayMs)
		}
		if !(limit > 0 && ms > limit) {
			return "", false
		}
		return "Server requested " + jsonv.FormatFloat(math.Ceil(ms/1000)) + "s retry delay (max: " +
			jsonv.FormatFloat(math.Ceil(limit/1000)) + "s). " + message(resp, body), true
	}}
}

// piRetries is how often PiRetry repeats a request for o.
func piRetries(o *StreamOptions) int {
	n := MaxRetries(o)
	switch {
	case math.IsNaN(n) || math.IsInf(n, 1):
		return RetriesCap
	case n <= 0:
		return 0
	}
	return int(math.Min(math.Ceil(n), RetriesCap))
}

func piAfter(done int, resp *http.Response, _ []byte, o *StreamOptions, jitter float64) (time.Duration, bool) {
	if resp != nil {
		if !stainlessRepeats(resp) {
			return 0, false
		}
		if ms, ok := ServerDelay(resp.Header); ok {
			return Millis(ms), true
		}
	}
	// The repeat's index is maxRetries less the repeats left, as
	// StainlessCount computes it.
	secs := math.Min(0.5*math.Pow(2, StainlessCount(o, done)), 8) * (1 - jitter*0.25)
	return Millis(secs * 1000), true
}

// ServerDelay is the wait in milliseconds a failed response asks Pi's
// retry loop for: a non-empty retry-after-ms read by parseFloat, when
// finite; else a non-empty retry-after, as seconds by parseFloat or else
// as a date, when finite. ok is false when neither gives one.
func ServerDelay(h http.Header) (ms float64, ok bool) {
	if v := h.Get("retry-after-ms"); v != "" {
		if f, ok := ParseFloatPrefix(v); ok && !math.IsInf(f, 0) {
			return f, true
		}
	}
	if v := h.Get("retry-after"); v != "" {
		if f, ok := ParseFloatPrefix(v); ok {
			return f * 1000, !math.IsInf(f, 0)
		}
		if t, err := http.ParseTime(v); err == nil {
			return float64(time.Until(t).Milliseconds()), true
		}
	}
	return 0, false
}
