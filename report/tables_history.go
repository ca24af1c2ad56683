package report

import (
	"slices"

	"github.com/profdiff/profdiff/history"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/internal/units"
)

// This file builds the tables of a history (profdiff history): what
// changed at a change point, and the series of what changed.

// HistoryChangesTable is the table of what changed at change point cp: a
// row per change, its series' name (whole, cleaned: a renderer cuts it),
// before → after with the relative change (a side below its record's
// floor read so), the verdict and p.
func HistoryChangesTable(res *history.Result, cp history.ChangePoint) Table {
	t := Table{Title: "changes", Total: len(cp.Changes), Columns: []Column{col("what changed", KindName),
		col("before → after", KindChange), col("verdict", KindVerdict), col("p", KindP)}}
	for _, c := range cp.Changes {
		t.Rows = append(t.Rows, Row{Index: -1, Cells: []Cell{
			{Text: termtext.Clean(historyChangeName(c.Kind, c.Name, c.Package, c.File, c.Metric, res.Per))},
			{Text: historyDelta(res, cp, c), Value: c.DeltaPct}, {Text: c.Verdict}, {Text: units.PValue(c.P), Value: c.P}}})
	}
	return t
}

// HistorySeriesTable is the table of a history's series: the headlines',
// then each changed one's, a row each with its name, its sparkline from
// oldest to newest, and its first and last commit's value.
func HistorySeriesTable(res *history.Result) Table {
	all := append(slices.Clone(res.Headlines), res.Changed...)
	t := Table{Title: "series", Total: len(all), Columns: []Column{col("series", KindName), col("trend", KindNote),
		col("first", KindSideValue), col("last", KindSideValue)}}
	for _, s := range all {
		last := len(s.Means) - 1
		t.Rows = append(t.Rows, Row{Index: -1, Cells: []Cell{
			{Text: termtext.Clean(historyChangeName(s.Kind, s.Name, s.Package, s.File, s.Metric, res.Per))},
			{Text: SparklineBelow(s.Means, s.Below)},
			{Text: seriesValue(res, s, 0), Value: s.Means[0]}, {Text: seriesValue(res, s, last), Value: s.Means[last]}}})
	}
	return t
}
