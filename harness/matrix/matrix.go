package matrix

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Matrix is implementations down, one row per implementation and dialect,
// and case kinds and rule families across.
type Matrix struct {
	// Version is the version of piconform that made the matrix, and
	// Generated when; the renderings name both.
	Version   string
	Generated time.Time
	// HTML, when set, is where the HTML rendering of the matrix will be
	// (a file name beside the Markdown, or a URL): the Markdown then links
	// its cells to the failure lists there and leaves them out, so it
	// stays small.
	HTML string
	Rows []*Row
	// readErr is the first failure to read a case's details again.
	readErr error
	// Kinds are the case kinds of every report, sorted.
	Kinds []string
	// Groups are the rule families grouped by the first segment of their
	// rule ids, both sorted.
	Groups []Group
}

// Group is the rule families that share a first segment (convert, wire, …).
type Group struct {
	Name     string
	Families []string
}

// Row is one implementation and version: the cases of all its reports.
type Row struct {
	Implementation Implementation
	// Files are the reports merged into this row, in the order given, by
	// their base names (a matrix names no folder of the machine it was
	// made on).
	Files []string
	// Started is when the row's first run began (RFC 3339, from its
	// header), and Piconform the version of piconform that ran it.
	Started, Piconform string
	// Anchor is this row's unique fragment id; its cells and cases derive theirs from it.
	Anchor   string
	Total    *Cell
	ByKind   map[string]*Cell
	ByFamily map[string]*Cell

	// entries are the row's cases while reports are merged into it.
	entries []entry
	// failing are its cases that did not pass and were not skipped, by id.
	failing     []*Case
	caseAnchors map[string]string
}

// Failing lists the row's cases that did not pass and were not skipped,
// sorted by id.
func (r *Row) Failing() []*Case { return r.failing }

// Cell counts the cases of one row in one column. A skipped case was not
// run, so it is neither a pass nor a failure: the pass rate is
// Passed/(Passed+Failed) and skips are shown apart. An expected failure is
// a failure: the case still differs from Pi.
type Cell struct {
	Passed, Failed, Skipped int
	// Failures are the failing cases, sorted by id.
	Failures []*Case
	// Anchor is the fragment id of this cell's failure list.
	Anchor string
}

// Run is how many cases ran: passed plus failed.
func (c *Cell) Run() int { return c.Passed + c.Failed }

// Failing reports whether an outcome counts as a failure: everything but
// pass and skip (fail, error, crash, timeout, protocol).
func Failing(outcome string) bool { return outcome != "pass" && outcome != "skip" }

// Family is a rule id up to its last dot segment: convert.bash.exit-code
// is in convert.bash. A rule id without a dot is its own family.
func Family(rule string) string {
	if i := strings.LastIndexByte(rule, '.'); i > 0 {
		return rule[:i]
	}
	return rule
}

// groupOf is the first segment of a family.
func groupOf(family string) string {
	g, _, _ := strings.Cut(family, ".")
	return g
}

// Merge builds the matrix. Reports with the same implementation name and
// version are shards of one run and become one row; a case they both hold
// must have the same outcome in both. Rows keep the order in which their
// first report was given.
func Merge(reports []*Report) (*Matrix, error) {
	b := newBuilder()
	for _, rep := range reports {
		b.header(rep)
		for i := range rep.Cases {
			b.add(&rep.Cases[i])
		}
	}
	return b.matrix()
}

// MergeFiles reads the reports in files and merges them as Merge does,
// as it reads: of a case it holds its id, kind, rules and outcome, and of
// a failing case also where its line is, which a rendering reads again for
// what it shows of the failure (Case.Details). So a matrix of large
// reports takes far less memory than they are long.
func MergeFiles(files []string) (*Matrix, error) {
	b := newBuilder()
	b.stream = true
	for _, f := range files {
		if err := scanFile(f, b); err != nil {
			return nil, err
		}
	}
	return b.matrix()
}

// entry is one case of a row, as merging needs it: small, since a report
// may hold very many. Kind and rules are indices into the builder's
// tables of distinct ones.
type entry struct {
	id          string
	rep, line   uint32
	kind, rules uint32
	// fail is the index of the case in the builder's failed, when it
	// fails (only those are held); else -1.
	fail    int32
	outcome uint8
}

