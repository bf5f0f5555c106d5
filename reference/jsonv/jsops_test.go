package jsonv_test

import (
	"errors"
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
)

// TestAddGreater: JavaScript's + and > on what JSON.parse makes, as Node 22
// computes them.
func TestAddGreater(t *testing.T) {
	for _, tc := range []struct {
		a, b    string
		sum     string // JSON of a + b
		greater bool   // a > b
		err     bool
	}{
		{`1`, `2`, `3`, false, false},
		{`"100"`, `5`, `"1005"`, true, false},
		{`"10052"`, `"1000"`, `"100521000"`, true, false}, // text: '5' > '0'
		{`"9"`, `"10"`, `"910"`, true, false},
		{`"9"`, `10`, `"910"`, false, false}, // a number side: 9 > 10
		{`null`, `-1`, `-1`, true, false},
		{`true`, `0`, `1`, true, false},
		{`[5]`, `4`, `"54"`, true, false},
		{`{}`, `1`, `"[object Object]1"`, false, false}, // NaN compares false
		{`1`, `{"toString":1}`, ``, false, true},
		{`"\ud800"`, `"\udc00"`, `"𐀀"`, false, false}, // code units: D800 < DC00
		{`"\uffff"`, `"\ud800\udc00"`, `"\uffff𐀀"`, true, false},
	} {
		a, b := mustParse(t, tc.a), mustParse(t, tc.b)
		sum, err := jsonv.Add(a, b)
		gt, gerr := jsonv.Greater(a, b)
		if tc.err {
			if !errors.Is(err, jsonv.ErrNoPrimitive) || !errors.Is(gerr, jsonv.ErrNoPrimitive) {
				t.Errorf("%s, %s: errors %v, %v, want ErrNoPrimitive", tc.a, tc.b, err, gerr)
			}
			continue
		}
		if err != nil || gerr != nil {
			t.Fatalf("%s, %s: %v, %v", tc.a, tc.b, err, gerr)
		}
		if want := mustParse(t, tc.sum); !jsonv.Equal(sum, want) {
			t.Errorf("%s + %s = %s, want %s", tc.a, tc.b, sum, want)
		}
		if gt != tc.greater {
			t.Errorf("%s > %s = %v, want %v", tc.a, tc.b, gt, tc.greater)
		}
	}
}

// TestLengthAboveZero: JavaScript's `v.length > 0` on what JSON.parse
// makes, throwing where V8 does.
func TestLengthAboveZero(t *testing.T) {
	for _, tc := range []struct {
		json   string
		keep   bool
		throws bool
	}{
		{`"a"`, true, false},
		{`""`, false, false},
		{`7`, false, false},
		{`0`, false, false},
		{`true`, false, false},
		{`{}`, false, false},
		{`{"toString":"x"}`, false, false},
		{`{"length":0}`, false, false},
		{`{"length":2}`, true, false},
		{`{"length":"3"}`, true, false},
		{`{"length":true}`, true, false},
		{`{"length":[1]}`, true, false},
		{`{"length":{"toString":"x"}}`, false, true},
		{`[]`, false, false},
		{`[0]`, true, false},
		{`null`, false, true},
	} {
		keep, err := jsonv.LengthAboveZero(mustParse(t, tc.json))
		if keep != tc.keep || (err != nil) != tc.throws {
			t.Errorf("%s: got %v, err %v; want %v, throws %v", tc.json, keep, err, tc.keep, tc.throws)
		}
	}
	if _, err := jsonv.LengthAboveZero(jsonv.Value{}); err == nil || err.Error() != "Cannot read properties of undefined (reading 'length')" {
		t.Errorf("undefined: err %v, want V8's TypeError reading its length", err)
	}
}

// TestIterate: what for-of visits in a value, as Node 22 iterates it.
func TestIterate(t *testing.T) {
	for _, tc := range []struct {
		v, want string // want: the elements as a JSON array, "" when not iterable
	}{
		{`[1,"a",null]`, `[1,"a",null]`},
		{`[]`, `[]`},
		{`""`, `[]`},
		{`"ab"`, `["a","b"]`},
		{`"a😀"`, `["a","😀"]`},
		{`"\ud800x"`, `["\ud800","x"]`},
		{`"\ud83d\ude00"`, `["😀"]`},
		{`5`, ``},
		{`true`, ``},
		{`{"length":1}`, ``},
		{`null`, ``},
	} {
		got, ok := jsonv.Iterate(mustParse(t, tc.v))
		if tc.want == "" {
			if ok {
				t.Errorf("Iterate(%s) = %s, want not iterable", tc.v, jsonv.ArrayValue(got...))
			}
			continue
		}
		if g := jsonv.ArrayValue(got...); !ok || !jsonv.Equal(g, mustParse(t, tc.want)) {
			t.Errorf("Iterate(%s) = %s, %v, want %s", tc.v, g, ok, tc.want)
		}
	}
}
