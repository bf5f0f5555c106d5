// Package bedrock is the Go reference for Pi's bedrock-converse-stream API
// (pi-ai 0.80.2, dist/api/bedrock-converse-stream.js, with
// @aws-sdk/client-bedrock-runtime 3.1048.0 underneath): the HTTP request
// Pi sends for a model, a context and options, and the message and events
// Pi makes of the answer, which is an AWS binary event stream (see package
// eventstream).
//
//   - options.go  what the API reads from the caller (DecodeOptions)
//   - request.go  endpoint, region, credentials, headers and body
//     (BuildRequest), with SigV4 signing in sigv4.go
//   - convert.go  Pi's messages to Converse messages
//   - stream.go   the event stream to a message and events (ParseStream,
//     ParseHTTPError)
package bedrock

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/internal/lenient"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// API is the model.api value this package serves.
const API = "bedrock-converse-stream"

// Literals Pi and its SDK put on the wire.
const (
	SDKVersion = "3.1048.0"
	// AmzUserAgent is the x-amz-user-agent header.
	AmzUserAgent = "aws-sdk-js/" + SDKVersion
	// MaxAttempts is the SDK's attempt budget, announced in amz-sdk-request.
	MaxAttempts = 3
	// DefaultRegion is the region when nothing names one.
	DefaultRegion = "us-east-1"
	// SigningService is SigV4's service name for Bedrock runtime.
	SigningService = "bedrock"

	// EmptyTextPlaceholder stands in for content Bedrock would reject as empty.
	EmptyTextPlaceholder = "<empty>"
	// InterleavedThinkingBeta is the anthropic_beta value of budget thinking.
	InterleavedThinkingBeta = "interleaved-thinking-2025-05-14"
)

var (
	arnRegion        = regexp.MustCompile(`^arn:aws(?:-[a-z0-9-]+)?:bedrock:([a-z0-9-]+):`)
	standardEndpoint = regexp.MustCompile(`^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$`)
	// validHostLabel is the SDK's check of a region (Go's regexp has no
	// lookahead: no "-" at either end).
	validHostLabel = regexp.MustCompile(`^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$`)
)

// endpointRegion is the region of a standard Bedrock runtime endpoint, or "".
func endpointRegion(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil || baseURL == "" {
		return ""
	}
	if m := standardEndpoint.FindStringSubmatch(strings.ToLower(u.Hostname())); m != nil {
		return m[1]
	}
	return ""
}

// configuredRegion is options.region, then AWS_REGION, then
// AWS_DEFAULT_REGION; ok is false when none is set. A truthy region of
// another type is set, as its String() (an empty array's is "").
func (o Options) configuredRegion() (region string, ok bool) {
	if o.Region.Truthy() {
		return o.Region.JSString(), true
	}
	for _, r := range []string{o.EnvValue("AWS_REGION"), o.EnvValue("AWS_DEFAULT_REGION")} {
		if r != "" {
			return r, true
		}
	}
	return "", false
}

// credentials are what the request is signed with.
type credentials struct {
	accessKeyID, secretAccessKey, sessionToken string
	bearer                                     string
}

// NoCredentialsText is the SDK's error when its default credential chain
// finds nothing (the reference never reads the process environment or
// ~/.aws, so a case without credentials in options always meets it).
const NoCredentialsText = "Could not load credentials from any providers"

func (o Options) credentials() (credentials, error) {
	skip := o.EnvValue("AWS_BEDROCK_SKIP_AUTH") == "1"
	// A truthy token of another type is written with String().
	bearer := ""
	if o.BearerToken.Truthy() {
		bearer = o.BearerToken.JSString()
	}
	if bearer == "" && apiKeyIsBearer.At(o.Dialect) && o.APIKey != nil {
		bearer = *o.APIKey
	}
	if bearer == "" {
		bearer = o.EnvValue("AWS_BEARER_TOKEN_BEDROCK")
	}
	switch {
	case bearer != "" && !skip:
		return credentials{bearer: bearer}, nil
	case skip:
		return credentials{accessKeyID: "dummy-access-key", secretAccessKey: "dummy-secret-key"}, nil
	}
	id, secret := o.EnvValue("AWS_ACCESS_KEY_ID"), o.EnvValue("AWS_SECRET_ACCESS_KEY")
	if id == "" || secret == "" {
		return credentials{}, &stream.RequestError{Message: NoCredentialsText}
	}
	return credentials{accessKeyID: id, secretAccessKey: secret, sessionToken: o.EnvValue("AWS_SESSION_TOKEN")}, nil
}

// BuildRequest is Build with the whole body in the Call.
func BuildRequest(model *ai.Model, ctx *ai.Context, opts Options, now transform.Clock) (*provider.Call, error) {
	return Driver.BuildRequest(model, ctx, &opts, now)
}

