package jsonv_test

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/wtf8"
)

// mustParse parses JSON text a test wrote, or fails the test.
var mustParse = jsonvtest.Parse

// TestRoundTripStringify: text JSON.stringify wrote parses and prints back
// byte for byte (outputs checked with Node 22).
func TestRoundTripStringify(t *testing.T) {
	for _, s := range []string{
		`null`, `true`, `false`, `0`, `-1.5`, `""`, `[]`, `{}`,
		`"\ud83d"`, `"\udc00"`, `"\ude48\ud83d"`, `"\ud83d🙈"`, `"x\udbff"`,
		`"\u0000\u0001\u001f"`, "\"\x7f\u0080\"",
		`"\b\f\n\r\t\"\\/"`, "\"\u2028\u2029\"", "\"\ufeff\ufffd\ufffe\uffff\"", `"é"`, `"😀"`, `"<script>&'"`,
		`12345678901234567890`, `1e400`, `-0`, `1E5`, `0.1e-2`, `9007199254740993`, `-1e-400`,
		`{"a":[1,{"b":[]},{}],"c":{},"d":"x","e":[[]],"f":null,"g":true}`,
		`{"role":"user","content":[{"type":"text","text":"\ud83d lone"}],"timestamp":1767225600000}`,
		`{"":1,"a b":{"\n":[1,2,3]},"~/":"x"}`,
		`{"b":1,"a":2}`, // key order kept
		`{"a":1,"a":2}`, // duplicates kept as written
	} {
		v := mustParse(t, s)
		if got := string(v.AppendJSON(nil)); got != s {
			t.Errorf("Parse(%s).AppendJSON = %s", s, got)
		}
		if got := v.String(); got != s {
			t.Errorf("Parse(%s).String = %s", s, got)
		}
	}
}

