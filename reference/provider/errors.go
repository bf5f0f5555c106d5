package provider

import (
	"strconv"
	"strings"

	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/wtf8"
)

// MaxErrorBodyChars is where Pi cuts an HTTP error body it quotes (UTF-16
// units).
const MaxErrorBodyChars = 4000

// TruncateErrorText is Pi's truncateErrorText: text as it is when it has at
// most max UTF-16 units, else its first max units (a surrogate pair may be
// cut) and "... [truncated <n> chars]", n the units left out.
func TruncateErrorText(text string, max int) string {
	n := wtf8.Len(text)
	if n <= max {
		return text
	}
	return wtf8.Slice(text, max) + "... [truncated " + strconv.Itoa(n-max) + " chars]"
}

// ProviderErrorText is how Pi 1.6 words an SDK's error for an HTTP
// response (normalizeProviderError, then formatProviderError): status is
// the response's (0 when the error has none), message the SDK's own
// message, body the error body the SDK kept ("" when none: each SDK keeps
// it under its own name), prefix "" or the API's name. The body is trimmed
// and cut at MaxErrorBodyChars. When there is no status or no body, or the
// message already holds the body, the message stands, after "<prefix>
// (<status>): " when there are both; otherwise the body stands for it:
// "<status>: <body>", or "<prefix> (<status>): <body>".
func ProviderErrorText(status int, message, body, prefix string) string {
	body = stream.JSTrim(body)
	if body != "" {
		body = TruncateErrorText(body, MaxErrorBodyChars)
	}
	if status == 0 || body == "" || strings.Contains(message, body) {
		if prefix != "" && status != 0 {
			return prefix + " (" + strconv.Itoa(status) + "): " + message
		}
		return message
	}
	if prefix != "" {
		return prefix + " (" + strconv.Itoa(status) + "): " + body
	}
	return strconv.Itoa(status) + ": " + body
}
