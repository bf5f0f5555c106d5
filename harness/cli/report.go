package cli

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
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
	if *mdOut == "" && *htmlOut == "" {
		*mdOut = "-"
	}
	if *mdOut == "-" && *htmlOut == "-" {
		return 0, usagef("report: only one of --markdown and --html can write to stdout (-)")
	}
	// Merging holds a part of what the reports say (see
	// matrix.MergeFiles), at most about their size for reports of many
	// short lines. A soft memory limit below their size keeps the garbage
	// collector from letting the heap grow to twice that part, so the peak
	// stays under 1.5 times the reports' size.
	if total := inputSize(fs.Args()); total > 32<<20 {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(total*3/4 + 16<<20))
	}
	m, err := matrix.MergeFiles(fs.Args())
	if err != nil {
		return 0, usageError{err}
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
		if err := writeOutFunc(env, *htmlOut, func(w io.Writer) error { return matrix.WriteHTML(w, m) }); err != nil {
			return 0, err
		}
	}
	if err := m.ReadError(); err != nil {
		return 0, usageError{err}
	}
	return ExitOK, nil
}

// writeOut writes data to stdout for "-", else atomically to path.
func writeOut(env Env, path string, data []byte) error {
	return writeOutFunc(env, path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeOutFunc is writeOut for content written as it is made.
func writeOutFunc(env Env, path string, write func(io.Writer) error) error {
	if path == "-" {
		bw := bufio.NewWriterSize(env.Stdout, 64<<10)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	return atomicfile.WriteFunc(path, write)
}

// inputSize is the total size of the regular files among paths.
func inputSize(paths []string) int64 {
	var n int64
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			n += st.Size()
		}
	}
	return n
}
