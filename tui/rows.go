package tui

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/internal/units"
	"github.com/profdiff/profdiff/report"
)

// line is one row of a screen.
type line struct {
	key     analyze.Key
	fn      int32    // the function's row in the report; -1 for none
	path    int      // kindPaths: the path's index; -1 for none
	cells   []string // numeric cells
	names   []string // name columns
	verdict diff.Verdict
	sort    []float64 // per numeric column, for sorting
	header  bool      // a section title ("callers of f")
	fixed   bool      // a row shown but not selectable (a function's own time)
}

func (l line) selectable() bool { return !l.header && !l.fixed }

// pathColumns are the columns of the paths screen: the change a path
// explains, its share of the on-CPU change, and the path.
var pathColumns = []report.Column{{Header: "explains", Kind: report.KindChange, Side: -1},
	{Header: "of Δ", Kind: report.KindPercent, Side: -1}, {Header: "path", Kind: report.KindName, Side: -1}}

// tableColumns are the screen's columns, as its table's builder heads
// them: the figures, the other variants' changes (exploring N sides),
// then the names.
func (m Model) tableColumns() []report.Column {
	switch m.top().kind {
	case kindPaths:
		return pathColumns
	case kindCalls:
		return m.view.CallsColumns()
	}
	var figures, names []report.Column
	for _, c := range m.view.RowsColumns(report.RowsRequest{Of: m.tableOf(), By: m.metric()}) {
		if c.Kind.Numeric() {
			figures = append(figures, c)
		} else {
			names = append(names, c)
		}
	}
	others := m.otherVariants()
	for i, h := range m.variantHeaders() {
		figures = append(figures, report.Column{Header: h, Kind: report.KindChange, Side: others[i]})
	}
	return append(figures, names...)
}

// columns names a screen's numeric columns.
func (m Model) columns() []string {
	var out []string
	for _, c := range m.tableColumns() {
		if c.Kind.Numeric() {
			out = append(out, c.Header)
		}
	}
	return out
}

// tableOf is the report's table of rows the screen lists.
func (m Model) tableOf() report.TableOf {
	switch m.top().kind {
	case kindPackages:
		return report.TablePackages
	case kindFiles:
		return report.TableFiles
	}
	return report.TableFunctions
}

// defaultSortCol is the column the report's own order sorts by: the change
// (or the time, for one profile) of the metric shown, as the builder ranks.
func (m Model) defaultSortCol() int {
	if m.top().kind == kindPaths {
		return -1 // the report's order: paths that end where the change is first
	}
	return report.RankColumn(m.tableColumns(), m.metric(), false)
}

// dropOrder is the order in which a narrow terminal gives up columns,
// by index into tableColumns, so that names keep room to be read: with
// changes the other variants' columns, the location, then Δshare, p and
// Δ%; with one side the location, then the shares. The name columns
// (function, package, file) are never dropped; they shrink, and last.
func (m Model) dropOrder() []int {
	cols := m.tableColumns()
	var drop []int
	changes, p := report.ColumnsOf(cols, report.KindChange), report.ColumnsOf(cols, report.KindP)
	if len(changes) >= 3 && len(p) == 1 { // delta, Δshare, Δ%, the variants'
		drop = append(drop, changes[3:]...)
	}
	if l := locationColumn(cols); l >= 0 {
		drop = append(drop, l)
	}
	if len(changes) >= 3 && len(p) == 1 {
		return append(drop, changes[1], p[0], changes[2])
	}
	return append(drop, report.ColumnsOf(cols, report.KindPercent)...)
}

// locationColumn is the index of the column of a row's location beside
// its name (a function's file:line), which may be dropped; -1 for none.
func locationColumn(cols []report.Column) int {
	named := false
	for i, c := range cols {
		switch {
		case c.Kind.Numeric():
		case c.Kind == report.KindLocation && named:
			return i
		default:
			named = true
		}
	}
	return -1
}

func (m Model) nameColumns() []string {
	var out []string
	for _, c := range m.tableColumns() {
		if !c.Kind.Numeric() {
			out = append(out, c.Header)
		}
	}
	return out
}

// rows returns the current screen's rows after filter, noise and sort.
func (m Model) rows() []line {
	s := m.top()
	switch s.kind {
	case kindCalls:
		return m.calls(s)
	case kindPaths:
		out := m.paths(s)
		m.sortLines(s, out)
		return out
	}
	of := m.tableOf()
	t := m.view.RowsTable(report.RowsRequest{Of: of, By: m.metric()})
	var out []line
	for _, row := range t.Rows {
		switch {
		case s.kind == kindPackage && row.Key.Package != s.pkg:
			continue
		case s.kind == kindFile && (row.Key.File != s.file.File || row.Key.Package != s.file.Package):
			continue
		}
		l := tableLine(t.Columns, row)
		if m.hideNoise && l.verdict == diff.VerdictSame { // one side has no verdict (VerdictNone)
			continue
		}
		if of == report.TableFunctions {
			l.fn = int32(row.Index)
		}
		if !s.matches(l) {
			continue
		}
		cells, sort := m.variantCells(row.Key) // none but exploring N sides
		l.cells, l.sort = append(l.cells, cells...), append(l.sort, sort...)
		out = append(out, l)
	}
	m.sortLines(s, out)
	return out
}

