package suite

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"github.com/piconform/piconform/reference/dialect"
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
	// GoTests are the Go tests the rule names in a "Checked by:" line, for
	// what no case can state (registries, the pipeline's hooks, strict
	// decoding). Coverage reports them apart from cases.
	GoTests []GoTest
	// Since and Until are the first and last dialects the rule holds in,
	// from its "Since:" and "Until:" lines; nil means the oldest and the
	// newest.
	Since, Until *dialect.Dialect
	// Changed holds, by dialect, the sentence of a "Changed in D:" line:
	// the rule holds before and after D, and D changed what it says.
	Changed map[dialect.Dialect]string
}

// HoldsIn tells whether the rule holds in dialect d.
func (r Rule) HoldsIn(d dialect.Dialect) bool {
	return (r.Since == nil || d >= *r.Since) && (r.Until == nil || d <= *r.Until)
}

// GoTest names one Go test: its package folder and function.
type GoTest struct {
	Package string // a folder relative to the repository, such as "reference/agent"
	Name    string // such as "TestPipelineOrder"
}

// GoTestCommands renders tests as go test commands, one per package.
func GoTestCommands(tests []GoTest) []string {
	var pkgs []string
	names := map[string][]string{}
	for _, t := range tests {
		if _, seen := names[t.Package]; !seen {
			pkgs = append(pkgs, t.Package)
		}
		names[t.Package] = append(names[t.Package], t.Name)
	}
	cmds := make([]string, len(pkgs))
	for i, p := range pkgs {
		dir := "./" + p
		if p == "." {
			dir = "."
		}
		cmds[i] = fmt.Sprintf("go test %s -run '^(%s)$'", dir, strings.Join(names[p], "|"))
	}
	return cmds
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

var (
	ruleHeading = regexp.MustCompile(`^###\s+([a-z0-9]+(?:\.[a-z0-9-]+)+):\s*(.*)$`)
	anyHeading  = regexp.MustCompile(`^#{1,3}\s`)
	// checkedBy is "Checked by: `reference/agent` TestA, TestB" inside a rule.
	checkedBy = regexp.MustCompile("^Checked by: `([a-z0-9_./-]+)` (Test\\w+(?:, Test\\w+)*)\\.?$")
	testName  = regexp.MustCompile(`Test\w+`)
	// lifetime is "Since: 1.6", "Until: 0.80" or "Changed in 1.6: what".
	lifetime = regexp.MustCompile(`^(?:(Since|Until):\s*([0-9.]*[0-9])\.?|(Changed in) ([0-9.]*[0-9]):\s*(.*))$`)
)

// ReadRules reads the rule headings ("### rule.id: title") of a spec file,
// and the "Checked by:", "Since:", "Until:" and "Changed in D:" lines in
// each rule's text.
func ReadRules(fsys fs.FS, name string) ([]Rule, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	var rules []Rule
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	var current *Rule
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if c := checkedBy.FindStringSubmatch(line); c != nil && current != nil {
			for _, name := range testName.FindAllString(c[2], -1) {
				current.GoTests = append(current.GoTests, GoTest{Package: c[1], Name: name})
			}
			continue
		}
		if l := lifetime.FindStringSubmatch(line); l != nil && current != nil {
			what, d, text := l[1], l[2], ""
			if what == "" {
				what, d, text = l[3], l[4], l[5]
			}
			if err := current.setLifetime(what, d, text); err != nil {
				return nil, fmt.Errorf("%s:%d: rule %s: %v", name, n, current.ID, err)
			}
			continue
		}
		m := ruleHeading.FindStringSubmatch(line)
		if m == nil {
			if anyHeading.MatchString(line) && current != nil {
				rules = append(rules, *current)
				current = nil
			}
			continue
		}
		if current != nil {
			rules = append(rules, *current)
		}
		if prev, dup := seen[m[1]]; dup {
			return nil, fmt.Errorf("%s:%d: rule %s is already defined on line %d", name, n, m[1], prev)
		}
		seen[m[1]] = n
		current = &Rule{ID: m[1], Title: m[2], File: name, Line: n}
	}
	if current != nil {
		rules = append(rules, *current)
	}
	return rules, sc.Err()
}

func (r *Rule) setLifetime(what, name, text string) error {
	d, err := dialect.Parse(name)
	if err != nil {
		return err
	}
	switch what {
	case "Since":
		r.Since = &d
	case "Until":
		r.Until = &d
	default:
		if strings.TrimSpace(text) == "" {
			return fmt.Errorf("\"Changed in %s:\" says nothing", name)
		}
		if r.Changed == nil {
			r.Changed = map[dialect.Dialect]string{}
		}
		r.Changed[d] = strings.TrimSpace(text)
	}
	return nil
}
