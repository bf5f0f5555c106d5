package suite

import (
	"slices"

	"github.com/piconform/piconform/reference/dialect"
)

// RuleChange is a rule whose statement differs between two dialects.
type RuleChange struct {
	Rule Rule
	// What is "new" (the rule holds in the later dialect only), "removed"
	// (in the earlier only) or "changed" (a "Changed in" line between).
	What string
	// Text is what changed, from the rule's "Changed in" lines.
	Text string
	// Cases cite the rule and show the difference: they hold in one of
	// the dialects only, or their golden or cassette differs between them.
	Cases []string
}

// ChangeReport is what changed from one dialect to a later one: the
// upgrade list of a port that follows Pi.
type ChangeReport struct {
	From, To dialect.Dialect
	Rules    []RuleChange
	// Unexplained are the cases whose expectation differs between the two
	// dialects but that cite no rule marked as changed, new or removed.
	Unexplained []string
}

// Differs tells whether the case expects something else in dialect a than
// in b: it holds in one only, or another golden or cassette file holds its
// expectation.
func (c *Case) Differs(a, b dialect.Dialect) bool {
	if c.HoldsIn(a) != c.HoldsIn(b) {
		return true
	}
	return c.HoldsIn(a) && (c.GoldenPath(a) != c.GoldenPath(b) || c.CassettePath(a) != c.CassettePath(b))
}

// Changes lists the rules that differ from dialect from to dialect to, in
// spec order, with the cases that show each.
func Changes(rules []Rule, cases []*Case, from, to dialect.Dialect) ChangeReport {
	rep := ChangeReport{From: from, To: to}
	differs := map[string]bool{}
	for _, c := range cases {
		if c.Differs(from, to) {
			differs[c.ID] = true
		}
	}
	explained := map[string]bool{}
	for _, r := range rules {
		rc := RuleChange{Rule: r}
		switch holdsFrom, holdsTo := r.HoldsIn(from), r.HoldsIn(to); {
		case !holdsFrom && holdsTo:
			rc.What = "new"
		case holdsFrom && !holdsTo:
			rc.What = "removed"
		case holdsFrom:
			for d := from + 1; d <= to; d++ {
				if t, ok := r.Changed[d]; ok {
					rc.What = "changed"
					if rc.Text != "" {
						rc.Text += " "
					}
					rc.Text += t
				}
			}
		}
		if rc.What == "" {
			continue
		}
		for _, c := range cases {
			if differs[c.ID] && slices.Contains(c.Rules, r.ID) {
				rc.Cases = append(rc.Cases, c.ID)
				explained[c.ID] = true
			}
		}
		rep.Rules = append(rep.Rules, rc)
	}
	for _, c := range cases {
		if differs[c.ID] && !explained[c.ID] {
			rep.Unexplained = append(rep.Unexplained, c.ID)
		}
	}
	return rep
}