// TestParseCanonicalizes: other spellings parse to the string JSON.stringify
// would write.
func TestParseCanonicalizes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"\ud83d\ude00"`, `"😀"`},             // an escaped pair is the character
		{`"\uD83D\uDE00"`, `"😀"`},             // upper-case hex
		{`"\ud83d\u0041"`, `"\ud83dA"`},       // high then not-low
		{`"\ud83d\ud83d\ude00"`, `"\ud83d😀"`}, // the second high pairs
		{`"\ude00\ud83d"`, `"\ude00\ud83d"`},  // reversed: two lone
		{`"\u00e9\u0041\/"`, `"éA/"`},
		{`"\u2028"`, "\"\u2028\""},
		{`"\u007f"`, "\"\x7f\""},
		{`"\u001F"`, `"\u001f"`},
		{` [ 1 , { "a" : null } ] `, `[1,{"a":null}]`},
		{"\t\r\n{}\n", `{}`},
		{`"a\ud83d` + `\ude00b"`, `"a😀b"`},
	} {
		if got := mustParse(t, tc.in).String(); got != tc.want {
			t.Errorf("Parse(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

type jsCapture struct {
	Node    string
	Numbers [][2]string
	Strings []struct {
		Units []uint16
		JSON  string
	}
	Docs [][2]string
}

func loadCapture(t *testing.T) jsCapture {
	t.Helper()
	data, err := os.ReadFile("testdata/js.json")
	if err != nil {
		t.Fatal(err)
	}
	v := mustParse(t, string(data))
	var c jsCapture
	node, _ := v.Get("node")
	c.Node = node.Str()
	nums, _ := v.Get("numbers")
	for _, e := range nums.Elems() {
		c.Numbers = append(c.Numbers, [2]string{e.Elems()[0].Str(), e.Elems()[1].Str()})
	}
	strs, _ := v.Get("strings")
	for _, e := range strs.Elems() {
		var units []uint16
		for _, u := range e.Elems()[0].Elems() {
			n, err := strconv.ParseUint(u.Literal(), 10, 16)
			if err != nil {
				t.Fatal(err)
			}
			units = append(units, uint16(n))
		}
		c.Strings = append(c.Strings, struct {
			Units []uint16
			JSON  string
		}{units, e.Elems()[1].Str()})
	}
	docs, _ := v.Get("docs")
	for _, e := range docs.Elems() {
		c.Docs = append(c.Docs, [2]string{e.Elems()[0].Str(), e.Elems()[1].Str()})
	}
	return c
}

// TestCapturedStrings: AppendString escapes like JSON.stringify and Parse
// gives back the same code units.
func TestCapturedStrings(t *testing.T) {
	c := loadCapture(t)
	if len(c.Strings) == 0 {
		t.Fatal("no strings captured")
	}
	for _, s := range c.Strings {
		w := wtf8.FromUTF16(s.Units)
		if got := string(jsonv.AppendString(nil, w)); got != s.JSON {
			t.Errorf("AppendString(%v) = %s, want %s (%s)", s.Units, got, s.JSON, c.Node)
		}
		v := mustParse(t, s.JSON)
		if diff := cmp.Diff(s.Units, wtf8.ToUTF16(v.Str()), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("Parse(%s) units (-want +got):\n%s", s.JSON, diff)
		}
	}
}

// TestCapturedDocs: compact and two-space output equal JSON.stringify(v) and
// JSON.stringify(v, null, 2).
func TestCapturedDocs(t *testing.T) {
	c := loadCapture(t)
	for _, d := range c.Docs {
		v := mustParse(t, d[0])
		if got := string(v.AppendJSON(nil)); got != d[0] {
			t.Errorf("AppendJSON = %s, want %s", got, d[0])
		}
		if got := string(v.AppendIndent(nil)); got != d[1] {
			t.Errorf("AppendIndent of %s:\n%s\nwant (JSON.stringify(v, null, 2)):\n%s", d[0], got, d[1])
		}
		// The indented text parses to the same value.
		if !jsonv.Equal(v, mustParse(t, d[1])) {
			t.Errorf("indented %s does not parse back to an equal value", d[0])
		}
	}
}

func TestAppendIndentLayout(t *testing.T) {
	v := mustParse(t, `{"a":[1,{"b":[]},{}],"c":{},"d":"x","e":[[]],"f":null,"g":true}`)
	want := `{
  "a": [
    1,
    {
      "b": []
    },
    {}
  ],
  "c": {},
  "d": "x",
  "e": [
    []
  ],
  "f": null,
  "g": true
}`
	if diff := cmp.Diff(want, string(v.AppendIndent(nil))); diff != "" {
		t.Errorf("AppendIndent (-want +got):\n%s", diff)
	}
	// Absent members are left out and absent elements become null, also indented.
	v = jsonv.ObjectValue(jsonv.Member{Key: "gone", Value: jsonv.Value{}},
		jsonv.Member{Key: "a", Value: jsonv.ArrayValue(jsonv.Value{}, jsonv.NumberValue("1"))})
	if got, want := string(v.AppendIndent(nil)), "{\n  \"a\": [\n    null,\n    1\n  ]\n}"; got != want {
		t.Errorf("AppendIndent with absent = %q, want %q", got, want)
	}
	if got := string(jsonv.ObjectValue(jsonv.Member{Key: "x", Value: jsonv.Value{}}).AppendIndent(nil)); got != "{}" {
		t.Errorf("object of absent members = %q, want {}", got)
	}
	if got := string(jsonv.Value{}.AppendJSON(nil)); got != "" {
		t.Errorf("Absent.AppendJSON = %q, want nothing", got)
	}
	if got, _ := (jsonv.Value{}).MarshalJSON(); string(got) != "null" {
		t.Errorf("Absent.MarshalJSON = %q, want null", got)
	}
}

func TestSyntaxErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in  string
		line, col int
		ptr       string
		msg       string
	}{
		{"empty", ``, 1, 1, "", "unexpected end of input"},
		{"blank", "  \n ", 2, 2, "", "unexpected end of input"},
		{"bad element", "{\"a\":\n  [1, 2,\n   x]}", 3, 4, "/a/2", "want a JSON value"},
		{"trailing comma array", `[1,]`, 1, 4, "/1", "unexpected ']'"},
		{"trailing comma object", `{"a":1,}`, 1, 8, "", "want a quoted member name"},
		{"missing comma", `{"a":1 "b":2}`, 1, 8, "", "want ',' or '}'"},
		{"missing colon", `{"a" 1}`, 1, 6, "", "want ':'"},
		{"unquoted key", `{a:1}`, 1, 2, "", "want a quoted member name"},
		{"after value", `{} x`, 1, 4, "", "after the value"},
		{"two values", "1\n2", 2, 1, "", "after the value"},
		{"unterminated string", `{"k":"abc`, 1, 10, "/k", "unterminated string"},
		{"unterminated array", `[1`, 1, 3, "", "want ',' or ']'"},
		{"raw control char", "[\"a\tb\"]", 1, 4, "/0", "control character"},
		{"raw newline", "{\"m\":\"a\nb\"}", 1, 8, "/m", "control character"},
		{"invalid utf8", "{\"a\":[\"\xff\"]}", 1, 8, "/a/0", "invalid UTF-8"},
		{"encoded surrogate", "\"\xed\xa0\xbd\"", 1, 2, "", "invalid UTF-8"},
		{"bad escape", `["\x"]`, 1, 4, "/0", `invalid escape '\x'`},
		{"short unicode escape", `"\u12"`, 1, 4, "", `\u escape`},
		{"bad unicode escape", `"\u12g4"`, 1, 4, "", `invalid \u escape`},
		{"signed unicode escape", `"\u+123"`, 1, 4, "", `invalid \u escape`},
		{"bad second escape", `"\ud83d\uZZZZ"`, 1, 10, "", `invalid \u escape`},
		{"leading zero", `[01]`, 1, 2, "/0", "invalid number"},
		{"plus sign", `+1`, 1, 1, "", "want a JSON value"},
		{"bare dot", `[1.]`, 1, 2, "/0", "invalid number"},
		{"bare exponent", `1e`, 1, 1, "", "invalid number"},
		{"minus only", `-`, 1, 1, "", "invalid number"},
		{"hex", `0x10`, 1, 2, "", "after the value"},
		{"NaN", `NaN`, 1, 1, "", "want a JSON value"},
		{"Infinity", `[Infinity]`, 1, 2, "/0", "want a JSON value"},
		{"truncated literal", `tru`, 1, 1, "", "want a JSON value"},
		{"single quotes", `{'a':1}`, 1, 2, "", "want a quoted member name"},
		{"pointer escapes", `{"a/b":{"c~d":[nul]}}`, 1, 16, "/a~1b/c~0d/0", "want a JSON value"},
		{"comment", "// x\n{}", 1, 1, "", "want a JSON value"},
		{"crlf lines", "{\r\n\"a\":\r\n!}", 3, 1, "/a", "want a JSON value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := jsonv.Parse([]byte(tc.in))
			var se *jsonv.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) error = %v, want a *SyntaxError", tc.in, err)
			}
			if se.Line != tc.line || se.Column != tc.col || se.Pointer != tc.ptr || !strings.Contains(se.Msg, tc.msg) {
				t.Errorf("Parse(%q) = line %d col %d ptr %q msg %q; want line %d col %d ptr %q msg containing %q",
					tc.in, se.Line, se.Column, se.Pointer, se.Msg, tc.line, tc.col, tc.ptr, tc.msg)
			}
			ptr := tc.ptr
			if ptr == "" {
				ptr = "/"
			}
			want := "line " + strconv.Itoa(tc.line) + " column " + strconv.Itoa(tc.col) + " (at " + ptr + "): "
			if !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Error() = %q, want prefix %q", err.Error(), want)
			}
		})
	}
}

