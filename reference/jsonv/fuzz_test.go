package jsonv_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/wtf8"
)

// FuzzParse: Parse never panics; whatever it accepts encoding/json accepts
// too; what it returns prints (compact and indented) to JSON that parses
// back to an Equal value, and printing is stable after one round.
func FuzzParse(f *testing.F) {
	jsonvtest.AddFiles(f, "../../fixtures/*/*.json", "../../golden/*/*.json")
	for _, s := range []string{
		`"\ud83d"`, `"\ud83d\ude00"`, `"\ude00\ud83d"`, `[12345678901234567890,1e400,-0]`,
		`{"a":1,"a":2}`, `{"\u0000":"\u2028"}`, `[[[[]]]]`, `"\ud800\\"`, `1E+2`, `[` + strings.Repeat("[", 1100),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := jsonv.Parse(data)
		if err != nil {
			var se *jsonv.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse error %T is not a *SyntaxError: %v", err, err)
			}
			if se.Offset < 0 || se.Offset > len(data) || se.Line < 1 || se.Column < 1 {
				t.Fatalf("bad error position: %+v", se)
			}
			// encoding/json takes invalid UTF-8 (it substitutes U+FFFD); JSON does not.
			if json.Valid(data) && utf8.Valid(data) && !strings.Contains(se.Msg, "nesting") {
				t.Fatalf("encoding/json accepts %q but Parse says %v", data, err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("Parse accepted %q, which encoding/json rejects", data)
		}
		checkStrings(t, v)
		out := v.AppendJSON(nil)
		v2, err := jsonv.Parse(out)
		if err != nil {
			t.Fatalf("AppendJSON wrote %q, which does not parse: %v", out, err)
		}
		if !jsonv.Equal(v, v2) {
			t.Fatalf("round trip changed the value:\n in: %q\nout: %q", data, out)
		}
		if out2 := v2.AppendJSON(nil); !bytes.Equal(out, out2) {
			t.Fatalf("printing is not stable:\n%q\n%q", out, out2)
		}
		ind := v.AppendIndent(nil)
		v3, err := jsonv.Parse(ind)
		if err != nil || !jsonv.Equal(v, v3) {
			t.Fatalf("AppendIndent wrote %q: %v", ind, err)
		}
		if bytes.ContainsAny(out, "\n\r\t") {
			t.Fatalf("compact output holds a raw line break or tab: %q", out)
		}
		// ParseString reads the same value; Parse's result owns its text.
		vs, err := jsonv.ParseString(string(data))
		if err != nil || !bytes.Equal(vs.AppendJSON(nil), out) {
			t.Fatalf("ParseString(%q) = %s, %v; Parse gave %s", data, vs, err, out)
		}
		for i := range data {
			data[i] = 'x'
		}
		if after := v.AppendJSON(nil); !bytes.Equal(after, out) {
			t.Fatalf("overwriting the input changed Parse's result from %s to %s", out, after)
		}
	})
}

// checkStrings: every string and key is canonical WTF-8.
func checkStrings(t *testing.T, v jsonv.Value) {
	v.EachString(func(s string) {
		if !wtf8.Valid(s) || wtf8.Canonical(s) != s {
			t.Fatalf("Parse gave a string that is not canonical WTF-8: %q", s)
		}
	})
}

// FuzzAppendString: a string is written as its canonical WTF-8 form is
// (a pair of surrogates as its character), and a valid one parses back to
// that form.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain text of more than eight bytes", "a\"b\\c\n\x01\x7f", "é😀",
		"\xed\xa0\xbd\xed\xb8\x80", "\xed\xa0\xbdx", "x\xed\xb8\x80", "\xff", "\xed\xa0\xbd\xed\xa0\xbd\xed\xb8\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := jsonv.AppendString(nil, s)
		if want := jsonv.AppendString(nil, wtf8.Canonical(s)); !bytes.Equal(out, want) {
			t.Fatalf("AppendString(%q) = %s, but %s for its canonical form", s, out, want)
		}
		if !wtf8.Valid(s) {
			return
		}
		v, err := jsonv.Parse(out)
		if err != nil || v.Str() != wtf8.Canonical(s) {
			t.Fatalf("AppendString(%q) = %s, which parses to %q, %v", s, out, v.Str(), err)
		}
	})
}
