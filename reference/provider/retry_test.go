package provider_test

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/bedrock"
	"github.com/piconform/piconform/reference/provider/openaicodexresponses"
	"github.com/piconform/piconform/reference/provider/stream"
)

// attempt is one failed attempt and what the policy makes of it.
type attempt struct {
	name    string
	status  int // 0: no answer (a connection error)
	header  map[string]string
	body    string
	done    int     // retries already made
	jitter  float64 // the random draw
	options string  // the stream options, JSON
	wait    time.Duration
	retry   bool
}

func checkRetry(t *testing.T, r provider.Retry, table []attempt) {
	t.Helper()
	for _, tc := range table {
		var resp *http.Response
		if tc.status != 0 {
			resp = &http.Response{StatusCode: tc.status, Status: strconv.Itoa(tc.status) + " " + http.StatusText(tc.status), Header: http.Header{}}
			for k, v := range tc.header {
				resp.Header.Set(k, v)
			}
		}
		o := options(t, tc.options)
		wait, retry := r.After(tc.done, resp, []byte(tc.body), o, tc.jitter)
		if wait != tc.wait || retry != tc.retry {
			t.Errorf("%s: After = %v, %v; want %v, %v", tc.name, wait, retry, tc.wait, tc.retry)
		}
	}
}

// checkRetries checks how many retries r allows for the options (JSON).
func checkRetries(t *testing.T, r provider.Retry, opts string, want int) {
	t.Helper()
	if got := r.Retries(options(t, opts)); got != want {
		t.Errorf("Retries(%s) = %d, want %d", opts, got, want)
	}
}

// checkStamp checks the header r's Stamp writes for attempt under the
// options (JSON), over a header that holds before.
func checkStamp(t *testing.T, r provider.Retry, opts string, attempt int, name, before, want string) {
	t.Helper()
	h := http.Header{}
	h.Set(name, before)
	r.Stamp(h, attempt, options(t, opts))
	if got := h.Get(name); got != want {
		t.Errorf("Stamp(%d) under %s sets %s %q, want %q", attempt, opts, name, got, want)
	}
}

