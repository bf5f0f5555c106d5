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
	Anchor string
	// Cases are the row's cases, sorted by id.
	Cases    []*Case
	Total    *Cell
	ByKind   map[string]*Cell
	ByFamily map[string]*Cell

	caseAnchors map[string]string
}

// Failing lists the row's cases that did not pass and were not skipped.
func (r *Row) Failing() []*Case {
	var out []*Case
	for _, c := range r.Cases {
		if Failing(c.Outcome) {
			out = append(out, c)
		}
	}
	return out
}

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
	m := &Matrix{}
	rows := map[Implementation]*Row{}
	where := map[*Row]map[string]*Case{}
	kinds := map[string]bool{}
	families := map[string]bool{}
	anchors := map[string]bool{}
	for _, rep := range reports {
		key := Implementation{Name: rep.Implementation.Name, Version: rep.Implementation.Version, Dialect: rep.Implementation.Dialect, Profile: rep.Implementation.Profile}
		row := rows[key]
		if row == nil {
			row = &Row{Implementation: rep.Implementation, Anchor: uniqueSlug(anchors, rep.Implementation.Label())}
			rows[key] = row
			where[row] = map[string]*Case{}
			m.Rows = append(m.Rows, row)
		}
		row.Files = append(row.Files, filepath.Base(rep.File))
		if row.Started == "" || rep.Started != "" && rep.Started < row.Started {
			row.Started = rep.Started
		}
		if row.Piconform == "" {
			row.Piconform = rep.Piconform
		}
		for i := range rep.Cases {
			c := &rep.Cases[i]
			if prev := where[row][c.ID]; prev != nil {
				if prev.Outcome != c.Outcome {
					return nil, &InputError{File: c.File, Line: c.Line, Msg: fmt.Sprintf(
						"case %s is %s here but %s in %s:%d, a report of the same implementation and version (%s); shards of one run must agree",
						c.ID, c.Outcome, prev.Outcome, prev.File, prev.Line, row.Implementation.Label())}
				}
				continue // the same case twice with one outcome: overlapping shards
			}
			where[row][c.ID] = c
			row.Cases = append(row.Cases, c)
			kinds[c.Kind] = true
			for _, r := range c.Rules {
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
		slices.SortFunc(row.Cases, func(a, b *Case) int { return strings.Compare(a.ID, b.ID) })
		row.fill(anchors)
	}
	return m, nil
}

// fill counts the row's cases into its cells.
func (row *Row) fill(anchors map[string]bool) {
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
	for _, c := range row.Cases {
		count := []*Cell{row.Total, cell(row.ByKind, c.Kind, "kind")}
		seen := map[string]bool{}
		for _, r := range c.Rules {
			if f := Family(r); !seen[f] {
				seen[f] = true // a case citing two rules of one family counts once there
				count = append(count, cell(row.ByFamily, f, "rules"))
			}
		}
		if Failing(c.Outcome) {
			row.caseAnchors[c.ID] = uniqueSlug(anchors, row.Anchor+" case "+c.ID)
		}
		for _, cl := range count {
			switch {
			case c.Outcome == "pass":
				cl.Passed++
			case c.Outcome == "skip":
				cl.Skipped++
			default:
				cl.Failed++
				cl.Failures = append(cl.Failures, c)
			}
		}
	}
}

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
