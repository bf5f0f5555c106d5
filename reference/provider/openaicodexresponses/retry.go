package openaicodexresponses

import (
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/sse"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// Retry is Pi's own retry loop around fetch for this API: it makes
// attempts while their number (from 0) is at most maxRetries, and repeats
// one while its number is less, both compared as JavaScript compares a
// number with any value (MaxRetries, 0 by default): a whole number n >= 0
// repeats n times, Infinity without end (provider.RetriesCap). A
// maxRetries that reads as NaN or as less than 0 makes no attempt at all
// (LoopOutcome), and a fraction goes on past its last attempt (exhausted). An answer is retryable when its status is 429
// (unless its text names a terminal limit: used-up quota, billing, …),
// 500, 502, 503 or 504, or its text speaks of a rate limit, overload,
// unavailability or a refused connection; Pi waits what the answer asks
// (retry-after-ms, else retry-after in seconds or as a date; after a 429
// at most maxRetryDelayMs, 60 s by default, unless that is 0), else
// 1 s doubling per repeat. Any other failure, a connection error included,
// is repeated after 1 s doubling per repeat too, unless its message (Pi's
// message for the answer, HTTPErrorText) speaks of a "usage limit". No
// header counts the attempts.
var Retry = provider.Retry{Limit: retries, After: retryAfter, Exhausted: exhausted}

// Retry16 is Retry as Pi 1.6 runs it: a wait the server asks for above
// maxRetryDelayMs (60 s when nullish; none when it is not above 0), after
// any status Pi retries, ends the call at once with "Server requested <s>s
// retry delay (max: <s>s)" instead of being cut to that limit after a
// 429.
var Retry16 = provider.Retry{Limit: retries, After: retryAfter16, Exhausted: exhausted, Refuse: refuseDelay}

func retryAfter16(done int, resp *http.Response, body []byte, o *provider.StreamOptions, _ float64) (time.Duration, bool) {
	return wait(done, resp, body, o, false)
}

// refuseDelay is Pi 1.6's check of the wait a retryable answer asks for.
func refuseDelay(resp *http.Response, body []byte, o *provider.StreamOptions) (string, bool) {
	if resp == nil || !retryable(resp.StatusCode, sse.Text(body)) {
		return "", false
	}
	ms, ok := retryHint(resp.Header)
	if !ok {
		return "", false
	}
	limit := jsonv.NumberValue(strconv.Itoa(DefaultMaxRetryDelayMs))
	if !o.MaxRetryDelayMs.IsNullish() {
		limit = o.MaxRetryDelayMs
	}
	// maxRetryDelayMs > 0 && delayMs > maxRetryDelayMs, as JavaScript
	// compares a number with any value.
	n := stream.ToNumber(limit)
	if !(n > 0 && ms > n) {
		return "", false
	}
	return "Server requested " + jsonv.FormatFloat(math.Ceil(ms/1000)) + "s retry delay (max: " + jsonv.FormatFloat(math.Ceil(n/1000)) + "s)", true
}

func retries(o *provider.StreamOptions) int {
	n := provider.MaxRetries(o)
	if !(n >= 0) {
		return 0
	}
	return int(math.Min(math.Floor(n), provider.RetriesCap))
}

// FailedAfterRetriesText is Pi's error when its loop ends without an
// answer to report.
const FailedAfterRetriesText = "Failed after retries"

// LoopOutcome is what Pi's retry loop does with a maxRetries that
// retries does not count: one that reads as NaN or as less than 0 makes
// no attempt, and Pi fails with FailedAfterRetriesText (a
// *stream.RequestError); one with no number form throws as the loop
// compares it.
func LoopOutcome(o *provider.StreamOptions) error {
	if o.MaxRetries.ConversionThrows() {
		return &stream.RequestError{Message: stream.NoPrimitiveText}
	}
	if n := provider.MaxRetries(o); !(n >= 0) {
		return &stream.RequestError{Message: FailedAfterRetriesText}
	}
	return nil
}

// exhausted is the error of Pi's loop when maxRetries is a fraction: its
// last attempt's number is still less than maxRetries, so a retryable
// answer there is let go as on any attempt (after a wait), and the loop
// ends without one to report. Pi then reports the last error it caught on
// an earlier attempt (no answer, or an answer it does not retry), else
// FailedAfterRetriesText. Any other last failure is caught and reported
// as with a whole maxRetries.
func exhausted(o *provider.StreamOptions, failures []provider.Failure) (string, bool) {
	if n := provider.MaxRetries(o); n == math.Trunc(n) || math.IsInf(n, 0) {
		return "", false
	}
	if !retryableAnswer(failures[len(failures)-1]) {
		return "", false
	}
	for i := len(failures) - 2; i >= 0; i-- {
		switch f := failures[i]; {
		case f.Response == nil:
			return noResponseText.At(o.Dialect), true
		case !retryableAnswer(f):
			return HTTPErrorText(f.Response.StatusCode, provider.StatusText(f.Response), f.Body, transform.SystemClock), true
		}
	}
	return FailedAfterRetriesText, true
}

// retryableAnswer tells whether f is an answer Pi's loop lets go without
// catching an error.
func retryableAnswer(f provider.Failure) bool {
	return f.Response != nil && retryable(f.Response.StatusCode, sse.Text(f.Body))
}

// BaseRetryDelayMs is the first wait of Pi's own backoff.
const BaseRetryDelayMs = 1000

// DefaultMaxRetryDelayMs caps the wait a 429 asks for when maxRetryDelayMs
// is absent or null.
const DefaultMaxRetryDelayMs = 60_000

var (
	terminalLimit = regexp.MustCompile(`(?i)GoUsageLimitError|FreeUsageLimitError|Monthly usage limit reached|available balance|insufficient_quota|out of budget|quota exceeded|billing`)
	retryableText = regexp.MustCompile(`(?i)rate.?limit|overloaded|service.?unavailable|upstream.?connect|connection.?refused`)
)

func retryAfter(done int, resp *http.Response, body []byte, o *provider.StreamOptions, _ float64) (time.Duration, bool) {
	return wait(done, resp, body, o, true)
}

// wait is whether Pi's loop repeats a failed attempt and after how long;
// capped says whether a 429's wait is cut to maxRetryDelayMs (0.80).
func wait(done int, resp *http.Response, body []byte, o *provider.StreamOptions, capped bool) (time.Duration, bool) {
	backoff := provider.Millis(BaseRetryDelayMs * math.Pow(2, float64(done)))
	if resp == nil {
		return backoff, true
	}
	text := sse.Text(body)
	if retryable(resp.StatusCode, text) {
		ms, ok := retryHint(resp.Header)
		if !ok {
			return backoff, true
		}
		if resp.StatusCode == 429 && capped {
			// Pi compares maxRetryDelayMs ?? default with 0 and hands it
			// to Math.min: ToNumber reads it, and NaN caps nothing.
			limit := float64(DefaultMaxRetryDelayMs)
			if !o.MaxRetryDelayMs.IsNullish() {
				limit = o.MaxRetryDelayMs.JSNumber()
			}
			if limit > 0 {
				ms = math.Min(ms, limit)
			}
		}
		return provider.Millis(ms), true
	}
	if strings.Contains(HTTPErrorText(resp.StatusCode, provider.StatusText(resp), body, transform.SystemClock), "usage limit") {
		return 0, false
	}
	return backoff, true
}

func retryable(status int, text string) bool {
	if status == 429 && terminalLimit.MatchString(text) {
		return false
	}
	switch status {
	case 429, 500, 502, 503, 504:
		return true
	}
	return retryableText.MatchString(text)
}

// retryHint is the wait in milliseconds an answer asks for: retry-after-ms
// when present and a number; else retry-after in seconds or as a date (at
// least 0).
func retryHint(h http.Header) (float64, bool) {
	if vs, ok := h[http.CanonicalHeaderKey("retry-after-ms")]; ok {
		if ms, ok := jsNumber(strings.Join(vs, ", ")); ok && !math.IsInf(ms, 0) {
			return math.Max(0, ms), true
		}
	}
	v := h.Get("retry-after")
	if v == "" {
		return 0, false
	}
	if secs, ok := jsNumber(v); ok && !math.IsInf(secs, 0) {
		return math.Max(0, secs*1000), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return math.Max(0, float64(time.Until(t).Milliseconds())), true
	}
	return 0, false
}

// jsNumber is JavaScript's Number(s) for the decimal forms a header holds:
// surrounding white space ignored, the empty string 0, false for NaN.
func jsNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, true
	}
	switch strings.TrimLeft(s, "+-") {
	case "Infinity":
		return math.Inf(1), true
	}
	if strings.ContainsAny(s, "_xXpPiInN") {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}
