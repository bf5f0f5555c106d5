package suite

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
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
)

// ReadRules reads the rule headings ("### rule.id: title") of a spec file,
// and the "Checked by:" lines in each rule's text.
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