func TestDepthLimit(t *testing.T) {
	nest := func(n int, inner string) string {
		return strings.Repeat("[", n) + inner + strings.Repeat("]", n)
	}
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{nest(100, "1"), true},
		{nest(1000, "1"), true},
		{nest(10000, "1"), true},
		{nest(10001, ""), true},
		{nest(10002, ""), false},
		{nest(10001, "1"), false},
		{nest(100000, ""), false},
		{strings.Repeat(`{"a":`, 1000) + "1" + strings.Repeat("}", 1000), true},
		{strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000), true},
		{strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001), false},
		{strings.Repeat("[", 1<<20), false}, // unterminated and deep: no stack overflow
	} {
		_, err := jsonv.Parse([]byte(tc.in))
		if tc.ok && err != nil {
			t.Errorf("Parse(%.20s…, %d bytes): %v", tc.in, len(tc.in), err)
		}
		if !tc.ok {
			var se *jsonv.SyntaxError
			if !errors.As(err, &se) || !strings.Contains(se.Msg, "nesting deeper than 10000") {
				t.Errorf("Parse(%.20s…, %d bytes) = %v, want a nesting error", tc.in, len(tc.in), err)
			}
		}
	}
	// The error names the path of the value too deep.
	_, err := jsonv.Parse([]byte(`{"a":` + nest(10001, "") + "}"))
	var se *jsonv.SyntaxError
	if !errors.As(err, &se) || se.Pointer != "/a"+strings.Repeat("/0", 10000) {
		t.Errorf("deep error pointer = %v", err)
	}
}

