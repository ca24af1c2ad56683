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

// columns names a screen's numeric columns.
func (m Model) columns() []string {
	r := m.report()
	switch m.top().kind {
	case kindPaths:
		return []string{"explains", "of Δ"}
	case kindCalls:
		if r.Compared() {
			return report.ChangeHeaders
		}
		return []string{"time", "share"}
	}
	// The builder's figures' headers, then the other variants'.
	var out []string
	for _, c := range m.view.RowsColumns(report.RowsRequest{Of: m.tableOf(), By: m.metric()}) {
		if c.Kind.Numeric() {
			out = append(out, c.Header)
		}
	}
	return append(out, m.variantHeaders()...)
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
// (or the time, for one profile) of the metric shown.
func (m Model) defaultSortCol() int {
	switch {
	case m.top().kind == kindPaths:
		return -1 // the report's order: paths that end where the change is first
	case m.top().kind == kindCalls && !m.report().Compared():
		return 0
	case m.report().Compared():
		return 2 // delta
	case m.total:
		return 2 // total
	}
	return 0 // self
}

// dropOrder is the order in which a narrow terminal gives up columns,
// numeric columns (by index) and the location, so that names keep room to
// be read: the location and the columns a reader needs least go first.
// The name columns (function, package, file) are never dropped; they
// shrink, and last.
func (m Model) dropOrder() []any {
	switch {
	case m.top().kind == kindPaths:
		return []any{1}
	case m.top().kind == kindCalls && !m.report().Compared():
		return []any{"location", 1}
	case m.report().Compared():
		var drop []any
		for i := range m.otherVariants() {
			drop = append(drop, len(report.ChangeHeaders)+i) // the other variants' columns first
		}
		return append(drop, "location", 3, 6, 4)
	}
	return []any{"location", 1, 3}
}

func (m Model) nameColumns() []string {
	switch m.top().kind {
	case kindPackages:
		return []string{"package"}
	case kindFiles:
		return []string{"file", "package"}
	case kindPaths:
		return []string{"path"}
	}
	return []string{"function", "package", "location"}
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
	r := m.report()
	of := m.tableOf()
	metric := m.metric()
	t := m.view.RowsTable(report.RowsRequest{Of: of, By: metric})
	src := r.Functions
	switch of {
	case report.TablePackages:
		src = r.Packages
	case report.TableFiles:
		src = r.Files
	}
	var out []line
	for _, row := range t.Rows {
		switch {
		case s.kind == kindPackage && row.Key.Package != s.pkg:
			continue
		case s.kind == kindFile && (row.Key.File != s.file.File || row.Key.Package != s.file.Package):
			continue
		}
		verdict := metric.Of(&src[row.Index]).Change.Verdict
		if m.hideNoise && verdict == diff.VerdictSame { // one side has no verdict (VerdictNone)
			continue
		}
		l := line{key: row.Key, fn: -1, path: -1, verdict: verdict}
		if of == report.TableFunctions {
			l.fn = int32(row.Index)
		}
		for i, c := range row.Cells {
			if k := t.Columns[i].Kind; k.Numeric() {
				l.cells = append(l.cells, c.Text)
				l.sort = append(l.sort, report.SortValue(k, c.Value))
			} else {
				l.names = append(l.names, c.Text)
			}
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

// changeSort are a measure's numbers in the order of report.ChangeCells.
func changeSort(ms *diff.Measure) []float64 {
	c := ms.Change
	abs := func(v float64) float64 {
		if math.IsNaN(v) {
			return math.Inf(1)
		}
		return math.Abs(v)
	}
	p := c.P
	if math.IsNaN(p) {
		p = 2
	}
	return []float64{ms.Mean[0], ms.Mean[1], abs(c.Delta), abs(c.DeltaPP), abs(c.DeltaPct), float64(c.Verdict), -p}
}

// calls lists a function's own self and total time, then its callers and
// callees with the time flowing along each call, as the comparison joined
// and judged them.
func (m Model) calls(s *screen) []line {
	r := m.report()
	fn := s.fnRow
	f := &r.Functions[fn]
	name := m.view.RowName(f)
	cellsOf := func(ms *diff.Measure) []string {
		if r.Compared() {
			return report.Texts(report.ChangeCells(ms))
		}
		return []string{units.Duration(ms.Mean[0]), units.Share(ms.Mean[0], r.OnCPU(0))}
	}
	sortOf := func(ms *diff.Measure) []float64 {
		if r.Compared() {
			return changeSort(ms)
		}
		return []float64{ms.Mean[0], ms.Mean[0]}
	}
	out := []line{{header: true, fn: -1, path: -1, names: []string{name + " · " + termtext.Clean(f.Key.Package) + " · " + m.view.Location(f.Key)}}}
	for _, own := range []struct {
		label string
		ms    *diff.Measure
	}{{"self (own time)", &f.Self}, {"total (with callees)", &f.Total}} {
		out = append(out, line{fixed: true, key: f.Key, fn: fn, path: -1, verdict: own.ms.Change.Verdict,
			cells: cellsOf(own.ms), names: []string{"  " + own.label}})
	}
	for _, callers := range []bool{true, false} {
		title := "callees of " + name
		if callers {
			title = "callers of " + name
		}
		out = append(out, line{header: true, fn: -1, path: -1, names: []string{title}})
		var sec []line
		for i := range r.Calls {
			c := &r.Calls[i]
			other := c.Callee
			if callers {
				if c.Callee != fn {
					continue
				}
				other = c.Caller
			} else if c.Caller != fn {
				continue
			}
			row := &r.Functions[other]
			l := line{key: row.Key, fn: other, path: -1, verdict: c.Total.Change.Verdict,
				names: []string{m.view.RowName(row), termtext.Clean(row.Key.Package), m.view.Location(row.Key)},
				cells: cellsOf(&c.Total), sort: sortOf(&c.Total)}
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
