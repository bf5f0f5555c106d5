package report

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/piconform/piconform/harness/run"
)

// Cause is what many failing cases may share: a path pattern and the kind
// of difference there ("/requests/*/body/tools/*/strict missing"), or,
// for a case that broke, its outcome and message ("timeout: no answer").
type Cause struct {
	What string
	// Cases are the ids of the cases it explains, in run order.
	Cases []string
}

// Causes groups failing results by cause, the most common first. A case
// counts once in each cause it shows, so one systematic bug is one line
// with a count however many cases it breaks, and however deep in a
// document it first shows.
func Causes(results []run.Result) []Cause {
	byWhat := map[string]*Cause{}
	var order []*Cause
	add := func(what, id string) {
		c := byWhat[what]
		if c == nil {
			c = &Cause{What: what}
			byWhat[what] = c
			order = append(order, c)
		}
		if n := len(c.Cases); n == 0 || c.Cases[n-1] != id {
			c.Cases = append(c.Cases, id)
		}
	}
	for _, r := range results {
		diffs := diffsOf(r)
		if r.Outcome != run.Fail || len(diffs) == 0 {
			add(string(r.Outcome)+": "+messagePattern(r.Message), r.Case.ID)
			if r.Outcome == run.Fail {
				continue
			}
		}
		seen := map[string]bool{}
		for _, d := range diffs {
			what := PathPattern(d.Path) + " "
			switch {
			case d.Got.IsAbsent():
				what += "missing"
			case d.Want.IsAbsent():
				what += "unexpected"
			default:
				what += "differs"
			}
			if !seen[what] {
				seen[what] = true
				add(what, r.Case.ID)
			}
		}
	}
	out := make([]Cause, len(order))
	for i, c := range order {
		out[i] = *c
	}
	slices.SortStableFunc(out, func(a, b Cause) int { return cmp.Compare(len(b.Cases), len(a.Cases)) })
	return out
}

// PathPattern is a JSON Pointer with its array indices as "*", so the
// same member of every element reads the same.
func PathPattern(p string) string {
	if p == "" {
		return "/"
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if i > 0 && s != "" && strings.Trim(s, "0123456789") == "" {
			segs[i] = "*"
		}
	}
	return strings.Join(segs, "/")
}

var (
	digits = regexp.MustCompile(`[0-9]+(\.[0-9]+)?`)
	spaces = regexp.MustCompile(`\s+`)
)

// messagePattern is the first line of a message with its numbers as N, so
// messages that differ only in a count, a time or a process id read the
// same.
func messagePattern(msg string) string {
	first, _, _ := strings.Cut(msg, "\n")
	first = spaces.ReplaceAllString(strings.TrimSpace(first), " ")
	if first == "" {
		return "(no message)"
	}
	return clipRunes(digits.ReplaceAllString(first, "N"), 120)
}
