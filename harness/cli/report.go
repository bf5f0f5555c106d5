package cli

import (
	"errors"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"github.com/piconform/piconform/harness/atomicfile"
	"github.com/piconform/piconform/harness/matrix"
	"github.com/piconform/piconform/harness/report"
)

const reportUsage = `Merges JSON-lines reports (written by 'piconform run --json FILE') into one compatibility
matrix: implementations down, case kinds and rule families across, each cell a pass rate
linked to its failures. Reports of the same implementation name and version (shards of one
run) become one row. Without --markdown or --html the Markdown goes to stdout. With --html, the
Markdown links its cells to the failure lists in the HTML page and leaves them out, so it stays
small enough for a CI step summary (GitHub's limit is 1 MiB; the Markdown never exceeds it).

Usage: piconform report [--markdown out.md] [--html out.html] [--html-link URL] REPORT.jsonl...`

func cmdReport(args []string, env Env) (int, error) {
	fs := newFlagSet("report", reportUsage, env)
	mdOut := fs.String("markdown", "", "write the matrix as Markdown to `FILE` (- for stdout)")
	htmlOut := fs.String("html", "", "write the matrix as a self-contained HTML page to `FILE` (- for stdout)")
	htmlLink := fs.String("html-link", "", "where the Markdown links to for details: the `URL` the HTML page will have once published (default: the --html file's name)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0, err
		}
		return 0, usageError{err}
	}
	if fs.NArg() == 0 {
		return 0, usagef("report: no report given\n\nUsage: piconform report [--markdown out.md] [--html out.html] REPORT.jsonl...")
	}
	var reports []*matrix.Report
	for _, path := range fs.Args() {
		r, err := matrix.ReadFile(path)
		if err != nil {
			return 0, usageError{err}
		}
		reports = append(reports, r...)
	}
	m, err := matrix.Merge(reports)
	if err != nil {
		return 0, usageError{err}
	}
	if *mdOut == "" && *htmlOut == "" {
		*mdOut = "-"
	}
	if *mdOut == "-" && *htmlOut == "-" {
		return 0, usagef("report: only one of --markdown and --html can write to stdout (-)")
	}
	m.Version, m.Generated = report.Version, time.Now()
	m.HTML = *htmlLink
	if m.HTML == "" && *htmlOut != "" && *htmlOut != "-" {
		m.HTML = filepath.Base(*htmlOut)
	}
	if *mdOut != "" {
		if err := writeOut(env, *mdOut, matrix.Markdown(m)); err != nil {
			return 0, err
		}
	}
	if *htmlOut != "" {
		page, err := matrix.HTML(m)
		if err != nil {
			return 0, err
		}
		if err := writeOut(env, *htmlOut, page); err != nil {
			return 0, err
		}
	}
	return ExitOK, nil
}

// writeOut writes data to stdout for "-", else atomically to path.
func writeOut(env Env, path string, data []byte) error {
	if path == "-" {
		_, err := env.Stdout.Write(data)
		return err
	}
	return atomicfile.WriteFile(path, data)
}
