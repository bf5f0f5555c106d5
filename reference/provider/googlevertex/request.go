// Package googlevertex is the Go reference for Pi's google-vertex API
// (pi-ai 0.80.2, dist/api/google-vertex.js with @google/genai 1.52.0 in
// Vertex AI mode). It converts the messages, merges the headers and reads
// the answer as google-generative-ai does, so it is built on package
// google and keeps only the differences:
//
//   - options.go  the google options plus project, location and env
//     (DecodeOptions)
//   - request.go  key resolution, the Vertex URL, the thinking settings
//     and the SDK's Vertex key order (Build, BuildRequest)
//   - stream.go   the answer and HTTP errors, read by package google
package googlevertex

import (
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/google"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// API is the model.api value this package serves.
const API = "google-vertex"

// Literals Pi and the SDK put on the wire.
const (
	// APIVersion is added to a base URL that names no version.
	APIVersion = "v1"
	// ExpressBaseURL is the SDK's host for a key when the model has no
	// usable base URL.
	ExpressBaseURL = "https://aiplatform.googleapis.com"
	// LocationPlaceholder in a base URL makes Pi ignore it.
	LocationPlaceholder = "{location}"
	// CredentialsMarker as the key means "use Google credentials".
	CredentialsMarker = "gcp-vertex-credentials"
	// Texts of Pi's failures when there is no usable key.
	NoProjectText  = "Vertex AI requires a project ID. Set GOOGLE_CLOUD_PROJECT/GCLOUD_PROJECT or pass project in options."
	NoLocationText = "Vertex AI requires a location. Set GOOGLE_CLOUD_LOCATION or pass location in options."
)

// ErrCredentials is returned when there is no usable key but a project
// and a location: Pi then asks Google's auth library for credentials
// (ADC), which looks outside the process. The reference does not model
// that mode.
var ErrCredentials = errors.New("googlevertex: Google credentials (ADC) mode is outside the model")

// ErrBaseURLQuery is returned for a base URL holding a query or a
// fragment, whose URL the SDK rewrites in ways the reference does not
// model.
var ErrBaseURLQuery = errors.New("googlevertex: a base URL with a query or fragment is outside the model")

var placeholderKey = regexp.MustCompile(`^<[^>]+>$`)

// ResolveKey is the key Pi uses: options.apiKey trimmed, or "" (Google
// credentials mode) when that is empty, the credentials marker or a
// placeholder in angle brackets.
func ResolveKey(opts Options) string {
	key := stream.JSTrim(provider.OrEmpty(opts.APIKey))
	if key == CredentialsMarker || placeholderKey.MatchString(key) {
		return ""
	}
	return key
}

// Build builds the request Pi's stream(model, ctx, opts) sends in the
// options' dialect with a key, with the context's messages read from msgs and the body
// handed to body (provider.StreamBuild). now stamps synthetic tool results.
// A *stream.RequestError means Pi sends nothing and fails with that
// message; ErrCredentials and ErrBaseURLQuery mark inputs the reference
// does not model.
func Build(model *ai.Model, ctx *ai.Context, msgs provider.Transcript, opts Options, now transform.Clock, body provider.BodySink) (*provider.Call, error) {
	key := ResolveKey(opts)
	if key == "" {
		if !anySet(opts.Project, opts.EnvValue("GOOGLE_CLOUD_PROJECT"), opts.EnvValue("GCLOUD_PROJECT")) {
			return nil, &stream.RequestError{Message: NoProjectText}
		}
		if !anySet(opts.Location, opts.EnvValue("GOOGLE_CLOUD_LOCATION")) {
			return nil, &stream.RequestError{Message: NoLocationText}
		}
		return nil, ErrCredentials
	}
	d := opts.Dialect
	// Pi makes the client, with its headers, before the parameters.
	header, err := google.Headers(model, opts.Options, key)
	if err != nil {
		return nil, err
	}
	n, err := google.StreamContents(d, model, ctx, msgs, now, body, google.VertexContent(d))
	if err != nil {
		return nil, err
	}
	// Pi converts the messages before it reads the id (strict tools).
	if err := google.CheckID(d, model); err != nil {
		return nil, err
	}
	// Pi maps the thinking level as it builds the parameters, before the
	// SDK checks the call.
	tail, err := google.BodyTail(model, ctx, opts.Options, vertex)
	if err != nil {
		return nil, err
	}
	if err := google.CheckCallIn(opts.Dialect, &opts.StreamOptions, model, n, key); err != nil {
		return nil, err
	}
	endpoint, err := Endpoint(model.BaseURL, ResourceName(model.ID))
	if err != nil {
		return nil, err
	}

	if google.SDKMajor(d) == 1 {
		tail = vertexOrder(jsonv.ObjectValue(tail...)).Members()
	}
	body.End(tail)
	req := provider.Request{Method: http.MethodPost, URL: endpoint, Header: header}
	return &provider.Call{Request: req, Read: func(resp *http.Response) (*ai.AssistantMessage, []stream.Event, error) {
		// The reading is google's; only the message's api differs.
		return answer.Read(d, model, resp, now)
	}}, nil
}

// BuildRequest is Build with the whole body in the Call.
func BuildRequest(model *ai.Model, ctx *ai.Context, opts Options, now transform.Clock) (*provider.Call, error) {
	return Driver.BuildRequest(model, ctx, &opts, now)
}

// ResourceName is the SDK's Vertex name of a model: ids starting with
// publishers/, projects/ or models/ are kept; "<publisher>/<model>…"
// becomes publishers/<publisher>/models/<model> (anything after a second
// slash is lost); any other id is a Google model.
func ResourceName(id string) string {
	switch {
	case strings.HasPrefix(id, "publishers/"), strings.HasPrefix(id, "projects/"), strings.HasPrefix(id, "models/"):
		return id
	case strings.Contains(id, "/"):
		parts := strings.SplitN(id, "/", 3)
		return "publishers/" + parts[0] + "/models/" + parts[1]
	}
	return "publishers/google/models/" + id
}

var versionSegment = regexp.MustCompile(`^v\d+(?:beta\d*)?$`)
var versionInText = regexp.MustCompile(`(?:^|/)v\d+(?:beta\d*)?(?:/|$)`)

// Endpoint is the streaming URL for the resource name under a model's base
// URL: the base URL trimmed, without one trailing slash, plus /v1 unless
// one of its path segments already names a version (v1, v1beta1, v2, …).
// A blank base URL, or one holding "{location}", is the SDK's express host
// with /v1.
func Endpoint(baseURL, name string) (string, error) {
	base := stream.JSTrim(baseURL)
	if base == "" || strings.Contains(base, LocationPlaceholder) {
		return ExpressBaseURL + "/" + APIVersion + "/" + name + google.StreamMethod, nil
	}
	if strings.ContainsAny(base, "?#") {
		return "", ErrBaseURLQuery
	}
	root := strings.TrimSuffix(base, "/")
	if !namesVersion(base) {
		root += "/" + APIVersion
	}
	return root + "/" + name + google.StreamMethod, nil
}

func namesVersion(base string) bool {
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" {
		return versionInText.MatchString(base)
	}
	for _, seg := range strings.Split(u.EscapedPath(), "/") {
		if versionSegment.MatchString(seg) {
			return true
		}
	}
	return false
}

