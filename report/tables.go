package report

import (
	"math"
	"strings"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/internal/units"
)

// This file builds the tables of a report's rows (packages, functions,
// files) for one, two or N sides, and the top changes: the one place
// that decides a table's columns and rows, which every renderer lays out.

// TableOf names the rows a table of rows lists.
type TableOf uint8

// The tables of rows.
const (
	TablePackages TableOf = iota
	TableFunctions
	TableFiles
)

// what names a table's rows: "packages", "functions", "files".
func (o TableOf) what() string {
	return [...]string{"packages", "functions", "files"}[o]
}

// RowsRequest asks for a table of a report's rows.
type RowsRequest struct {
	// Of is which rows.
	Of TableOf
	// By is the metric the table shows and ranks by.
	By diff.Metric
	// Top is how many rows the table holds; 0 or less: all.
	Top int
	// RankedFirst puts, for one side, the ranked metric's columns first
	// (total and total% before self when By is total time); else self
	// comes first.
	RankedFirst bool
	// Idle lists the rows with no time in the metric on any side too,
	// last (what --top 0, "all", lists).
	Idle bool
}

// rowsOf returns the report's rows a table lists.
func (v *View) rowsOf(o TableOf) []diff.Row {
	switch o {
	case TablePackages:
		return v.r.Packages
	case TableFiles:
		return v.r.Files
	}
	return v.r.Functions
}

// nameColumns are the columns that name a table's rows.
func nameColumns(o TableOf) []Column {
	switch o {
	case TablePackages:
		return []Column{col("package", KindName)}
	case TableFiles:
		return []Column{col("file", KindLocation), col("package", KindPackage)}
	}
	return []Column{col("function", KindName), col("package", KindPackage), col("location", KindLocation)}
}

// nameCells are the cells that name a row, in the order of nameColumns.
func (v *View) nameCells(o TableOf, x *diff.Row) []Cell {
	switch o {
	case TablePackages:
		return []Cell{{Text: termtext.Clean(x.Key.Package)}}
	case TableFiles:
		return []Cell{{Text: v.File(x.Key)}, {Text: termtext.Clean(x.Key.Package)}}
	}
	return []Cell{{Text: v.RowName(x)}, {Text: termtext.Clean(x.Key.Package)}, {Text: v.Location(x.Key)}}
}

// RowsTable is a table of the report's rows: one side's time and share
// ranked by time; two sides' times, change and verdict ranked by the size
// of the change; for N sides the rows that changed for real in a variant
// (self or total time), a column per side, the largest change first.
func (v *View) RowsTable(q RowsRequest) Table {
	if v.Layout() == LayoutSides {
		return v.severalRowsTable(q)
	}
	rows := v.rowsOf(q.Of)
	order := v.sortedOrder(q.Of, q.By, q.Idle && q.Top == 0)
	t := Table{Title: q.Of.what(), Total: len(order)}
	if q.Top > 0 && len(order) > q.Top {
		order = order[:q.Top]
	}
	t.Columns = v.RowsColumns(q)
	compared := v.Layout() == LayoutPair
	t.Rows = make([]Row, len(order))
	for i, j := range order {
		x := &rows[j]
		var c []Cell
		if compared {
			c = ChangeCells(q.By.Of(x))
		} else {
			c = v.OneSideCells(x)
			if q.By == diff.MetricTotal && q.RankedFirst {
				c = []Cell{c[2], c[3], c[0], c[1]}
			}
		}
		t.Rows[i] = Row{Key: x.Key, Index: j, Cells: append(c, v.nameCells(q.Of, x)...)}
	}
	return t
}

// sortedOrder is order of a table's rows, sorted once per view; the
// slice is shared, not to be changed.
func (v *View) sortedOrder(of TableOf, by diff.Metric, all bool) []int {
	k := orderKey{of, by, all}
	if o, ok := v.orders[k]; ok {
		return o
	}
	if v.orders == nil {
		v.orders = map[orderKey][]int{}
	}
	o := v.order(v.rowsOf(of), by, all)
	v.orders[k] = o
	return o
}

// RowsColumns are the columns of the table RowsTable builds for q, for a
// renderer to head a table before it asks for its rows.
func (v *View) RowsColumns(q RowsRequest) []Column {
	switch v.Layout() {
	case LayoutSides:
		return v.severalColumns(q.Of)
	case LayoutPair:
		return append(changeColumns(), nameColumns(q.Of)...)
	}
	return append(oneSideColumns(q.By, q.RankedFirst), nameColumns(q.Of)...)
}

