package wtf8_test

import (
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/piconform/piconform/reference/wtf8"
)

// u builds a WTF-8 string from UTF-16 code units, the way a JavaScript
// string literal of \u escapes would.
func u(units ...uint16) string { return wtf8.FromUTF16(units) }

// Lone surrogates in their three-byte WTF-8 form.
const (
	hiD83D = "\xed\xa0\xbd" // U+D83D
	loDE00 = "\xed\xb8\x80" // U+DE00
	loDE48 = "\xed\xb9\x88" // U+DE48
	loDC00 = "\xed\xb0\x80" // U+DC00
	hiDBFF = "\xed\xaf\xbf" // U+DBFF
)

func TestEncodingOfSurrogates(t *testing.T) {
	for _, tc := range []struct {
		r    rune
		want string
	}{{0xD83D, hiD83D}, {0xDE00, loDE00}, {0xDC00, loDC00}, {0xDBFF, hiDBFF}, {0xD800, "\xed\xa0\x80"}, {0xDFFF, "\xed\xbf\xbf"}} {
		if got := string(wtf8.AppendRune(nil, tc.r)); got != tc.want {
			t.Errorf("AppendRune(%U) = %q, want %q", tc.r, got, tc.want)
		}
		if r, n := wtf8.Next(tc.want + "x"); r != tc.r || n != 3 {
			t.Errorf("Next(%q) = %U, %d", tc.want, r, n)
		}
		if got := u(uint16(tc.r)); got != tc.want {
			t.Errorf("FromUTF16(%U) = %q, want %q", tc.r, got, tc.want)
		}
	}
	if got := string(wtf8.AppendRune(nil, 'é')); got != "é" {
		t.Errorf("AppendRune(é) = %q", got)
	}
	if r, n := wtf8.Next("\xff"); r != utf8.RuneError || n != 1 {
		t.Errorf("Next(invalid) = %U, %d", r, n)
	}
	if r, n := wtf8.Next(""); r != utf8.RuneError || n != 0 {
		t.Errorf("Next(empty) = %U, %d", r, n)
	}
}

func TestValidAndHasSurrogate(t *testing.T) {
	for _, tc := range []struct {
		s            string
		valid, surro bool
	}{
		{"", true, false},
		{"plain ascii", true, false},
		{"é😀", true, false},
		{hiD83D, true, true},
		{"a" + loDE00 + "b", true, true},
		{hiD83D + loDE00, true, true}, // valid, not canonical
		{"\xff", false, false},
		{"\xed\xa0", false, false},    // cut surrogate
		{"\xed\x9f\xbf", true, false}, // U+D7FF
		{"\xc0\x80", false, false},    // overlong
		{"\xf4\x90\x80\x80", false, false},
	} {
		if got := wtf8.Valid(tc.s); got != tc.valid {
			t.Errorf("Valid(%q) = %v, want %v", tc.s, got, tc.valid)
		}
		if got := wtf8.HasSurrogate(tc.s); got != tc.surro {
			t.Errorf("HasSurrogate(%q) = %v, want %v", tc.s, got, tc.surro)
		}
	}
}

