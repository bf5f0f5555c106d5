package suite

import "slices"

// RuleCoverage lists the cases that cite one rule.
type RuleCoverage struct {
	Rule  Rule
	Cases []string
}

// UnknownRule is a rule id cited by cases but not defined in the spec.
type UnknownRule struct {
	Rule  string
	Cases []string
}

// CoverageReport maps every spec rule to its cases.
type CoverageReport struct {
	Rules   []RuleCoverage
	Unknown []UnknownRule
}

// Coverage computes which cases test which rules.
func Coverage(rules []Rule, cases []*Case) CoverageReport {
	byRule := map[string][]string{}
	for _, c := range cases {
		for _, r := range c.Rules {
			byRule[r] = append(byRule[r], c.ID)
		}
	}
	var rep CoverageReport
	known := map[string]bool{}
	for _, r := range rules {
		known[r.ID] = true
		rep.Rules = append(rep.Rules, RuleCoverage{Rule: r, Cases: byRule[r.ID]})
	}
	var unknown []string
	for r := range byRule {
		if !known[r] {
			unknown = append(unknown, r)
		}
	}
	slices.Sort(unknown)
	for _, r := range unknown {
		rep.Unknown = append(rep.Unknown, UnknownRule{Rule: r, Cases: byRule[r]})
	}
	return rep
}
