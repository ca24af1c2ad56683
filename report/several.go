package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/internal/units"
)

// This file writes a report of a base and its variants laid out as a table
// of sides (LayoutSides: any report with a variant but a before → after
// pair) as text and markdown: a headline table with a row per side, then
// the packages and functions that changed in any variant, one compact
// column per side.

// sideRows are the rows of the table of the sides: name, runs, on-CPU per
// run ±σ, per unit of work when given, and for each side but the base the
// change against the base and its verdict (cells that carry the verdict),
// and its spread against the base's; spreadReal says which rows' spread
// differs for real.
func (v *View) sideRows() (head []Column, rows [][]Cell, spreadReal []bool) {
	r := v.r
	head = []Column{col("side", KindName), col("runs", KindCount), col("on-CPU / run ±σ", KindSideValue)}
	if r.PerWork {
		head = append(head, col("on-CPU / "+r.Options.WorkUnit+" ±σ", KindSideValue))
	}
	one := len(r.Sides) == 1
	if !one {
		head = append(head, col("vs base", KindChange), col("verdict", KindVerdict), col("spread vs base", KindNote))
	}
	judged := r.JudgedHeadline()
	for si, s := range r.Sides {
		row := cells(s.Name, units.Count(int64(s.Runs)), sigma(&r.Headline.OnCPU, si))
		if r.PerWork {
			row = append(row, Cell{Text: sigma(&r.Headline.PerWork, si)})
		}
		real := false
		switch {
		case one:
		case si == r.Base:
			row = append(row, cells("(base)", "", "")...)
		default:
			c := judged.ChangeFor(si)
			text, verdict := v.spreadCell(judged, si)
			row = append(row, Cell{Text: units.SignedPct(c.DeltaPct) + " " + FormatPShort(c.P), Verdict: c.Verdict}, Cell{Text: c.Verdict.String(), Verdict: c.Verdict}, Cell{Text: text})
			real = verdict.Real()
		}
		rows = append(rows, row)
		spreadReal = append(spreadReal, real)
	}
	return head, rows, spreadReal
}

// fastest says which side has the least on-CPU time (per unit of work
// when given), by how much against the base, and whether that is real.
func (v *View) fastest(esc func(string) string) string {
	r := v.r
	m := r.JudgedHeadline()
	best := r.Base
	for si, x := range m.Mean {
		if x < m.Mean[best] {
			best = si
		}
	}
	name := esc(r.Sides[best].Name)
	if best == r.Base {
		return fmt.Sprintf("%s, the base, takes the least on-CPU time: %s %s; no variant takes less.", name, units.Duration(m.Mean[best]), v.Per())
	}
	c := m.ChangeFor(best)
	how := "a real change"
	if !c.Verdict.Real() {
		how = "not distinguishable from noise"
	}
	return fmt.Sprintf("%s takes the least on-CPU time: %s %s, %s against %s (%s, %s).", name, units.Duration(m.Mean[best]), v.Per(), units.SignedPct(c.DeltaPct), esc(r.Sides[r.Base].Name), c.Verdict, how)
}

// sigma writes a side's mean with its standard deviation over runs:
// "6.59 ms ±0.20 ms", the σ in the mean's unit (no ± with one run).
func sigma(m *diff.Measure, side int) string {
	return units.DurationSpread(m.Mean[side], m.Spread(side))
}