func TestDuplicateKeys(t *testing.T) {
	v := mustParse(t, `{"a":1,"b":true,"a":{"x":2},"a":"last"}`)
	got, ok := v.Get("a")
	if !ok || got.Kind() != jsonv.String || got.Str() != "last" {
		t.Errorf(`Get("a") = %v, %v; want "last"`, got, ok)
	}
	if n := len(v.Members()); n != 4 {
		t.Errorf("Members kept %d, want all 4 as written", n)
	}
	if _, ok := v.Get("zzz"); ok {
		t.Error(`Get("zzz") found a member`)
	}
	if _, ok := mustParse(t, `[1]`).Get("0"); ok {
		t.Error("Get on an array found a member")
	}
	// Equal sees what JSON.parse sees: the last one.
	if !jsonv.Equal(v, mustParse(t, `{"b":true,"a":"last"}`)) {
		t.Error("duplicate keys: Equal does not use the last member")
	}
	if jsonv.Equal(v, mustParse(t, `{"b":true,"a":1}`)) {
		t.Error("duplicate keys: Equal used the first member")
	}
	// An escaped key equals the same key written plainly.
	v = mustParse(t, `{"\u0061":1,"a":2}`)
	if got, _ := v.Get("a"); got.Literal() != "2" {
		t.Errorf(`escaped duplicate: Get("a") = %v, want 2`, got)
	}
}

func TestEqual(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, true},
		{`[1,2]`, `[2,1]`, false},
		{`[1,2]`, `[1,2,3]`, false},
		{`1`, `1.0`, true},
		{`1`, `1e0`, true},
		{`100`, `1E2`, true},
		{`1e21`, `1000000000000000000000`, true},
		{`0.1`, `1e-1`, true},
		{`-0`, `0`, true},
		{`0.30000000000000004`, `0.3`, false},
		{`12345678901234567890`, `12345678901234567000`, false}, // digits a double loses still count
		{`9007199254740993`, `9007199254740992`, false},
		{`1e400`, `1e400`, true},
		{`1e400`, `10e399`, true},
		{`1e400`, `1e401`, false},
		{`"\ud83d\ude00"`, `"😀"`, true},
		{`"\ud83d"`, `"\ud83e"`, false},
		{`"\ud83d"`, `"\ufffd"`, false},
		{`"A"`, `"a"`, false},
		{`"é"`, `"e\u0301"`, false}, // no normalization
		{`null`, `null`, true},
		{`null`, `false`, false},
		{`0`, `false`, false},
		{`""`, `null`, false},
		{`"1"`, `1`, false},
		{`true`, `true`, true},
		{`true`, `false`, false},
		{`[]`, `{}`, false},
		{`{}`, `{}`, true},
		{`{"a":null}`, `{}`, false}, // null is not absent
		{`{"a":{"b":[1,{"c":"d"}]}}`, `{"a":{"b":[1.0,{"c":"d"}]}}`, true},
		{`{"a":{"b":[1,{"c":"d"}]}}`, `{"a":{"b":[1,{"c":"e"}]}}`, false},
		{`{"a":1}`, `{"b":1}`, false},
		{`{"😀":1}`, `{"\ud83d\ude00":1}`, true},
	} {
		a, b := mustParse(t, tc.a), mustParse(t, tc.b)
		if got := jsonv.Equal(a, b); got != tc.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := jsonv.Equal(b, a); got != tc.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", tc.b, tc.a, got, tc.want)
		}
	}
	if !jsonv.Equal(jsonv.Value{}, jsonv.Value{}) {
		t.Error("Equal(absent, absent) = false")
	}
	if jsonv.Equal(jsonv.Value{}, jsonv.NullValue()) {
		t.Error("Equal(absent, null) = true")
	}
	// Strings built from unpaired halves equal the joined character.
	hi, lo := mustParse(t, `"\ud83d"`).Str(), mustParse(t, `"\ude00"`).Str()
	if !jsonv.Equal(jsonv.StringValue(hi+lo), jsonv.StringValue("😀")) {
		t.Error("a high and a low surrogate concatenated are not equal to the character")
	}
	// An absent member is no member, as AppendJSON writes it.
	withAbsent := jsonv.ObjectValue(jsonv.Member{Key: "a", Value: jsonv.NumberValue("1")}, jsonv.Member{Key: "b"})
	if !jsonv.Equal(withAbsent, mustParse(t, `{"a":1}`)) {
		t.Errorf("Equal(%s with an absent member, {\"a\":1}) = false", withAbsent)
	}
}

