package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/termtext"
)

// TextOptions tune the text renderer.
type TextOptions struct {
	// Top is how many rows each table shows; 0 or less shows all.
	Top int
	// Color marks verdicts with ANSI colours (the caller decides: only on a
	// terminal, never under NO_COLOR).
	Color bool
	// Files adds the table by file.
	Files bool
	// Sort is the metric the detail tables rank by.
	Sort diff.Metric
}

// Widths of name columns in text tables: a column is as wide as its
// longest cell up to these; regular expressions, the usual long names,
// give way first.
const (
	nameWidth   = 56
	regexpWidth = 36
	pathWidth   = 64
)

// WriteText writes the report as aligned plain text for a terminal. One
// profile: the headline, then top packages and functions by self time and
// functions by total time. Two sides: broken rules, the headline, where in
// the call tree it changed, the top changes by package and function judged
// on self and total time, then the detail tables. A recording's resource
// tables come first. Percentages are of on-CPU time.
func WriteText(w io.Writer, r *diff.Report, opts TextOptions) error {
	v := NewView(r)
	tw := &textWriter{w: w, color: opts.Color}
	// A recording's resource use first, the table users make by hand
	// (sides × wall, user, sys, max RSS…, ±σ, each against the base).
	if writeTextResources(tw, v) {
		tw.printf("\n")
	}
	switch v.Layout() {
	case LayoutSides:
		writeTextSeveral(tw, v, opts)
	case LayoutPair:
		writeTextCompare(tw, v, opts)
		writeTextPhases(tw, r)
	default:
		writeTextOne(tw, v, opts)
		writeTextPhases(tw, r)
	}
	if len(r.Warnings) > 0 {
		tw.printf("\nWarnings:\n")
		for _, wn := range r.Warnings {
			tw.printf("  - %s\n", termtext.Clean(wn.String()))
		}
	}
	return tw.err
}

func writeTextOne(tw *textWriter, v *View, opts TextOptions) {
	r := v.r
	s := r.Sides[0]
	tw.printf("%s (%s)\n", termtext.Clean(strings.Join(s.Files, ", ")), s.Format.Describe())
	if s.Formed != "" {
		tw.printf("%s\n", termtext.Clean(s.Formed))
	}
	if s.Runs > 1 {
		tw.printf("%d runs: every figure is the mean per run\n", s.Runs)
	}
	for _, th := range s.Threads {
		tw.printf("thread: %s\n", termtext.Clean(th.String()))
	}
	if s.SampleType != "" {
		tw.printf("sample type: %s\n", termtext.Clean(s.SampleType))
	}
	if v.Root() != "" {
		tw.printf("locations are relative to %s\n", termtext.Clean(v.Root()))
	}
	tw.printf("\n")
	for _, l := range v.HeadlineRows() {
		tw.printf("%s\n", strings.TrimRight(fmt.Sprintf("  %-8s %10s  %s", l[0].Text, l[1].Text, l[2].Text), " "))
	}
	writeTextResponsiveness(tw, v)
	of := []TableOf{TablePackages, TableFunctions, TableFunctions}
	by := []diff.Metric{diff.MetricSelf, diff.MetricSelf, diff.MetricTotal}
	if opts.Files {
		of, by = append(of, TableFiles), append(by, diff.MetricSelf)
	}
	for i, o := range of {
		// "0 for all": the rows with total time only too.
		t := v.RowsTable(RowsRequest{Of: o, By: by[i], Top: opts.Top, RankedFirst: true, Idle: true})
		tw.printf("\nTop %s by %s time\n", count(len(t.Rows), len(v.rowsOf(o)), t.Title), by[i])
		if len(t.Rows) == 0 {
			tw.printf("  (no on-CPU samples)\n")
			continue
		}
		tw.layout(&t)
	}
}

func writeTextCompare(tw *textWriter, v *View, opts TextOptions) {
	r := v.r
	for _, res := range r.Rules {
		if res.Broken {
			tw.printf("FAILED %s: %s\n", termtext.Clean(res.Rule.Text), termtext.Clean(strings.Join(v.Offenders(res), "; ")))
		}
	}
	tw.printf("before: %s\n", SideLine(r.Sides[0]))
	tw.printf("after:  %s\n", SideLine(r.Sides[1]))
	if v.Root() != "" {
		tw.printf("locations are relative to %s\n", termtext.Clean(v.Root()))
	}
	if m := v.Matched(); m != "" {
		tw.printf("%s\n", m)
	}
	tw.printf("\n")
	headline := v.HeadlineTable()
	tw.layout(&headline)
	if note := v.RunsNote(); note != "" {
		tw.printf("  %s\n", note)
	}
	if rows := v.Unsettled(5); len(rows) > 0 {
		tw.printf("\nLarge changes the runs cannot settle yet (more runs a side would)\n")
		for _, x := range rows {
			tw.printf("  %s\n", x)
		}
	}
	writeTextResponsiveness(tw, v)

	tw.printf("\nWhere it changed (%s)\n", v.PathsSummary())
	for i, p := range r.Paths {
		tw.printf("  %d. %s\n", i+1, v.PathText(p))
	}

	top := opts.Top
	if top <= 0 || top > 10 {
		top = 10
	}
	of := []TableOf{TablePackages, TableFunctions}
	for _, o := range of {
		t := v.TopTable(o, top)
		tw.printf("\nTop %s changes (%s; judged on self and on total time, * marks the one that makes the change real)\n", strings.TrimSuffix(t.Title, "s"), v.Per())
		tw.layout(&t)
	}
	if opts.Files {
		of = append(of, TableFiles)
	}
	for _, o := range of {
		t := v.RowsTable(RowsRequest{Of: o, By: opts.Sort, Top: opts.Top, Idle: true}) // "0 for all"
		tw.printf("\n%s by change in %s time (%s, ±σ over runs; Δshare: change in share of %s, in points; %s)\n", capitalize(count(len(t.Rows), t.Total, t.Title)), opts.Sort, v.Per(), v.shareOf(), legendShort(v.r))
		tw.layout(&t)
	}
}

