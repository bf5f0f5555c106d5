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
	"hash/crc32"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/piconform/piconform/harness/suite"
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

	// at, when set, is where Message and Diffs are read again when they
	// are shown: a matrix merged from files holds a failing case without
	// them (see MergeFiles).
	at lineRef
}

// Details is the message and the differences of a failing case: as it
// holds them, or read again from its report file.
func (c *Case) Details() (string, []Diff, error) {
	if c.at.path == "" {
		return c.Message, c.Diffs, nil
	}
	return c.at.details()
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

// MaxLineBytes bounds one line of a report. piconform writes far shorter
// ones (it bounds what a case line holds); a longer line is not a report's,
// and reading it whole could exhaust memory.
const MaxLineBytes = 4 << 20

// ReadFile reads the reports at path: one, or one per dialect of a run that
// checked several. Only a regular file is read: a device (/dev/zero) or a
// named pipe is refused at once, never read without end or waited on.
func ReadFile(path string) ([]*Report, error) {
	var c collector
	if err := scanFile(path, &c); err != nil {
		return nil, err
	}
	return c.reps, nil
}

// openRegular opens path for reading if it is a regular file, after
// symlinks; anything else is an InputError naming what it is.
func openRegular(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: cleanOSError(err)}
	}
	if !st.Mode().IsRegular() {
		return nil, &InputError{File: path, Msg: "not a regular file (" + suite.DescribeMode(st.Mode()) + "): a report is a file that piconform run --json wrote"}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: cleanOSError(err)}
	}
	// The file may have been swapped since the check.
	if st2, err := f.Stat(); err != nil || !os.SameFile(st, st2) {
		f.Close()
		return nil, &InputError{File: path, Msg: "changed while it was opened"}
	}
	return f, nil
}

func scanFile(path string, h handler) error {
	f, err := openRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return scan(path, f, h)
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
	var c collector
	if err := scan(name, r, &c); err != nil {
		return nil, err
	}
	return c.reps, nil
}

// handler receives the reports of a file as scan reads them: a report's
// header, each of its cases (with where its line is), and its end, where
// it may refuse a case named twice.
type handler interface {
	header(rep *Report)
	caseLine(c Case, at lineRef)
	end() error
}

// collector keeps whole reports, each case with its message and diffs.
type collector struct{ reps []*Report }

func (c *collector) header(rep *Report) { c.reps = append(c.reps, rep) }
func (c *collector) caseLine(k Case, _ lineRef) {
	r := c.reps[len(c.reps)-1]
	r.Cases = append(r.Cases, k)
}
func (c *collector) end() error {
	cs := c.reps[len(c.reps)-1].Cases
	return repeatedCase(len(cs), func(i int) (string, int) { return cs[i].ID, cs[i].Line }, c.reps[len(c.reps)-1].File)
}

// repeatedCase refuses a case id that two of the n cases of one report
// name (at gives the id and line of each): the error is at the later
// line, the first such line of the report.
func repeatedCase(n int, at func(int) (string, int), file string) error {
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	id := func(i int32) string { s, _ := at(int(i)); return s }
	slices.SortStableFunc(order, func(a, b int32) int { return strings.Compare(id(a), id(b)) })
	dupLine, firstLine, dupID := 0, 0, ""
	for i := 1; i < n; i++ {
		a, aLine := at(int(order[i-1]))
		b, bLine := at(int(order[i]))
		if a == b && (dupLine == 0 || bLine < dupLine) {
			dupLine, firstLine, dupID = bLine, aLine, b
		}
	}
	if dupLine == 0 {
		return nil
	}
	return &InputError{File: file, Line: dupLine, Msg: fmt.Sprintf("case %s is also on line %d", dupID, firstLine)}
}

// lineRef says where a case line is in its file, so that what a rendering
// shows of a failure can be read again when it is shown instead of being
// held: the file, the line's offset and length, and a checksum that tells
// a file changed since.
type lineRef struct {
	path string
	off  int64
	n    int32
	sum  uint32
}

// lines reads a report's lines, each at most MaxLineBytes, with their
// numbers and offsets.
type lines struct {
	br   *bufio.Reader
	buf  []byte
	n    int
	off  int64
	name string
}

