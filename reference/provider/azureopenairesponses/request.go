// Package azureopenairesponses is the Go reference for Pi's
// azure-openai-responses API (pi-ai 0.80.2, dist/api/azure-openai-responses.js,
// with the openai SDK 6.26.0's AzureOpenAI client underneath). It is the
// openai-responses API with another endpoint, key header and body head, so
// it is built on package openairesponses and keeps only the differences:
//
//   - options.go  what the API reads from the caller (DecodeOptions)
//   - request.go  base URL, api-version, deployment, headers and body
//     (Build)
//   - stream.go   the answer, read by openairesponses without service-tier
//     pricing, and HTTP errors with the Azure prefix
package azureopenairesponses

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/openairesponses"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// API is the model.api value this package serves.
const API = "azure-openai-responses"

// Literals Pi and the SDK put on the wire.
const (
	// DefaultAPIVersion is the api-version when nothing sets one.
	DefaultAPIVersion = "v1"
	// ClientName is the SDK client class, which names the user agent.
	ClientName = "AzureOpenAI"
	// KeyHeader carries the key; no authorization header is sent.
	KeyHeader = "api-key"
	// DefaultPath is the base path Azure hosts get when they have none.
	DefaultPath = "/openai/v1"
	// NoBaseURLText is Pi's error when no base URL can be found.
	NoBaseURLText = "Azure OpenAI base URL is required. Set AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME, or pass azureBaseUrl, azureResourceName, or model.baseUrl."
	// InvalidBaseURLText prefixes the base URL that is not a URL.
	InvalidBaseURLText = "Invalid Azure OpenAI base URL: "
)

// ToolCallProviders are the target providers whose tool-call ids keep the
// "<call id>|<item id>" pairing: openai-responses' list and this API (in
// Pi 0.80, whose Azure provider was named after the API).
var ToolCallProviders = append(append([]string(nil), openairesponses.PairedIDProviders...), API)

// Build builds the request Pi 0.80.2's stream(model, ctx, opts) sends,
// with the context's messages read from msgs and the body handed to body
// (provider.StreamBuild). now stamps the synthetic tool results transform
// adds. A *stream.RequestError means Pi sends nothing and fails with that
// message.
func Build(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, now transform.Clock, body provider.BodySink) (*provider.Call, error) {
	if _, err := opts.APIKeyOr(model, ""); err != nil {
		return nil, err
	}
	base, err := resolveBaseURL(model, opts)
	if err != nil {
		return nil, err
	}
	version := opts.AzureAPIVersion
	if !version.Truthy() {
		version = jsonv.StringValue(opts.EnvValue("AZURE_OPENAI_API_VERSION"))
	}
	if !version.Truthy() {
		version = jsonv.StringValue(DefaultAPIVersion)
	}
	if err := buildBody(model, ctx, msgs, opts, now, body); err != nil {
		return nil, err
	}
	d := opts.Dialect
	identity, err := provider.IdentityHeaders(d, model, opts.Identity)
	if err != nil {
		return nil, err
	}
	defaults := httpheader.Assign(identity, httpheader.FromModel(model), opts.Headers)
	header, err := openairesponses.SDKHeadersAt(d, ClientName, opts.TimeoutMs, httpheader.New(KeyHeader, *opts.APIKey), defaults)
	if err != nil {
		return nil, err
	}
	req := provider.Request{Method: http.MethodPost, URL: endpoint(base, version), Header: header}
	parse := func(r io.Reader, model *ai.Model, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
		return ParseStreamIn(d, r, model, now)
	}
	httpError := func(model *ai.Model, status int, body []byte, now transform.Clock) (*ai.AssistantMessage, []stream.Event, error) {
		return ParseHTTPErrorIn(d, model, status, body, now)
	}
	return provider.Answer(req, model, now, parse, httpError), nil
}

