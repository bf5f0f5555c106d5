package suite

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"regexp"
)

// SpecFile is where a suite's rules are written.
const SpecFile = "spec/SPEC.md"

// Rule is one normative rule of the spec.
type Rule struct {
	ID    string
	Title string
	Line  int
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
		rules = append(rules, Rule{ID: m[1], Title: m[2], Line: n})
	}
	return rules, sc.Err()
}
