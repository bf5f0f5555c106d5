package provider

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/httpheader"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/wtf8"
)

// The runtime Pi's texts name, which the reference writes as the suite's
// machine has it: the Node of the pi-ts adapter
// (adapters/pi-ts/node_modules/node) on Linux x64. A harness compares them
// only with --strict-identity (identity headers, runtime texts).
const (
	NodeVersion  = "v22.23.3"
	NodePlatform = "linux"
	NodeArch     = "x64"
)

// PiIdentity is the identity header Pi 1.6 sends on its own in every API:
// its detailed user-agent, whatever the version and the runtime. A
// recorded user-agent of this form is the client's identity
// (wire.request.identity); "pi" (identity.userAgent "short") and a custom
// one are the caller's choice, compared as they are.
var PiIdentity = IdentityHeader{Name: "user-agent", Value: "pi/* (*)"}

// UserAgent is the user-agent Pi of dialect d names itself with, as its
// formatUserAgent makes it of the caller's identity option (Absent when
// none): userAgent "short" is "pi", userAgent {custom} that text, else
// "pi/<version> (<platform>; node/<Node version>; <arch>)" with the
// identity's version, or the release's. ok is false for a dialect whose
// Pi sends none (0.80). Where Pi throws reading the option (a null
// userAgent object, a value with no string form) UserAgent throws a
// stream.JSError; a custom value of another type than string, which Pi
// hands the SDK as it is, is not modelled (stream.ErrOutsideModel).
func UserAgent(d dialect.Dialect, identity jsonv.Value) (ua string, ok bool, err error) {
	if !sendsIdentity.At(d) {
		return "", false, nil
	}
	mode := stream.Nullish(stream.Member(identity, "userAgent"), jsonv.StringValue("detailed"))
	switch {
	case mode.Kind() == jsonv.Object || mode.Kind() == jsonv.Array || mode.Kind() == jsonv.Null:
		custom := stream.Prop(mode, "custom")
		if custom.Kind() != jsonv.String {
			return "", true, errOutsideIdentity
		}
		return custom.Str(), true, nil
	case mode.Kind() == jsonv.String && mode.Str() == "short":
		return "pi", true, nil
	}
	version := stream.Nullish(stream.Member(identity, "version"), jsonv.StringValue(d.Release()))
	return wtf8.Concat("pi/", stream.ToString(version), " (", NodePlatform, "; node/", NodeVersion, "; ", NodeArch, ")"), true, nil
}

// errOutsideIdentity refuses an identity member of another type than
// string that Pi hands the SDK as a header value as it is.
var errOutsideIdentity = fmt.Errorf("%w: an identity header value that is not a string", stream.ErrOutsideModel)

// IdentityHeaders is the lowest layer of the headers Pi of dialect d sends
// to model (getIdentityHeaders, from 1.6 on): its User-Agent, then the
// caller's attribution headers where the provider reads one. Each API puts
// the model's headers and then the caller's over it. Nil in 0.80. It
// throws and fails as UserAgent does.
func IdentityHeaders(d dialect.Dialect, model *ai.Model, identity jsonv.Value) ([]httpheader.Header, error) {
	ua, ok, err := UserAgent(d, identity)
	if !ok || err != nil {
		return nil, err
	}
	attr, err := attributionHeaders(model, identity)
	return append([]httpheader.Header{httpheader.New("User-Agent", ua)}, attr...), err
}

// attributionHeaders are the headers of identity.attribution ({name, url,
// categories}) for the providers that read them: OpenRouter
// (HTTP-Referer, X-OpenRouter-Title, X-OpenRouter-Categories joined with
// ","), NVIDIA NIM (X-BILLING-INVOKE-ORIGIN, the name capitalized) and
// OpenCode (x-opencode-client). A provider is told by its name or its base
// URL.
func attributionHeaders(model *ai.Model, identity jsonv.Value) ([]httpheader.Header, error) {
	attr := stream.Member(identity, "attribution")
	if !attr.Truthy() {
		return nil, nil
	}
	name, link, cats := stream.Member(attr, "name"), stream.Member(attr, "url"), stream.Member(attr, "categories")
	provider := model.ProviderValue()
	is := func(names ...string) bool {
		for _, n := range names {
			if provider.Kind() == jsonv.String && provider.Str() == n {
				return true
			}
		}
		return false
	}
	switch {
	case is("openrouter") || strings.Contains(model.BaseURL, "openrouter.ai"):
		if link.Kind() != jsonv.String || name.Kind() != jsonv.String {
			return nil, errOutsideIdentity
		}
		out := []httpheader.Header{httpheader.New("HTTP-Referer", link.Str()), httpheader.New("X-OpenRouter-Title", name.Str())}
		if n := cats.Elems(); cats.Kind() == jsonv.Array && len(n) > 0 {
			parts := make([]string, len(n))
			for i, c := range n {
				parts[i] = stream.ToJoinString(c)
			}
			out = append(out, httpheader.New("X-OpenRouter-Categories", wtf8.Concat(strings.Join(parts, ","))))
		} else if !cats.IsAbsent() && cats.Kind() != jsonv.Array {
			return nil, errOutsideIdentity
		}
		return out, nil
	case is("nvidia") || hostIs(model.BaseURL, "integrate.api.nvidia.com"):
		if name.Kind() != jsonv.String {
			return nil, errOutsideIdentity
		}
		units := wtf8.ToUTF16(name.Str())
		if len(units) == 0 {
			return []httpheader.Header{httpheader.New("X-BILLING-INVOKE-ORIGIN", "")}, nil
		}
		first := strings.ToUpper(wtf8.FromUTF16(units[:1])) // charAt(0).toUpperCase()
		return []httpheader.Header{httpheader.New("X-BILLING-INVOKE-ORIGIN", wtf8.Concat(first, wtf8.FromUTF16(units[1:])))}, nil
	case is("opencode", "opencode-go") || hostIs(model.BaseURL, "opencode.ai"):
		if name.Kind() != jsonv.String {
			return nil, errOutsideIdentity
		}
		return []httpheader.Header{httpheader.New("x-opencode-client", name.Str())}, nil
	}
	return nil, nil
}

// hostIs tells whether the URL's host name is host (false for a URL that
// does not parse), as new URL(baseUrl).hostname does.
func hostIs(base, host string) bool {
	u, err := url.Parse(base)
	return err == nil && u.Scheme != "" && strings.EqualFold(u.Hostname(), host)
}