func TestCanonical(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"abc", "abc"},
		{hiD83D + loDE00, "😀"},
		{"a" + hiD83D + loDE00 + "b" + hiD83D + loDE48, "a😀b🙈"},
		{hiD83D + hiD83D + loDE00, hiD83D + "😀"},
		{loDE00 + hiD83D, loDE00 + hiD83D},
		{hiD83D, hiD83D},
		{hiD83D + "x" + loDE00, hiD83D + "x" + loDE00},
		{hiDBFF + "\xed\xbf\xbf", "\U0010FFFF"},
		{"\xff" + hiD83D + loDE00, "\xff😀"}, // invalid bytes are left alone
	} {
		if got := wtf8.Canonical(tc.in); got != tc.want {
			t.Errorf("Canonical(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestConcat(t *testing.T) {
	for _, tc := range []struct {
		parts []string
		want  string
	}{
		{nil, ""},
		{[]string{"a", "b"}, "ab"},
		{[]string{hiD83D, loDE00}, "😀"},                  // a high and a low join into one character
		{[]string{"x" + hiD83D, loDE48 + "y"}, "x🙈y"},    // across the boundary
		{[]string{hiD83D, "", loDE00}, "😀"},              // empty parts do not separate them
		{[]string{loDE00, hiD83D}, loDE00 + hiD83D},      // wrong order stays two lone units
		{[]string{hiD83D, hiD83D, loDE00}, hiD83D + "😀"}, // only the adjacent pair joins
		{[]string{"Ran `", hiD83D, "`\n"}, "Ran `" + hiD83D + "`\n"},
	} {
		got := wtf8.Concat(tc.parts...)
		if got != tc.want {
			t.Errorf("Concat(%q) = %q, want %q", tc.parts, got, tc.want)
		}
		// JavaScript's + concatenates code units.
		var units []uint16
		for _, p := range tc.parts {
			units = append(units, wtf8.ToUTF16(p)...)
		}
		if diff := cmp.Diff(units, wtf8.ToUTF16(got), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("Concat(%q) code units (-want +got):\n%s", tc.parts, diff)
		}
	}
}

func TestUTF16(t *testing.T) {
	for _, tc := range []struct {
		s     string
		units []uint16
	}{
		{"", nil},
		{"aé", []uint16{'a', 0xE9}},
		{"😀", []uint16{0xD83D, 0xDE00}},
		{hiD83D, []uint16{0xD83D}},
		{loDC00 + "x", []uint16{0xDC00, 'x'}},
		{"\U0010FFFF", []uint16{0xDBFF, 0xDFFF}},
		{"\u2028\ufeff\uffff", []uint16{0x2028, 0xFEFF, 0xFFFF}},
		{"\x00", []uint16{0}},
	} {
		if diff := cmp.Diff(tc.units, wtf8.ToUTF16(tc.s), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("ToUTF16(%q) (-want +got):\n%s", tc.s, diff)
		}
		if got := wtf8.FromUTF16(tc.units); got != tc.s {
			t.Errorf("FromUTF16(%v) = %q, want %q", tc.units, got, tc.s)
		}
		if got := wtf8.Len(tc.s); got != len(tc.units) {
			t.Errorf("Len(%q) = %d, want %d", tc.s, got, len(tc.units))
		}
	}
	// A pair given as two lone halves is one character once canonical.
	if got := wtf8.FromUTF16(wtf8.ToUTF16(hiD83D + loDE00)); got != "😀" {
		t.Errorf("FromUTF16(ToUTF16(non-canonical pair)) = %q", got)
	}
	// Bytes that are not WTF-8 read as U+FFFD, one per byte.
	if diff := cmp.Diff([]uint16{'a', 0xFFFD, 0xFFFD, 'b'}, wtf8.ToUTF16("a\xff\xfeb")); diff != "" {
		t.Errorf("ToUTF16(invalid) (-want +got):\n%s", diff)
	}
}

func TestSlice(t *testing.T) {
	s := "a😀b" // units: a D83D DE00 b; JS: s.slice(0, n)
	for _, tc := range []struct {
		n    int
		want string
	}{
		{0, ""},
		{1, "a"},
		{2, "a" + hiD83D}, // cutting inside the pair leaves a lone high surrogate
		{3, "a😀"},
		{4, "a😀b"},
		{100, "a😀b"},
		{-1, "a😀"}, // negative counts from the end, as in JavaScript
		{-2, "a" + hiD83D},
		{-4, ""},
		{-10, ""},
	} {
		if got := wtf8.Slice(s, tc.n); got != tc.want {
			t.Errorf("Slice(%q, %d) = %q, want %q", s, tc.n, got, tc.want)
		}
	}
	if got := wtf8.Slice(hiD83D+"x", 1); got != hiD83D {
		t.Errorf("Slice(lone+x, 1) = %q", got)
	}
	if got := wtf8.Slice("😀", 1); got != hiD83D || wtf8.Len(got) != 1 {
		t.Errorf("Slice(😀, 1) = %q", got)
	}
}

// TestRemoveLoneSurrogates covers every example of san.surrogates and
// san.other-untouched in spec/SPEC.md.
func TestRemoveLoneSurrogates(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []uint16
		want []uint16
	}{
		{"pair kept", units("Hello ", 0xD83D, 0xDE48, " World"), units("Hello ", 0xD83D, 0xDE48, " World")},
		{"lone high", units("Text ", 0xD83D, " here"), units("Text  here")},
		{"lone low", units("Text ", 0xDE48, " here"), units("Text  here")},
		{"low then high", units(0xDE48, 0xD83D), nil},
		{"high high low", units(0xD83D, 0xD83D, 0xDE48), units(0xD83D, 0xDE48)},
		{"high at end", units("ab", 0xD83D), units("ab")},
		{"low at start", units(0xDE48, "ab"), units("ab")},
		{"empty", nil, nil},
		{"high low low", units(0xD83D, 0xDE48, 0xDE48), units(0xD83D, 0xDE48)},
		{"range ends", units(0xD800, 0xDBFF, 0xDC00, 0xDFFF), units(0xDBFF, 0xDC00)},
		{"other untouched", units(0, 1, 0x1F, 0x7F, 0xFEFF, 0xFFFD, 0xFFFE, 0xFFFF, 0xE000, 0x2028, 0x2029, 0x85, "\r\n\r", "e\u0301"),
			units(0, 1, 0x1F, 0x7F, 0xFEFF, 0xFFFD, 0xFFFE, 0xFFFF, 0xE000, 0x2028, 0x2029, 0x85, "\r\n\r", "e\u0301")},
		{"astral untouched", units("\U0001F600\U0010FFFF"), units("\U0001F600\U0010FFFF")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := wtf8.ToUTF16(wtf8.RemoveLoneSurrogates(wtf8.FromUTF16(tc.in)))
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("RemoveLoneSurrogates (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, sanitizeUnits(tc.in), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("the test's model disagrees with the spec example (-want +got):\n%s", diff)
			}
		})
	}
	// A non-canonical pair (two lone halves next to each other) is a pair.
	if got := wtf8.RemoveLoneSurrogates(hiD83D + loDE00); got != "😀" {
		t.Errorf("RemoveLoneSurrogates(non-canonical pair) = %q", got)
	}
	// The result is plain UTF-8.
	if got := wtf8.RemoveLoneSurrogates("a" + hiD83D + "é" + loDC00); got != "aé" || !utf8.ValidString(got) {
		t.Errorf("RemoveLoneSurrogates = %q", got)
	}
}

