package wire

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// A request body may be sent compressed: Pi 1.6's openai-codex-responses
// sends its JSON body zstd-compressed with "content-encoding: zstd". The
// harness never compares compressed bytes, which depend on the compressor
// and its level: it decodes the body first, and compares (and records) the
// JSON it holds. The content-encoding header itself is compared as any
// other header.

// decodeBody is body as the request's Content-Encoding says to decode it.
// Only zstd is decoded; a body without that encoding is returned as it is.
// The decoded body is held to MaxRequestBytes, as a plain one is.
func decodeBody(h http.Header, body []byte) ([]byte, error) {
	if !isZstd(h) {
		return body, nil
	}
	dec, err := zstd.NewReader(bytes.NewReader(body), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(MaxRequestBytes))
	if err != nil {
		return nil, fmt.Errorf("decoding the zstd request body: %w", err)
	}
	defer dec.Close()
	out, err := io.ReadAll(io.LimitReader(dec, MaxRequestBytes+1))
	if err != nil {
		return nil, fmt.Errorf("decoding the zstd request body: %w", err)
	}
	if len(out) > MaxRequestBytes {
		return nil, errBodyTooBig(MaxRequestBytes)
	}
	return out, nil
}

// isZstd tells whether the request's Content-Encoding is zstd (one coding,
// any case).
func isZstd(h http.Header) bool {
	return strings.EqualFold(strings.TrimSpace(strings.Join(h.Values("Content-Encoding"), ",")), "zstd")
}

// readDecodedBody is readBody, then decodeBody.
func readDecodedBody(r *http.Request, limit int64) ([]byte, error) {
	body, err := readBody(r, limit)
	if err != nil {
		return nil, err
	}
	return decodeBody(r.Header, body)
}

// decoding is a recording client's transport: it hands next the request
// with its body decoded (decodeBody) and its Content-Encoding header kept,
// so that the cassette holds the JSON and the header says how it was sent.
type decoding struct{ next http.RoundTripper }

func (d decoding) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body == nil || !isZstd(req.Header) {
		return d.next.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	plain, err := decodeBody(req.Header, body)
	if err != nil {
		return nil, err
	}
	r := req.Clone(req.Context())
	r.Body = io.NopCloser(bytes.NewReader(plain))
	r.ContentLength = int64(len(plain))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(plain)), nil }
	return d.next.RoundTrip(r)
}