// DeploymentName is the body's model: azureDeploymentName, else the
// model's entry in AZURE_OPENAI_DEPLOYMENT_NAME_MAP, else model.id as it
// was written (an id that is not a string names no entry).
func DeploymentName(model *ai.Model, opts Options) jsonv.Value {
	if name := opts.AzureDeploymentName; name.Truthy() {
		return stream.JSValue(name)
	}
	if name := parseDeploymentMap(opts.EnvValue("AZURE_OPENAI_DEPLOYMENT_NAME_MAP"))[model.ID]; name != "" && !model.Loose.Has("id") {
		return jsonv.StringValue(name)
	}
	return model.IDValue()
}

// parseDeploymentMap reads "id=deployment,id2=deployment2": entries and
// both sides trimmed, empty entries and sides skipped, a second "=" and
// what follows it dropped, a later entry winning.
func parseDeploymentMap(s string) map[string]string {
	out := map[string]string{}
	for _, entry := range strings.Split(s, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		parts := strings.Split(entry, "=")
		if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
			continue
		}
		out[strings.TrimSpace(parts[0])] = strings.TrimSpace(parts[1])
	}
	return out
}

// resolveBaseURL picks the base URL (azureBaseUrl, AZURE_OPENAI_BASE_URL,
// the resource's default endpoint, model.baseUrl) and normalizes it.
func resolveBaseURL(model *ai.Model, opts Options) (string, error) {
	var base string
	switch u := opts.AzureBaseURL; u.Kind() {
	case jsonv.String:
		base = strings.TrimSpace(u.Str())
	case jsonv.Absent, jsonv.Null:
	default:
		return "", fmt.Errorf("%w: /options/azureBaseUrl: want a string to trim, got %s", transform.ErrThrows, u.Kind())
	}
	if base == "" {
		base = strings.TrimSpace(opts.EnvValue("AZURE_OPENAI_BASE_URL"))
	}
	if base == "" {
		// A truthy name of another type counts even when its String() is
		// empty ([] makes the host ".openai.azure.com").
		resource, named := "", false
		if r := opts.AzureResourceName; r.Truthy() {
			resource, named = stream.ToString(r), true
		} else if env := opts.EnvValue("AZURE_OPENAI_RESOURCE_NAME"); env != "" {
			resource, named = env, true
		}
		if named {
			base = "https://" + resource + ".openai.azure.com" + DefaultPath
		}
	}
	if base == "" {
		base = model.BaseURL
	}
	if base == "" {
		return "", &stream.RequestError{Message: NoBaseURLText}
	}
	return NormalizeBaseURLIn(opts.Dialect, base)
}

// NormalizeBaseURL is Pi's normalization of an Azure base URL: trimmed and
// without trailing slashes; on an *.openai.azure.com or
// *.cognitiveservices.azure.com host whose path is empty or /openai, the
// path becomes /openai/v1 and the query is dropped.
func NormalizeBaseURL(base string) (string, error) { return NormalizeBaseURLIn(dialect.V0_80, base) }

// NormalizeBaseURLIn is NormalizeBaseURL as Pi of dialect d normalizes
// (azureHosts, basePaths).
func NormalizeBaseURLIn(d dialect.Dialect, base string) (string, error) {
	u, err := parseURL(strings.TrimRight(strings.TrimSpace(base), "/"))
	if err != nil {
		return "", &stream.RequestError{Message: InvalidBaseURLText + base}
	}
	host := u.Hostname()
	azure := slices.ContainsFunc(azureHosts.At(d), func(suffix string) bool { return strings.HasSuffix(host, suffix) })
	if p := strings.TrimRight(u.EscapedPath(), "/"); azure && slices.Contains(basePaths.At(d), p) {
		u.Path, u.RawPath, u.RawQuery, u.ForceQuery = DefaultPath, "", "", false
	}
	return strings.TrimRight(whatwgString(u), "/"), nil
}

// parseURL approximates the WHATWG URL parser for the URLs a base URL can
// be: a scheme is required, http and https need a host, the host is
// lower-cased and a default port dropped.
func parseURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, err
	}
	if u.Scheme == "" || ((u.Scheme == "http" || u.Scheme == "https") && u.Host == "") {
		return nil, &url.Error{Op: "parse", URL: s, Err: errNoHost}
	}
	u.Host = strings.ToLower(u.Host)
	if (u.Scheme == "http" && u.Port() == "80") || (u.Scheme == "https" && u.Port() == "443") {
		u.Host = u.Hostname()
	}
	return u, nil
}

