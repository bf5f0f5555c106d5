package session

import (
	"errors"
	"math"
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
)

// TestParseDate: the times V8 (Node 22, TZ=UTC) gives for new Date(s).getTime().
func TestParseDate(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		in   string
		want float64
	}{
		{"2025-01-01T00:00:00.123456Z", 1735689600123},
		{"2025-01-01T24:00:00Z", 1735776000000},
		{"2025-01-01T24:00:01Z", nan},
		{"2025-01-01t00:00:00z", 1735689600000},
		{"2025-01-01 00:00:00Z", 1735689600000},
		{"2025-01-01T00:00Z", 1735689600000},
		{"2025-01-01", 1735689600000},
		{"2025-01", 1735689600000},
		{"2025", 1735689600000},
		{"+002025-01-01T00:00:00Z", 1735689600000},
		{"-000000-01-01T00:00:00Z", nan},
		{"2025-02-30T00:00:00Z", 1740873600000},
		{"2025-04-31T00:00:00Z", 1746057600000},
		{"2025-01-00", nan},
		{"2025-01-32", nan},
		{"2025-00-01", nan},
		{"2025-13-01", nan},
		{"2025-01-01T00:00:00+01:00", 1735686000000},
		{"2025-01-01T00:00:00+0100", 1735686000000},
		{"2025-01-01T00:00:00.000-05:30", 1735709400000},
		{"2025-01-01T23:59:59.999+23:59", 1735689659999},
		{"2025-01-01T00:00:00.000+24:00", nan},
		{"2025-01-01T00:00:00.5+0530", 1735669800500},
		{"2025-01-01T00:00:00.1Z", 1735689600100},
		{"2025-01-01T00:00:60Z", nan},
		{"2025-01-01T00:60Z", nan},
		{"2025-01-01T00:00:00", 1735689600000},
		{"1970-01-01T00:00:00.000Z", 0},
		{"2024-02-29", 1709164800000},
		{"2100-02-29", 4107542400000},
		{"0000-01-01", -62167219200000},
		{"+010000-01-01T00:00:00Z", 253402300800000},
		{"-000001-01-01T00:00:00Z", -62198755200000},
		{"-271821-04-20T00:00:00Z", -8640000000000000},
		{"-271821-04-19T23:59:59.999Z", nan},
		{"", nan},
		{"[object Object]", nan},
	} {
		got, err := timeValue(jsonv.StringValue(tc.in))
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		want := jsonv.FloatValue(tc.want)
		if !jsonv.Equal(got, want) {
			t.Errorf("%q: got %s, want %s", tc.in, got.AppendJSON(nil), want.AppendJSON(nil))
		}
	}
}

// TestParseDateFallback: strings outside the ISO format go to V8's fallback
// reader (package jsdate) and no longer make the reference refuse the file;
// what it cannot read is an Invalid Date, written null.
func TestParseDateFallback(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"Tue, 01 Jan 2030 00:00:00 GMT", "1893456000000"},
		{" 2025-01-01", "1735689600000"},
		{"0001-01-01 00:00:00", "978307200000"},
		{"1700000000000", "null"},
		{"2025-01-01T00:00:00.Z", "null"},
		{"hello", "null"},
		{"275760-09-13T00:00:00Z", "null"},
	} {
		got, err := timeValue(jsonv.StringValue(tc.in))
		if err != nil || string(got.AppendJSON(nil)) != tc.want {
			t.Errorf("new Date(%q): got %s, %v; want %s", tc.in, got.AppendJSON(nil), err, tc.want)
		}
	}
}

// TestTimeValueNonStrings: new Date(v) for the other JSON types.
func TestTimeValueNonStrings(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{`null`, `0`},
		{`true`, `1`},
		{`1.7`, `1`},
		{`-1.5`, `-1`},
		{`8640000000000000`, `8640000000000000`},
		{`8640000000000001`, `null`},
		{`[]`, `null`},
		{`{}`, `null`},
		{`["2025-01-01"]`, `1735689600000`},
	} {
		v, err := jsonv.Parse([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		got, err := timeValue(v)
		if err != nil || string(got.AppendJSON(nil)) != tc.want {
			t.Errorf("new Date(%s): got %s, %v; want %s", tc.in, got.AppendJSON(nil), err, tc.want)
		}
	}
	if _, err := timeValue(jsonv.Value{}); err != nil {
		t.Errorf("undefined: %v", err)
	}
	obj, _ := jsonv.Parse([]byte(`{"toString":"no"}`))
	if _, err := timeValue(obj); !isTypeError(err) {
		t.Errorf("object with toString: got %v, want a type-error", err)
	}
}

func isTypeError(err error) bool {
	th, ok := errors.AsType[*Thrown](err)
	return ok && th.Category == CategoryTypeError
}