// changeColumns are the columns of ChangeCells.
func changeColumns() []Column {
	return []Column{sideCol("before", KindDuration, 0), sideCol("after", KindDuration, 1), col("delta", KindChange), col("Δshare", KindChange),
		col("Δ%", KindChange), col("verdict", KindVerdict), col("p", KindP)}
}

// oneSideColumns are the columns of OneSideCells, the metric ranked by
// first when rankedFirst.
func oneSideColumns(by diff.Metric, rankedFirst bool) []Column {
	self := []Column{sideCol("self", KindDuration, 0), sideCol("self%", KindPercent, 0)}
	total := []Column{sideCol("total", KindDuration, 0), sideCol("total%", KindPercent, 0)}
	if by == diff.MetricTotal && rankedFirst {
		return append(total, self...)
	}
	return append(self, total...)
}

// ChangeHeaders name the cells ChangeCells returns.
var ChangeHeaders = []string{"before", "after", "delta", "Δshare", "Δ%", "verdict", "p"}

// ChangeCells are a measure's before and after (with spread), delta,
// change in share of on-CPU time, relative change, verdict and p.
func ChangeCells(m *diff.Measure) []Cell {
	c := m.Change
	return []Cell{
		{Text: ValueSpread(m, 0), Value: m.Mean[0]}, {Text: ValueSpread(m, 1), Value: m.Mean[1]},
		{Text: units.SignedDuration(c.Delta), Value: c.Delta}, {Text: units.SignedPP(c.DeltaPP), Value: c.DeltaPP},
		{Text: units.SignedPct(c.DeltaPct), Value: c.DeltaPct}, verdictCell(c.Verdict, ""), {Text: units.FormatP(c.P), Value: c.P},
	}
}

// OneSideHeaders name the cells OneSideCells returns.
var OneSideHeaders = []string{"self", "self%", "total", "total%"}

// OneSideCells are a one-sided row's self, self%, total and total% (of
// on-CPU time). A share's Value is the time it is a share of, which
// sorts as the share does.
func (v *View) OneSideCells(r *diff.Row) []Cell {
	on := v.r.OnCPU(0)
	s, t := r.Self.Mean[0], r.Total.Mean[0]
	return []Cell{{Text: units.Duration(s), Value: s}, {Text: units.Share(s, on), Value: s}, {Text: units.Duration(t), Value: t}, {Text: units.Share(t, on), Value: t}}
}

