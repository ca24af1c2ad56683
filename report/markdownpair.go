package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/internal/units"
)

// Widths, in characters, that names are cut to in markdown tables, so
// that a table fits GitHub's 780 px comment column (measured in Chromium
// by TestMarkdownFitsTheColumn): the top changes' function and package,
// and the detail tables' names and locations.
const (
	mdTopNameWidth       = 36
	mdTopPackageWidth    = 22
	mdDetailNameWidth    = 34
	mdDetailPlaceWidth   = 34
	mdDetailPackageWidth = 18
	// mdTitleWidth bounds the full name kept in a cell's title.
	mdTitleWidth = 200
)

// SideEnvironment is what is known of the machine a side ran on, from the
// recording that made it (profdiff record's record.json): empty fields
// are unknown.
type SideEnvironment struct {
	CPUModel string
	// CPUs is the number of logical CPUs; 0 unknown.
	CPUs int
	// Versions are the side's programs' versions by program ("node":
	// "v20.20.2", "go": "go1.26.8").
	Versions map[string]string
	// Load is the 1-minute load average when the recording started; NaN
	// or 0 unknown.
	Load float64
}

// pair is the markdown of a comparison of two sides.
func (m *markdown) pair() string {
	r, v := m.r, m.v
	var first strings.Builder
	fmt.Fprintf(&first, "### profdiff: %s\n\n", EscapeMarkdown(sideName(r.Sides[0])+" → "+sideName(r.Sides[1])))
	if env := m.environmentNotes(); len(env) > 0 {
		first.WriteString("> [!WARNING]\n")
		for _, n := range env {
			fmt.Fprintf(&first, "> %s\n", EscapeMarkdown(n))
		}
		first.WriteString("\n")
	}
	for _, res := range r.Rules {
		if res.Broken {
			fmt.Fprintf(&first, "> **Failed:** `%s` — %s\n\n", strings.ReplaceAll(res.Rule.Text, "`", "'"), EscapeMarkdown(termtext.Fit(strings.Join(v.Offenders(res), "; "), 300, false)))
		}
	}
	fmt.Fprintf(&first, "**%s**\n\n", EscapeMarkdown(v.VerdictSentence()))
	headline := v.HeadlineTable()
	firstScreen, details := splitHeadline(&headline)
	first.WriteString(mdHeadline(&firstScreen, true))
	m.headlineDetails = details
	if c, base := m.opts.Commit, m.opts.BaseCommit; c != "" || base != "" {
		fmt.Fprintf(&first, "\n_Commit %s against base %s._\n", EscapeMarkdown(orDash(c)), EscapeMarkdown(orDash(base)))
	}
	if s := v.ConfirmingRun(); s != "" {
		fmt.Fprintf(&first, "\n%s\n", EscapeMarkdown(s))
	}
	first.WriteString(m.topChanges())
	if len(r.Paths) > 0 {
		// The paths themselves are folded below; how much of the change
		// they explain is one line of the first screen.
		fmt.Fprintf(&first, "\n**Where it changed:** %s; the paths, every function and every package are folded below.\n", EscapeMarkdown(strings.TrimSuffix(v.PathsSummary(), ".")))
	} else {
		first.WriteString("\n_Every function and package is folded below._\n")
	}

	var rest strings.Builder
	rest.WriteString(m.runDetails())
	rest.WriteString(mdResources(v))
	if unsettled := v.Unsettled(10); len(unsettled) > 1 {
		fmt.Fprintf(&rest, "\n<details><summary>Large changes the runs cannot settle yet (%d)</summary>\n\n", len(unsettled))
		for _, x := range unsettled {
			fmt.Fprintf(&rest, "- %s\n", EscapeMarkdown(x))
		}
		rest.WriteString("\n</details>\n")
	}
	rest.WriteString(markdownPhases(r))
	if m.showStalls() {
		rest.WriteString("\n<details><summary>Responsiveness: stalls</summary>\n" + mdStalls(v) + "\n</details>\n")
	}
	if len(r.Paths) > 0 || r.Tree == nil { // no tree: the summary says why no path is known
		fmt.Fprintf(&rest, "\n<details><summary>Where it changed (%s)</summary>\n\n_%s._\n\n", units.Plural(len(r.Paths), "path", "paths"), EscapeMarkdown(v.PathsSummary()))
		for i, p := range r.Paths {
			fmt.Fprintf(&rest, "%d. %s\n", i+1, EscapeMarkdown(v.PathText(p)))
		}
		rest.WriteString("\n</details>\n")
	}
	rest.WriteString(m.lines())
	if m.opts.remembers() {
		rest.WriteString(commentSection(v.commentResult(m.opts.Commit, m.opts.BaseCommit, m.opts.Now), m.opts.Previous))
	}
	legend := "\n<details><summary>How to read this</summary>\n\n" + markdownLegend(v, m.opts.Sort) + "\n\n</details>\n"
	head := first.String() + rest.String()
	return head + m.details(MarkdownLimit-len(head)-len(legend)-200) + legend
}