func (s *screen) matches(l line) bool {
	return s.filter == nil || s.filter.MatchString(strings.Join(l.names, " "))
}

// sortLines orders rows by the screen's sort column: numbers largest
// first, names alphabetically; reversed on request. The report's order
// is kept for ties.
func (m Model) sortLines(s *screen, ls []line) {
	col := s.sortCol
	if col < 0 && s.kind == kindCalls {
		col = m.defaultSortCol() // calls come in the report's order by time
	}
	if col < 0 {
		if s.sortRev {
			slices.Reverse(ls)
		}
		return
	}
	slices.SortStableFunc(ls, func(a, b line) int {
		var c int
		if col < len(a.sort) && col < len(b.sort) {
			c = cmp.Compare(b.sort[col], a.sort[col])
		} else {
			c = strings.Compare(strings.ToLower(a.names[0]), strings.ToLower(b.names[0]))
		}
		if s.sortRev {
			c = -c
		}
		return c
	})
}

// calls lists a function's own self and total time, then its callers and
// callees with the time flowing along each call, as the comparison joined
// and judged them (report.CallsTable).
func (m Model) calls(s *screen) []line {
	r := m.report()
	fn := s.fnRow
	f := &r.Functions[fn]
	name := m.view.RowName(f)
	out := []line{{header: true, fn: -1, path: -1, names: []string{name + " · " + termtext.Clean(f.Key.Package) + " · " + m.view.Location(f.Key)}}}
	cols := m.view.CallsColumns()
	for _, own := range []struct {
		label string
		ms    *diff.Measure
	}{{"self (own time)", &f.Self}, {"total (with callees)", &f.Total}} {
		l := tableLine(cols, report.Row{Key: f.Key, Index: int(fn), Cells: m.view.MeasureCells(own.ms)})
		l.fn, l.fixed, l.names, l.sort = fn, true, []string{"  " + own.label}, nil
		out = append(out, l)
	}
	for _, callers := range []bool{true, false} {
		title := "callees of " + name
		if callers {
			title = "callers of " + name
		}
		out = append(out, line{header: true, fn: -1, path: -1, names: []string{title}})
		t := m.view.CallsTable(fn, callers)
		var sec []line
		for _, row := range t.Rows {
			l := tableLine(t.Columns, row)
			l.fn = int32(row.Index)
			if m.hideNoise && l.verdict == diff.VerdictSame {
				continue
			}
			if !s.matches(l) {
				continue
			}
			sec = append(sec, l)
		}
		m.sortLines(s, sec)
		if len(sec) == 0 {
			sec = append(sec, line{fixed: true, fn: -1, path: -1, names: []string{"  (none)"}})
		}
		out = append(out, sec...)
	}
	return out
}

// tableLine is a table's row as a screen's line: its figures' texts and
// sort keys (by their columns' kinds), its names, and the verdict its
// verdict column shows (none with one side).
func tableLine(cols []report.Column, row report.Row) line {
	l := line{key: row.Key, fn: -1, path: -1}
	for i, c := range row.Cells {
		k := cols[i].Kind
		switch {
		case k.Numeric():
			l.cells = append(l.cells, c.Text)
			l.sort = append(l.sort, report.SortValue(k, c.Value))
			if k == report.KindVerdict {
				l.verdict = c.Verdict
			}
		default:
			l.names = append(l.names, c.Text)
		}
	}
	return l
}

// paths lists the paths where the comparison changed, each with the change
// it explains and its share of the on-CPU change.
func (m Model) paths(s *screen) []line {
	r := m.report()
	d := r.OnCPU(1) - r.OnCPU(0)
	var out []line
	for i, p := range r.Paths {
		last := p.Nodes[len(p.Nodes)-1]
		v := diff.VerdictBetter
		if p.Delta > 0 {
			v = diff.VerdictWorse
		}
		l := line{fn: r.Tree[last].Function, path: i, key: r.TreeFunction(last), verdict: v,
			cells: []string{units.SignedDuration(p.Delta), units.Share(p.Delta, d)},
			sort:  []float64{math.Abs(p.Delta), math.Abs(p.Delta)},
			names: []string{m.view.PathText(p)}}
		if s.matches(l) {
			out = append(out, l)
		}
	}
	return out
}
