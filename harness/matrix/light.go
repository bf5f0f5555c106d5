package matrix

import (
	"bytes"
	"encoding/json"
)

// lightLine is line as a merge reads it, which keeps of a case line neither
// its message nor its differences (MergeFiles reads them again when a
// rendering shows them): its Message, Path and Diffs, which hide line's,
// only check what line's check, so that a line Unmarshal reads into line
// without an error it reads into lightLine without one and alike, and
// a line it refuses is read again as line, for the error. The message
// then is neither unescaped nor copied, nor are the values of the
// differences: most of a failing case's line.
type lightLine struct {
	line
	Message textCheck   `json:"message"`
	Path    textCheck   `json:"path"`
	Diffs   []lightDiff `json:"diffs"`
}

// lightDiff is rawDiff without the values, which Unmarshal skips instead.
type lightDiff struct {
	Path *string `json:"path"`
}

// textCheck is a member that line reads into a string: it notes a value
// that is neither a string nor null, the type error Unmarshal gives there,
// at any of the member's appearances.
type textCheck struct{ bad bool }

func (c *textCheck) UnmarshalJSON(b []byte) error {
	if b[0] != '"' && !bytes.Equal(b, []byte("null")) {
		c.bad = true
	}
	return nil
}

// decodeLine reads a line of a report; light is for a merge, which keeps
// no message or differences (see lightLine).
func decodeLine(text []byte, light bool) (line, error) {
	if light {
		var f line
		if fastLine(text, &f) {
			return f, nil
		}
		var l lightLine
		if json.Unmarshal(text, &l) == nil && !l.Message.bad && !l.Path.bad && pathsNamed(l.Diffs) {
			return l.line, nil
		}
	}
	var l line
	err := json.Unmarshal(text, &l)
	return l, err
}

// pathsNamed reports whether every difference names its path, where
// diffsOf finds no fault.
func pathsNamed(diffs []lightDiff) bool {
	for _, d := range diffs {
		if d.Path == nil {
			return false
		}
	}
	return true
}
