// Package matrix merges JSON-lines reports (spec/schemas/report.schema.json)
// of several implementations, versions or shards into one compatibility
// matrix, and renders it as Markdown and as a self-contained HTML page.
package matrix

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// SchemaVersion is the newest report format this package reads. A header
// without a "schema" member is version 1, the format before the member existed.
const SchemaVersion = 1

// InputError is a report that cannot be read: it names the file and, when
// the fault is in one line, the line (1-based).
type InputError struct {
	File string
	Line int
	Msg  string
}

func (e *InputError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// Implementation is who a report is about, as its header says, and the
// dialect (Pi release line) the run checked; "" in a report older than
// dialects.
type Implementation struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	Language string `json:"language"`
	Dialect  string `json:"-"`
	// Profile is the profile the run used (run --profile), "" for none.
	Profile string `json:"-"`
}

// Label is the implementation as a reader names it: name, version, the
// dialect checked and the profile used.
func (i Implementation) Label() string {
	l := strings.TrimSpace(i.Name + " " + i.Version)
	if i.Dialect != "" {
		l += ", dialect " + i.Dialect
	}
	if i.Profile != "" {
		l += ", profile " + i.Profile
	}
	return l
}

// Diff is one differing path of a failed case. Want and Got are JSON texts as
// the report holds them; an empty one means that side is absent.
type Diff struct {
	Path string
	Want string
	Got  string
}

// Case is one case line of a report.
type Case struct {
	ID              string
	Kind            string
	Rules           []string
	Outcome         string
	ExpectedFailure bool
	Message         string
	// Diffs lists the differing paths: the report's "diffs" when it has
	// them, else its first differing "path" alone (without values).
	Diffs []Diff
	// DiffsOmitted counts the differences the report left out of Diffs
	// (it shows at most 20 of a case).
	DiffsOmitted int
	// File and Line say where the case line is, for errors.
	File string
	Line int
}

// Report is one JSON-lines report.
type Report struct {
	File           string
	Implementation Implementation
	// Piconform is the version of piconform that wrote it, and Started
	// when its run began (RFC 3339), as its header says.
	Piconform, Started string
	Cases              []Case
}

// Outcomes a case line may carry, as the schema lists them.
var outcomes = map[string]bool{"pass": true, "fail": true, "skip": true, "error": true, "crash": true, "timeout": true, "protocol": true}

// line holds the members of every line type this package needs; others
// are ignored, so additions to the format do not break reading.
type line struct {
	Type string `json:"type"`
	// header
	Schema         *int            `json:"schema"`
	Piconform      *string         `json:"piconform"`
	Implementation *Implementation `json:"implementation"`
	Dialect        string          `json:"dialect"`
	Profile        string          `json:"profile"`
	Started        string          `json:"started"`
	Cases          *int            `json:"cases"`
	// case
	ID              string    `json:"id"`
	Kind            string    `json:"kind"`
	Rules           []string  `json:"rules"`
	Outcome         string    `json:"outcome"`
	ExpectedFailure bool      `json:"expected_failure"`
	Message         string    `json:"message"`
	Path            string    `json:"path"`
	Diffs           []rawDiff `json:"diffs"`
	DiffsOmitted    int       `json:"diffs_omitted"`
}

type rawDiff struct {
	Path *string         `json:"path"`
	Want json.RawMessage `json:"want"`
	Got  json.RawMessage `json:"got"`
}

// ReadFile reads the reports at path: one, or one per dialect of a run that
// checked several.
func ReadFile(path string) ([]*Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: cleanOSError(err)}
	}
	defer f.Close()
	return Read(path, f)
}

func cleanOSError(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return "not JSON: " + strings.TrimPrefix(err.Error(), "json: ")
}

