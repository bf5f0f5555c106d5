package bedrock

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// unsignedHeaders are never part of a SigV4 signature.
var unsignedHeaders = []string{
	"authorization", "cache-control", "connection", "expect", "from", "keep-alive", "max-forwards",
	"pragma", "referer", "te", "trailer", "transfer-encoding", "upgrade", "user-agent", "x-amzn-trace-id",
}

// payload takes a body's bytes as they are written and keeps what SigV4
// signs of them, their SHA-256 and their length, so that a streamed body
// is signed without being held.
type payload struct {
	sum hash.Hash
	n   int
}

func newPayload() *payload { return &payload{sum: sha256.New()} }

func (p *payload) Write(b []byte) (int, error) {
	p.n += len(b)
	return p.sum.Write(b)
}

// signV4 adds x-amz-date, x-amz-content-sha256, x-amz-security-token (with
// a session token) and authorization to h: AWS Signature Version 4 over
// the method, the path (each segment escaped once more), the headers
// (with host and content-length as the client sends them) and the body,
// whose bytes body took.
func signV4(method string, u *url.URL, h http.Header, body *payload, c credentials, region string, at time.Time) {
	amzDate := at.Format("20060102T150405Z")
	day := amzDate[:8]
	payloadHash := hex.EncodeToString(body.sum.Sum(nil))
	h.Set("x-amz-date", amzDate)
	h.Set("x-amz-content-sha256", payloadHash)
	if c.sessionToken != "" {
		h.Set("x-amz-security-token", c.sessionToken)
	}

	signed := map[string]string{"host": u.Host, "content-length": strconv.Itoa(body.n)}
	for name, vs := range h {
		l := strings.ToLower(name)
		if slices.Contains(unsignedHeaders, l) {
			continue
		}
		signed[l] = strings.Join(strings.Fields(strings.Join(vs, ",")), " ")
	}
	names := make([]string, 0, len(signed))
	for n := range signed {
		names = append(names, n)
	}
	slices.Sort(names)
	var canonHeaders strings.Builder
	for _, n := range names {
		canonHeaders.WriteString(n + ":" + signed[n] + "\n")
	}
	signedNames := strings.Join(names, ";")

	segments := strings.Split(u.EscapedPath(), "/")
	for i, s := range segments {
		segments[i] = awsEscape(s)
	}
	canonical := strings.Join([]string{
		method, strings.Join(segments, "/"), u.RawQuery, canonHeaders.String(), signedNames, payloadHash,
	}, "\n")
	scope := day + "/" + region + "/" + SigningService + "/aws4_request"
	canonSum := sha256.Sum256([]byte(canonical))
	toSign := "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + hex.EncodeToString(canonSum[:])

	key := hmacSHA256([]byte("AWS4"+c.secretAccessKey), day)
	for _, part := range []string{region, SigningService, "aws4_request"} {
		key = hmacSHA256(key, part)
	}
	sig := hex.EncodeToString(hmacSHA256(key, toSign))
	h.Set("authorization", "AWS4-HMAC-SHA256 Credential="+c.accessKeyID+"/"+scope+", SignedHeaders="+signedNames+", Signature="+sig)
}

func hmacSHA256(key []byte, data string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(data))
	return m.Sum(nil)
}

// awsEscape is the SDK's escapeUri: every byte outside A-Z a-z 0-9 - _ . ~
// percent-encoded, upper-case hex.
func awsEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
		} else {
			b.WriteString("%" + strings.ToUpper(hex.EncodeToString([]byte{c})))
		}
	}
	return b.String()
}
