package report

import (
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/profdiff/profdiff/history"
	"github.com/profdiff/profdiff/internal/units"
)

// WriteHistoryHTML writes a history as one offline HTML page: the change
// points, then a chart per series (the headline, then each series that
// changed) with every run as a dot, each commit's mean joined by a line
// and the change points marked. It loads nothing: the charts are inline
// SVG and every name from a profile is escaped.
func WriteHistoryHTML(w io.Writer, res *history.Result) error {
	var b strings.Builder
	esc := html.EscapeString
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>profdiff history</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>
body{font:14px/1.4 system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:24px;color:#1f2328;max-width:1100px}
h1{font-size:20px} h2{font-size:16px;margin-top:28px} table{border-collapse:collapse} td,th{border:1px solid #d0d7de;padding:4px 10px;text-align:left}
td.n{text-align:right;white-space:nowrap} .better{color:#1a7f37;font-weight:600} .worse{color:#cf222e;font-weight:600}
.warn{color:#9a6700} figure{margin:18px 0} figcaption{font-weight:600;margin-bottom:4px} svg text{font:11px system-ui,sans-serif;fill:#57606a} .legend{color:#57606a}
</style></head><body>
`)
	fmt.Fprintf(&b, "<h1>profdiff history</h1>\n<p>%s</p>\n", esc(historySpan(res)))
	for _, w := range res.Warnings {
		fmt.Fprintf(&b, "<p class=warn>warning: %s</p>\n", esc(w))
	}
	if len(res.ChangePoints) == 0 {
		b.WriteString("<p>No change point: every series stayed within its noise.</p>\n")
	}
	for _, cp := range res.ChangePoints {
		fmt.Fprintf(&b, "<h2>%s · %s · %s</h2>\n<table><tr><th>what changed</th><th>before → after</th><th>verdict</th></tr>\n",
			esc(cp.Commit), esc(historyDate(cp.Date)), esc(cp.Message))
		t := HistoryChangesTable(res, cp)
		for _, row := range t.Rows {
			c := row.Cells
			fmt.Fprintf(&b, "<tr><td>%s</td><td class=n>%s</td><td><span class=%s>%s</span> %s</td></tr>\n", esc(c[0].Text), esc(c[1].Text), c[2].Text, c[2].Text, esc(c[3].Text))
		}
		b.WriteString("</table>\n")
	}
	b.WriteString("<h2>Series</h2>\n")
	for _, s := range append(slices.Clone(res.Headlines), res.Changed...) {
		fmt.Fprintf(&b, "<figure><figcaption>%s</figcaption>\n%s</figure>\n", esc(historyChangeName(s.Kind, s.Name, s.Package, s.File, s.Metric, res.Per)), seriesSVG(res, s))
	}
	fmt.Fprintf(&b, "<p class=legend>%s</p>\n</body></html>\n", esc(historyLegend(res)))
	_, err := io.WriteString(w, b.String())
	return err
}

// seriesSVG draws one series: runs as dots (when the history kept them),
// means as a line, commits whose record had the row below its floor as a
// pale bar from 0 to the floor (the range its time lies in, titled "below
// 0.1% here") that the line skips, change points as dashed lines before
// their commit, the commits below.
func seriesSVG(res *history.Result, s history.Series) string {
	const width, height, left, right, top, bottom = 1000.0, 200.0, 70.0, 45.0, 10.0, 40.0
	n := len(res.Commits)
	hi := 0.0
	for _, runs := range s.Runs {
		for _, v := range runs {
			hi = math.Max(hi, v)
		}
	}
	for _, m := range s.Means {
		if !math.IsNaN(m) {
			hi = math.Max(hi, m)
		}
	}
	if hi <= 0 {
		hi = 1
	}
	x := func(i int) float64 {
		if n == 1 {
			return left + (width-left-right)/2
		}
		return left + float64(i)*(width-left-right)/float64(n-1)
	}
	y := func(v float64) float64 { return top + (height-top-bottom)*(1-v/hi) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg viewBox="0 0 %g %g" width="%g" height="%g" role="img">`, width, height, width, height)
	fmt.Fprintf(&b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#d0d7de"/>`, left, y(0), width-right, y(0))
	fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="end">%s</text><text x="%g" y="%g" text-anchor="end">0</text>`,
		left-6, y(hi)+4, html.EscapeString(units.Duration(hi)), left-6, y(0)+4)
	for _, at := range s.ChangesAt {
		cx := (x(at-1) + x(at)) / 2
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%g" x2="%.1f" y2="%g" stroke="#cf222e" stroke-dasharray="4 3"/>`, cx, top, cx, y(0))
	}
	bar := math.Max(2, math.Min(8, (width-left-right)/float64(max(n, 1))*0.6))
	var path []string
	flush := func() {
		if len(path) > 1 {
			fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="#0969da" stroke-width="2"/>`, strings.Join(path, " "))
		} else if len(path) == 1 {
			xy := strings.Split(path[0], ",")
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="2.5" fill="#0969da"/>`, xy[0], xy[1])
		}
		path = path[:0]
	}
	for i, m := range s.Means {
		switch {
		case s.Below != nil && s.Below[i]:
			flush()
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#afb8c1"><title>%s</title></rect>`,
				x(i)-bar/2, y(m), bar, y(0)-y(m), html.EscapeString(res.Commits[i].Commit+": "+belowText(res.Commits[i].FloorShare)))
		case !math.IsNaN(m):
			path = append(path, fmt.Sprintf("%.1f,%.1f", x(i), y(m)))
		}
		if i < len(s.Runs) {
			for _, v := range s.Runs[i] {
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="#8c959f"/>`, x(i), y(v))
			}
		}
	}
	flush()
	step := max(1, n/12) // at most a dozen labels
	for i := 0; i < n; i += step {
		c := res.Commits[i].Commit
		if len(c) > 8 {
			c = c[:8]
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%g" text-anchor="middle">%s</text>`, x(i), height-bottom+16, html.EscapeString(c))
	}
	b.WriteString("</svg>\n")
	return b.String()
}
