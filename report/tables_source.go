package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/internal/units"
)

// This file builds the table of a function's annotated source (--source):
// a row per line shown with its numbers, each side's times and the
// change, then its mark and text.

// SourceTable is the table of listing l's rows shown (indices of its
// rows, -n for a gap of n rows elided), then the lines past the file's
// end and the unattributed rest: the line number (two, before and after,
// when the texts are aligned), each side's self (and total) time ("."
// for none), with two sides the change of self time and its verdict (the
// total's when only it is real), then the row's mark (-, +) and text.
func SourceTable(r *diff.Report, l *diff.SourceListing, shown []int, o SourceTableOptions) Table {
	tab := o.Tab
	if tab == "" {
		tab = "    "
	}
	st := sourceTable{r: r, edited: l.Aligned, compared: len(r.Sides) == 2, totals: r.LineTotals && !o.SelfOnly}
	t := Table{Title: "source", Columns: st.columns()}
	add := func(cells []Cell, mark, text string) {
		if cells == nil { // a gap: no figures
			cells = make([]Cell, len(t.Columns)-2)
		}
		t.Rows = append(t.Rows, Row{Index: -1, Cells: append(cells, Cell{Text: mark}, Cell{Text: text})})
	}
	for _, i := range shown {
		if i < 0 {
			add(nil, " ", fmt.Sprintf("⋮ (%d lines)", -i))
			continue
		}
		row := l.Row(i)
		add(st.cells(&row, st.lineNumbers(row.Line)), string(row.Op.Mark()), termtext.Clean(strings.ReplaceAll(row.Text, "\t", tab)))
	}
	if o.ShownOnly {
		t.Total = len(t.Rows)
		return t
	}
	for i := range l.Outside {
		row := l.OutsideRow(i)
		add(st.cells(&row, st.lineNumbers(row.Line)), " ", diff.OutsideNote)
	}
	if u := l.Unattributed; u != nil {
		row := diff.SourceRow{Time: [2]*diff.LineTime{u, u}, Self: u.Self.Change, Total: u.Total.Change}
		add(st.cells(&row, st.lineNumbers([2]int32{})), " ", "(unattributed: samples that recorded no line)")
	}
	t.Total = len(t.Rows)
	return t
}

// SourceTableOptions are what a front end asks of SourceTable; the zero value
// is the whole listing as --source writes it.
type SourceTableOptions struct {
	// SelfOnly leaves out the lines' total times (and the total's
	// verdict) where the profile records them: the explorer's pane shows
	// self time alone.
	SelfOnly bool
	// ShownOnly leaves out the rows after shown's (the lines past the
	// file's end, the unattributed rest): a pane shows a window of the
	// listing.
	ShownOnly bool
	// Tab is what a tab in a line's text becomes; "" means four spaces.
	Tab string
}

// sourceTable builds a source listing's cells: its line numbers (two
// when the texts are aligned), each side's times and, with two sides, the
// change and its verdict.
type sourceTable struct {
	r                        *diff.Report
	edited, compared, totals bool
}

// columns are the table's columns: line numbers, each side's times, the
// change and verdict, then the mark and the text.
func (st sourceTable) columns() []Column {
	var cols []Column
	if st.edited {
		cols = append(cols, sideCol("before", KindCount, 0), sideCol("after", KindCount, len(st.r.Sides)-1))
	} else {
		cols = append(cols, col("line", KindCount))
	}
	for si, s := range st.r.Sides {
		name := ""
		if len(st.r.Sides) > 1 {
			name = " " + termtext.Fit(termtext.Clean(s.Name), 16, false)
		}
		cols = append(cols, sideCol("self"+name, KindDuration, si))
		if st.totals {
			cols = append(cols, sideCol("total"+name, KindDuration, si))
		}
	}
	if st.compared {
		cols = append(cols, col("Δ self", KindChange), col("verdict", KindVerdict))
	}
	return append(cols, col("", KindLabel), col("", KindNote))
}

// lineNumbers are a row's line-number cells: before and after when the
// texts are aligned, else the one ("" for none).
func (st sourceTable) lineNumbers(line [2]int32) []Cell {
	num := func(l int32) Cell {
		if l == 0 {
			return Cell{}
		}
		return Cell{Text: fmt.Sprint(l), Value: float64(l)}
	}
	if st.edited {
		return []Cell{num(line[0]), num(line[1])}
	}
	return []Cell{num(line[0])}
}

// cells are a row's cells after its line numbers: each side's self (and
// total) time, "." for none, and with two sides the change of self time
// and its verdict (the total's when only it is real).
func (st sourceTable) cells(row *diff.SourceRow, lineNums []Cell) []Cell {
	r := st.r
	dur := func(x float64) Cell {
		if x == 0 || math.IsNaN(x) {
			return Cell{Text: "."}
		}
		return Cell{Text: units.Duration(x), Value: x}
	}
	lt := row.Time
	cells := lineNums
	for si := range r.Sides {
		l := lt[0]
		if si == len(r.Sides)-1 {
			l = lt[1]
		} else if si > 0 && lt[0] != lt[1] {
			l = nil
		}
		if l == nil {
			cells = append(cells, Cell{Text: "."})
			if st.totals {
				cells = append(cells, Cell{Text: "."})
			}
			continue
		}
		cells = append(cells, dur(l.Self.Mean[si]))
		if st.totals {
			cells = append(cells, dur(l.Total.Mean[si]))
		}
	}
	if !st.compared {
		return cells
	}
	var before, after float64
	if lt[0] != nil {
		before = lt[0].Self.Mean[0]
	}
	if lt[1] != nil {
		after = lt[1].Self.Mean[1]
	}
	d := Cell{}
	if before != 0 || after != 0 {
		d = Cell{Text: units.SignedDuration(after - before), Value: after - before}
	}
	verdict := verdictCell(row.Self.Verdict, "")
	if c := row.Total; st.totals && !row.Self.Verdict.Real() && c.Verdict.Real() {
		verdict = verdictCell(c.Verdict, " (total)")
	}
	return append(cells, d, verdict)
}
