package provider

import (
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
)

// TestUint32ArgError holds the messages Node 22's AbortSignal.timeout
// threw for these values (run under adapters/pi-ts's Node).
func TestUint32ArgError(t *testing.T) {
	typeErr := `The "delay" argument must be of type number. Received `
	rangeErr := `The value of "delay" is out of range. It must be `
	for _, c := range []struct {
		json string
		want string
		ok   bool
	}{
		{`0`, "", true},
		{`7`, "", true},
		{`4294967295`, "", true},
		{`""`, typeErr + "type string ('')", true},
		{`"x"`, typeErr + "type string ('x')", true},
		{`"7"`, typeErr + "type string ('7')", true},
		{`"it's"`, typeErr + `type string ("it's")`, true},
		{`"aaaaaaaaaaaaaaaaaaaaaaaaaaaa"`, typeErr + "type string ('aaaaaaaaaaaaaaaaaaaaaaaaaaaa')", true},
		{`"aaaaaaaaaaaaaaaaaaaaaaaaaaaaa"`, typeErr + "type string ('aaaaaaaaaaaaaaaaaaaaaaaaa...')", true},
		{`"\ud800x'"`, typeErr + `type string ("\ud800x'")`, true},
		{`false`, typeErr + "type boolean (false)", true},
		{`true`, typeErr + "type boolean (true)", true},
		{`null`, typeErr + "null", true},
		{`{}`, typeErr + "an instance of Object", true},
		{`{"toString":"x"}`, typeErr + "an instance of Object", true},
		{`[]`, typeErr + "an instance of Array", true},
		{`[5]`, typeErr + "an instance of Array", true},
		{`{"constructor":{"name":"Foo"}}`, "", false},
		{`-1`, rangeErr + ">= 0 && <= 4294967295. Received -1", true},
		{`1.5`, rangeErr + "an integer. Received 1.5", true},
		{`0.1`, rangeErr + "an integer. Received 0.1", true},
		{`-1e-7`, rangeErr + "an integer. Received -1e-7", true},
		{`12345678901.5`, rangeErr + "an integer. Received 12345678901.5", true},
		{`4294967296`, rangeErr + ">= 0 && <= 4294967295. Received 4294967296", true},
		{`-4294967297`, rangeErr + ">= 0 && <= 4294967295. Received -4_294_967_297", true},
		{`9007199254740992`, rangeErr + ">= 0 && <= 4294967295. Received 9_007_199_254_740_992", true},
		{`1e21`, rangeErr + ">= 0 && <= 4294967295. Received 1e_+21", true},
		{`1e300`, rangeErr + ">= 0 && <= 4294967295. Received 1e+_300", true},
	} {
		v, err := jsonv.ParseString(c.json)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := Uint32ArgError("delay", v)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("%s: got %q, %v; want %q, %v", c.json, got, ok, c.want, c.ok)
		}
	}
}
