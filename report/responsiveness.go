package report

import (
	"fmt"
	"strings"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/jsonwrite"
	"github.com/profdiff/profdiff/internal/units"
)

// The Responsiveness block: the runs' stalls (busy stretches without an
// idle sample), shown right after the headline when a side has one over
// 50 ms, else said in one line; nothing for profiles without sample times.

// maxListedStalls bounds the longest stalls the text and markdown list.
const maxListedStalls = 5

// Responsiveness returns the report's stalls, nil when it has none (a run
// without sample times).
func (v *View) Responsiveness() *diff.Responsiveness { return v.r.Responsiveness }

// ResponsivenessRows returns the Responsiveness table's rows: figure, each
// side's value (mean ±σ over runs), and for a pair the judged change (with
// a base and variants, each variant's change beside its value).
func (v *View) ResponsivenessRows() [][]Cell {
	rs := v.r.Responsiveness
	var rows [][]Cell
	for _, f := range rs.Figures() {
		row := cells(f.Name)
		for si := range f.Measure.Mean {
			cell := Cell{Text: figureValue(f, si)}
			if v.Layout() == LayoutSides && si != v.r.Base {
				// Each variant's change against the base beside its value.
				c := changeOf(f.Measure, si)
				cell.Text += " " + units.SignedPct(c.DeltaPct) + " " + c.Verdict.String()
				cell.Verdict = c.Verdict
			}
			row = append(row, cell)
		}
		if v.Layout() == LayoutPair {
			row = append(row, figureChange(f))
		}
		rows = append(rows, row)
	}
	return rows
}

// ResponsivenessTable is the table of stall figures: a row per figure,
// its label, a column per side (with N sides each variant's change
// against the base beside its value), and with two sides the change.
func (v *View) ResponsivenessTable() Table {
	t := Table{Title: "responsiveness", Columns: []Column{col("figure", KindLabel)}}
	for si, s := range v.r.Sides {
		t.Columns = append(t.Columns, sideCol(s.Name, KindSideValue, si))
	}
	if v.Layout() == LayoutPair {
		t.Columns = append(t.Columns, col("change", KindNote))
	}
	for _, cs := range v.ResponsivenessRows() {
		t.Rows = append(t.Rows, Row{Index: -1, Cells: cs})
	}
	t.Total = len(t.Rows)
	return t
}

// figureValue formats a side's figure: "437 ms ±4.2 ms", "1", "1.3 ±0.6"
// (a mean of counts to one decimal at most).
func figureValue(f diff.Figure, side int) string {
	if !f.Count {
		return ValueSpread(f.Measure, side)
	}
	return units.CountSpread(f.Measure.Mean[side], f.Measure.Spread(side))
}

// figureChange formats a figure's judged change: as the headline's for
// durations; for counts "+2 +33.3% ~ p=0.61", and in words when one side
// has none: "1 a run before, none after ~ p=0.57" (a change to or from
// zero is not a percentage worth printing).
func figureChange(f diff.Figure) Cell {
	c := f.Measure.Change
	if !f.Count {
		return headlineChange(c)
	}
	p := units.FormatP(c.P)
	if !strings.HasPrefix(p, "<") {
		p = "=" + p
	}
	if m := f.Measure.Mean; len(m) == 2 && (m[0] == 0) != (m[1] == 0) {
		words := units.CountMean(m[0]) + " a run before, none after"
		if m[0] == 0 {
			words = "none before, " + units.CountMean(m[1]) + " a run after"
		}
		return Cell{Text: fmt.Sprintf("%s %s p%s", words, c.Verdict.String(), p), Verdict: c.Verdict}
	}
	return Cell{Text: fmt.Sprintf("%s %s %s p%s", units.SignedCount(c.Delta), units.SignedPct(c.DeltaPct), c.Verdict.String(), p), Verdict: c.Verdict}
}

// StallsUncertainty says how well the sampling interval pins the figures.
func (v *View) StallsUncertainty() string {
	rs := v.r.Responsiveness
	frames := ""
	if rs.LateFrames != nil {
		frames = " Frames over 16 ms: the browser's AnimationFrame events longer than 16 ms."
	}
	return v.stallsUncertainty() + frames
}