// Build builds the request Pi 0.80.2's stream(model, ctx, opts) sends,
// with the context's messages read from msgs and the body handed to body
// (provider.StreamBuild), signed at the time now gives (the message
// timestamp's clock; a nil now is the system clock). A *stream.RequestError
// means Pi sends nothing and fails the stream with that message.
func Build(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, now transform.Clock, body provider.BodySink) (*provider.Call, error) {
	if now == nil {
		now = transform.SystemClock
	}
	if err := checkModelID(model); err != nil {
		return nil, err
	}
	configured, hasConfigured := opts.configuredRegion()
	epRegion := endpointRegion(model.BaseURL)
	explicit := epRegion == "" || !hasConfigured
	region := DefaultRegion
	arn := arnRegion.FindStringSubmatch(model.ID)
	switch m := arn; {
	case m != nil:
		region = m[1]
	case hasConfigured:
		region = configured
	case epRegion != "" && explicit:
		region = epRegion
	}
	endpoint := model.BaseURL
	// The SDK treats an empty endpoint as none and calls the region's own.
	if !explicit || endpoint == "" {
		endpoint = "https://bedrock-runtime." + region + ".amazonaws.com"
		if strings.HasPrefix(region, "cn-") {
			endpoint += ".cn"
		}
	}

	// SigV4 signs the body's hash and length: they are taken as the body
	// is handed over. The credentials are settled here only to know
	// whether the request is signed; their error comes after the body's.
	creds, credsErr := opts.credentials()
	var sum *payload
	if credsErr == nil && creds.bearer == "" {
		sum = newPayload()
		body = provider.NewTeeBody(body, sum)
	}
	// The message conversion runs before the client sends, so its errors
	// (an unknown image type) come first; the SDK then resolves credentials.
	if err := buildBody(model, ctx, msgs, opts, now, body); err != nil {
		return nil, err
	}
	// The SDK accepts only a region that can be a host name's label.
	if !validHostLabel.MatchString(region) {
		return nil, &stream.RequestError{Message: `Region not accepted: region="` + region + `" is not a valid hostname component.`}
	}
	if arn == nil && opts.Region.Truthy() && opts.Region.Kind() != jsonv.String {
		// It then calls a region that is not a string to get one.
		return nil, lenient.Throws("the region is %s, not a string", opts.Region.Kind())
	}
	if credsErr != nil {
		return nil, credsErr
	}
	// The SDK's configuration reads a truthy profile, and its bearer
	// signer writes the token into a header: a value with no string form
	// throws there, before anything is sent.
	if opts.Profile.Truthy() {
		stream.ToString(opts.Profile)
	}
	if creds.bearer != "" && opts.BearerToken.Truthy() {
		stream.ToString(opts.BearerToken)
	}
	// The model id is escaped as the SDK escapes a path label
	// (encodeURIComponent, and !'()* too).
	u, err := url.Parse(strings.TrimSuffix(endpoint, "/") + "/model/" + awsEscape(model.ID) + "/converse-stream")
	if err != nil || u.Host == "" {
		// Outside the model: the SDK's own report is not reproduced.
		return nil, fmt.Errorf("bedrock: endpoint %q is not an absolute URL", endpoint)
	}

	h := http.Header{}
	h.Set("content-type", "application/json")
	h.Set("x-amz-user-agent", amzUserAgent(opts.Dialect, opts.Identity))
	h.Set("amz-sdk-invocation-id", newInvocationID())
	h.Set("amz-sdk-request", fmt.Sprintf("attempt=1; max=%d", MaxAttempts))
	for _, c := range opts.Headers {
		if c.Value == nil || reservedHeader(c.Name) {
			continue
		}
		if !c.Raw.IsAbsent() && creds.bearer == "" && signed(c.Name) {
			return nil, transform.Throws(jsonv.Child("/options/headers", c.Name),
				"a signed header value is %s, not a string, and the SigV4 signer calls its replace", c.Raw.Kind())
		}
		h.Del(c.Name)
		for _, v := range nodeValues(c) {
			h.Add(c.Name, v)
		}
	}
	if creds.bearer != "" {
		h.Set("authorization", "Bearer "+creds.bearer)
	} else {
		ms, _ := now().Float64()
		signV4(http.MethodPost, u, h, sum, creds, region, time.UnixMilli(int64(ms)).UTC())
	}
	req := provider.Request{Method: http.MethodPost, URL: u.String(), Header: h}
	return &provider.Call{Request: req, Read: func(resp *http.Response) (*ai.AssistantMessage, []stream.Event, error) {
		return readResponse(opts.Dialect, model, resp, now)
	}}, nil
}

// reservedHeader is a caller header Pi never lets through: the SigV4 and
// auth headers.
func reservedHeader(name string) bool {
	l := strings.ToLower(name)
	return strings.HasPrefix(l, "x-amz-") || l == "authorization" || l == "host"
}

// signed reports whether SigV4 signs a header of this name (the reserved
// ones never reach the signer).
func signed(name string) bool {
	l := strings.ToLower(name)
	return !slices.Contains(unsignedHeaders, l) && !strings.HasPrefix(l, "proxy-") && !strings.HasPrefix(l, "sec-")
}

// nodeValues are the header lines Node's http client sends for a caller's
// header, which Pi sets on the request as it was written: one per element
// of an array (String() of each, "null" for null), else String(v).
func nodeValues(c httpheader.Header) []string {
	if c.Raw.Kind() != jsonv.Array {
		return []string{*c.Value}
	}
	out := make([]string, len(c.Raw.Elems()))
	for i, e := range c.Raw.Elems() {
		out[i] = e.JSString()
	}
	return out
}

// newInvocationID makes the amz-sdk-invocation-id of a request, a random
// UUID as the SDK draws one per call; tests fix it.
var newInvocationID = provider.NewUUID

// checkModelID refuses a model whose id is not a string: Pi lower-cases
// it, and the SDK throws on it outside the stream. The name is refused
// only where Pi reads it (isClaude, supportsCaching).
func checkModelID(model *ai.Model) error {
	if model.Loose.Has("id") {
		return errors.New("bedrock: the model's id is not a string, and Pi's client throws on it")
	}
	return nil
}