// legendShort is the legend in a table's title: how its verdicts were
// corrected.
func legendShort(r *diff.Report) string { return "verdicts " + correction(r) + "; ~ = within noise" }

// correction says how a report's verdicts were corrected for its many
// rows: over the splits of the runs (diff.Report.Splits), or by Holm.
func correction(r *diff.Report) string {
	if r.Splits > 0 {
		return fmt.Sprintf("corrected over the report's rows by %d splits of the runs", r.Splits)
	}
	return "after Holm correction"
}

// shareOf names what Δshare is a share of: on-CPU time, or under
// narrowing the runs' whole on-CPU time before it (see diff's wholeOnCPU).
func (v *View) shareOf() string {
	if len(v.r.Options.Narrowing) > 0 {
		return "the runs' whole on-CPU time (before narrowing)"
	}
	return "on-CPU time"
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// count writes "10 of 96 functions" or "7 functions".
func count(shown, all int, what string) string {
	if all == 1 {
		what = strings.TrimSuffix(what, "s") // "1 package", not "1 packages"
	}
	if shown < all {
		return fmt.Sprintf("%d of %d %s", shown, all, what)
	}
	return fmt.Sprintf("%d %s", all, what)
}

func clip(rows []diff.Row, top int) []diff.Row {
	if top > 0 && len(rows) > top {
		return rows[:top]
	}
	return rows
}

type textWriter struct {
	w     io.Writer
	color bool
	err   error
}

func (t *textWriter) printf(format string, args ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, args...)
	}
}

// layout writes a table aligned: each column as wide as its widest cell
// (names and notes cut to their limits first, see fitCell), figures
// aligned right but in a table of words, and cells that show a verdict
// coloured when asked, but in the columns whose kind is never coloured.
func (t *textWriter) layout(tb *Table) {
	if len(tb.Rows) == 0 {
		t.printf("  (no rows)\n")
		return
	}
	all := make([][]string, 0, len(tb.Rows)+1)
	all = append(all, tb.Headers())
	for _, row := range tb.Rows {
		line := make([]string, len(row.Cells))
		for j, c := range row.Cells {
			line[j] = fitCell(c.Text, tb.Columns[j].Kind, tb.Words)
		}
		all = append(all, line)
	}
	width := make([]int, len(tb.Columns))
	for _, line := range all {
		for i, c := range line {
			width[i] = max(width[i], termtext.Width(c))
		}
	}
	var b strings.Builder
	for li, line := range all {
		b.Reset()
		b.WriteString(" ")
		for i, c := range line {
			k := tb.Columns[i].Kind
			b.WriteString(" ")
			cell := termtext.Pad(c, width[i], k.Numeric() && !tb.Words)
			if i == len(line)-1 {
				cell = strings.TrimRight(cell, " ")
			}
			if t.color && li > 0 && k.Coloured() {
				cell = colorVerdict(cell, tb.Rows[li-1].Cells[i].Verdict)
			}
			b.WriteString(cell)
		}
		t.printf("%s\n", strings.TrimRight(b.String(), " "))
	}
}

// fitCell cuts a cell's text to its column's limit: figures and labels
// are never cut (but figures in a table of words, which read as words),
// a location keeps its end, regular expressions give way first, and any
// other name or note is cut past nameWidth.
func fitCell(c string, k Kind, words bool) string {
	switch {
	case k == KindLabel || k.Numeric() && !words:
		return c
	case k == KindLocation:
		return termtext.Fit(c, pathWidth, true)
	case strings.HasPrefix(c, "RegExp: ") || strings.HasPrefix(c, "/"):
		return termtext.Fit(c, regexpWidth, false)
	}
	return termtext.Fit(c, nameWidth, false)
}

// colorVerdict colours a cell by the verdict it shows: green for less
// time, red for more, dim for noise.
func colorVerdict(cell string, v diff.Verdict) string {
	switch v {
	case diff.VerdictBetter, diff.VerdictGone:
		return "\x1b[32m" + cell + "\x1b[0m"
	case diff.VerdictWorse, diff.VerdictNew:
		return "\x1b[31m" + cell + "\x1b[0m"
	case diff.VerdictSame:
		return "\x1b[2m" + cell + "\x1b[0m"
	}
	return cell
}