// units builds UTF-16 code units from strings and single units.
func units(parts ...any) []uint16 {
	var out []uint16
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			out = append(out, wtf8.ToUTF16(p)...)
		case int:
			out = append(out, uint16(p))
		default:
			panic("units: bad part")
		}
	}
	return out
}

// sanitizeUnits is pi-ai's sanitizeSurrogates regular expression,
// /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
// written over code units: lookahead and lookbehind read the input.
func sanitizeUnits(in []uint16) []uint16 {
	isHigh := func(c uint16) bool { return c >= 0xD800 && c <= 0xDBFF }
	isLow := func(c uint16) bool { return c >= 0xDC00 && c <= 0xDFFF }
	var out []uint16
	for i, c := range in {
		if isHigh(c) && !(i+1 < len(in) && isLow(in[i+1])) {
			continue
		}
		if isLow(c) && !(i > 0 && isHigh(in[i-1])) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// FuzzWTF8 checks the package's invariants on arbitrary code units (the
// bytes read as little-endian pairs) and on arbitrary bytes.
func FuzzWTF8(f *testing.F) {
	for _, s := range []string{
		"", "a", "\x3d\xd8", "\x3d\xd8\x00\xde", "\x00\xde\x3d\xd8", "\x3d\xd8\x3d\xd8\x48\xde", "hello world",
		hiD83D + loDE00, "\xff\xfe\xfd", "\xed\xa0", "😀é\u2028",
	} {
		f.Add([]byte(s), 3)
	}
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		in := make([]uint16, len(data)/2)
		for i := range in {
			in[i] = uint16(data[2*i]) | uint16(data[2*i+1])<<8
		}
		s := wtf8.FromUTF16(in)
		if !wtf8.Valid(s) || wtf8.Canonical(s) != s {
			t.Fatalf("FromUTF16(%v) = %q is not canonical WTF-8", in, s)
		}
		if got := wtf8.ToUTF16(s); !slices.Equal(got, in) {
			t.Fatalf("ToUTF16(FromUTF16(%v)) = %v", in, got)
		}
		if wtf8.Len(s) != len(in) {
			t.Fatalf("Len(%q) = %d, want %d", s, wtf8.Len(s), len(in))
		}
		clean := wtf8.RemoveLoneSurrogates(s)
		if got, want := wtf8.ToUTF16(clean), sanitizeUnits(in); !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Fatalf("RemoveLoneSurrogates(%v) = %v, want %v", in, got, want)
		}
		if !utf8.ValidString(clean) || wtf8.HasSurrogate(clean) {
			t.Fatalf("RemoveLoneSurrogates(%q) = %q is not plain UTF-8", s, clean)
		}
		if wtf8.RemoveLoneSurrogates(clean) != clean {
			t.Fatalf("RemoveLoneSurrogates is not idempotent on %q", s)
		}
		// Slice is units[:n] (JavaScript's slice(0, n)).
		end := n
		if end < 0 {
			end = max(len(in)+end, 0)
		}
		end = min(end, len(in))
		if got := wtf8.ToUTF16(wtf8.Slice(s, n)); !slices.Equal(got, in[:end]) && len(got)+end > 0 {
			t.Fatalf("Slice(%v, %d) = %v, want %v", in, n, got, in[:end])
		}
		// Concat of two halves cut anywhere gives the whole back.
		cut := min(max(n, 0), len(in))
		if got := wtf8.Concat(wtf8.FromUTF16(in[:cut]), wtf8.FromUTF16(in[cut:])); got != s {
			t.Fatalf("Concat of %v cut at %d = %q, want %q", in, cut, got, s)
		}

		// Arbitrary bytes: nothing panics, Canonical is idempotent and keeps
		// the code units, and valid input stays valid.
		b := string(data)
		c := wtf8.Canonical(b)
		if wtf8.Canonical(c) != c {
			t.Fatalf("Canonical is not idempotent on %q", b)
		}
		if !slices.Equal(wtf8.ToUTF16(b), wtf8.ToUTF16(c)) {
			t.Fatalf("Canonical(%q) changed the code units", b)
		}
		if wtf8.Valid(b) {
			if !wtf8.Valid(c) {
				t.Fatalf("Canonical(%q) = %q is not valid", b, c)
			}
			if got := wtf8.FromUTF16(wtf8.ToUTF16(b)); got != c {
				t.Fatalf("FromUTF16(ToUTF16(%q)) = %q, want Canonical %q", b, got, c)
			}
			r := wtf8.RemoveLoneSurrogates(b)
			if !utf8.ValidString(r) {
				t.Fatalf("RemoveLoneSurrogates(%q) = %q is not UTF-8", b, r)
			}
		}
		if utf8.ValidString(b) && (c != b || wtf8.HasSurrogate(b)) {
			t.Fatalf("plain UTF-8 %q changed or has surrogates", b)
		}
		_ = wtf8.Slice(b, n)
		_ = wtf8.Len(b)
	})
}