// outcomeList numbers the outcomes for entry.outcome.
var outcomeList = []string{"pass", "fail", "skip", "error", "crash", "timeout", "protocol"}

// builder merges reports into rows, a case at a time.
type builder struct {
	m      *Matrix
	stream bool // cases come from scan, with where their lines are
	rows   map[Implementation]*Row
	// cur is the row of the report being read, whose cases start at
	// entries[start]; files names every report so far, by index.
	cur   *Row
	start int
	files []string
	// Distinct kinds and rule lists, numbered.
	kinds table[string]
	rules table[[]string]
	// failed are the failing cases so far.
	failed []*Case
}

func newBuilder() *builder {
	return &builder{m: &Matrix{}, rows: map[Implementation]*Row{}}
}

func (b *builder) header(rep *Report) {
	key := Implementation{Name: rep.Implementation.Name, Version: rep.Implementation.Version, Dialect: rep.Implementation.Dialect, Profile: rep.Implementation.Profile}
	row := b.rows[key]
	if row == nil {
		row = &Row{Implementation: rep.Implementation}
		b.rows[key] = row
		b.m.Rows = append(b.m.Rows, row)
	}
	row.Files = append(row.Files, filepath.Base(rep.File))
	if row.Started == "" || rep.Started != "" && rep.Started < row.Started {
		row.Started = rep.Started
	}
	if row.Piconform == "" {
		row.Piconform = rep.Piconform
	}
	b.cur, b.start = row, len(row.entries)
	b.files = append(b.files, rep.File)
}

// caseLine takes a case from scan: a failing one is held without its
// message and differences, which are read again when shown.
func (b *builder) caseLine(c Case, at lineRef) {
	if b.stream {
		c.Message, c.Diffs, c.at = "", nil, at
	}
	b.add(&c)
}

func (b *builder) add(c *Case) {
	e := entry{id: c.ID, rep: uint32(len(b.files) - 1), line: uint32(c.Line), kind: b.kind(c.Kind), rules: b.ruleList(c.Rules),
		outcome: uint8(slices.Index(outcomeList, c.Outcome)), fail: -1}
	if Failing(c.Outcome) {
		e.fail = int32(len(b.failed))
		b.failed = append(b.failed, c)
	}
	b.cur.entries = append(b.cur.entries, e)
}

// end refuses a case that the report just read names twice.
func (b *builder) end() error {
	es := b.cur.entries[b.start:]
	return repeatedCase(len(es), func(i int) (string, int) { return es[i].id, int(es[i].line) }, b.files[len(b.files)-1])
}

func (b *builder) kind(k string) uint32 { return b.kinds.index(k, k) }

func (b *builder) ruleList(rules []string) uint32 {
	return b.rules.index(strings.Join(rules, "\x00"), rules)
}

// table numbers distinct values by a key, so that an entry holds a small
// index instead of the value.
type table[T any] struct {
	values []T
	idx    map[string]uint32
}

// index is the number of the value of key, added as v if new.
func (t *table[T]) index(key string, v T) uint32 {
	i, ok := t.idx[key]
	if !ok {
		if t.idx == nil {
			t.idx = map[string]uint32{}
		}
		i = uint32(len(t.values))
		t.idx[key] = i
		t.values = append(t.values, v)
	}
	return i
}

