package report

import (
	"math"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/units"
)

// This file builds the short table of top changes a first screen shows
// (the markdown comment's): a row's self and total time on both sides,
// and the one change that tells its story.

// ShownChangeTable is the table of the top changes of a report's rows (two
// sides; up to top rows, see TopChanges) that shows one change a row: the
// row's names, its self and total time before and after, then the metric
// whose change is shown, with its Δ%, verdict and own p. The change shown
// is the one that makes the row's change real (Deciding), else the larger
// of self's and total's.
func (v *View) ShownChangeTable(o TableOf, top int) Table {
	shown := v.TopChanges(v.rowsOf(o), top)
	t := Table{Title: o.what(), Total: len(shown)}
	t.Columns = append(nameColumns(o), sideCol("self before", KindDuration, 0), sideCol("self after", KindDuration, 1),
		sideCol("total before", KindDuration, 0), sideCol("total after", KindDuration, 1),
		col("change of", KindMetric), col("Δ%", KindChange), col("verdict", KindVerdict), col("p", KindP))
	for i := range shown {
		x := &shown[i]
		by, real := Deciding(x)
		if !real && math.Abs(x.Total.Change.Delta) > math.Abs(x.Self.Change.Delta) {
			by = diff.MetricTotal
		}
		c := by.Of(x).Change
		cells := append(v.nameCells(o, x),
			Cell{Text: units.Duration(x.Self.Mean[0]), Value: x.Self.Mean[0]}, Cell{Text: units.Duration(x.Self.Mean[1]), Value: x.Self.Mean[1]},
			Cell{Text: units.Duration(x.Total.Mean[0]), Value: x.Total.Mean[0]}, Cell{Text: units.Duration(x.Total.Mean[1]), Value: x.Total.Mean[1]},
			Cell{Text: by.String(), Value: float64(by)}, Cell{Text: units.SignedPct(c.DeltaPct), Value: c.DeltaPct},
			verdictCell(c.Verdict, ""), Cell{Text: units.PValue(c.P), Value: c.P})
		t.Rows = append(t.Rows, Row{Key: x.Key, Index: -1, Cells: cells})
	}
	return t
}