// next is the next line (without its end), its number and offset; io.EOF
// at the end. The line is valid until the next call.
func (l *lines) next() ([]byte, int64, error) {
	l.buf = l.buf[:0]
	start := l.off
	for {
		chunk, err := l.br.ReadSlice('\n')
		l.off += int64(len(chunk))
		if len(l.buf)+len(chunk) > MaxLineBytes {
			return nil, 0, &InputError{File: l.name, Line: l.n + 1, Msg: fmt.Sprintf("a line longer than %d MiB: not a line piconform writes", MaxLineBytes>>20)}
		}
		l.buf = append(l.buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && (err != io.EOF || len(l.buf) == 0) {
			if err != io.EOF {
				return nil, 0, &InputError{File: l.name, Msg: err.Error()}
			}
			return nil, 0, io.EOF
		}
		l.n++
		return l.buf, start, nil
	}
}

// scan reads the reports in r, one after another, handing them to h.
func scan(name string, r io.Reader, h handler) error {
	b, light := h.(*builder)
	light = light && b.stream
	ls := &lines{br: bufio.NewReaderSize(r, 64<<10), name: name}
	fail := func(n int, format string, args ...any) error {
		return &InputError{File: name, Line: n, Msg: fmt.Sprintf(format, args...)}
	}
	var (
		rep       *Report
		header    bool
		footer    int
		wantCases int
		gotCases  int
	)
	for {
		raw, off, err := ls.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		n := ls.n
		text := bytes.TrimSpace(raw)
		if len(text) == 0 {
			continue
		}
		l, err := decodeLine(text, light)
		if err != nil {
			if !header {
				return fail(n, "not a piconform report: %s", jsonError(err))
			}
			return fail(n, "%s", jsonError(err))
		}
		if footer > 0 && l.Type == "header" {
			// The next dialect's report.
			if gotCases != wantCases {
				return fail(n, "the report before announces %d cases but has %d", wantCases, gotCases)
			}
			header, footer, gotCases = false, 0, 0
		}
		if footer > 0 {
			return fail(n, "a %q line after the footer (line %d)", l.Type, footer)
		}
		if !header && l.Type != "header" {
			return fail(n, "not a piconform report: the first line is not a header")
		}
		switch l.Type {
		case "header":
			if header {
				return fail(n, "a second header")
			}
			header = true
			if l.Schema != nil && (*l.Schema < 1 || *l.Schema > SchemaVersion) {
				return fail(n, "report schema version %d is unknown to this piconform, which reads versions 1 to %d", *l.Schema, SchemaVersion)
			}
			switch {
			case l.Piconform == nil:
				return fail(n, "not a piconform report: the header has no \"piconform\" version")
			case l.Implementation == nil || l.Implementation.Name == "":
				return fail(n, "/implementation/name: missing; the header must name the implementation")
			case l.Cases == nil || *l.Cases < 0:
				return fail(n, "/cases: missing or negative")
			}
			rep = &Report{File: name, Implementation: *l.Implementation, Piconform: *l.Piconform, Started: l.Started}
			rep.Implementation.Dialect, rep.Implementation.Profile = l.Dialect, l.Profile
			wantCases = *l.Cases
			h.header(rep)
		case "case":
			switch {
			case l.ID == "":
				return fail(n, "/id: missing")
			case l.Kind == "":
				return fail(n, "/kind: missing (case %s)", l.ID)
			case !outcomes[l.Outcome]:
				return fail(n, "/outcome: %q is not an outcome (case %s)", l.Outcome, l.ID)
			}
			c := Case{ID: l.ID, Kind: l.Kind, Rules: l.Rules, Outcome: l.Outcome, ExpectedFailure: l.ExpectedFailure,
				Message: l.Message, DiffsOmitted: l.DiffsOmitted, File: name, Line: n}
			if c.Diffs, err = diffsOf(l); err != nil {
				return fail(n, "%v", err)
			}
			gotCases++
			h.caseLine(c, lineRef{path: name, off: off, n: int32(len(raw)), sum: crc32.ChecksumIEEE(raw)})
		case "footer":
			footer = n
			if err := h.end(); err != nil {
				return err
			}
		default:
			return fail(n, "/type: %q is not a report line type (header, case or footer)", l.Type)
		}
	}
	switch {
	case !header:
		return fail(0, "not a piconform report: empty")
	case footer == 0:
		if err := h.end(); err != nil {
			return err
		}
		return fail(ls.n, "the report ends without a footer: the run was cut short or the file is truncated")
	case gotCases != wantCases:
		return fail(1, "the header announces %d cases but the report has %d", wantCases, gotCases)
	}
	return nil
}

// diffsOf is the differences a case line lists: its "diffs", else its
// first differing "path" alone.
func diffsOf(l line) ([]Diff, error) {
	var out []Diff
	for i, d := range l.Diffs {
		if d.Path == nil {
			return nil, fmt.Errorf("/diffs/%d/path: missing (case %s)", i, l.ID)
		}
		out = append(out, Diff{Path: *d.Path, Want: string(d.Want), Got: string(d.Got)})
	}
	if len(out) == 0 && l.Path != "" {
		out = []Diff{{Path: l.Path}}
	}
	return out, nil
}

// details reads again the message and differences of a case whose line
// was not held (see lineRef).
func (at lineRef) details() (string, []Diff, error) {
	f, err := openRegular(at.path)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	raw := make([]byte, at.n)
	if _, err := f.ReadAt(raw, at.off); err != nil || crc32.ChecksumIEEE(raw) != at.sum {
		return "", nil, &InputError{File: at.path, Msg: "changed while piconform report read it"}
	}
	var l line
	if err := json.Unmarshal(raw, &l); err != nil {
		return "", nil, &InputError{File: at.path, Msg: "changed while piconform report read it"}
	}
	diffs, err := diffsOf(l)
	return l.Message, diffs, err
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