// VerdictSentence is a comparison's result in one sentence: how many
// functions got worse, better, new and gone, how many did not change, and
// the headline's change with its p-value, as in "2 functions worse, 1
// better, 148 unchanged; on-CPU per run -12.4% (p<0.001), better." A
// function counts by the verdict that makes its change real (Deciding).
func (v *View) VerdictSentence() string {
	counts := map[diff.Verdict]int{}
	for i := range v.r.Functions {
		row := &v.r.Functions[i]
		if zeroRow(row) {
			continue
		}
		by, real := Deciding(row)
		if !real {
			counts[diff.VerdictSame]++
			continue
		}
		counts[by.Of(row).Change.Verdict]++
	}
	var parts []string
	for _, vd := range []diff.Verdict{diff.VerdictWorse, diff.VerdictBetter, diff.VerdictNew, diff.VerdictGone} {
		if n := counts[vd]; n > 0 {
			if len(parts) == 0 {
				parts = append(parts, units.Plural(n, "function", "functions")+" "+vd.String())
			} else {
				parts = append(parts, fmt.Sprintf("%s %s", units.Count(int64(n)), vd))
			}
		}
	}
	same := units.Count(int64(counts[diff.VerdictSame]))
	if len(parts) == 0 {
		parts = append(parts, units.Plural(counts[diff.VerdictSame], "function", "functions")+", none changed for real")
	} else {
		parts = append(parts, same+" unchanged")
	}
	h := v.r.JudgedHeadline()
	c := h.Change
	what := "on-CPU " + v.Per()
	if v.r.Headline.Basis == diff.BasisProcess {
		what = "process CPU per run"
	}
	change := what + " " + units.SignedPct(c.DeltaPct)
	if p := units.PValue(c.P); p != "" {
		change += " (" + p + ")"
	}
	verdict := "within noise"
	if c.Verdict.Real() {
		verdict = c.Verdict.String()
	}
	return strings.Join(parts, ", ") + "; " + change + ", " + verdict + "."
}

// splitHeadline splits the headline's rows: those the first screen shows
// (the judged on-CPU figures, wall time, busy and GC shares, and what no
// reader should miss: code left unmapped, a narrowing), and the run
// details (runs, samples, interval, maps), whose last column is a note.
func splitHeadline(t *Table) (first, details Table) {
	first, details = *t, *t
	first.Rows, details.Rows = nil, nil
	details.Columns = slices.Clone(t.Columns)
	details.Columns[len(details.Columns)-1].Header = "note"
	for _, row := range t.Rows {
		switch row.Cells[0].Text {
		case "runs", "samples / run", "mean interval", "maps":
			details.Rows = append(details.Rows, row)
		default:
			first.Rows = append(first.Rows, row)
		}
	}
	return first, details
}