// severalRowsTable is RowsTable for N sides: the changed lines (see
// changedLines), a row's name, its metric, and a column per side.
func (v *View) severalRowsTable(q RowsRequest) Table {
	r := v.r
	var name func(*diff.Row) string
	switch q.Of {
	case TablePackages:
		name = func(x *diff.Row) string { return termtext.Clean(x.Key.Package) }
	case TableFiles:
		name = func(x *diff.Row) string { return v.File(x.Key) }
	default:
		name = func(x *diff.Row) string {
			return v.RowName(x) + " (" + termtext.Clean(x.Key.Package) + ", " + v.Location(x.Key) + ")"
		}
	}
	lines := changedLines(v.rowsOf(q.Of), r)
	t := Table{Title: q.Of.what(), Total: len(lines), Words: true}
	if q.Top > 0 && len(lines) > q.Top {
		lines = lines[:q.Top]
	}
	t.Columns = v.severalColumns(q.Of)
	rows := v.rowsOf(q.Of)
	for _, l := range lines {
		m := l.metric.Of(l.row)
		row := Row{Key: l.row.Key, Index: rowIndex(rows, l.row), Cells: []Cell{{Text: name(l.row)}, {Text: l.metric.String(), Value: float64(l.metric)}}}
		for si := range r.Sides {
			text, verdict := sideCell(m, si, r.Base)
			row.Cells = append(row.Cells, Cell{Text: text, Value: m.Mean[si], Verdict: verdict})
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// severalColumns are the columns of a table of N sides: the row's name,
// its metric, and a column per side.
func (v *View) severalColumns(of TableOf) []Column {
	kind := KindName
	if of == TableFiles {
		kind = KindLocation
	}
	cols := []Column{col(strings.TrimSuffix(of.what(), "s"), kind), col("time", KindMetric)}
	for si, s := range v.r.Sides {
		cols = append(cols, sideCol(termtext.Clean(s.Name), KindSideChange, si))
	}
	return cols
}

// rowIndex is the index of x, a pointer into rows, in rows.
func rowIndex(rows []diff.Row, x *diff.Row) int {
	for i := range rows {
		if &rows[i] == x {
			return i
		}
	}
	return -1
}

// TopHeaders name the cells TopCells returns.
var TopHeaders = []string{"self before", "after", "Δ%", "self", "total before", "after", "Δ%", "total", "Δshare", "p"}

// TopTable is the table of the top changes of a report's rows (two
// sides): up to top rows (see TopChanges), each's self and total time
// before and after with its change and verdict, and the change in share
// and p of the metric that decides.
func (v *View) TopTable(o TableOf, top int) Table {
	rows := v.rowsOf(o)
	shown := v.TopChanges(rows, top)
	t := Table{Title: o.what()}
	t.Columns = append([]Column{sideCol("self before", KindDuration, 0), sideCol("after", KindDuration, 1), col("Δ%", KindChange), col("self", KindVerdict),
		sideCol("total before", KindDuration, 0), sideCol("after", KindDuration, 1), col("Δ%", KindChange), col("total", KindVerdict),
		col("Δshare", KindChange), col("p", KindP)}, nameColumns(o)...)
	index := make(map[analyze.Key]int, len(shown))
	for i := range shown {
		index[shown[i].Key] = -1
	}
	for i := range rows {
		if !zeroRow(&rows[i]) {
			t.Total++
		}
		if _, ok := index[rows[i].Key]; ok {
			index[rows[i].Key] = i
		}
	}
	t.Rows = make([]Row, len(shown))
	for i := range shown {
		x := &shown[i]
		t.Rows[i] = Row{Key: x.Key, Index: index[x.Key], Cells: append(TopCells(x), v.nameCells(o, x)...)}
	}
	return t
}

// TopCells are a row's cells in a "top changes" table: self before, after,
// Δ% and verdict; total before, after, Δ% and verdict; then the change in
// share of on-CPU time and the p-value of the metric that decides (self
// when neither is real). The deciding verdict is marked with "*".
func TopCells(r *diff.Row) []Cell {
	by, real := Deciding(r)
	verdict := func(m diff.Metric) Cell {
		if real && m == by {
			return verdictCell(m.Of(r).Change.Verdict, "*")
		}
		return verdictCell(m.Of(r).Change.Verdict, "")
	}
	d := by.Of(r).Change
	s, t := &r.Self, &r.Total
	return []Cell{
		{Text: units.Duration(s.Mean[0]), Value: s.Mean[0]}, {Text: units.Duration(s.Mean[1]), Value: s.Mean[1]},
		{Text: units.SignedPct(s.Change.DeltaPct), Value: s.Change.DeltaPct}, verdict(diff.MetricSelf),
		{Text: units.Duration(t.Mean[0]), Value: t.Mean[0]}, {Text: units.Duration(t.Mean[1]), Value: t.Mean[1]},
		{Text: units.SignedPct(t.Change.DeltaPct), Value: t.Change.DeltaPct}, verdict(diff.MetricTotal),
		{Text: units.SignedPP(d.DeltaPP), Value: d.DeltaPP}, {Text: units.FormatP(d.P), Value: d.P},
	}
}

// verdictCell is the cell of a verdict, with mark after its text ("*" for
// the one that makes a row's change real); its Value is the verdict.
func verdictCell(v diff.Verdict, mark string) Cell {
	return Cell{Text: v.String() + mark, Value: float64(v), Verdict: v}
}

// SortValue is a cell's value as a column of its kind sorts, the largest
// first: a change by its size (NaN, a row new or gone, largest of all), a
// p by its smallness (NaN, no test, last); other kinds by their value.
func SortValue(k Kind, x float64) float64 {
	switch k {
	case KindChange:
		if math.IsNaN(x) {
			return math.Inf(1)
		}
		return math.Abs(x)
	case KindP:
		if math.IsNaN(x) {
			return -2
		}
		return -x
	}
	return x
}

// HeadlineTable is the headline as a table: for two sides a row per
// measure with its label, before, after and change (the on-CPU changes
// with their verdicts); for one, label, value and note.
func (v *View) HeadlineTable() Table {
	t := Table{Title: "headline"}
	if v.Layout() == LayoutPair {
		t.Columns = []Column{col("", KindLabel), sideCol("before", KindSideValue, 0), sideCol("after", KindSideValue, 1), col("change", KindNote)}
	} else {
		t.Columns = []Column{col("measure", KindLabel), sideCol("value", KindSideValue, 0), col("detail", KindNote)}
	}
	for _, cs := range v.HeadlineRows() {
		t.Rows = append(t.Rows, Row{Index: -1, Cells: cs})
	}
	t.Total = len(t.Rows)
	return t
}

// SidesTable is the table of the sides of a report of N sides (see
// sideRows), a row per side.
func (v *View) SidesTable() Table {
	cols, rows, _ := v.sideRows()
	t := Table{Title: "sides", Columns: cols, Words: true, Total: len(rows)}
	for _, cs := range rows {
		t.Rows = append(t.Rows, Row{Index: -1, Cells: cs})
	}
	return t
}
