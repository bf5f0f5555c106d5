package bedrock

import (
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/piconform/piconform/reference/provider"
)

// Retry is the AWS SDK's standard retry strategy as Pi's client gets it:
// MaxAttempts requests in all, whatever the maxRetries option says (Pi
// does not pass it on). A connection error is repeated, and so is a
// response that is a throttling error (status 429 or a throttling error
// name) or a transient one (status 500, 502, 503 or 504, a transient
// error name, or ModelNotReadyException, which the SDK marks retryable).
// The wait is a random part (jitter) of 50 ms, or 1 s after throttling,
// doubled per repeat up to 20 s; a retry-after or x-amz-retry-after hint
// can lengthen it by up to 5 s. Every attempt says its number in
// amz-sdk-request ("attempt=N; max=3") and keeps the call's
// amz-sdk-invocation-id.
var Retry = provider.Retry{
	Limit: func(*provider.StreamOptions) int { return MaxAttempts - 1 },
	After: retryAfter,
	Stamp: func(h http.Header, attempt int, _ *provider.StreamOptions) {
		h.Set("amz-sdk-request", fmt.Sprintf("attempt=%d; max=%d", attempt+1, MaxAttempts))
	},
}

// Error names the SDK sorts as throttling or transient.
var (
	throttlingNames = []string{
		"BandwidthLimitExceeded", "EC2ThrottledException", "LimitExceededException", "PriorRequestNotComplete",
		"ProvisionedThroughputExceededException", "RequestLimitExceeded", "RequestThrottled",
		"RequestThrottledException", "SlowDown", "ThrottledException", "Throttling", "ThrottlingException",
		"TooManyRequestsException", "TransactionInProgressException",
	}
	transientNames = []string{"TimeoutError", "RequestTimeout", "RequestTimeoutException", "ModelNotReadyException"}
)

// Backoff bases of the SDK's strategy, in milliseconds.
const (
	transientDelayMs  = 50
	throttlingDelayMs = 1000
	maxDelayMs        = 20_000
	hintSlackMs       = 5_000
)

func retryAfter(done int, resp *http.Response, _ []byte, _ *provider.StreamOptions, jitter float64) (time.Duration, bool) {
	base := float64(transientDelayMs)
	if resp != nil {
		name, _, _ := strings.Cut(resp.Header.Get("x-amzn-errortype"), ":")
		switch s := resp.StatusCode; {
		case s == 429 || slices.Contains(throttlingNames, name):
			base = throttlingDelayMs
		case s == 500 || s == 502 || s == 503 || s == 504 || slices.Contains(transientNames, name):
		default:
			return 0, false
		}
	}
	delay := math.Floor(jitter * math.Min(base*math.Pow(2, float64(done)), maxDelayMs))
	if resp != nil {
		if hint, ok := retryHint(resp.Header); ok {
			delay = math.Max(delay, math.Min(hint, delay+hintSlackMs))
		}
	}
	return provider.Millis(delay), true
}

// retryHint is the wait in milliseconds a response asks for: retry-after
// in seconds or as an HTTP date, or x-amz-retry-after in milliseconds.
func retryHint(h http.Header) (float64, bool) {
	if v := h.Get("retry-after"); v != "" {
		if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 {
			return secs * 1000, true
		}
		if t, err := http.ParseTime(v); err == nil {
			return float64(time.Until(t).Milliseconds()), true
		}
		return 0, false
	}
	if v := h.Get("x-amz-retry-after"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil {
			return ms, true
		}
	}
	return 0, false
}