// stallsUncertainty is StallsUncertainty without the frames' note.
func (v *View) stallsUncertainty() string {
	rs := v.r.Responsiveness
	var iv []string
	for si, ns := range rs.IntervalNs {
		s := units.Duration(ns)
		if len(rs.IntervalNs) > 1 {
			s += " " + v.r.Sides[si].Name
		}
		iv = append(iv, s)
	}
	if rs.Source == "tasks" {
		return "Long tasks: the thread's tasks as the browser recorded them (RunTask events), exact to the microsecond; blocking time sums each task's length beyond 50 ms, as Total Blocking Time does; what ran in a task is from the samples taken in it."
	}
	text := ""
	if rs.Source != "samples" {
		text = "Some runs' stretches are the browser's tasks (exact), the others' runs of samples. "
	}
	return text + fmt.Sprintf("Busy stretches: runs of samples with no (idle) sample, (program) counted as busy. Each end of a stretch is known to within one sampling interval (%s): a stall's length and each stall's part of the blocking time to within two, and a count may gain or lose a stretch within two intervals of 16 or 50 ms.",
		strings.Join(iv, ", "))
}

// SourceText says where the figures come from: "from the browser's tasks"
// or "from samples".
func (v *View) SourceText() string {
	switch v.r.Responsiveness.Source {
	case "tasks":
		return "from the browser's tasks"
	case "samples":
		return "from samples"
	}
	return "from the browser's tasks and from samples"
}

// stallsNoun names the listed stretches: "tasks" or "stalls".
func (v *View) stallsNoun() string {
	if v.r.Responsiveness.Source == "tasks" {
		return "tasks"
	}
	return "stalls"
}

// NoLongStalls is the one line said instead of the block when no run has
// a stretch over 50 ms.
func (v *View) NoLongStalls() string {
	rs := v.r.Responsiveness
	var longest []string
	for si := range rs.LongestStall.Mean {
		s := units.Duration(rs.LongestStall.Mean[si])
		if len(rs.LongestStall.Mean) > 1 {
			s += " " + v.r.Sides[si].Name
		}
		longest = append(longest, s)
	}
	what := "busy stretch"
	if rs.Source == "tasks" {
		what = "task"
	}
	return "Responsiveness (" + v.SourceText() + "): no " + what + " over 50 ms (longest " + strings.Join(longest, ", ") + ")."
}

// longStalls returns the indices in Responsiveness.Longest of the stalls
// over 50 ms the reports list, the longest first, at most
// maxListedStalls.
func (v *View) longStalls() []int {
	longest := v.r.Responsiveness.Longest
	var out []int
	for i, s := range longest {
		if s.Duration > analyze.LongStallNs {
			out = append(out, i)
		}
	}
	// Longest is sorted within each side; merge the sides by duration.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && longest[out[j]].Duration > longest[out[j-1]].Duration; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out[:min(len(out), maxListedStalls)]
}

// LongStallsTable is the table of the longest stalls every front end
// lists: a row per stall over 50 ms (at most maxListedStalls), the longest first, with the run it
// is in, its start in the run and its length (Values in ns), and what
// StallText says of it as the row's note. A row's Index is the stall's
// index in Responsiveness.Longest, for what draws it (the page's strip
// marks it on its run). No rows without stalls over 50 ms.
func (v *View) LongStallsTable() Table {
	t := Table{Title: v.stallsNoun(), Columns: []Column{col("run", KindLabel), col("start", KindDuration),
		col("length", KindDuration), col(strings.TrimSuffix(v.stallsNoun(), "s"), KindNote)}}
	for _, i := range v.longStalls() {
		s := v.r.Responsiveness.Longest[i]
		t.Rows = append(t.Rows, Row{Index: i, Cells: []Cell{
			{Text: v.stallRun(s)},
			{Text: units.Duration(float64(s.Start)), Value: float64(s.Start)},
			{Text: units.Duration(float64(s.Duration)), Value: float64(s.Duration)},
			{Text: v.StallText(s)},
		}})
	}
	t.Total = len(t.Rows)
	return t
}

// stallRun names the run a stall is in: its side's name, and "run N"
// after it when the side has several runs.
func (v *View) stallRun(s diff.Stall) string {
	where := v.r.Sides[s.Side].Name
	if v.r.Sides[s.Side].Runs > 1 {
		where += fmt.Sprintf(" run %d", s.Run+1)
	}
	return where
}

// StallText describes one stall: "437 ms at 0.80 s, before run 1: parseRecordAt
// 127 ms, addTerms 81 ms, (garbage collector) 60 ms; started in listOnTimeout
// > load > read".
func (v *View) StallText(s diff.Stall) string {
	var top []string
	for _, f := range s.Top[:min(len(s.Top), 3)] {
		top = append(top, v.Name(f.Key)+" "+units.Duration(float64(f.SelfNs)))
	}
	stack := s.Stack
	const shown = 4
	prefix := ""
	if len(stack) > shown {
		stack, prefix = stack[len(stack)-shown:], "… > "
	}
	var names []string
	for _, k := range stack {
		names = append(names, v.Name(k))
	}
	text := fmt.Sprintf("%s at %s, %s", units.Duration(float64(s.Duration)), units.Duration(float64(s.Start)), v.stallRun(s))
	if len(top) > 0 {
		text += ": " + strings.Join(top, ", ")
	}
	if len(names) > 0 {
		text += "; started in " + prefix + strings.Join(names, " > ")
	}
	return text
}

