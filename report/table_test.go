package report

import (
	"math"
	"slices"
	"testing"

	"github.com/profdiff/profdiff/diff"
)

// kinds are a table's columns' kinds.
func kinds(t *Table) []Kind {
	out := make([]Kind, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.Kind
	}
	return out
}

// checkTable checks what every table of rows keeps: a cell per column,
// rows that name their report row, no more rows than asked and than in all.
func checkTable(t *testing.T, name string, tb *Table, rows []diff.Row, top int) {
	t.Helper()
	if len(tb.Rows) == 0 {
		t.Fatalf("%s: no rows", name)
	}
	if top > 0 && len(tb.Rows) > top || len(tb.Rows) > tb.Total {
		t.Errorf("%s: %d rows of %d, asked for %d", name, len(tb.Rows), tb.Total, top)
	}
	for _, row := range tb.Rows {
		if len(row.Cells) != len(tb.Columns) {
			t.Fatalf("%s: %d cells for %d columns", name, len(row.Cells), len(tb.Columns))
		}
		if row.Index < 0 || rows[row.Index].Key != row.Key {
			t.Fatalf("%s: row %v has index %d", name, row.Key, row.Index)
		}
	}
}

// TestRowsTableSides: the functions table of one side is self, self%,
// total, total% and the names, ranked by self time (total first when
// asked); of two sides the change cells, ranked by the size of the
// change, the verdict column carrying the row's verdict; of three a
// column of words per side. Each honours Top.
func TestRowsTableSides(t *testing.T) {
	one := NewView(report(t, "node-router-unbundled-before.cpuprofile"))
	tb := one.RowsTable(RowsRequest{Of: TableFunctions, By: diff.MetricSelf, Top: 7})
	checkTable(t, "one side", &tb, one.r.Functions, 7)
	if want := []Kind{KindDuration, KindPercent, KindDuration, KindPercent, KindName, KindPackage, KindLocation}; !slices.Equal(kinds(&tb), want) {
		t.Errorf("one side's kinds %v, want %v", kinds(&tb), want)
	}
	for i := 1; i < len(tb.Rows); i++ {
		if tb.Rows[i].Cells[0].Value > tb.Rows[i-1].Cells[0].Value {
			t.Errorf("row %d has more self time than the one before", i)
		}
	}
	if x := one.r.Functions[tb.Rows[0].Index]; tb.Rows[0].Cells[0].Value != x.Self.Mean[0] || tb.Rows[0].Cells[0].Text == "" {
		t.Errorf("self cell %+v of a row of %v self", tb.Rows[0].Cells[0], x.Self.Mean[0])
	}
	total := one.RowsTable(RowsRequest{Of: TableFunctions, By: diff.MetricTotal, RankedFirst: true})
	if total.Columns[0].Header != "total" || len(total.Rows) != total.Total {
		t.Errorf("by total, ranked first: %q first, %d of %d rows", total.Columns[0].Header, len(total.Rows), total.Total)
	}

	two := NewView(routerPair(t, diff.DefaultOptions()))
	tb = two.RowsTable(RowsRequest{Of: TablePackages, By: diff.MetricSelf, Top: 3})
	checkTable(t, "two sides", &tb, two.r.Packages, 3)
	if want := []Kind{KindDuration, KindDuration, KindChange, KindChange, KindChange, KindVerdict, KindP, KindName}; !slices.Equal(kinds(&tb), want) {
		t.Errorf("two sides' kinds %v, want %v", kinds(&tb), want)
	}
	if tb.Columns[0].Side != 0 || tb.Columns[1].Side != 1 || tb.Columns[2].Side != -1 {
		t.Errorf("sides of the columns: %+v", tb.Columns[:3])
	}
	for i, row := range tb.Rows {
		x := &two.r.Packages[row.Index]
		if row.Cells[5].Verdict != x.Self.Change.Verdict || row.Cells[2].Value != x.Self.Change.Delta {
			t.Errorf("row %d: verdict %v delta %v, the report's %v %v", i, row.Cells[5].Verdict, row.Cells[2].Value, x.Self.Change.Verdict, x.Self.Change.Delta)
		}
		if i > 0 && math.Abs(row.Cells[2].Value) > math.Abs(tb.Rows[i-1].Cells[2].Value) {
			t.Errorf("row %d changed more than the one before", i)
		}
	}

	three, _ := threeSides(t, diff.DefaultOptions())
	v := NewView(three)
	tb = v.RowsTable(RowsRequest{Of: TablePackages, Top: 1})
	checkTable(t, "three sides", &tb, three.Packages, 1)
	if !tb.Words || len(tb.Columns) != 2+len(three.Sides) {
		t.Fatalf("three sides: words %v, %d columns", tb.Words, len(tb.Columns))
	}
	for si, c := range tb.Columns[2:] {
		if c.Side != si || c.Kind != KindSideChange {
			t.Errorf("column %d: %+v, want side %d's", si+2, c, si)
		}
	}
	if tb.Total <= 1 {
		t.Errorf("three sides: %d changed rows in all, the fixture has more", tb.Total)
	}
}

