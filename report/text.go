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
	switch {
	case r.Several():
		writeTextSeveral(tw, v, opts)
	case r.Compared():
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
	fnCells := func(x *diff.Row) []string {
		return []string{v.Name(x.Key), termtext.Clean(x.Key.Package), v.Location(x.Key)}
	}
	fnHead := []string{"function", "package", "location"}
	tables := []rowTable{
		{"packages", r.Packages, diff.MetricSelf, []string{"package"}, func(x *diff.Row) []string { return []string{termtext.Clean(x.Key.Package)} }},
		{"functions", r.Functions, diff.MetricSelf, fnHead, fnCells},
		{"functions", r.Functions, diff.MetricTotal, fnHead, fnCells},
	}
	if opts.Files {
		tables = append(tables, rowTable{"files", r.Files, diff.MetricSelf, []string{"file", "package"}, func(x *diff.Row) []string { return []string{v.File(x.Key), termtext.Clean(x.Key.Package)} }})
	}
	for _, t := range tables {
		sorted := v.Sorted
		if opts.Top == 0 {
			sorted = v.SortedAll // "0 for all": the rows with total time only too
		}
		rows := clip(sorted(t.rows, t.by), opts.Top)
		tw.printf("\nTop %s by %s time\n", count(len(rows), len(t.rows), t.what), t.by)
		if len(rows) == 0 {
			tw.printf("  (no on-CPU samples)\n")
			continue
		}
		head := OneSideHeaders
		if t.by == diff.MetricTotal {
			head = []string{"total", "total%", "self", "self%"}
		}
		var body [][]Cell
		for i := range rows {
			c := v.OneSideCells(&rows[i])
			if t.by == diff.MetricTotal {
				c = []Cell{c[2], c[3], c[0], c[1]}
			}
			body = append(body, append(c, cells(t.names(&rows[i])...)...))
		}
		tw.table(append(head, t.head...), body, 4, false)
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
	tw.table([]string{"", "before", "after", "change"}, v.HeadlineRows(), 3, true)
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

	pkgNames := func(x *diff.Row) []string { return []string{termtext.Clean(x.Key.Package)} }
	fnNames := func(x *diff.Row) []string {
		return []string{v.RowName(x), termtext.Clean(x.Key.Package), v.Location(x.Key)}
	}
	top := opts.Top
	if top <= 0 || top > 10 {
		top = 10
	}
	tables := []rowTable{
		{"packages", r.Packages, opts.Sort, []string{"package"}, pkgNames},
		{"functions", r.Functions, opts.Sort, []string{"function", "package", "location"}, fnNames},
	}
	for _, t := range tables {
		rows := v.TopChanges(t.rows, top)
		tw.printf("\nTop %s changes (%s; judged on self and on total time, * marks the one that makes the change real)\n", strings.TrimSuffix(t.what, "s"), v.Per())
		var body [][]Cell
		for i := range rows {
			body = append(body, append(TopCells(&rows[i]), cells(t.names(&rows[i])...)...))
		}
		tw.table(append(append([]string{}, TopHeaders...), t.head...), body, len(TopHeaders), false)
	}

	if opts.Files {
		tables = append(tables, rowTable{"files", r.Files, opts.Sort, []string{"file", "package"}, func(x *diff.Row) []string { return []string{v.File(x.Key), termtext.Clean(x.Key.Package)} }})
	}
	for _, t := range tables {
		sorted := v.Sorted(t.rows, opts.Sort)
		if opts.Top == 0 {
			sorted = v.SortedAll(t.rows, opts.Sort) // "0 for all"
		}
		rows := clip(sorted, opts.Top)
		tw.printf("\n%s by change in %s time (%s, ±σ over runs; Δshare: change in share of %s, in points; %s)\n", capitalize(count(len(rows), len(sorted), t.what)), opts.Sort, v.Per(), v.shareOf(), legendShort)
		var body [][]Cell
		for i := range rows {
			body = append(body, append(ChangeCells(opts.Sort.Of(&rows[i])), cells(t.names(&rows[i])...)...))
		}
		tw.table(append(append([]string{}, ChangeHeaders...), t.head...), body, len(ChangeHeaders), false)
	}
}

// rowTable is one table of a report's rows (packages, functions or
// files) as a renderer lists it: ranked by a metric, with the columns that
// name each row.
type rowTable struct {
	what  string // "packages", "functions", "files"
	rows  []diff.Row
	by    diff.Metric
	head  []string                 // the name columns' headers
	names func(*diff.Row) []string // the name cells of a row
}

const legendShort = "verdicts after Holm correction; ~ = within noise"

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

// table writes an aligned table: the first numeric columns align right
// (but for a first column of labels in the headline), the name columns
// after them are as wide as their content up to a limit, and cells that
// show a verdict are coloured when asked, but for the headline's change,
// which is a sentence, not a verdict column.
func (t *textWriter) table(header []string, rows [][]Cell, numeric int, headline bool) {
	if len(rows) == 0 {
		t.printf("  (no rows)\n")
		return
	}
	all := append([][]string{header}, fitNames(header, rows, numeric)...)
	width := make([]int, len(header))
	for _, line := range all {
		for i, c := range line {
			width[i] = max(width[i], termtext.Width(c))
		}
	}
	for li, line := range all {
		var b strings.Builder
		b.WriteString(" ")
		for i, c := range line {
			b.WriteString(" ")
			cell := termtext.Pad(c, width[i], i < numeric && !(headline && i == 0))
			if i == len(line)-1 {
				cell = strings.TrimRight(cell, " ")
			}
			if t.color && li > 0 && !headline {
				cell = colorVerdict(cell, rows[li-1][i].Verdict)
			}
			b.WriteString(cell)
		}
		t.printf("%s\n", strings.TrimRight(b.String(), " "))
	}
}

// fitNames returns the texts of a table's rows with the name columns (those
// after the numeric ones) cut: regular expressions first, then any name or
// location past its column's limit.
func fitNames(header []string, rows [][]Cell, numeric int) [][]string {
	out := make([][]string, len(rows))
	for i, line := range rows {
		out[i] = Texts(line)
		for j := numeric; j < len(line); j++ {
			c := out[i][j]
			switch h := header[j]; {
			case h == "location" || h == "file":
				c = termtext.Fit(c, pathWidth, true)
			case strings.HasPrefix(c, "RegExp: ") || strings.HasPrefix(c, "/"):
				c = termtext.Fit(c, regexpWidth, false)
			default:
				c = termtext.Fit(c, nameWidth, false)
			}
			out[i][j] = c
		}
	}
	return out
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