// ConfirmingRun says, for the largest change past the minimum effect that
// the runs cannot settle (the headline's first), how many runs a side
// would settle it; "" when there is none.
func (v *View) ConfirmingRun() string {
	var s []string
	if v.r.Headline.Basis == diff.BasisProcess {
		s = append(s, "The headline is judged on process CPU time (from record.json), which a loaded machine does not inflate as it does sampled on-CPU time.")
	}
	h := v.r.JudgedHeadline().Change
	if n := v.r.Headline.RunsNeeded; n != 0 {
		s = append(s, fmt.Sprintf("Confirming run: the headline change (%s, %s) is large but not significant with %s; about %d runs a side would settle it.",
			units.SignedPct(h.DeltaPct), orText(units.PValue(h.P), "no test"), v.runsText(), n))
	} else if name, which, c, ok := v.largestUnsettled(); ok {
		s = append(s, fmt.Sprintf("Confirming run: %s %s %s is large but not significant with %s (%s); about %d runs a side would settle it.",
			name, which, units.SignedPct(c.DeltaPct), v.runsText(), orText(units.PValue(c.P), "no test"), c.RunsNeeded))
	}
	return strings.Join(s, " ")
}

// RunsNeeded is the most runs a side that a change past the minimum
// effect the runs cannot settle needs (the headline's, or the largest
// row's, as ConfirmingRun names), 0 when there is none.
func (v *View) RunsNeeded() int {
	if n := v.r.Headline.RunsNeeded; n != 0 {
		return int(n)
	}
	if _, _, c, ok := v.largestUnsettled(); ok {
		return int(c.RunsNeeded)
	}
	return 0
}

// largestUnsettled is the change, of a package or function, self or
// total, that passes the minimum effect, holds at least a point of
// on-CPU time and that the runs cannot settle, the largest in points
// (as Unsettled ranks them): its name ("lodash (package)"), metric and
// change.
func (v *View) largestUnsettled() (name, which string, c diff.Change, ok bool) {
	best := 0.0
	look := func(kind string, rows []diff.Row, rowName func(*diff.Row) string) {
		for i := range rows {
			for _, m := range []diff.Metric{diff.MetricSelf, diff.MetricTotal} {
				ch := m.Of(&rows[i]).Change
				if ch.RunsNeeded == 0 || math.IsNaN(ch.DeltaPP) || math.Abs(ch.DeltaPP) < 1 || math.Abs(ch.DeltaPP) <= best {
					continue
				}
				best, name, which, c, ok = math.Abs(ch.DeltaPP), rowName(&rows[i])+" ("+kind+")", m.String(), ch, true
			}
		}
	}
	look("package", v.r.Packages, func(x *diff.Row) string { return termtext.Clean(x.Key.Package) })
	look("function", v.r.Functions, v.RowName)
	return
}

// runsText is "1 run a side", "5 runs a side" or "3 and 5 runs".
func (v *View) runsText() string {
	a, b := v.r.Sides[0].Runs, v.r.Sides[1].Runs
	if a == b {
		return units.Plural(a, "run", "runs") + " a side"
	}
	return fmt.Sprintf("%d and %d runs", a, b)
}

func orText(s, dflt string) string {
	if s == "" {
		return dflt
	}
	return s
}