// TestTopTable: the top changes hold Top rows, each naming its row, with
// the deciding verdict marked.
func TestTopTable(t *testing.T) {
	v := NewView(routerPair(t, diff.DefaultOptions()))
	tb := v.TopTable(TableFunctions, 4)
	checkTable(t, "top", &tb, v.r.Functions, 4)
	if len(tb.Rows) != 4 || len(tb.Columns) != len(TopHeaders)+3 {
		t.Fatalf("%d rows, %d columns", len(tb.Rows), len(tb.Columns))
	}
	x := &v.r.Functions[tb.Rows[0].Index]
	if by, real := Deciding(x); real && tb.Rows[0].Cells[3+4*int(by)].Text != by.Of(x).Change.Verdict.String()+"*" {
		t.Errorf("the deciding verdict is not marked: %q", Texts(tb.Rows[0].Cells))
	}
}

// TestSortValue: a change sorts by its size, a row new or gone (NaN)
// first; a p by its smallness, no test last.
func TestSortValue(t *testing.T) {
	if SortValue(KindChange, -5) != 5 || !math.IsInf(SortValue(KindChange, math.NaN()), 1) {
		t.Error("a change does not sort by its size")
	}
	if !(SortValue(KindP, 0.01) > SortValue(KindP, 0.2)) || !(SortValue(KindP, math.NaN()) < SortValue(KindP, 1)) {
		t.Error("a p does not sort by its smallness")
	}
	if SortValue(KindDuration, 3) != 3 {
		t.Error("a time does not sort as it is")
	}
}

// TestKindsLayOut: figures align right and are not cut; a location keeps
// its end; in a table of words nothing is right-aligned.
func TestKindsLayOut(t *testing.T) {
	long := "/very/long/path/that/goes/on/and/on/and/on/and/on/and/on/for/ever/file.js:12:3"
	if got := fitCell(long, KindLocation, false); len(got) >= len(long) || got[len(got)-10:] != long[len(long)-10:] {
		t.Errorf("a location cut to %q", got)
	}
	if got := fitCell(long, KindDuration, false); got != long {
		t.Errorf("a figure was cut: %q", got)
	}
	var b []byte
	tw := &textWriter{w: writerFunc(func(p []byte) (int, error) { b = append(b, p...); return len(p), nil })}
	tb := Table{Columns: []Column{col("n", KindName), col("t", KindDuration)}, Rows: []Row{{Cells: []Cell{{Text: "a"}, {Text: "1 ms"}}}, {Cells: []Cell{{Text: "bb"}, {Text: "10 ms"}}}}}
	tw.layout(&tb)
	if want := "  n      t\n  a   1 ms\n  bb 10 ms\n"; string(b) != want {
		t.Errorf("laid out\n%s, want\n%s", b, want)
	}
	b, tb.Words = nil, true
	tw.layout(&tb)
	if want := "  n  t\n  a  1 ms\n  bb 10 ms\n"; string(b) != want {
		t.Errorf("words laid out\n%s, want\n%s", b, want)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