// spreadCell compares a side's spread over runs with the base's: "σ ×4.7
// noisier (p=0.012)", "σ ×0.73 ~", "σ ×1.2, too few runs".
func (v *View) spreadCell(m *diff.Measure, side int) (string, diff.SpreadVerdict) {
	var sc *diff.SpreadChange
	for i := range v.r.Headline.Spreads {
		if v.r.Headline.Spreads[i].Side == side {
			sc = &v.r.Headline.Spreads[i]
		}
	}
	base, own := m.Spread(v.r.Base), m.Spread(side)
	var s string
	switch {
	case math.IsNaN(base) || math.IsNaN(own):
		return "one run", diff.SpreadUntested
	case base == 0:
		s = "σ " + units.Duration(own)
	default:
		s = fmt.Sprintf("σ ×%.2g", own/base)
	}
	switch {
	case sc == nil:
	case sc.Verdict == diff.SpreadUntested:
		if sc.Why != "" {
			s += ", " + sc.Why
		}
	case sc.Verdict == diff.SpreadSame:
		s += " ~"
	default:
		s += " " + sc.Verdict.String() + " " + FormatPShort(sc.P)
	}
	if sc == nil {
		return s, diff.SpreadUntested
	}
	return s, sc.Verdict
}

// FormatPShort writes a p-value for a compact cell: "(p=0.012)",
// "(p<0.001)", or "" when no test ran.
func FormatPShort(p float64) string {
	if s := units.PValue(p); s != "" {
		return "(" + s + ")"
	}
	return ""
}

// changeOf returns a measure's change for side si against the base
// (diff.Measure.ChangeFor), whatever the count of sides.
func changeOf(m *diff.Measure, si int) diff.Change { return m.ChangeFor(si) }

// changedLine is one row of a several-sides change table: a key's self or
// total time on every side.
type changedLine struct {
	row    *diff.Row
	metric diff.Metric
	size   float64 // the largest |Δpp| over the variants, for the order
}

