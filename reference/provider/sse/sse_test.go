package sse

import (
	"strings"
	"testing"
)

func TestDecodeUTF8MaximalSubparts(t *testing.T) {
	for in, want := range map[string]string{
		"a\xe2\x82b":       "a\uFFFDb",           // one U+FFFD for a truncated sequence
		"\xc0\xaf":         "\uFFFD\uFFFD",       // never-valid lead, then a stray continuation
		"\xed\xa0\x80":     "\uFFFD\uFFFD\uFFFD", // a surrogate is not UTF-8
		"\xf0\x9f\x98\x80": "😀",
	} {
		if got := DecodeUTF8([]byte(in)); got != want {
			t.Errorf("DecodeUTF8(%q) = %q, want %q", in, got, want)
		}
	}
	if got := string(TrimIncomplete([]byte("a\xf0\x9f\x98"))); got != "a" {
		t.Errorf("TrimIncomplete kept %q", got)
	}
}

func joinData(evs []Event) string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Data)
	}
	return strings.Join(out, "|")
}

// TestReaderDialects shows the two differences between Pi's reader and the
// openai SDK's: which BOMs are dropped and whether an unfinished event is
// dispatched at the end.
func TestReaderDialects(t *testing.T) {
	body := "\uFEFFdata: a\r\n\r\n\uFEFFdata: b\n\ndata: c"
	for _, tc := range []struct {
		r    Reader
		want string
	}{
		{Reader{}, "a|c"}, // "\uFEFFdata" is not a field for Pi
		{Reader{BOMEachLine: true, DropUnfinished: true}, "a|b"},
	} {
		var got []Event
		for i := 0; i < len(body); i++ {
			got = append(got, tc.r.Feed([]byte{body[i]}, false)...)
		}
		got = append(got, tc.r.Feed(nil, true)...)
		if joinData(got) != tc.want {
			t.Errorf("%+v: events %q, want %q", tc.r, joinData(got), tc.want)
		}
	}
}

func TestSplitter(t *testing.T) {
	var s Splitter
	var got []string
	for _, c := range []string{"\xef\xbb", "\xbfa\r", "\nb\r\r\xe2\x82", "\xacc\r\n\r\nrest"} {
		got = append(got, s.Feed([]byte(c))...)
	}
	if strings.Join(got, "|") != "a\r\nb|€c" || s.Rest() != "rest" {
		t.Errorf("pieces %q, rest %q", got, s.Rest())
	}
}
