package httpheader

import (
	"errors"
	"strconv"

	"github.com/piconform/piconform/reference/jsonv"
)

// StainlessTimeout is a Stainless SDK's reading of the timeout option (in
// ms): def when it is absent, an error with the SDK's message when it is
// not a non-negative integer (null and other types included: the SDK
// checks any timeout a request's options hold).
func StainlessTimeout(timeoutMs jsonv.Value, def float64) (float64, error) {
	if timeoutMs.IsAbsent() {
		return def, nil
	}
	timeout, ok := timeoutMs.Float64()
	if !ok || timeout != float64(int64(timeout)) {
		return 0, errors.New("timeout must be an integer")
	}
	if timeout < 0 {
		return 0, errors.New("timeout must be a positive integer")
	}
	return timeout, nil
}

// Stainless is the first header layer of a Stainless SDK (anthropic,
// openai): its platform headers, X-Stainless-Timeout in whole seconds
// unless the timeout is 0, then the SDK's own extra headers.
func Stainless(userAgent, version string, timeoutMs float64, extra ...Header) []Header {
	out := []Header{
		New("Accept", "application/json"),
		New("User-Agent", userAgent),
		New("X-Stainless-Retry-Count", "0"),
	}
	if timeoutMs != 0 {
		out = append(out, New("X-Stainless-Timeout", strconv.FormatInt(int64(timeoutMs/1000), 10)))
	}
	out = append(out, New("X-Stainless-Lang", "js"), New("X-Stainless-Package-Version", version),
		New("X-Stainless-Runtime", "node"))
	return append(out, extra...)
}
