package wire

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

func zstdBytes(t *testing.T, plain string) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll([]byte(plain), nil)
}

// zstdSubject is echoSubject sending its body zstd-compressed, with
// content-encoding: zstd.
func zstdSubject(t *testing.T, plain string) Subject {
	return echoSubject(func(r *http.Request) {
		packed := zstdBytes(t, plain)
		r.Header.Set("Content-Encoding", "zstd")
		r.Body = io.NopCloser(bytes.NewReader(packed))
		r.ContentLength = int64(len(packed))
	})
}

func TestDecodeBody(t *testing.T) {
	const plain = `{"say":"hello","n":1.0}`
	packed := zstdBytes(t, plain)
	for _, tt := range []struct {
		name     string
		encoding []string
		body     []byte
		want     string
		err      string
	}{
		{"none", nil, []byte(plain), plain, ""},
		{"zstd", []string{"zstd"}, packed, plain, ""},
		{"zstd in another case", []string{" ZSTD "}, packed, plain, ""},
		{"gzip is left alone", []string{"gzip"}, []byte("not decoded"), "not decoded", ""},
		{"zstd that is not zstd", []string{"zstd"}, []byte(plain), "", "decoding the zstd request body"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for _, v := range tt.encoding {
				h.Add("Content-Encoding", v)
			}
			got, err := decodeBody(h, tt.body)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("decodeBody = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// A zstd body is recorded as the JSON it holds, with its content-encoding
// header, and replayed against the same JSON: compressed bytes are never
// compared, so a body compressed at another level matches.
func TestRecordAndReplayZstdBody(t *testing.T) {
	c := loadCase(t, caseFile, nil)
	cas, err := Record(context.Background(), c, zstdSubject(t, `{"say":"hello","n":1.0}`), echoIgnore)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Content-Encoding:\n          - zstd", "\"say\": \"hello\""} {
		if !strings.Contains(string(cas), want) {
			t.Errorf("cassette lacks %q:\n%s", want, cas)
		}
	}
	if _, err := replay(t, c, cas, zstdSubject(t, `{"n":1,"say":"hello"}`)); err != nil {
		t.Errorf("same JSON, compressed again: %v", err)
	}
	_, err = replay(t, c, cas, zstdSubject(t, `{"n":1,"say":"bye"}`))
	if err == nil || !strings.Contains(err.Error(), "/requests/0/body/say") {
		t.Errorf("other JSON: %v, want a difference at /requests/0/body/say", err)
	}
	// The same JSON sent plain differs only by the missing header.
	_, err = replay(t, c, cas, echoSubject(nil))
	if err == nil || !strings.Contains(err.Error(), "content-encoding") || strings.Contains(err.Error(), "/body") {
		t.Errorf("plain body: %v, want only the content-encoding header to differ", err)
	}
}
