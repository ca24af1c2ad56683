package report

import (
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/units"
)

// This file builds the tables of a function's calls (its callers and
// callees, with the time flowing along each call) and says, for a table
// of rows, which of its columns the builder's order ranks by and which
// hold a share: what the explorer sorts and drops by, read from the
// columns' kinds rather than from their titles.

// MeasureColumns are the columns of MeasureCells: two sides' change
// columns (ChangeCells), or one side's time and share.
func (v *View) MeasureColumns() []Column {
	if v.Layout() == LayoutPair {
		return changeColumns()
	}
	return []Column{sideCol("time", KindDuration, 0), sideCol("share", KindPercent, 0)}
}

// MeasureCells are a measure's cells under MeasureColumns: two sides'
// ChangeCells, or one side's time and its share of on-CPU time (whose
// Value is the time, which sorts as the share does).
func (v *View) MeasureCells(m *diff.Measure) []Cell {
	if v.Layout() == LayoutPair {
		return ChangeCells(m)
	}
	t := m.Mean[0]
	return []Cell{{Text: units.Duration(t), Value: t}, {Text: units.Share(t, v.r.OnCPU(0)), Value: t}}
}

// CallsColumns are the columns of CallsTable: the measure's, then the
// names of the function at the call's other end.
func (v *View) CallsColumns() []Column {
	return append(v.MeasureColumns(), nameColumns(TableFunctions)...)
}

// CallsTable is the table of fn's callers (callers) or callees: a row per
// call, in the report's order (by time), with the time flowing along it
// and the function at its other end; a row's Index is that function's row.
func (v *View) CallsTable(fn int32, callers bool) Table {
	what := "callees"
	if callers {
		what = "callers"
	}
	t := Table{Title: what, Columns: v.CallsColumns()}
	for i := range v.r.Calls {
		c := &v.r.Calls[i]
		other := c.Callee
		if callers {
			if c.Callee != fn {
				continue
			}
			other = c.Caller
		} else if c.Caller != fn {
			continue
		}
		row := &v.r.Functions[other]
		cells := append(v.MeasureCells(&c.Total), v.nameCells(TableFunctions, row)...)
		t.Rows = append(t.Rows, Row{Key: row.Key, Index: int(other), Cells: cells})
	}
	t.Total = len(t.Rows)
	return t
}

// RankColumn is the index of the column among cols (a table's, as
// RowsColumns or CallsColumns return them) that the builder's order ranks
// by, for metric by: the first change (the delta) when the table shows
// changes; else the time of the metric: a table of one side lists self's
// time, then total's, unless rankedFirst (RowsRequest.RankedFirst) put
// the ranked metric's first; a table of one time (calls) ranks by it. -1
// when no column holds a time or a change.
func RankColumn(cols []Column, by diff.Metric, rankedFirst bool) int {
	var times []int
	for i, c := range cols {
		switch c.Kind {
		case KindChange, KindSideChange:
			return i
		case KindDuration:
			times = append(times, i)
		}
	}
	switch {
	case len(times) == 0:
		return -1
	case len(times) > 1 && by == diff.MetricTotal && !rankedFirst:
		return times[1]
	}
	return times[0]
}

// ColumnsOf are the indices of cols of kind k, in order.
func ColumnsOf(cols []Column, k Kind) []int {
	var out []int
	for i, c := range cols {
		if c.Kind == k {
			out = append(out, i)
		}
	}
	return out
}

// Sides is how many sides the table's columns show figures of.
func (t *Table) Sides() int {
	seen := map[int]bool{}
	for _, c := range t.Columns {
		if c.Side >= 0 {
			seen[c.Side] = true
		}
	}
	return len(seen)
}