type urlError string

func (e urlError) Error() string { return string(e) }

const errNoHost = urlError("no scheme or host")

// whatwgString is URL.toString: a URL with a host and no path gets "/".
func whatwgString(u *url.URL) string {
	if u.Host != "" && u.Path == "" && u.RawPath == "" {
		c := *u
		c.Path = "/"
		return c.String()
	}
	return u.String()
}

// endpoint is the SDK's buildURL for POST /responses: the path appended to
// the base, then the query replaced by api-version (a query in the base
// URL, and whatever of the path landed in it, is lost), without fragment.
func endpoint(base string, version jsonv.Value) string {
	u, err := url.Parse(base + openairesponses.ResponsesPath)
	if err != nil {
		// The base was parsed already; appending a path cannot break it.
		panic(err)
	}
	u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = strings.Join(queryPairs("api-version", stream.JSValue(version)), "&"), false, "", ""
	return u.String()
}

// queryPairs is the SDK's query encoding (qs with bracketed arrays) of the
// parameter key holding v: a scalar is one pair of String(v) (null an
// empty value), an object's members and an array's elements are pairs of
// key[name] and key[], nested as deep as they go; an empty object or
// array is no pair at all.
func queryPairs(key string, v jsonv.Value) []string {
	var out []string
	switch v.Kind() {
	case jsonv.Absent:
	case jsonv.Object:
		for _, m := range v.Members() {
			out = append(out, queryPairs(key+"["+m.Key+"]", m.Value)...)
		}
	case jsonv.Array:
		for _, e := range v.Elems() {
			out = append(out, queryPairs(key+"[]", e)...)
		}
	case jsonv.Null:
		out = append(out, encodeQueryValue(key)+"=")
	default:
		out = append(out, encodeQueryValue(key)+"="+encodeQueryValue(v.JSString()))
	}
	return out
}

// encodeQueryValue is the SDK's query encoding (RFC 3986): everything but
// letters, digits and -._~ percent-encoded as UTF-8.
func encodeQueryValue(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// buildBody is Pi's buildParams for Azure, with its member order:
// model (the deployment), input, stream, prompt_cache_key?, store,
// max_output_tokens?, temperature?, tools?, (1.6: tool_choice?),
// reasoning?, include?.
func buildBody(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, now transform.Clock, body provider.BodySink) error {
	d := opts.Dialect
	if err := openairesponses.Unmodelled(d, model, ctx, opts.StreamOptions); err != nil {
		return err
	}
	c := provider.CompatOf(model)
	body.Begin([]jsonv.Member{{Key: "model", Value: DeploymentName(model, opts)}}, "input")
	if err := openairesponses.ConvertInputIn(d, model, ctx, msgs, normalizeToolCallID(d), now, body); err != nil {
		return err
	}
	b := new(jsonv.ObjectBuilder).SetBool("stream", true)
	// The key ignores the cache retention; 1.6's compat.promptCacheKeyMode
	// "disabled" leaves it out.
	if !openairesponses.PromptCacheKeyDisabled(d, c) {
		key, err := opts.PromptCacheKey()
		if err != nil {
			return err
		}
		b.Set("prompt_cache_key", key)
	}
	b.SetBool("store", false)
	if opts.MaxTokens.Truthy() {
		b.Set("max_output_tokens", openairesponses.MaxOutputTokens(d, opts.MaxTokens))
	}
	if !opts.Temperature.IsAbsent() {
		b.Set("temperature", stream.JSValue(opts.Temperature))
	}
	// Azure's compat.supportsStrictMode defaults to true: strict false stays.
	strict := openairesponses.ToolStrictness{Strict: jsonv.BoolValue(false), Sent: c.Truthy("supportsStrictMode", true)}
	if err := openairesponses.SetToolsIn(d, b, ctx, strict); err != nil {
		return err
	}
	openairesponses.SetToolChoice(d, b, opts.ToolChoice)
	openairesponses.SetReasoningIn(d, b, model, opts.Reasoning, true)
	body.End(b.Members())
	return nil
}