// writeTextResponsiveness writes the block (or its one line) after the
// headline; nothing without stalls.
func writeTextResponsiveness(tw *textWriter, v *View) {
	rs := v.r.Responsiveness
	if rs == nil {
		return
	}
	if !rs.HasLong() {
		tw.printf("\n%s\n", v.NoLongStalls())
		return
	}
	tw.printf("\nResponsiveness (per run, %s)\n", v.SourceText())
	t := v.ResponsivenessTable()
	// Text reads the last column as the row's note, left-aligned and cut
	// when long: the change, or with one side its value, with N the last
	// side's.
	t.Columns[len(t.Columns)-1].Kind = KindNote
	tw.layout(&t)
	tw.printf("  %s\n", v.StallsUncertainty())
	tw.printf("  Longest %s, with the functions that ran most in them (self time) and the stack they started in:\n", v.stallsNoun())
	long := v.LongStallsTable()
	note := ColumnsOf(long.Columns, KindNote)[0]
	for i, row := range long.Rows {
		tw.printf("  %d. %s\n", i+1, row.Cells[note].Text)
	}
}

// responsiveness writes the JSON responsiveness object; absent when a run
// records no sample times.
func (j *jsonReport) responsiveness() {
	rs := j.r.Responsiveness
	if rs == nil {
		return
	}
	// responsiveness: the runs' busy stretches (runs of samples with no
	// (idle) sample; (program) counts as busy). source: "samples".
	// interval_ns: each side's mean sampling interval, to within which
	// each end of a stretch is known. longest_stall and blocking are
	// measures as headline.on_cpu (ns per run); stalls_over_16ms and
	// stalls_over_50ms are measures of the same shape whose ns members
	// hold counts per run. longest: each side's longest stretches over
	// its runs (at most 5 a side), with side (its name), run (0-based),
	// start_ns (from the profile's start), duration_ns, top_functions
	// (name, package, file, line, self_ns; the most self time first) and
	// stack (the frames of the stretch's first busy sample, outermost
	// first: name, package, file, line).
	j.Key("responsiveness")
	j.BeginObject()
	j.Key("source")
	j.String(rs.Source)
	j.Key("interval_ns")
	j.Floats(rs.IntervalNs)
	j.Key("longest_stall")
	j.measure(&rs.LongestStall)
	j.Key("stalls_over_16ms")
	j.measure(&rs.Over16ms)
	j.Key("stalls_over_50ms")
	j.measure(&rs.Over50ms)
	j.Key("blocking")
	j.measure(&rs.Blocking)
	if rs.LateFrames != nil {
		j.Key("frames_over_16ms")
		j.measure(rs.LateFrames)
	}
	j.Key("longest")
	j.BeginArray()
	for _, s := range rs.Longest {
		j.BeginObject()
		j.Key("side")
		j.String(j.r.Sides[s.Side].Name)
		j.Key("run")
		j.Int(int64(s.Run))
		j.Key("start_ns")
		j.Int(s.Start)
		j.Key("duration_ns")
		j.Int(s.Duration)
		j.Key("top_functions")
		j.BeginArray()
		for _, f := range s.Top {
			j.BeginObject()
			jsonFrame(j.Writer, f.Key)
			j.Key("self_ns")
			j.Int(f.SelfNs)
			j.EndObject()
		}
		j.EndArray()
		j.Key("stack")
		j.BeginArray()
		for _, k := range s.Stack {
			j.BeginObject()
			jsonFrame(j.Writer, k)
			j.EndObject()
		}
		j.EndArray()
		j.EndObject()
	}
	j.EndArray()
	j.EndObject()
}

// jsonFrame writes a function's members: name, package, file, line.
func jsonFrame(w *jsonwrite.Writer, k analyze.Key) {
	w.Key("name")
	w.String(diff.FunctionName(k))
	w.Key("package")
	w.String(k.Package)
	w.Key("file")
	w.String(k.File)
	w.Key("line")
	w.Int(int64(k.Line))
}

// stallRuleName names the figure a stall rule judged, with its change:
// "longest stall -401 ms", "stalls over 50 ms -1".
func stallRuleName(target string, c diff.Change) string {
	for _, f := range (&diff.Responsiveness{}).Figures() {
		if f.Rule == target {
			if f.Count {
				return fmt.Sprintf("%s %+.3g", f.Name, c.Delta)
			}
			return f.Name + " " + units.SignedDuration(c.Delta)
		}
	}
	return target
}