// environmentNotes say what differs between the machines the sides ran
// on, and which side ran on a loaded machine: what makes the numbers
// below less comparable, said before any of them.
func (m *markdown) environmentNotes() []string {
	var notes []string
	if env := m.opts.Environments; len(env) == 2 {
		a, b := env[0], env[1]
		if a.CPUModel != "" && b.CPUModel != "" && a.CPUModel != b.CPUModel {
			notes = append(notes, fmt.Sprintf("The sides ran on different CPUs: %s before, %s after.", a.CPUModel, b.CPUModel))
		}
		if a.CPUs > 0 && b.CPUs > 0 && a.CPUs != b.CPUs {
			notes = append(notes, fmt.Sprintf("The sides ran with different core counts: %d logical CPUs before, %d after.", a.CPUs, b.CPUs))
		}
		var progs []string
		for p := range a.Versions {
			if _, ok := b.Versions[p]; ok {
				progs = append(progs, p)
			}
		}
		slices.Sort(progs)
		for _, p := range progs {
			if va, vb := a.Versions[p], b.Versions[p]; va != vb {
				notes = append(notes, fmt.Sprintf("The sides ran different %s versions: %s before, %s after.", p, va, vb))
			}
		}
		for i, e := range env {
			if e.CPUs == 0 || e.Load < float64(e.CPUs) {
				continue
			}
			if i == 1 && a.Load == b.Load && a.CPUs == b.CPUs && a.CPUModel == b.CPUModel {
				notes[len(notes)-1] = fmt.Sprintf("The machine was loaded when the recording started: load average %.2f on %d logical CPUs.", e.Load, e.CPUs)
				continue
			}
			notes = append(notes, fmt.Sprintf("The %s side's machine was loaded when it started: load average %.2f on %d logical CPUs.", m.r.Sides[i].Name, e.Load, e.CPUs))
		}
	}
	for _, w := range m.r.Warnings {
		switch w.Kind {
		case analyze.WarnLoaded, analyze.WarnFormatsDiffer, analyze.WarnIntervalsDiffer, analyze.WarnThreadsDiffer:
			notes = append(notes, capitalize(w.String())+".")
		}
	}
	return notes
}

// showStalls reports whether the stalls say something: a side has a stall
// over 50 ms, or a stall figure is judged a real change.
func (m *markdown) showStalls() bool {
	rs := m.r.Responsiveness
	if rs == nil {
		return false
	}
	if rs.HasLong() {
		return true
	}
	for _, f := range []*diff.Measure{&rs.LongestStall, &rs.Over16ms, &rs.Over50ms, &rs.Blocking, rs.LateFrames} {
		if f != nil && f.Change.Verdict.Real() {
			return true
		}
	}
	return false
}

// topChanges is the first screen's table of the functions that changed
// most (Top rows, ShownChangeTable): their names, self and total time
// before → after, and the change shown with its verdict and p; "" when
// none changed.
func (m *markdown) topChanges() string {
	t := m.v.ShownChangeTable(TableFunctions, m.opts.Top)
	if len(t.Rows) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n**Top changes** (%s, %s; the change shown is the one judged)\n\n", t.Title, m.v.Per())
	b.WriteString("| function | package | self | total | change |\n|---|---|---:|---:|---|\n")
	for _, row := range t.Rows {
		var names, figures []string
		var change []Cell
		for i, c := range row.Cells {
			switch k := t.Columns[i].Kind; {
			case k == KindName:
				names = append(names, mdName(c.Text, mdTopNameWidth, false))
			case k == KindPackage:
				names = append(names, mdName(c.Text, mdTopPackageWidth, false))
			case k == KindDuration && t.Columns[i].Side == 0:
				figures = append(figures, unbroken(c.Text))
			case k == KindDuration:
				figures[len(figures)-1] += "\u00a0→ " + unbroken(c.Text)
			case k == KindMetric || k == KindChange || k == KindVerdict || k == KindP:
				change = append(change, c)
			}
		}
		fmt.Fprintf(&b, "| %s | %s |\n", strings.Join(append(names, figures...), " | "), mdShownChange(change))
	}
	return b.String()
}

// mdShownChange is a shown change's cells (metric, Δ%, verdict, p) in one
// cell: "self\u00a0-81.2% **better** p<0.001"; a row new or gone has no
// percentage.
func mdShownChange(c []Cell) string {
	metric, pct, verdict, p := c[0], c[1], c[2], c[3]
	v := emphasize(verdict.Verdict.String(), verdict.Verdict)
	if !math.IsNaN(pct.Value) {
		v = pct.Text + "\u00a0" + v
	}
	if p.Text != "" {
		v += " " + p.Text
	}
	return metric.Text + "\u00a0" + v
}