func TestNumbersEqual(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"1", "1", true},
		{"1", "1.0", true},
		{"1", "1e0", true},
		{"1", "10e-1", true},
		{"1.5", "15E-1", true},
		{"1e21", "1000000000000000000000", true},
		{"-0", "0", true},
		{"-0", "0.0e5", true},
		{"0.1", "0.10", true},
		{"-1", "1", false},
		{"12345678901234567890", "12345678901234567000", false},
		{"9007199254740991", "9007199254740991.0", true},
		{"1e400", "1e400", true},
		{"1e-400", "0", false},
		{"0.30000000000000004", "0.3", false},
		{"1", "x", false},
		{"x", "x", true}, // identical text
		{"", "0", false},
	} {
		if got := jsonv.NumbersEqual(tc.a, tc.b); got != tc.want {
			t.Errorf("NumbersEqual(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

var point1, point2 = 0.1, 0.2

// TestFormatFloat: Number#toString, with the expected strings printed by
// Node 22 (String(x)).
func TestFormatFloat(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{1e21, "1e+21"},
		{1e20, "100000000000000000000"},
		{1e-7, "1e-7"},
		{1e-6, "0.000001"},
		{0.000001234, "0.000001234"},
		{1.5e-7, "1.5e-7"},
		{123e-20, "1.23e-18"},
		{123456789012345680000, "123456789012345680000"},
		{12345678901234567890, "12345678901234567000"},
		{point1 + point2, "0.30000000000000004"}, // doubles, not exact constants
		{5e-324, "5e-324"},
		{-1.5, "-1.5"},
		{-1, "-1"},
		{137, "137"},
		{1 << 53, "9007199254740992"},
		{1<<53 + 2, "9007199254740994"},
		{1 << 64, "18446744073709552000"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{1e100, "1e+100"},
		{-1e-7, "-1e-7"},
		{0.007500000000000001, "0.007500000000000001"},
		{1.0 / 3, "0.3333333333333333"},
		{4.35, "4.35"},
		{1234.5678, "1234.5678"},
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
	} {
		if got := jsonv.FormatFloat(tc.f); got != tc.want {
			t.Errorf("FormatFloat(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

// TestFormatFloatCaptured compares FormatFloat with Node's String(x) for the
// captured doubles (edge values, powers of ten and their neighbours, random
// bit patterns).
func TestFormatFloatCaptured(t *testing.T) {
	c := loadCapture(t)
	if len(c.Numbers) < 1000 {
		t.Fatalf("only %d numbers captured", len(c.Numbers))
	}
	for _, n := range c.Numbers {
		bits, err := strconv.ParseUint(n[0], 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		f := math.Float64frombits(bits)
		if got := jsonv.FormatFloat(f); got != n[1] {
			t.Errorf("FormatFloat(%v, bits %s) = %q, Node %s says %q", f, n[0], got, c.Node, n[1])
		}
		// The text is a JSON number (finite values) that reads back as f.
		v := jsonv.FloatValue(f)
		if v.Kind() != jsonv.Number || v.Literal() != n[1] {
			t.Errorf("FloatValue(%v) = %v", f, v)
		}
		back, ok := v.Float64()
		if !ok || back != f && !(f == 0 && back == 0) {
			t.Errorf("FloatValue(%v).Float64() = %v, %v", f, back, ok)
		}
	}
}

func TestFloatValue(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if v := jsonv.FloatValue(f); v.Kind() != jsonv.Null {
			t.Errorf("FloatValue(%v) = %v, want null", f, v)
		}
	}
	for _, tc := range []struct {
		lit  string
		want float64
	}{
		{"1e400", math.Inf(1)},
		{"-1e400", math.Inf(-1)},
		{"12345678901234567890", 12345678901234567890},
		{"-0", math.Copysign(0, -1)},
		{"0.1", 0.1},
	} {
		got, ok := jsonv.NumberValue(tc.lit).Float64()
		if !ok || got != tc.want || math.Signbit(got) != math.Signbit(tc.want) {
			t.Errorf("NumberValue(%s).Float64() = %v, %v; want %v", tc.lit, got, ok, tc.want)
		}
	}
	if _, ok := jsonv.StringValue("1").Float64(); ok {
		t.Error(`"1".Float64() reported a number`)
	}
}

func TestNumberValuePanics(t *testing.T) {
	for _, lit := range []string{"", "01", "1.", ".5", "+1", "NaN", "1e", "0x1", " 1"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NumberValue(%q) did not panic", lit)
				}
			}()
			jsonv.NumberValue(lit)
		}()
	}
}

func TestTruthy(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{`0`, false}, {`-0`, false}, {`0.0`, false}, {`1`, true}, {`1e400`, true}, {`""`, false},
		{`"0"`, true}, {`"false"`, true}, {`[]`, true}, {`{}`, true}, {`null`, false}, {`true`, true}, {`false`, false},
	} {
		if got := mustParse(t, tc.in).Truthy(); got != tc.want {
			t.Errorf("Truthy(%s) = %v, want %v", tc.in, got, tc.want)
		}
	}
	if (jsonv.Value{}).Truthy() {
		t.Error("absent is truthy")
	}
}

func TestPointer(t *testing.T) {
	for _, tc := range []struct {
		segs []string
		want string
	}{
		{nil, ""},
		{[]string{"a"}, "/a"},
		{[]string{"a/b", "c~d", "0"}, "/a~1b/c~0d/0"},
		{[]string{"", "~1"}, "//~01"},
	} {
		if got := jsonv.Pointer(tc.segs...); got != tc.want {
			t.Errorf("Pointer(%q) = %q, want %q", tc.segs, got, tc.want)
		}
	}
	if got := jsonv.Index(jsonv.Child("/messages", "a/b"), 3); got != "/messages/a~1b/3" {
		t.Errorf("Child+Index = %q", got)
	}
	if got := jsonv.Errorf("", "x %d", 1).Error(); got != "/: x 1" {
		t.Errorf("root PathError = %q", got)
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[jsonv.Kind]string{
		jsonv.Absent: "absent", jsonv.Null: "null", jsonv.Bool: "boolean", jsonv.Number: "number",
		jsonv.String: "string", jsonv.Array: "array", jsonv.Object: "object", jsonv.Kind(42): "Kind(42)",
	} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

func TestWith(t *testing.T) {
	num := jsonv.NumberValue
	obj := jsonv.ObjectValue(jsonv.Member{Key: "a", Value: num("1")}, jsonv.Member{Key: "b", Value: num("2")}, jsonv.Member{Key: "a", Value: num("3")})
	for _, tc := range []struct {
		key, want string
	}{
		{"b", `{"a":1,"b":9,"a":3}`},
		{"a", `{"a":1,"b":2,"a":9}`}, // the member Get reads
		{"c", `{"a":1,"b":2,"a":3,"c":9}`},
	} {
		if got := string(obj.With(tc.key, num("9")).AppendJSON(nil)); got != tc.want {
			t.Errorf("With(%q) = %s, want %s", tc.key, got, tc.want)
		}
	}
	if got := string(obj.AppendJSON(nil)); got != `{"a":1,"b":2,"a":3}` {
		t.Errorf("With changed its receiver: %s", got)
	}
}

func TestReadFileNamesTheFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(name, []byte(`{"a":`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := jsonv.ReadFile(name); err == nil || !strings.HasPrefix(err.Error(), name+": ") {
		t.Errorf("err = %v, want one that starts with the file name", err)
	}
	if v, err := jsonv.ReadFile("testdata/js.json"); err != nil || v.Kind() != jsonv.Object {
		t.Errorf("testdata/js.json: %v, %v", v.Kind(), err)
	}
}

// TestJSNumberValue: NaN and the infinities stay numbers for JavaScript's
// operators (truthiness, String(), Number()) and are written as null, also
// by Stringified.
func TestJSNumberValue(t *testing.T) {
	for _, tc := range []struct {
		in                float64
		json, text        string
		truthy, roundTrip bool
	}{
		{math.NaN(), "null", "NaN", false, false},
		{math.Inf(1), "null", "Infinity", true, true},
		{math.Inf(-1), "null", "-Infinity", true, true},
		{17384, "17384", "17384", true, true},
		{0, "0", "0", false, true},
	} {
		v := jsonv.JSNumberValue(tc.in)
		got := []any{v.Kind(), string(v.AppendJSON(nil)), v.JSString(), v.Truthy(), v.Stringified().Kind()}
		stringified := jsonv.Number
		if tc.json == "null" {
			stringified = jsonv.Null
		}
		want := []any{jsonv.Number, tc.json, tc.text, tc.truthy, stringified}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("JSNumberValue(%v) (-want +got):\n%s", tc.in, diff)
		}
		if n := v.JSNumber(); tc.roundTrip && n != tc.in || !tc.roundTrip && !math.IsNaN(n) {
			t.Errorf("JSNumberValue(%v).JSNumber() = %v", tc.in, n)
		}
	}
}

// TestStringifiedDeep: Stringified writes null for NaN and the infinities
// inside arrays and objects too, and leaves every other value as it is.
func TestStringifiedDeep(t *testing.T) {
	nan, inf := jsonv.JSNumberValue(math.NaN()), jsonv.JSNumberValue(math.Inf(-1))
	in := jsonv.ObjectValue(
		jsonv.Member{Key: "a", Value: jsonv.ArrayValue(jsonv.NumberValue("1"), nan)},
		jsonv.Member{Key: "b", Value: jsonv.ObjectValue(jsonv.Member{Key: "c", Value: inf}, jsonv.Member{Key: "d", Value: jsonv.StringValue("NaN")})},
	)
	want, err := jsonv.Parse([]byte(`{"a":[1,null],"b":{"c":null,"d":"NaN"}}`))
	if err != nil {
		t.Fatal(err)
	}
	// Equal tells a null from a NaN number, which both print as null.
	if got := in.Stringified(); !jsonv.Equal(got, want) {
		t.Errorf("Stringified() = %s, want %s", got, want)
	}
	if got := want.Stringified(); !jsonv.Equal(got, want) {
		t.Errorf("Stringified() of a finite value = %s, want it unchanged", got)
	}
	if jsonv.Equal(in, want) {
		t.Errorf("Equal does not tell NaN from null; the test above proves nothing")
	}
}

// TestNullish: IsNullish is JavaScript's v == null, NullAsAbsent drops only
// null, and JoinString writes both as "".
func TestNullish(t *testing.T) {
	for _, tc := range []struct {
		in            jsonv.Value
		nullish       bool
		dropped, join string
	}{
		{jsonv.Value{}, true, "absent", ""},
		{jsonv.NullValue(), true, "absent", ""},
		{jsonv.NumberValue("0"), false, "0", "0"},
		{jsonv.StringValue(""), false, `""`, ""},
		{jsonv.ArrayValue(jsonv.NullValue(), jsonv.NumberValue("1")), false, "[null,1]", ",1"},
	} {
		dropped := "absent"
		if d := tc.in.NullAsAbsent(); !d.IsAbsent() {
			dropped = string(d.AppendJSON(nil))
		}
		got := []any{tc.in.IsNullish(), dropped, tc.in.JoinString()}
		if diff := cmp.Diff([]any{tc.nullish, tc.dropped, tc.join}, got); diff != "" {
			t.Errorf("%s: [IsNullish NullAsAbsent JoinString] (-want +got):\n%s", tc.in, diff)
		}
	}
}