// matrix checks that shards agree, and counts every row's cases into its
// cells.
func (b *builder) matrix() (*Matrix, error) {
	m := b.m
	kinds := map[string]bool{}
	families := map[string]bool{}
	anchors := map[string]bool{}
	for _, row := range m.Rows {
		row.Anchor = uniqueSlug(anchors, row.Implementation.Label())
		// By id; a case that several reports (overlapping shards) hold
		// counts once, as the first of them says.
		slices.SortStableFunc(row.entries, func(x, y entry) int { return strings.Compare(x.id, y.id) })
		var conflict, first entry
		found := false
		uniq := row.entries[:0]
		for _, e := range row.entries {
			if n := len(uniq); n > 0 && uniq[n-1].id == e.id {
				if p := uniq[n-1]; p.outcome != e.outcome && (!found || e.rep < conflict.rep || e.rep == conflict.rep && e.line < conflict.line) {
					conflict, first, found = e, p, true
				}
				continue
			}
			uniq = append(uniq, e)
		}
		if found {
			return nil, &InputError{File: b.files[conflict.rep], Line: int(conflict.line), Msg: fmt.Sprintf(
				"case %s is %s here but %s in %s:%d, a report of the same implementation and version (%s); shards of one run must agree",
				conflict.id, outcomeList[conflict.outcome], outcomeList[first.outcome], b.files[first.rep], first.line, row.Implementation.Label())}
		}
		row.entries = uniq
		for _, e := range uniq {
			kinds[b.kinds.values[e.kind]] = true
			for _, r := range b.rules.values[e.rules] {
				families[Family(r)] = true
			}
		}
	}
	m.Kinds = sortedKeys(kinds)
	byGroup := map[string][]string{}
	for _, f := range sortedKeys(families) {
		byGroup[groupOf(f)] = append(byGroup[groupOf(f)], f)
	}
	for _, g := range sortedKeys(byGroup) {
		m.Groups = append(m.Groups, Group{Name: g, Families: byGroup[g]})
	}
	for _, row := range m.Rows {
		b.fill(row, anchors)
		row.entries = nil
	}
	return m, nil
}

// fill counts the row's cases into its cells.
func (b *builder) fill(row *Row, anchors map[string]bool) {
	row.Total = &Cell{Anchor: row.Anchor}
	row.ByKind = map[string]*Cell{}
	row.ByFamily = map[string]*Cell{}
	row.caseAnchors = map[string]string{}
	cell := func(cells map[string]*Cell, key, prefix string) *Cell {
		c := cells[key]
		if c == nil {
			c = &Cell{Anchor: uniqueSlug(anchors, row.Anchor+" "+prefix+" "+key)}
			cells[key] = c
		}
		return c
	}
	for _, e := range row.entries {
		kind := b.kinds.values[e.kind]
		count := []*Cell{row.Total, cell(row.ByKind, kind, "kind")}
		seen := map[string]bool{}
		for _, r := range b.rules.values[e.rules] {
			if f := Family(r); !seen[f] {
				seen[f] = true // a case citing two rules of one family counts once there
				count = append(count, cell(row.ByFamily, f, "rules"))
			}
		}
		var fail *Case
		if e.fail >= 0 {
			fail = b.failed[e.fail]
			row.caseAnchors[e.id] = uniqueSlug(anchors, row.Anchor+" case "+e.id)
			row.failing = append(row.failing, fail)
		}
		for _, cl := range count {
			switch outcomeList[e.outcome] {
			case "pass":
				cl.Passed++
			case "skip":
				cl.Skipped++
			default:
				cl.Failed++
				cl.Failures = append(cl.Failures, fail)
			}
		}
	}
}

// details is what a rendering shows of a failing case: its message and
// differences. One that cannot be read again (its report changed on disk)
// shows why, and ReadError reports it.
func (m *Matrix) details(c *Case) (string, []Diff) {
	msg, diffs, err := c.Details()
	if err != nil {
		if m.readErr == nil {
			m.readErr = err
		}
		return "(not shown: " + err.Error() + ")", nil
	}
	return msg, diffs
}

// ReadError is the first report that a rendering could not read again for
// the details of a failure (it changed since it was merged), or nil.
func (m *Matrix) ReadError() error { return m.readErr }

// CaseAnchor is the fragment id of a failing case in a row's failure list.
func (row *Row) CaseAnchor(c *Case) string { return row.caseAnchors[c.ID] }

// slug keeps letters, digits, dots and underscores of s (lower-cased) and
// turns every other run of characters into one hyphen.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "x"
	}
	return b.String()
}

// uniqueSlug is slug(s), with a number appended when another id has it.
func uniqueSlug(taken map[string]bool, s string) string {
	base := slug(s)
	id := base
	for n := 2; taken[id]; n++ {
		id = fmt.Sprintf("%s-%d", base, n)
	}
	taken[id] = true
	return id
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
