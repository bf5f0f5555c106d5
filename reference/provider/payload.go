package provider

import (
	"strings"

	"github.com/klauspost/compress/zstd"
)

// Payload is the request's body as sent: Body's JSON, zstd-compressed when
// the request's Content-Encoding says zstd (Pi 1.6's openai-codex-responses
// compresses its body on the SSE path). The compressed bytes depend on the
// compressor and its level, so a harness compares the JSON they hold.
func (r Request) Payload() []byte {
	body := r.Body.AppendJSON(nil)
	if !strings.EqualFold(strings.TrimSpace(r.Header.Get("Content-Encoding")), "zstd") {
		return body
	}
	return zstdEncoder.EncodeAll(body, nil)
}

// zstdEncoder compresses at zstd's default level (3, the level Pi uses).
var zstdEncoder, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
