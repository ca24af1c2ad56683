package report

import (
	"math"
	"slices"
	"strconv"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/units"
)

// This file builds the tables of a function's source lines with their
// self time, as the comparison joined and judged them.

// ChangedLinesTable is the table of function fn's recorded lines (two
// sides) whose self time changed most, up to top of them (0: all): a row
// per line with its number, its self time before and after, and the
// change (delta, Δ%, verdict, p), the largest change first, then by
// line. Total counts the function's recorded lines.
func (v *View) ChangedLinesTable(fn int32, top int) Table {
	var ls []diff.LineTime
	for _, l := range v.r.FunctionLines(fn) {
		if l.Line > 0 {
			ls = append(ls, l)
		}
	}
	slices.SortStableFunc(ls, func(a, c diff.LineTime) int {
		if d := math.Abs(c.Self.Change.Delta) - math.Abs(a.Self.Change.Delta); d != 0 {
			if d > 0 {
				return 1
			}
			return -1
		}
		return int(a.Line - c.Line)
	})
	t := Table{Title: "lines", Total: len(ls), Columns: []Column{col("line", KindCount), sideCol("before", KindDuration, 0), sideCol("after", KindDuration, 1),
		col("delta", KindChange), col("Δ%", KindChange), col("verdict", KindVerdict), col("p", KindP)}}
	if top > 0 && len(ls) > top {
		ls = ls[:top]
	}
	for _, l := range ls {
		m, c := &l.Self, l.Self.Change
		t.Rows = append(t.Rows, Row{Index: -1, Cells: []Cell{{Text: strconv.Itoa(int(l.Line)), Value: float64(l.Line)},
			{Text: units.Duration(m.Mean[0]), Value: m.Mean[0]}, {Text: units.Duration(m.Mean[1]), Value: m.Mean[1]},
			{Text: units.SignedDuration(c.Delta), Value: c.Delta}, {Text: units.SignedPct(c.DeltaPct), Value: c.DeltaPct},
			verdictCell(c.Verdict, ""), {Text: units.FormatP(c.P), Value: c.P}}})
	}
	return t
}
