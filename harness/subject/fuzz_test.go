package subject

import (
	"bytes"
	"io"
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
)

// oneByteReader reads one byte at a time, so every read boundary is tried.
type oneByteReader struct{ r io.Reader }

func (o oneByteReader) Read(p []byte) (int, error) { return o.r.Read(p[:min(len(p), 1)]) }

// FuzzFrameReader: whatever an implementation writes, the frame reader
// (readLines, then the hello and reply parsers) neither panics nor hangs;
// each line it hands on is non-blank, within MaxFrameBytes, cut only at a
// newline, and the lines are the input in order; the stream ends with an
// error.
func FuzzFrameReader(f *testing.F) {
	for _, s := range []string{
		"",
		`{"type":"hello","protocol":1,"implementation":{"name":"x","version":"1","language":"go","kinds":["a"]}}` + "\n",
		`{"type":"result","seq":1,"output":{"t":"\ud83d"}}` + "\n" + `{"type":"skip","seq":2,"reason":"r"}`,
		"\n\n  \r\n{\"type\":\"error\",\"seq\":1e400,\"message\":\"m\"}\n",
		"garbage\x00\xff\n[1,2]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ch := make(chan line, 1)
		go readLines(oneByteReader{bytes.NewReader(data)}, ch, nil)
		var got []byte
		var last line
		for l := range ch {
			last = l
			if l.err != nil {
				continue
			}
			if len(bytes.TrimSpace(l.data)) == 0 || len(l.data) > MaxFrameBytes {
				t.Fatalf("line %q: blank or too long", l.data)
			}
			if i := bytes.IndexByte(l.data, '\n'); i >= 0 && i != len(l.data)-1 {
				t.Fatalf("line %q holds a newline inside", l.data)
			}
			got = append(got, l.data...)
			if v, err := jsonv.Parse(l.data); err == nil {
				_, _ = parseHello(v)
				_, _ = parseReply(v, 1)
			}
		}
		if last.err == nil {
			t.Fatal("the stream did not end with an error")
		}
		var want []byte
		for _, l := range bytes.SplitAfter(data, []byte("\n")) {
			if len(bytes.TrimSpace(l)) > 0 {
				want = append(want, l...)
			}
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("lines %q, want %q", got, want)
		}
	})
}
