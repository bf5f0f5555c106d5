package suite

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"regexp"
)

// SpecFile is the main document of the spec. Rules are written in it and in
// the other Markdown files next to it (SpecGlob), such as the per-API wire
// documents.
const SpecFile = "spec/SPEC.md"

// SpecGlob matches every file of the spec that may define rules.
const SpecGlob = "spec/*.md"

// Rule is one normative rule of the spec.
type Rule struct {
	ID    string
	Title string
	// File and Line say where the rule's heading is.
	File string
	Line int
}

// ReadSpec reads the rules of every file SpecGlob matches, in file name
// order. A rule id defined twice, in one file or in two, is an error.
func ReadSpec(fsys fs.FS) ([]Rule, error) {
	files, err := fs.Glob(fsys, SpecGlob)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no spec files match %s", SpecGlob)
	}
	var all []Rule
	where := map[string]Rule{}
	for _, name := range files {
		rules, err := ReadRules(fsys, name)
		if err != nil {
			return nil, err
		}
		for _, r := range rules {
			if prev, dup := where[r.ID]; dup {
				return nil, fmt.Errorf("%s:%d: rule %s is already defined in %s:%d", r.File, r.Line, r.ID, prev.File, prev.Line)
			}
			where[r.ID] = r
		}
		all = append(all, rules...)
	}
	return all, nil
}

var ruleHeading = regexp.MustCompile(`^###\s+([a-z0-9]+(?:\.[a-z0-9-]+)+):\s*(.*)$`)

// ReadRules reads the rule headings ("### rule.id: title") of a spec file.
func ReadRules(fsys fs.FS, name string) ([]Rule, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	var rules []Rule
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		m := ruleHeading.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if prev, dup := seen[m[1]]; dup {
			return nil, fmt.Errorf("%s:%d: rule %s is already defined on line %d", name, n, m[1], prev)
		}
		seen[m[1]] = n
		rules = append(rules, Rule{ID: m[1], Title: m[2], File: name, Line: n})
	}
	return rules, sc.Err()
}
