package matrix

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/piconform/piconform/harness/printable"
)

// Limits on what a failure entry prints of texts an implementation wrote.
const (
	mdMessageRunes   = 300
	htmlMessageRunes = 2000
	valueRunes       = 120
	pathRunes        = 300
)

// Legend says how to read a cell; both renderings print it.
const Legend = "A cell reads passed/run: the cases that passed out of those that ran. " +
	"Every outcome other than pass and skip counts as a failure (fail, error, crash, timeout, protocol), " +
	"expected failures included, since the case still differs. Skipped cases did not run: they are shown apart " +
	"and count neither way. A case counts once in its kind and once in every rule family it cites " +
	"(a rule id up to its last dot: convert.bash.exit-code is in convert.bash)."

// MaxMarkdown bounds the Markdown matrix: GitHub refuses a step summary
// over 1 MiB. Past it the failure lists are cut, saying so.
const MaxMarkdown = 1<<20 - 16<<10

// Markdown renders the matrix as one Markdown document. Its cells link to
// failure lists: further down the same document, or, when m.HTML is set,
// in the HTML page, which the document then links to instead of holding
// the lists itself.
func Markdown(m *Matrix) []byte {
	var b bytes.Buffer
	link := func(anchor string) string { return "#" + anchor }
	if m.HTML != "" {
		link = func(anchor string) string { return m.HTML + "#" + anchor }
	}
	b.WriteString("# piconform compatibility matrix\n\n")
	var made []string
	if m.Version != "" {
		made = append(made, "piconform "+mdText(m.Version))
	}
	if !m.Generated.IsZero() {
		made = append(made, m.Generated.UTC().Format("2006-01-02 15:04")+" UTC")
	}
	if m.HTML != "" {
		made = append(made, fmt.Sprintf("details: [%s](%s)", mdText(path.Base(m.HTML)), m.HTML))
	}
	if len(made) > 0 {
		b.WriteString("Made by " + strings.Join(made, ", ") + ".\n\n")
	}
	b.WriteString(Legend + "\n\n")

	b.WriteString("| implementation | language | cases | passed | failed | skipped | run | reports |\n|---|---|--:|--:|--:|--:|---|---|\n")
	for _, r := range m.Rows {
		files := make([]string, len(r.Files))
		for i, f := range r.Files {
			files[i] = mdText(f)
		}
		t := r.Total
		run := ""
		if r.Started != "" {
			run = mdText(r.Started)
			if t, err := time.Parse(time.RFC3339, r.Started); err == nil {
				run = t.UTC().Format("2006-01-02 15:04") + " UTC"
			}
			if r.Piconform != "" {
				run += ", piconform " + mdText(r.Piconform)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %s | %d | %s | %s |\n", mdRowName(r), mdText(r.Implementation.Language),
			t.Run()+t.Skipped, t.Passed, mdCount(t.Failed, link(t.Anchor)), t.Skipped, run, strings.Join(files, ", "))
	}

	b.WriteString("\n## By case kind\n\n| implementation | all |")
	for _, k := range m.Kinds {
		fmt.Fprintf(&b, " %s |", mdText(k))
	}
	b.WriteString("\n|---|:-:|" + strings.Repeat(":-:|", len(m.Kinds)) + "\n")
	for _, r := range m.Rows {
		fmt.Fprintf(&b, "| %s | %s |", mdRowName(r), mdCell(r.Total, link))
		for _, k := range m.Kinds {
			fmt.Fprintf(&b, " %s |", mdCell(r.ByKind[k], link))
		}
		b.WriteString("\n")
	}

	if len(m.Groups) > 0 {
		b.WriteString("\n## By rule family\n")
	}
	for _, g := range m.Groups {
		fmt.Fprintf(&b, "\n### %s\n\n| implementation |", mdText(g.Name))
		for _, f := range g.Families {
			fmt.Fprintf(&b, " %s |", mdText(f))
		}
		b.WriteString("\n|---|" + strings.Repeat(":-:|", len(g.Families)) + "\n")
		for _, r := range m.Rows {
			fmt.Fprintf(&b, "| %s |", mdRowName(r))
			for _, f := range g.Families {
				fmt.Fprintf(&b, " %s |", mdCell(r.ByFamily[f], link))
			}
			b.WriteString("\n")
		}
	}

	b.WriteString("\n## Failures\n")
	anyFailure := false
	cut := 0 // rows whose failure lists did not fit
	for _, r := range m.Rows {
		failing := r.Failing()
		if len(failing) == 0 {
			continue
		}
		anyFailure = true
		if m.HTML != "" {
			fmt.Fprintf(&b, "\n- %s: [%s](%s)\n", mdText(r.Implementation.Label()), plural(len(failing), "failing case"), link(r.Anchor))
			continue
		}
		var rb bytes.Buffer
		if cut > 0 || !markdownFailures(&rb, m, r, MaxMarkdown-4096-b.Len()) {
			cut++
			fmt.Fprintf(&b, "\n### %s%s: %s\n\nLeft out to keep this document under GitHub's 1 MiB: render the matrix with --html for every failure.\n",
				mdAnchor(r.Anchor), mdText(r.Implementation.Label()), plural(len(failing), "failing case"))
			continue
		}
		b.Write(rb.Bytes())
	}
	if !anyFailure {
		b.WriteString("\nNo implementation fails a case.\n")
	}
	return b.Bytes()
}

// markdownFailures writes a row's failure lists, by rule family and by
// kind, unless they take more than limit bytes: then it stops, and says so.
func markdownFailures(b *bytes.Buffer, m *Matrix, r *Row, limit int) bool {
	failing := r.Failing()
	fmt.Fprintf(b, "\n### %s%s: %s\n\n", mdAnchor(r.Anchor), mdText(r.Implementation.Label()), plural(len(failing), "failing case"))
	b.WriteString("By rule family:\n\n")
	for _, g := range m.Groups {
		for _, f := range g.Families {
			c := r.ByFamily[f]
			if c == nil || len(c.Failures) == 0 {
				continue
			}
			if b.Len() > limit {
				return false
			}
			links := make([]string, len(c.Failures))
			for i, fc := range c.Failures {
				links[i] = fmt.Sprintf("[%s](#%s)", mdCode(fc.ID), r.CaseAnchor(fc))
			}
			fmt.Fprintf(b, "- %s%s (%d): %s\n", mdAnchor(c.Anchor), mdCode(f), len(c.Failures), strings.Join(links, " · "))
		}
	}
	for _, k := range m.Kinds {
		c := r.ByKind[k]
		if c == nil || len(c.Failures) == 0 {
			continue
		}
		fmt.Fprintf(b, "\n#### %s%s: %s\n\n", mdAnchor(c.Anchor), mdText(k), plural(len(c.Failures), "failing case"))
		for _, fc := range c.Failures {
			if b.Len() > limit {
				return false
			}
			msg, diffs := m.details(fc)
			fmt.Fprintf(b, "- %s%s — **%s**", mdAnchor(r.CaseAnchor(fc)), mdCode(fc.ID), mdText(fc.Outcome))
			if fc.ExpectedFailure {
				b.WriteString(" (expected)")
			}
			if msg != "" {
				b.WriteString(": " + mdText(clip(msg, mdMessageRunes)))
			}
			b.WriteString("\n")
			for _, d := range diffs {
				fmt.Fprintf(b, "  - %s", mdCode(clip(d.Path, pathRunes)))
				if d.Want != "" || d.Got != "" {
					fmt.Fprintf(b, ": want %s, got %s", mdValue(d.Want), mdValue(d.Got))
				}
				b.WriteString("\n")
			}
			if fc.DiffsOmitted > 0 {
				fmt.Fprintf(b, "  - and %s\n", plural(fc.DiffsOmitted, "more difference"))
			}
		}
	}
	return b.Len() <= limit
}

func mdRowName(r *Row) string {
	return mdText(r.Implementation.Label())
}

// mdCell is a table cell: the pass rate, linked to the failures when there are any.
func mdCell(c *Cell, link func(string) string) string {
	if c == nil || c.Run()+c.Skipped == 0 {
		return "–"
	}
	var s string
	switch {
	case c.Run() == 0:
		return fmt.Sprintf("%d skipped", c.Skipped)
	case c.Failed == 0:
		s = fmt.Sprintf("✅ %d/%d", c.Passed, c.Run())
	default:
		s = fmt.Sprintf("❌ [%d/%d](%s)", c.Passed, c.Run(), link(c.Anchor))
	}
	if c.Skipped > 0 {
		s += fmt.Sprintf(" · %d skipped", c.Skipped)
	}
	return s
}

func mdCount(n int, target string) string {
	if n == 0 {
		return "0"
	}
	return fmt.Sprintf("[%d](%s)", n, target)
}

func mdAnchor(id string) string { return `<a id="` + id + `"></a>` }

// mdText makes s inert Markdown text on one line: whitespace runs become
// one space, control characters show as \xNN, and every character that
// could start markup (emphasis, links, HTML, table pipes, entities) is
// backslash-escaped.
func mdText(s string) string {
	s = strings.Join(strings.Fields(printable.String(s)), " ")
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>&|~#!()", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdCode is s as a code span, fenced with more backticks than s holds in a row.
// Code spans are used outside tables only, where a pipe needs no escape.
func mdCode(s string) string {
	s = strings.Join(strings.Fields(printable.String(s)), " ")
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 || strings.HasPrefix(s, " ") || s == "" {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

func mdValue(v string) string {
	if v == "" {
		return "(absent)"
	}
	return mdCode(clip(v, valueRunes))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// clip cuts s to at most n characters, marking the cut.
func clip(s string, n int) string {
	i := 0
	for range n {
		if i == len(s) {
			return s
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	if i == len(s) {
		return s
	}
	return s[:i] + "…"
}
