package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/piconform/piconform/harness/report"
	"github.com/piconform/piconform/harness/run"
)

// TestNoRawControls: what an adapter says (its name, a case's message, a
// note, why it did not start) reaches the terminal and the Markdown report
// with its control characters escaped: no ESC, OSC, BEL, CR or C1 raw.
func TestNoRawControls(t *testing.T) {
	const evil = "\x1b]0;owned\x07\x1b[2J\rgone\u009b31m"
	tests := []struct {
		name   string
		change func(s *run.Summary)
	}{
		{"message", func(s *run.Summary) { s.Results[0].Outcome, s.Results[0].Message = run.Error, evil }},
		{"note", func(s *run.Summary) {
			s.Results[0].Outcome, s.Results[0].Message, s.Results[0].Notes = run.Fail, "x", []string{evil}
		}},
		{"implementation name", func(s *run.Summary) { s.Implementation.Name, s.Implementation.Version = evil, evil }},
		{"start failure", func(s *run.Summary) {
			s.StartFailures = []run.StartFailure{{Worker: 1, Outcome: "crash", Message: evil}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			results := []run.Result{{Case: mkCase("sanitize/a", "san.surrogates"), Outcome: run.Pass}}
			s := runSummary(t, results, nil, []string{"sanitize/a"})
			tt.change(s)
			var term bytes.Buffer
			report.Terminal(&term, s, report.Style{}, true)
			for name, out := range map[string]string{"terminal": term.String(), "markdown": string(report.Markdown(s))} {
				if i := strings.IndexFunc(out, isRawControl); i >= 0 {
					t.Errorf("the %s report holds the control %q:\n%q", name, out[i:i+1], out)
				}
				if !strings.Contains(out, `\x1b]0;owned\x07`) {
					t.Errorf("the %s report does not show the escaped text:\n%s", name, out)
				}
			}
		})
	}
}

func isRawControl(r rune) bool {
	return r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0)
}

// TestMarkdownTableHoldsHostilePaths: a first differing path whose keys
// (an implementation's) hold a pipe, a backtick and a newline stays in its
// cell: the failures table keeps one line a case and four cells a line.
func TestMarkdownTableHoldsHostilePaths(t *testing.T) {
	results := []run.Result{{Case: mkCase("convert/evil", "convert.order"), Outcome: run.Fail, Message: "differs",
		Mismatch: mismatch(t, `{}`, "{\"a|b`c\\nconforms\": 1}")}}
	md := string(report.Markdown(runSummary(t, results, nil, []string{"convert/evil"})))
	var row string
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "| `convert/evil` |") {
			row = l
		}
		if strings.TrimSpace(l) == "conforms" || strings.HasPrefix(l, "conforms") {
			t.Errorf("a line of its own: %q", l)
		}
	}
	if cells := strings.Count(strings.ReplaceAll(row, `\|`, ""), "|"); cells != 5 {
		t.Errorf("the row %q has %d cell borders, want 5", row, cells)
	}
}
