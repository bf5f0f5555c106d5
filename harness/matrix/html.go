package matrix

import (
	"bufio"
	"bytes"
	"fmt"
	"html/template"
	"io"
	"iter"
	"strings"

	"github.com/piconform/piconform/harness/printable"
)

// HTML renders the matrix as one self-contained page: its style is in the
// page, it has no script and loads nothing (its Content-Security-Policy
// forbids it), and every text from a report goes through html/template's
// escaping.
func HTML(m *Matrix) ([]byte, error) {
	var b bytes.Buffer
	if err := WriteHTML(&b, m); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteHTML writes the page of HTML to w as it renders it: what the page
// shows of each failure is read when it is written, so a page of many
// failures is never held whole.
func WriteHTML(w io.Writer, m *Matrix) error {
	v := htmlView{Legend: Legend, Version: m.Version}
	if !m.Generated.IsZero() {
		v.Generated = m.Generated.UTC().Format("2006-01-02 15:04") + " UTC"
	}
	for _, r := range m.Rows {
		t := r.Total
		v.Rows = append(v.Rows, htmlRow{Label: printable.String(r.Implementation.Label()), Anchor: r.Anchor, Language: printable.String(r.Implementation.Language),
			Files: r.Files, Cases: t.Run() + t.Skipped, Passed: t.Passed, Failed: t.Failed, Skipped: t.Skipped, Total: htmlCellOf(r.Total)})
	}
	v.Kinds = m.Kinds
	for _, r := range m.Rows {
		cells := make([]htmlCell, len(m.Kinds))
		for i, k := range m.Kinds {
			cells[i] = htmlCellOf(r.ByKind[k])
		}
		v.KindCells = append(v.KindCells, cells)
	}
	for _, g := range m.Groups {
		hg := htmlGroup{Name: g.Name}
		for _, f := range g.Families {
			// Under its group's caption a family is named by what follows
			// the group (".bash" under convert), so wide groups fit a screen.
			hg.Families = append(hg.Families, htmlFamily{ID: f, Label: strings.TrimPrefix(f, g.Name)})
		}
		for i, r := range m.Rows {
			cells := make([]htmlCell, len(g.Families))
			for j, f := range g.Families {
				cells[j] = htmlCellOf(r.ByFamily[f])
			}
			hg.Rows = append(hg.Rows, htmlGroupRow{Row: &v.Rows[i], Cells: cells})
		}
		v.Groups = append(v.Groups, hg)
	}
	for _, r := range m.Rows {
		failing := r.Failing()
		if len(failing) == 0 {
			continue
		}
		fs := htmlFailures{Label: printable.String(r.Implementation.Label()), Anchor: r.Anchor, Count: plural(len(failing), "failing case")}
		for _, g := range m.Groups {
			for _, f := range g.Families {
				c := r.ByFamily[f]
				if c == nil || len(c.Failures) == 0 {
					continue
				}
				idx := htmlIndex{Family: f, Anchor: c.Anchor}
				for _, fc := range c.Failures {
					idx.Cases = append(idx.Cases, htmlLink{Text: fc.ID, Anchor: r.CaseAnchor(fc)})
				}
				fs.Index = append(fs.Index, idx)
			}
		}
		for _, k := range m.Kinds {
			c := r.ByKind[k]
			if c == nil || len(c.Failures) == 0 {
				continue
			}
			hk := htmlKind{Kind: k, Anchor: c.Anchor, Count: plural(len(c.Failures), "failing case"), Cases: htmlCases(m, r, c.Failures)}
			fs.Kinds = append(fs.Kinds, hk)
		}
		v.Failures = append(v.Failures, fs)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := page.Execute(bw, v); err != nil {
		return err
	}
	return bw.Flush()
}

// htmlCases yields the rows of failing cases, each read when it is
// written.
func htmlCases(m *Matrix, r *Row, failures []*Case) iter.Seq[htmlCase] {
	return func(yield func(htmlCase) bool) {
		for _, fc := range failures {
			msg, diffs := m.details(fc)
			hc := htmlCase{ID: fc.ID, Anchor: r.CaseAnchor(fc), Outcome: fc.Outcome, Expected: fc.ExpectedFailure,
				Message: printable.String(clip(msg, htmlMessageRunes))}
			for _, d := range diffs {
				hd := htmlDiff{Path: printable.String(clip(d.Path, pathRunes)), HasValues: d.Want != "" || d.Got != "", Want: "(absent)", Got: "(absent)"}
				if d.Want != "" {
					hd.Want = printable.String(clip(d.Want, valueRunes))
				}
				if d.Got != "" {
					hd.Got = printable.String(clip(d.Got, valueRunes))
				}
				hc.Diffs = append(hc.Diffs, hd)
			}
			if fc.DiffsOmitted > 0 {
				hc.More = fmt.Sprintf("and %s", plural(fc.DiffsOmitted, "more difference"))
			}
			if !yield(hc) {
				return
			}
		}
	}
}

type htmlView struct {
	Legend    string
	Version   string
	Generated string
	Rows      []htmlRow
	Kinds     []string
	KindCells [][]htmlCell
	Groups    []htmlGroup
	Failures  []htmlFailures
}

type htmlRow struct {
	Label, Anchor, Language        string
	Files                          []string
	Cases, Passed, Failed, Skipped int
	Total                          htmlCell
}

type htmlCell struct {
	Class  string // none, skip, full, high, mid, low
	Rate   string // "45/48", or "" when nothing ran
	Skip   string // "3 skipped", or ""
	Anchor string // set when the cell has failures
	Title  string
}

type htmlGroup struct {
	Name     string
	Families []htmlFamily
	Rows     []htmlGroupRow
}

type htmlFamily struct{ ID, Label string }

type htmlGroupRow struct {
	Row   *htmlRow
	Cells []htmlCell
}

type htmlFailures struct {
	Label, Anchor, Count string
	Index                []htmlIndex
	Kinds                []htmlKind
}

type htmlIndex struct {
	Family, Anchor string
	Cases          []htmlLink
}

type htmlLink struct{ Text, Anchor string }

type htmlKind struct {
	Kind, Anchor, Count string
	Cases               iter.Seq[htmlCase]
}

type htmlCase struct {
	ID, Anchor, Outcome, Message string
	More                         string // how many differences the report left out
	Expected                     bool
	Diffs                        []htmlDiff
}

type htmlDiff struct {
	Path, Want, Got string
	HasValues       bool
}

func htmlCellOf(c *Cell) htmlCell {
	if c == nil || c.Run()+c.Skipped == 0 {
		return htmlCell{Class: "none", Title: "no case"}
	}
	h := htmlCell{}
	if c.Skipped > 0 {
		h.Skip = fmt.Sprintf("%d skipped", c.Skipped)
	}
	if c.Run() == 0 {
		h.Class, h.Title = "skip", "every case skipped"
		return h
	}
	h.Rate = fmt.Sprintf("%d/%d", c.Passed, c.Run())
	h.Title = fmt.Sprintf("%d passed, %d failed, %d skipped", c.Passed, c.Failed, c.Skipped)
	switch pct := 100 * c.Passed / c.Run(); {
	case c.Failed == 0:
		h.Class = "full"
	case pct >= 90:
		h.Class = "high"
	case pct >= 50:
		h.Class = "mid"
	default:
		h.Class = "low"
	}
	if c.Failed > 0 {
		h.Anchor = c.Anchor
	}
	return h
}

var page = template.Must(template.New("matrix").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>piconform compatibility matrix</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;margin:24px 32px;max-width:1600px}
h1{font-size:22px;margin:0 0 6px}
h2{font-size:18px;margin:32px 0 10px;border-bottom:1px solid #d8dce3;padding-bottom:4px}
h3{font-size:16px;margin:24px 0 8px}
h4{font-size:14px;margin:18px 0 6px}
p.legend{color:#4a5263;max-width:980px;margin:0 0 16px}
code,.mono{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
table{border-collapse:collapse;margin:0 0 8px}
th,td{border:1px solid #d8dce3;padding:4px 8px;vertical-align:top}
th{background:#f3f5f8;font-weight:600;text-align:center;font-size:12.5px}
th.impl,td.impl{text-align:left;white-space:nowrap;font-weight:600}
td.num{text-align:right}
td.cell{text-align:center;vertical-align:middle;white-space:nowrap;min-width:56px}
td.cell a{color:inherit;font-weight:600}
td.cell .skip{display:block;font-size:11px;color:#5d6576}
td.full{background:#d9f2df}
td.high{background:#fff1c7}
td.mid{background:#ffdcb8}
td.low{background:#f8c6c6}
td.skip{background:#eceef2;color:#5d6576}
td.none{color:#a3a9b5}
.groups{display:flex;flex-wrap:wrap;gap:18px 28px;align-items:flex-start}
.groups table caption{text-align:left;font-weight:600;padding:0 0 4px}
ul.index{padding-left:18px}
ul.index li{margin:2px 0}
ul.index a{margin-right:8px}
table.fails{width:100%}
table.fails td{font-size:13px}
table.fails td.id{white-space:nowrap}
.outcome{font-weight:600;color:#a3261f}
.expected{font-weight:400;color:#5d6576}
.msg{white-space:pre-wrap;word-break:break-word}
ul.diffs{margin:0;padding-left:16px}
.want{color:#1d6b2f}
.got{color:#a3261f}
a{color:#1f57b8}
.back{font-size:12px;font-weight:400;margin-left:8px}
</style>
</head>
<body>
<h1 id="top">piconform compatibility matrix</h1>
{{if or .Version .Generated}}<p class="legend">Made by{{if .Version}} piconform {{.Version}}{{end}}{{if .Generated}}{{if .Version}},{{end}} {{.Generated}}{{end}}.</p>
{{end}}<p class="legend">{{.Legend}}</p>

<table>
<tr><th class="impl">implementation</th><th>language</th><th>cases</th><th>passed</th><th>failed</th><th>skipped</th><th class="impl">reports</th></tr>
{{range .Rows}}<tr><td class="impl">{{.Label}}</td><td>{{.Language}}</td><td class="num">{{.Cases}}</td><td class="num">{{.Passed}}</td><td class="num">{{if .Failed}}<a href="#{{.Anchor}}">{{.Failed}}</a>{{else}}0{{end}}</td><td class="num">{{.Skipped}}</td><td class="mono">{{range $i, $f := .Files}}{{if $i}}, {{end}}{{$f}}{{end}}</td></tr>
{{end}}</table>

<h2>By case kind</h2>
<table>
<tr><th class="impl">implementation</th><th>all</th>{{range .Kinds}}<th>{{.}}</th>{{end}}</tr>
{{range $i, $r := .Rows}}<tr><td class="impl">{{$r.Label}}</td>{{template "cell" $r.Total}}{{range index $.KindCells $i}}{{template "cell" .}}{{end}}</tr>
{{end}}</table>

{{if .Groups}}<h2>By rule family</h2>
<div class="groups">
{{range .Groups}}<table>
<caption>{{.Name}}</caption>
<tr><th class="impl">implementation</th>{{range .Families}}<th title="rules {{.ID}}.*">{{if .Label}}{{.Label}}{{else}}{{.ID}}{{end}}</th>{{end}}</tr>
{{range .Rows}}<tr><td class="impl">{{.Row.Label}}</td>{{range .Cells}}{{template "cell" .}}{{end}}</tr>
{{end}}</table>
{{end}}</div>
{{end}}
<h2>Failures</h2>
{{range .Failures}}<h3 id="{{.Anchor}}">{{.Label}}: {{.Count}} <a class="back" href="#top">top</a></h3>
<p>By rule family:</p>
<ul class="index">
{{range .Index}}<li id="{{.Anchor}}"><code>{{.Family}}</code> ({{len .Cases}}): {{range .Cases}}<a href="#{{.Anchor}}"><code>{{.Text}}</code></a>{{end}}</li>
{{end}}</ul>
{{range .Kinds}}<h4 id="{{.Anchor}}">{{.Kind}}: {{.Count}}</h4>
<table class="fails">
<tr><th class="impl">case</th><th>outcome</th><th class="impl">message</th><th class="impl">differing paths (want → got)</th></tr>
{{range .Cases}}<tr id="{{.Anchor}}"><td class="id"><code>{{.ID}}</code></td><td><span class="outcome">{{.Outcome}}</span>{{if .Expected}} <span class="expected">(expected)</span>{{end}}</td><td class="msg">{{.Message}}</td><td>{{if .Diffs}}<ul class="diffs">{{range .Diffs}}<li><code>{{.Path}}</code>{{if .HasValues}}: <code class="want">{{.Want}}</code> → <code class="got">{{.Got}}</code>{{end}}</li>{{end}}{{if .More}}<li>{{.More}}</li>{{end}}</ul>{{end}}</td></tr>
{{end}}</table>
{{end}}{{else}}<p>No implementation fails a case.</p>
{{end}}</body>
</html>
{{define "cell"}}<td class="cell {{.Class}}" title="{{.Title}}">{{if .Rate}}{{if .Anchor}}<a href="#{{.Anchor}}">{{.Rate}}</a>{{else}}{{.Rate}}{{end}}{{else if not .Skip}}–{{end}}{{if .Skip}}<span class="skip">{{.Skip}}</span>{{end}}</td>{{end}}
`))