// vertex is this API's google.Variant: its own thinkingConfig to turn
// thinking off in 0.80, and thinking.level looked up in Pi's map of the
// SDK's level names in every dialect.
var vertex = google.Variant{Off: disabledThinking, MapsLevel: true}

var (
	gemini3Pro   = regexp.MustCompile(`gemini-3(?:\.\d+)?-pro`)
	gemini3Flash = regexp.MustCompile(`gemini-3(?:\.\d+)?-flash`)
)

// disabledThinking is the thinkingConfig that turns thinking off: the
// lowest level for Gemini 3 Pro and Flash, a zero budget for every other
// model (Gemma 4 included, unlike google-generative-ai).
func disabledThinking(model *ai.Model) jsonv.Value {
	id := strings.ToLower(model.ID)
	switch {
	case gemini3Pro.MatchString(id):
		return new(jsonv.ObjectBuilder).SetString("thinkingLevel", "LOW").Value()
	case gemini3Flash.MatchString(id) || id == "gemini-flash-latest" || id == "gemini-flash-lite-latest":
		return new(jsonv.ObjectBuilder).SetString("thinkingLevel", "MINIMAL").Value()
	}
	return new(jsonv.ObjectBuilder).Set("thinkingBudget", jsonv.NumberValue("0")).Value()
}

// vertexOrder rewrites the members of google's body after contents as
// the Vertex serializer of the SDK's version 1 does: a function
// declaration as
// {description, name, parametersJsonSchema} without the members that are
// null. Nothing else moves.
func vertexOrder(body jsonv.Value) jsonv.Value {
	return mapMembers(body, func(key string, v jsonv.Value) jsonv.Value {
		switch key {
		case "tools":
			return mapElems(v, func(tool jsonv.Value) jsonv.Value {
				return mapMembers(tool, func(key string, v jsonv.Value) jsonv.Value {
					if key != "functionDeclarations" {
						return v
					}
					return mapElems(v, func(d jsonv.Value) jsonv.Value {
						return google.SDKCopy(d, "description", "name", "parametersJsonSchema")
					})
				})
			})
		}
		return v
	})
}

func mapMembers(obj jsonv.Value, f func(key string, v jsonv.Value) jsonv.Value) jsonv.Value {
	if obj.Kind() != jsonv.Object {
		return obj
	}
	members := make([]jsonv.Member, len(obj.Members()))
	for i, m := range obj.Members() {
		members[i] = jsonv.Member{Key: m.Key, Value: f(m.Key, m.Value)}
	}
	return jsonv.ObjectValue(members...)
}

func mapElems(arr jsonv.Value, f func(jsonv.Value) jsonv.Value) jsonv.Value {
	if arr.Kind() != jsonv.Array {
		return arr
	}
	elems := make([]jsonv.Value, len(arr.Elems()))
	for i, e := range arr.Elems() {
		elems[i] = f(e)
	}
	return jsonv.ArrayValue(elems...)
}
