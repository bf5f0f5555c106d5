package provider

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Retry is how an API's client repeats a request that failed. The zero
// Retry never repeats one (the Gen AI and Mistral clients as Pi sets them
// up).
type Retry struct {
	// Limit is how many times a request may be repeated for the options.
	Limit func(o *StreamOptions) int
	// After tells whether the client repeats a failed attempt, and how long
	// it waits first. done counts the repeats already made; resp is nil when
	// no response arrived (a connection error), else the failed response,
	// whose body is body; jitter, in [0, 1), is the random number the client
	// draws for its backoff.
	After func(done int, resp *http.Response, body []byte, o *StreamOptions, jitter float64) (time.Duration, bool)
	// Stamp, when set, writes into h the headers that count the attempts:
	// attempt is 0 for the first request.
	Stamp func(h http.Header, attempt int)
}

// Retries is how many times the client may repeat a request for o.
func (r Retry) Retries(o *StreamOptions) int {
	if r.Limit == nil || r.After == nil {
		return 0
	}
	return r.Limit(o)
}

// MaxRetriesOption is the maxRetries option as Pi hands it to a client
// whose own default it replaces with 0: its whole part, 0 when absent or
// not positive.
func MaxRetriesOption(o *StreamOptions) int {
	f, ok := o.MaxRetries.Float64()
	if !ok || f < 1 || math.IsInf(f, 0) {
		return 0
	}
	return int(math.Min(f, 1<<20))
}

// StainlessRetry is the retry policy of the Stainless SDKs (Anthropic,
// OpenAI, Azure OpenAI), with maxRetries from Pi's options (Pi's default
// is 0). A connection error is repeated; a response is repeated when its
// x-should-retry header says "true", or, unless it says "false", when its
// status is 408, 409, 429 or 5xx. The wait is the response's
// retry-after-ms, else its retry-after (seconds, or an HTTP date), else
// 0.5 s doubling per repeat up to 8 s, less up to a quarter of jitter.
// Each attempt sends its number in X-Stainless-Retry-Count.
var StainlessRetry = Retry{
	Limit: MaxRetriesOption,
	After: stainlessAfter,
	Stamp: func(h http.Header, attempt int) { h.Set("X-Stainless-Retry-Count", strconv.Itoa(attempt)) },
}

func stainlessAfter(done int, resp *http.Response, _ []byte, _ *StreamOptions, jitter float64) (time.Duration, bool) {
	if resp != nil {
		switch resp.Header.Get("x-should-retry") {
		case "true":
		case "false":
			return 0, false
		default:
			s := resp.StatusCode
			if s != 408 && s != 409 && s != 429 && s < 500 {
				return 0, false
			}
		}
		if d, ok := stainlessRetryAfter(resp.Header); ok {
			return d, true
		}
	}
	secs := math.Min(0.5*math.Pow(2, float64(done)), 8) * (1 - jitter*0.25)
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
