package report

import (
	"math"
	"testing"

	"github.com/profdiff/profdiff/diff"
)

// TestRankColumn: the column a table's order ranks by is found by kind:
// the delta of two sides, self's or total's time of one (total first
// when asked), the one time of a table of calls.
func TestRankColumn(t *testing.T) {
	for _, c := range []struct {
		name        string
		cols        []Column
		by          diff.Metric
		rankedFirst bool
		want        int
	}{
		{"two sides", append(changeColumns(), nameColumns(TableFunctions)...), diff.MetricTotal, false, 2},
		{"one side, self", oneSideColumns(diff.MetricSelf, false), diff.MetricSelf, false, 0},
		{"one side, total", oneSideColumns(diff.MetricTotal, false), diff.MetricTotal, false, 2},
		{"one side, total first", oneSideColumns(diff.MetricTotal, true), diff.MetricTotal, true, 0},
		{"names only", nameColumns(TableFiles), diff.MetricSelf, false, -1},
	} {
		if got := RankColumn(c.cols, c.by, c.rankedFirst); got != c.want {
			t.Errorf("%s: column %d, want %d", c.name, got, c.want)
		}
	}
}

// TestCallsTable: a function's callers and callees are the report's
// calls ending and starting at it, each row naming the function at the
// other end and carrying the call's time and verdict, in the report's
// order; with one side a time and a share.
func TestCallsTable(t *testing.T) {
	v := NewView(routerPair(t, diff.DefaultOptions()))
	r := v.r
	fn := r.Calls[0].Callee
	for _, callers := range []bool{true, false} {
		tb := v.CallsTable(fn, callers)
		var want []diff.Call
		for _, c := range r.Calls {
			if callers && c.Callee == fn || !callers && c.Caller == fn {
				want = append(want, c)
			}
		}
		if len(tb.Rows) != len(want) || tb.Total != len(want) {
			t.Fatalf("callers %v: %d rows, want %d", callers, len(tb.Rows), len(want))
		}
		for i, row := range tb.Rows {
			other := want[i].Callee
			if callers {
				other = want[i].Caller
			}
			if row.Index != int(other) || row.Key != r.Functions[other].Key {
				t.Errorf("callers %v, row %d: function %d, want %d", callers, i, row.Index, other)
			}
			if row.Cells[2].Value != want[i].Total.Change.Delta || row.Cells[5].Verdict != want[i].Total.Change.Verdict {
				t.Errorf("callers %v, row %d: cells %+v for call %+v", callers, i, row.Cells[:6], want[i].Total.Change)
			}
		}
	}
	one := NewView(report(t, "node-router-unbundled-before.cpuprofile"))
	tb := one.CallsTable(one.r.Calls[0].Callee, true)
	if len(tb.Rows) == 0 || len(tb.Columns) != 5 || tb.Columns[1].Kind != KindPercent {
		t.Fatalf("one side: %d rows, columns %v", len(tb.Rows), tb.Headers())
	}
	if c := tb.Rows[0].Cells; c[0].Value != c[1].Value || math.IsNaN(c[0].Value) {
		t.Errorf("one side: a share sorts as its time: %+v", c[:2])
	}
}