// Read reads the reports in r, one after another; name is the file it came
// from, for errors. It insists on whole reports: each a header first, case
// lines, a footer last.
func Read(name string, r io.Reader) ([]*Report, error) {
	var reps []*Report
	rep := &Report{File: name}
	br := bufio.NewReader(r)
	fail := func(n int, format string, args ...any) error {
		return &InputError{File: name, Line: n, Msg: fmt.Sprintf(format, args...)}
	}
	var (
		n         int
		header    bool
		footer    int
		wantCases int
		seen      = map[string]int{}
	)
	for {
		text, err := br.ReadBytes('\n')
		if len(text) == 0 && err != nil {
			if err != io.EOF {
				return nil, fail(0, "%v", err)
			}
			break
		}
		n++
		text = bytes.TrimSpace(text)
		if len(text) == 0 {
			continue
		}
		var l line
		if err := json.Unmarshal(text, &l); err != nil {
			if !header {
				return nil, fail(n, "not a piconform report: %s", jsonError(err))
			}
			return nil, fail(n, "%s", jsonError(err))
		}
		if footer > 0 && l.Type == "header" {
			// The next dialect's report.
			if len(rep.Cases) != wantCases {
				return nil, fail(n, "the report before announces %d cases but has %d", wantCases, len(rep.Cases))
			}
			reps = append(reps, rep)
			rep, header, footer, seen = &Report{File: name}, false, 0, map[string]int{}
		}
		if footer > 0 {
			return nil, fail(n, "a %q line after the footer (line %d)", l.Type, footer)
		}
		if !header && l.Type != "header" {
			return nil, fail(n, "not a piconform report: the first line is not a header")
		}
		switch l.Type {
		case "header":
			if header {
				return nil, fail(n, "a second header")
			}
			header = true
			if l.Schema != nil && (*l.Schema < 1 || *l.Schema > SchemaVersion) {
				return nil, fail(n, "report schema version %d is unknown to this piconform, which reads versions 1 to %d", *l.Schema, SchemaVersion)
			}
			switch {
			case l.Piconform == nil:
				return nil, fail(n, "not a piconform report: the header has no \"piconform\" version")
			case l.Implementation == nil || l.Implementation.Name == "":
				return nil, fail(n, "/implementation/name: missing; the header must name the implementation")
			case l.Cases == nil || *l.Cases < 0:
				return nil, fail(n, "/cases: missing or negative")
			}
			rep.Implementation = *l.Implementation
			rep.Implementation.Dialect, rep.Implementation.Profile = l.Dialect, l.Profile
			rep.Piconform, rep.Started = *l.Piconform, l.Started
			wantCases = *l.Cases
		case "case":
			switch {
			case l.ID == "":
				return nil, fail(n, "/id: missing")
			case l.Kind == "":
				return nil, fail(n, "/kind: missing (case %s)", l.ID)
			case !outcomes[l.Outcome]:
				return nil, fail(n, "/outcome: %q is not an outcome (case %s)", l.Outcome, l.ID)
			}
			if prev, dup := seen[l.ID]; dup {
				return nil, fail(n, "case %s is also on line %d", l.ID, prev)
			}
			seen[l.ID] = n
			c := Case{ID: l.ID, Kind: l.Kind, Rules: l.Rules, Outcome: l.Outcome, ExpectedFailure: l.ExpectedFailure,
				Message: l.Message, DiffsOmitted: l.DiffsOmitted, File: name, Line: n}
			for i, d := range l.Diffs {
				if d.Path == nil {
					return nil, fail(n, "/diffs/%d/path: missing (case %s)", i, l.ID)
				}
				c.Diffs = append(c.Diffs, Diff{Path: *d.Path, Want: string(d.Want), Got: string(d.Got)})
			}
			if len(c.Diffs) == 0 && l.Path != "" {
				c.Diffs = []Diff{{Path: l.Path}}
			}
			rep.Cases = append(rep.Cases, c)
		case "footer":
			footer = n
		default:
			return nil, fail(n, "/type: %q is not a report line type (header, case or footer)", l.Type)
		}
	}
	switch {
	case !header:
		return nil, fail(0, "not a piconform report: empty")
	case footer == 0:
		return nil, fail(n, "the report ends without a footer: the run was cut short or the file is truncated")
	case len(rep.Cases) != wantCases:
		return nil, fail(1, "the header announces %d cases but the report has %d", wantCases, len(rep.Cases))
	}
	return append(reps, rep), nil
}

// jsonError names the JSON path of a type error, which encoding/json
// reports as a Go field path.
func jsonError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return fmt.Sprintf("the line is a JSON %s, not an object", te.Value)
		}
		return fmt.Sprintf("/%s: a JSON %s where the report format wants another type", strings.ReplaceAll(te.Field, ".", "/"), te.Value)
	}
	return "not JSON: " + strings.TrimPrefix(err.Error(), "json: ")
}
