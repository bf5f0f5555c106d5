package wire

import (
	"bytes"
	"testing"
)

// FuzzCassetteRoundTrip: no file makes the cassette decoder panic; a
// cassette it accepts encodes to one it accepts again, saying the same.
func FuzzCassetteRoundTrip(f *testing.F) {
	for _, s := range []string{
		"",
		"version: 2\ninteractions: []\n",
		"version: 2\ninteractions:\n  - id: 0\n    request:\n      method: POST\n      url: /v1/messages\n      headers:\n        X-Api-Key:\n          - '[redacted]'\n      body: |\n        {\"a\": 1}\n",
		"version: 2\ninteractions:\n  - id: 0\n    request: {method: GET, url: /x}\n    response: {code: 0}\n",
		"version: 2\n",
		"interactions: [&a {id: 0, request: *a}]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeCassette(data)
		if err != nil {
			return
		}
		enc, err := EncodeCassette(c)
		if err != nil {
			t.Fatalf("an accepted cassette does not encode: %v", err)
		}
		back, err := DecodeCassette(enc)
		if err != nil {
			t.Fatalf("%q encodes as %q, which does not decode: %v", data, enc, err)
		}
		if a, b := CassetteValue(c).AppendJSON(nil), CassetteValue(back).AppendJSON(nil); !bytes.Equal(a, b) {
			t.Fatalf("%q says %s, re-encoded %s", data, a, b)
		}
	})
}

// FuzzFindSecrets: no input makes the secret scan panic, each finding is on
// a line of the input, and a key appended on a line of its own is found.
func FuzzFindSecrets(f *testing.F) {
	for _, s := range []string{
		"",
		"        X-Api-Key:\n            - realvalue\n",
		"body: \"\\x73k-ant-api03-abcdefgh\"\n",
		"a: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'\n",
		"\"authorization\": [x]\n- -\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, fd := range FindSecrets(data) {
			if fd.Line < 1 || fd.Line > lines {
				t.Fatalf("finding at line %d of %d", fd.Line, lines)
			}
		}
		withKey := append(append(bytes.Clone(data), "\nkey: sk-ant-api03-fuzzfuzz\n"...), data...)
		found := false
		for _, fd := range FindSecrets(withKey) {
			found = found || fd.Line == lines+1
		}
		if !found {
			t.Fatalf("a key on line %d of %q is not found", lines+1, withKey)
		}
	})
}