func options(t *testing.T, js string) *provider.StreamOptions {
	t.Helper()
	if js == "" {
		js = "{}"
	}
	v, err := jsonv.Parse([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	o, err := provider.DecodeOptions(v, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return &o
}

func TestStainlessRetry(t *testing.T) {
	ms := time.Millisecond
	checkRetry(t, provider.StainlessRetry, []attempt{
		{name: "429 retry-after-ms 0", status: 429, header: map[string]string{"retry-after-ms": "0"}, retry: true},
		{name: "503 retry-after-ms 250", status: 503, header: map[string]string{"retry-after-ms": "250"}, wait: 250 * ms, retry: true},
		{name: "retry-after-ms 0 gives way to retry-after", status: 500, header: map[string]string{"retry-after-ms": "0", "retry-after": "2"}, wait: 2 * time.Second, retry: true},
		{name: "retry-after seconds", status: 408, header: map[string]string{"retry-after": "0.5"}, wait: 500 * ms, retry: true},
		{name: "unreadable retry-after fires at once", status: 409, header: map[string]string{"retry-after": "soon"}, retry: true},
		{name: "default backoff, no jitter", status: 529, done: 1, wait: time.Second, retry: true},
		{name: "default backoff, full jitter", status: 500, done: 0, jitter: 1, wait: 375 * ms, retry: true},
		{name: "default backoff is capped at 8 s", status: 500, done: 6, wait: 8 * time.Second, retry: true},
		{name: "connection error", done: 0, wait: 500 * ms, retry: true},
		{name: "400 is final", status: 400, header: map[string]string{"retry-after-ms": "0"}},
		{name: "404 is final", status: 404},
		{name: "x-should-retry true", status: 400, header: map[string]string{"x-should-retry": "true", "retry-after-ms": "0"}, retry: true},
		{name: "x-should-retry false", status: 500, header: map[string]string{"x-should-retry": "false"}},
	})
	checkStamp(t, provider.StainlessRetry, "", 2, "x-stainless-retry-count", "1", "2")
}

// TestStainlessMaxRetries checks maxRetries of any type as the Stainless
// SDKs count it down: how many repeats, the count each attempt sends in
// x-stainless-retry-count, and the backoff (no jitter) before the repeat
// after attempt 1, which the count sets.
func TestStainlessMaxRetries(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		maxRetries   string
		retries      int
		count0       string // the first attempt's count
		count1       string // the second's
		backoffAfter time.Duration
	}{
		{"null", 0, "0", "1", time.Second},
		{"0", 0, "0", "1", time.Second},
		{"2", 2, "0", "1", time.Second},
		{`"2"`, 2, "0", "1", time.Second},
		{"[2]", 2, "0", "1", time.Second},
		{"true", 1, "0", "1", time.Second},
		{"false", 0, "0", "1", time.Second},
		{`""`, 0, "0", "1", time.Second},
		{`"x"`, 1, "NaN", "NaN", 0},
		{"{}", 1, "NaN", "NaN", 0},
		{`"Infinity"`, provider.RetriesCap, "NaN", "NaN", 0},
		{"[]", provider.RetriesCap, "0", "1", time.Second},
		{`"0"`, provider.RetriesCap, "0", "1", time.Second},
		{"-1", provider.RetriesCap, "0", "1", time.Second},
		{"1.5", provider.RetriesCap, "0", "1", time.Second},
		{"0.1", provider.RetriesCap, "0", "1", time.Second},
		{"1e300", provider.RetriesCap, "0", "0", 500 * ms},
	} {
		opts := `{"maxRetries":` + tc.maxRetries + `}`
		checkRetries(t, provider.StainlessRetry, opts, tc.retries)
		checkStamp(t, provider.StainlessRetry, opts, 0, "x-stainless-retry-count", "0", tc.count0)
		checkStamp(t, provider.StainlessRetry, opts, 1, "x-stainless-retry-count", tc.count0, tc.count1)
		checkRetry(t, provider.StainlessRetry, []attempt{{name: "backoff under " + opts, status: 500, done: 1, options: opts, wait: tc.backoffAfter, retry: true}})
	}
	// The caller's header comes last and wins, whatever it holds, a null
	// removing it; an empty array leaves the SDK's. A value the model's
	// headers put in stays too.
	checkStamp(t, provider.StainlessRetry, `{"headers":{"X-Stainless-Retry-Count":"0"}}`, 1, "x-stainless-retry-count", "0", "0")
	checkStamp(t, provider.StainlessRetry, `{"headers":{"x-stainless-retry-count":null}}`, 1, "x-stainless-retry-count", "", "")
	checkStamp(t, provider.StainlessRetry, `{"headers":{"x-stainless-retry-count":[]}}`, 1, "x-stainless-retry-count", "0", "1")
	checkStamp(t, provider.StainlessRetry, "", 1, "x-stainless-retry-count", "from-model", "from-model")
}

func TestBedrockRetry(t *testing.T) {
	ms := time.Millisecond
	checkRetry(t, bedrock.Retry, []attempt{
		{name: "503 transient", status: 503, jitter: 0.5, wait: 25 * ms, retry: true},
		{name: "500 transient, second retry", status: 500, done: 1, jitter: 0.5, wait: 50 * ms, retry: true},
		{name: "429 throttling", status: 429, jitter: 0.5, wait: 500 * ms, retry: true},
		{name: "throttling by name", status: 400, header: map[string]string{"x-amzn-errortype": "ThrottlingException:http://x"}, jitter: 0.25, wait: 250 * ms, retry: true},
		{name: "ModelNotReadyException is retryable", status: 400, header: map[string]string{"x-amzn-errortype": "ModelNotReadyException"}, jitter: 0.5, wait: 25 * ms, retry: true},
		{name: "backoff capped at 20 s", status: 429, done: 8, jitter: 1, wait: 20 * time.Second, retry: true},
		{name: "retry-after lengthens by at most 5 s", status: 503, header: map[string]string{"retry-after": "30"}, wait: 5 * time.Second, retry: true},
		{name: "x-amz-retry-after", status: 503, header: map[string]string{"x-amz-retry-after": "300"}, wait: 300 * ms, retry: true},
		{name: "retry-after never shortens", status: 429, header: map[string]string{"retry-after": "0"}, jitter: 0.5, wait: 500 * ms, retry: true},
		{name: "connection error", jitter: 1, wait: 50 * ms, retry: true},
		{name: "validation is final", status: 400, header: map[string]string{"x-amzn-errortype": "ValidationException"}},
		{name: "access denied is final", status: 403, header: map[string]string{"x-amzn-errortype": "AccessDeniedException"}},
	})
	checkRetries(t, bedrock.Retry, `{"maxRetries":0}`, bedrock.MaxAttempts-1)
	checkStamp(t, bedrock.Retry, `{"maxRetries":"x"}`, 1, "amz-sdk-request", "attempt=1; max=3", "attempt=2; max=3")
}

func TestCodexRetry(t *testing.T) {
	ms := time.Millisecond
	checkRetry(t, openaicodexresponses.Retry, []attempt{
		{name: "429 retry-after-ms", status: 429, header: map[string]string{"retry-after-ms": "20"}, wait: 20 * ms, retry: true},
		{name: "429 capped by maxRetryDelayMs", status: 429, header: map[string]string{"retry-after-ms": "60000"}, options: `{"maxRetryDelayMs":1}`, wait: ms, retry: true},
		{name: "429 capped at 60 s by default", status: 429, header: map[string]string{"retry-after": "120"}, wait: time.Minute, retry: true},
		{name: "maxRetryDelayMs as a numeric string", status: 429, header: map[string]string{"retry-after-ms": "60000"}, options: `{"maxRetryDelayMs":"1"}`, wait: ms, retry: true},
		{name: "maxRetryDelayMs true is 1", status: 429, header: map[string]string{"retry-after-ms": "60000"}, options: `{"maxRetryDelayMs":true}`, wait: ms, retry: true},
		{name: "maxRetryDelayMs NaN does not cap", status: 429, header: map[string]string{"retry-after": "120"}, options: `{"maxRetryDelayMs":{}}`, wait: 2 * time.Minute, retry: true},
		{name: "maxRetryDelayMs null caps at 60 s", status: 429, header: map[string]string{"retry-after": "120"}, options: `{"maxRetryDelayMs":null}`, wait: time.Minute, retry: true},
		{name: "maxRetryDelayMs 0 does not cap", status: 429, header: map[string]string{"retry-after": "120"}, options: `{"maxRetryDelayMs":0}`, wait: 2 * time.Minute, retry: true},
		{name: "503 is not capped", status: 503, header: map[string]string{"retry-after": "120"}, options: `{"maxRetryDelayMs":1}`, wait: 2 * time.Minute, retry: true},
		{name: "empty retry-after-ms is 0", status: 502, header: map[string]string{"retry-after-ms": " "}, retry: true},
		{name: "no header: 1 s doubling", status: 504, done: 2, wait: 4 * time.Second, retry: true},
		{name: "retryable by its text", status: 418, body: "Upstream Connect error", header: map[string]string{"retry-after-ms": "0"}, retry: true},
		{name: "terminal 429", status: 429, body: `{"error":{"type":"insufficient_quota"}}`, header: map[string]string{"retry-after-ms": "0"}},
		{name: "any other failure, headers ignored", status: 400, body: `{"error":{"message":"bad"}}`, header: map[string]string{"retry-after-ms": "0"}, done: 1, wait: 2 * time.Second, retry: true},
		{name: "a usage limit is final", status: 403, body: `{"error":{"code":"usage_not_included"}}`},
		{name: "connection error", wait: time.Second, retry: true},
	})
	for _, tc := range []struct {
		maxRetries string
		retries    int
		outcome    error // LoopOutcome
	}{
		{"3", 3, nil},
		{`"3"`, 3, nil},
		{"[3]", 3, nil},
		{"true", 1, nil},
		{"[]", 0, nil},
		{"null", 0, nil},
		{`"Infinity"`, provider.RetriesCap, nil},
		{`"x"`, 0, &stream.RequestError{Message: openaicodexresponses.FailedAfterRetriesText}},
		{"{}", 0, &stream.RequestError{Message: openaicodexresponses.FailedAfterRetriesText}},
		{"-1", 0, &stream.RequestError{Message: openaicodexresponses.FailedAfterRetriesText}},
		{"1.5", 1, nil},
	} {
		opts := `{"maxRetries":` + tc.maxRetries + `}`
		checkRetries(t, openaicodexresponses.Retry, opts, tc.retries)
		err := openaicodexresponses.LoopOutcome(options(t, opts))
		var re, wantRE *stream.RequestError
		switch {
		case errors.As(tc.outcome, &wantRE):
			if !errors.As(err, &re) || re.Message != wantRE.Message {
				t.Errorf("LoopOutcome(%s) = %v, want %v", opts, err, tc.outcome)
			}
		case !errors.Is(err, tc.outcome) || (tc.outcome == nil) != (err == nil):
			t.Errorf("LoopOutcome(%s) = %v, want %v", opts, err, tc.outcome)
		}
	}
}

// TestCodexFractionExhausted: with a fractional maxRetries, a retryable
// answer on the last attempt is let go, and Pi reports the last error it
// caught before, else "Failed after retries"; with a whole one, or any
// other last failure, the last failure's own error stands.
func TestCodexFractionExhausted(t *testing.T) {
	answer := func(status int, body string) provider.Failure {
		return provider.Failure{Response: &http.Response{StatusCode: status, Header: http.Header{}}, Body: []byte(body)}
	}
	noAnswer := provider.Failure{}
	busy, bad := answer(503, "overloaded"), answer(400, `{"error":{"message":"bad input"}}`)
	for _, tc := range []struct {
		name       string
		maxRetries string
		failures   []provider.Failure
		want       string // "" keeps the last failure's error
	}{
		{"whole", "1", []provider.Failure{bad, busy}, ""},
		{"retryable last, none caught", "1.5", []provider.Failure{busy, busy}, openaicodexresponses.FailedAfterRetriesText},
		{"retryable last, no answer before", "1.5", []provider.Failure{noAnswer, busy}, provider.FetchFailedText},
		{"retryable last, an answer not retried before", "2.5", []provider.Failure{bad, busy, busy}, "bad input"},
		{"last not retryable", "1.5", []provider.Failure{busy, bad}, ""},
		{"no answer last", "0.5", []provider.Failure{noAnswer}, ""},
	} {
		got, ok := openaicodexresponses.Retry.Exhausted(options(t, `{"maxRetries":`+tc.maxRetries+`}`), tc.failures)
		if ok != (tc.want != "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: Exhausted = %q, %v; want %q", tc.name, got, ok, tc.want)
		}
	}
}

func TestParseFloatPrefix(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{{"0", 0, true}, {" 12.5ms", 12.5, true}, {"-3", -3, true}, {".5", 0.5, true}, {"5.", 5, true}, {"1e3x", 1000, true}, {"1e", 1, true}, {"abc", 0, false}, {"", 0, false}, {"-", 0, false}} {
		got, ok := provider.ParseFloatPrefix(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseFloatPrefix(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestPiRetry: Pi's own loop (1.6) counts maxRetries down as a number and
// waits what the server asks, else 0.5 s doubling; a wait above
// maxRetryDelayMs is refused with the SDK's message.
func TestPiRetry(t *testing.T) {
	r := provider.PiRetry(func(resp *http.Response, body []byte) string {
		return strconv.Itoa(resp.StatusCode) + " " + string(body)
	})
	for _, tc := range []struct {
		opts string
		want int
	}{
		{`{}`, 0}, {`{"maxRetries":null}`, 0}, {`{"maxRetries":2}`, 2}, {`{"maxRetries":"2"}`, 2},
		{`{"maxRetries":[2]}`, 2}, {`{"maxRetries":[]}`, 0}, {`{"maxRetries":1.5}`, 2}, {`{"maxRetries":-1}`, 0},
		{`{"maxRetries":"x"}`, provider.RetriesCap}, {`{"maxRetries":true}`, 1},
	} {
		checkRetries(t, r, tc.opts, tc.want)
	}
	checkRetry(t, r, []attempt{
		{name: "connection error", options: `{"maxRetries":2}`, wait: 500 * time.Millisecond, retry: true},
		{name: "second repeat", done: 1, options: `{"maxRetries":2}`, wait: time.Second, retry: true},
		{name: "jitter", done: 1, jitter: 0.5, options: `{"maxRetries":2}`, wait: 875 * time.Millisecond, retry: true},
		{name: "cap 8 s", done: 9, options: `{"maxRetries":20}`, wait: 8 * time.Second, retry: true},
		{name: "429", status: 429, options: `{"maxRetries":1}`, wait: 500 * time.Millisecond, retry: true},
		{name: "400", status: 400, options: `{"maxRetries":1}`},
		{name: "400 should retry", status: 400, header: map[string]string{"x-should-retry": "true"}, options: `{"maxRetries":1}`, wait: 500 * time.Millisecond, retry: true},
		{name: "503 should not", status: 503, header: map[string]string{"x-should-retry": "false"}, options: `{"maxRetries":1}`},
		{name: "retry-after-ms", status: 503, header: map[string]string{"retry-after-ms": "20"}, options: `{"maxRetries":1}`, wait: 20 * time.Millisecond, retry: true},
		{name: "retry-after", status: 503, header: map[string]string{"retry-after": "2"}, options: `{"maxRetries":1}`, wait: 2 * time.Second, retry: true},
		{name: "retry-after-ms not a number", status: 503, header: map[string]string{"retry-after-ms": "x", "retry-after": "1"}, options: `{"maxRetries":1}`, wait: time.Second, retry: true},
		{name: "zero", status: 503, header: map[string]string{"retry-after-ms": "0"}, options: `{"maxRetries":1}`, retry: true},
	})
	for _, tc := range []struct {
		header map[string]string
		opts   string
		want   string
	}{
		{map[string]string{"retry-after": "5"}, `{"maxRetryDelayMs":1000}`, "Server requested 5s retry delay (max: 1s). 429 busy"},
		{map[string]string{"retry-after-ms": "1500"}, `{"maxRetryDelayMs":1001}`, "Server requested 2s retry delay (max: 2s). 429 busy"},
		{map[string]string{"retry-after": "61"}, `{}`, "Server requested 61s retry delay (max: 60s). 429 busy"},
		{map[string]string{"retry-after": "61"}, `{"maxRetryDelayMs":0}`, ""},
		{map[string]string{"retry-after": "1"}, `{"maxRetryDelayMs":1000}`, ""},
		{map[string]string{}, `{"maxRetryDelayMs":1}`, ""},
	} {
		resp := &http.Response{StatusCode: 429, Header: http.Header{}}
		for k, v := range tc.header {
			resp.Header.Set(k, v)
		}
		msg, refused := r.Refuse(resp, []byte("busy"), options(t, tc.opts))
		if msg != tc.want || refused != (tc.want != "") {
			t.Errorf("Refuse(%v, %s) = %q, %v; want %q", tc.header, tc.opts, msg, refused, tc.want)
		}
	}
}

// TestPiRetryLateLimit: Pi 1.6's own retry loop reads maxRetries only once
// an attempt has failed, so a value with no number form throws then (V8's
// TypeError, the call's error), not before the request; a Stainless SDK
// (0.80) reads it before it sends. Seen with pi-ai 1.6.0 and 0.80.2 in the
// wire cases *-lenient-max-retries-no-number-form*.
func TestPiRetryLateLimit(t *testing.T) {
	if !provider.PiRetry(nil).LateLimit || provider.StainlessRetry.LateLimit {
		t.Fatal("PiRetry must read its limit late, StainlessRetry before sending")
	}
	for _, tc := range []struct {
		max  string
		want int
		err  string
	}{
		{`2`, 2, ""},
		{`"3"`, 3, ""},
		{`{"toString":"x"}`, 0, stream.NoPrimitiveText},
	} {
		v, err := jsonv.ParseString(tc.max)
		if err != nil {
			t.Fatal(err)
		}
		n, err := provider.PiRetry(nil).RetriesAfterFailure(&provider.StreamOptions{MaxRetries: v})
		msg, _ := provider.Refusal(err)
		if n != tc.want || msg != tc.err || (err == nil) != (tc.err == "") {
			t.Errorf("maxRetries %s: %d, %v; want %d, %q", tc.max, n, err, tc.want, tc.err)
		}
	}
}