// mdName is a name for a markdown cell: escaped, and when longer than
// width cut in the middle, its full name (up to mdTitleWidth) kept in
// the cell's title, which GitHub keeps on a span.
func mdName(name string, width int, keepTail bool) string {
	clean := termtext.Clean(name)
	if termtext.Width(clean) <= width {
		return EscapeMarkdown(clean)
	}
	return `<span title="` + attrEscape(termtext.Fit(clean, mdTitleWidth, keepTail)) + `">` + EscapeMarkdown(termtext.Fit(clean, width, keepTail)) + "</span>"
}

// attrEscape makes text safe in a double-quoted HTML attribute inside a
// GFM table cell: every character but letters, digits and a few plain
// punctuation marks as a numeric entity, so that nothing of it is markup
// to HTML (", <, &) or to GFM (|, \, `, *, _, @, #, :).
func attrEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (isASCIILetter(r) || r >= '0' && r <= '9' || strings.ContainsRune(" .,/-()=?!+%^{}'", r)) || r >= 128 && unicode.IsLetter(r) {
			b.WriteRune(r)
			continue
		}
		b.WriteString("&#")
		b.WriteString(strconv.Itoa(int(r)))
		b.WriteByte(';')
	}
	return b.String()
}

// runDetails is the headline's remaining rows (runs, samples, interval,
// maps) folded away.
func (m *markdown) runDetails() string {
	var b strings.Builder
	b.WriteString("\n<details><summary>Runs and sampling</summary>\n\n")
	b.WriteString(mdHeadline(&m.headlineDetails, false))
	if root := m.v.Root(); root != "" {
		fmt.Fprintf(&b, "\n_Locations are relative to %s._\n", EscapeMarkdown(root))
	}
	if s := m.v.Matched(); s != "" {
		fmt.Fprintf(&b, "\n_%s._\n", EscapeMarkdown(capitalize(s)))
	}
	b.WriteString("\n</details>\n")
	return b.String()
}

// mdLinesPerFunction is how many lines each changed function lists.
const mdLinesPerFunction = 5

// lines lists, folded, the lines whose self time changed most of each
// function in the top changes that has recorded lines; "" when none has.
func (m *markdown) lines() string {
	if len(m.r.Lines) == 0 {
		return ""
	}
	index := map[analyze.Key]int32{}
	for i := range m.r.Functions {
		index[m.r.Functions[i].Key] = int32(i)
	}
	var b strings.Builder
	shown := 0
	for _, x := range m.v.TopChanges(m.r.Functions, m.opts.Top) {
		t := m.v.ChangedLinesTable(index[x.Key], mdLinesPerFunction)
		if len(t.Rows) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s (%s)\n\n%s", mdName(m.v.RowName(&x), mdDetailNameWidth, false), mdName(m.v.Location(x.Key), mdDetailPlaceWidth, true), mdLines(&t))
		shown++
	}
	if shown == 0 {
		return ""
	}
	return fmt.Sprintf("\n<details><summary>Lines of the changed functions (%d)</summary>\n%s\n_Self time per source line, the lines that changed most first._\n\n</details>\n", shown, b.String())
}

// mdLines lays out a table of lines (ChangedLinesTable): the line and the
// times right-aligned, unbroken, and the change in one cell (mdChangeOf).
func mdLines(t *Table) string {
	var b strings.Builder
	b.WriteString("| line | before | after | change |\n|---:|---:|---:|---|\n")
	for _, row := range t.Rows {
		var figures, change []Cell
		for i, c := range row.Cells {
			switch t.Columns[i].Kind {
			case KindCount, KindDuration:
				figures = append(figures, c)
			default:
				change = append(change, c)
			}
		}
		b.WriteString("|")
		for _, c := range figures {
			b.WriteString(" " + unbroken(c.Text) + " |")
		}
		b.WriteString(" " + mdChangeOf(change[0], change[1], change[2], change[3]) + " |\n")
	}
	return b.String()
}