// changedLines lists the rows whose self or total time changed for real
// in any variant, the largest change first.
func changedLines(rows []diff.Row, r *diff.Report) []changedLine {
	var out []changedLine
	for i := range rows {
		for _, metric := range []diff.Metric{diff.MetricSelf, diff.MetricTotal} {
			m := metric.Of(&rows[i])
			size, real := 0.0, false
			for _, c := range m.Changes() {
				if c.Verdict.Real() {
					real = true
					d := c.DeltaPP
					if math.IsNaN(d) {
						d = 100 * c.Delta / math.Max(r.OnCPU(r.Base), 1)
					}
					size = math.Max(size, math.Abs(d))
				}
			}
			if real {
				out = append(out, changedLine{&rows[i], metric, size})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b changedLine) int { return cmp.Compare(b.size, a.size) })
	return out
}

// sideCell is a key's time on one side, with its change against the base:
// "0.36 ms −62.1% better".
func sideCell(m *diff.Measure, si, base int) (string, diff.Verdict) {
	if si == base {
		return units.Duration(m.Mean[si]), diff.VerdictNone
	}
	c := m.ChangeFor(si)
	switch {
	case c.Verdict == diff.VerdictNew:
		return units.Duration(m.Mean[si]) + " new", c.Verdict
	case c.Verdict == diff.VerdictGone:
		return "gone", c.Verdict
	case math.IsNaN(c.DeltaPct): // none on the base
		return units.Duration(m.Mean[si]) + " " + c.Verdict.String(), c.Verdict
	}
	return units.Duration(m.Mean[si]) + " " + units.SignedPct(c.DeltaPct) + " " + c.Verdict.String(), c.Verdict
}

// severalTitle heads a several-sides report.
func severalTitle(r *diff.Report) string {
	var names []string
	for i, s := range r.Sides {
		if i != r.Base {
			names = append(names, s.Name)
		}
	}
	return fmt.Sprintf("profdiff: %s, each judged against %s", strings.Join(names, ", "), r.Sides[r.Base].Name)
}

// severalLegend says how to read a several-sides report; name writes the
// base's name (escaped for markdown there).
func severalLegend(r *diff.Report, v *View, name func(string) string) string {
	return fmt.Sprintf("Times are %s, the mean over runs; ±σ is the standard deviation over runs. "+
		"Each variant is judged against %s, the base: better/worse/new/gone is real at α=%g %s and Bonferroni over the %d variants, and exceeds %gpp of on-CPU and %g%%; ~ is within noise. "+
		"σ ×N is the variant's spread over runs against the base's.",
		v.Per(), name(r.Sides[r.Base].Name), r.Options.Alpha, severalCorrection(r), len(r.Variants()), r.Options.MinDeltaPP, r.Options.MinDeltaPct)
}

// writeTextSeveral writes a several-sides report as text.
func writeTextSeveral(tw *textWriter, v *View, opts TextOptions) {
	r := v.r
	for _, va := range r.Variants() {
		for _, res := range va.Rules {
			if res.Broken {
				tw.printf("FAILED (%s): %s: %s\n", termtext.Clean(r.Sides[va.Side].Name), termtext.Clean(res.Rule.Text), termtext.Clean(strings.Join(v.Offenders(res), "; ")))
			}
		}
	}
	tw.printf("%s\n\n", termtext.Clean(severalTitle(r)))
	for _, s := range r.Sides {
		tw.printf("  %s: %s\n", termtext.Clean(s.Name), SideLine(s))
	}
	if m := v.Matched(); m != "" {
		tw.printf("  %s\n", m)
	}
	tw.printf("\n")
	writeTextSides(tw, v)
	writeTextResponsiveness(tw, v)
	tw.printf("\n%s\n", v.fastest(termtext.Clean))
	writeTextPhases(tw, r)
	of := []TableOf{TablePackages, TableFunctions}
	if opts.Files {
		of = append(of, TableFiles)
	}
	for _, o := range of {
		t := v.RowsTable(RowsRequest{Of: o, Top: opts.Top})
		if t.Total == 0 {
			tw.printf("\nNo %s changed beyond noise in any variant.\n", strings.TrimSuffix(t.Title, "s"))
			continue
		}
		tw.printf("\n%s that changed in a variant (%s):\n", capitalize(t.Title), v.Per())
		tw.layout(&t)
	}
	tw.printf("\n%s\n", severalLegend(r, v, termtext.Clean))
}

// writeTextSides writes the table of the sides, their names made safe to
// show.
func writeTextSides(tw *textWriter, v *View) {
	t := v.SidesTable()
	for _, row := range t.Rows {
		row.Cells[0].Text = termtext.Clean(row.Cells[0].Text)
	}
	tw.layout(&t)
}

// markdownSeveral writes a several-sides report as markdown.
func markdownSeveral(r *diff.Report, v *View, opts MarkdownOptions) string {
	var b strings.Builder
	for _, va := range r.Variants() {
		for _, res := range va.Rules {
			if res.Broken {
				fmt.Fprintf(&b, "> **Failed** (%s): `%s` — %s\n\n", EscapeMarkdown(r.Sides[va.Side].Name), strings.ReplaceAll(res.Rule.Text, "`", "'"), EscapeMarkdown(strings.Join(v.Offenders(res), "; ")))
			}
		}
	}
	fmt.Fprintf(&b, "### %s\n\n", EscapeMarkdown(severalTitle(r)))
	b.WriteString(markdownSides(v))
	b.WriteString(mdStalls(v))
	if m := v.Matched(); m != "" {
		fmt.Fprintf(&b, "\n_%s._\n", EscapeMarkdown(capitalize(m)))
	}
	fmt.Fprintf(&b, "\n%s\n", v.fastest(EscapeMarkdown))
	b.WriteString(markdownPhases(r))
	top := opts.Top
	if top <= 0 {
		top = 10
	}
	of := []TableOf{TablePackages, TableFunctions}
	if opts.Files {
		of = append(of, TableFiles)
	}
	for _, o := range of {
		t := v.RowsTable(RowsRequest{Of: o, Top: top})
		if t.Total == 0 {
			fmt.Fprintf(&b, "\n_No %s changed beyond noise in any variant._\n", strings.TrimSuffix(t.Title, "s"))
			continue
		}
		more := ""
		if t.Total > len(t.Rows) {
			more = fmt.Sprintf(" (the %d largest of %d)", len(t.Rows), t.Total)
		}
		fmt.Fprintf(&b, "\n#### %s that changed in a variant%s\n\n", capitalize(t.Title), more)
		b.WriteString(markdownWords(&t))
	}
	fmt.Fprintf(&b, "\n_%s_\n", severalLegend(r, v, EscapeMarkdown))
	if len(r.Warnings) > 0 {
		b.WriteString("\n<details><summary>Warnings</summary>\n\n")
		for _, wn := range r.Warnings {
			b.WriteString("- " + EscapeMarkdown(wn.String()) + "\n")
		}
		b.WriteString("\n</details>\n")
	}
	return b.String()
}

// markdownWords lays out a table of words: every column left-aligned,
// names escaped and cut, figures as they are, the cells whose verdict is
// real in bold.
func markdownWords(t *Table) string {
	var b strings.Builder
	head := t.Headers()
	for i, h := range head {
		head[i] = EscapeMarkdown(h)
	}
	b.WriteString(markdownRow(head, nil))
	b.WriteString("|" + strings.Repeat("---|", len(head)) + "\n")
	texts, marks := make([]string, len(t.Columns)), make([]bool, len(t.Columns))
	for _, row := range t.Rows {
		for i, c := range row.Cells {
			texts[i], marks[i] = c.Text, c.Verdict.Real()
			switch t.Columns[i].Kind {
			case KindName, KindPackage, KindLocation:
				texts[i] = EscapeMarkdown(termtext.Fit(c.Text, markdownNameWidth+30, false))
			}
		}
		b.WriteString(markdownRow(texts, marks))
	}
	return b.String()
}

// markdownRow writes a table row; the cells marked real are in bold.
func markdownRow(cells []string, real []bool) string {
	out := make([]string, len(cells))
	for i, c := range cells {
		if i < len(real) && real[i] && c != "" {
			c = "**" + c + "**"
		}
		out[i] = c
	}
	return "| " + strings.Join(out, " | ") + " |\n"
}

// markdownSides is the table of the sides: a row per side, the base's name
// in bold.
func markdownSides(v *View) string {
	var b strings.Builder
	cols, rows, spreadReal := v.sideRows()
	head := (&Table{Columns: cols}).Headers()
	b.WriteString(markdownRow(head, nil))
	b.WriteString("|" + strings.Repeat("---|", len(head)) + "\n")
	for i, row := range rows {
		texts := Texts(row)
		texts[0] = EscapeMarkdown(texts[0]) // the other cells are numbers and verdicts
		if i == v.r.Base && len(rows) > 1 {
			texts[0] = "**" + texts[0] + "**"
		}
		real := make([]bool, len(row))
		for j, c := range row {
			real[j] = c.Verdict.Real()
		}
		real[len(row)-1] = real[len(row)-1] || spreadReal[i]
		b.WriteString(markdownRow(texts, real))
	}
	return b.String()
}

// markdownPhases is a block per --phase: its table of the sides.
func markdownPhases(r *diff.Report) string {
	var b strings.Builder
	for _, ph := range r.Phases {
		fmt.Fprintf(&b, "\n#### Phase %s (%s)\n\n", EscapeMarkdown(ph.Name), EscapeMarkdown(ph.Window))
		b.WriteString(markdownSides(NewView(ph.Report)))
	}
	return b.String()
}

// writeTextPhases writes a block per --phase: its table of the sides.
func writeTextPhases(tw *textWriter, r *diff.Report) {
	for _, ph := range r.Phases {
		tw.printf("\nPhase %s (%s):\n", termtext.Clean(ph.Name), termtext.Clean(ph.Window))
		writeTextSides(tw, NewView(ph.Report))
	}
}

// severalCorrection says how each pair's rows were corrected (see
// correction).
func severalCorrection(r *diff.Report) string {
	if r.Splits > 0 {
		return fmt.Sprintf("corrected over each pair's rows by %d splits of its runs", r.Splits)
	}
	return "after Holm correction over the rows"
}
