package report

import (
	"cmp"
	"fmt"
	"math"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/internal/units"
)

// This file is the view-model every renderer of a report formats its cells
// through (text, markdown, the explorer): durations, counts, percentages,
// p-values, names and locations, and the choice and order of rows. Only
// the layout differs between renderers.

// View formats one report's cells. It knows the report's common root of
// files, so that locations are shown relative to it.
type View struct {
	r *diff.Report
	// root is the directory every absolute file of the report shares,
	// with its trailing slash; "" when none is worth cutting.
	root string
	// below is, when the sides' files were matched below their roots
	// (SideSummary.Root), the directory every one of the files keyed
	// relative to a root shares, with its trailing slash, so that they
	// read as they would at one path; "" for none.
	below string
	// goFiles: the report is of Go code, whose files read best as the
	// package's import path and the file's name.
	goFiles bool
	// orders are the orders of the report's rows RowsTable has sorted,
	// kept: a renderer asks for a table more than once (markdown for the
	// rows that fit, the explorer on every key).
	orders map[orderKey][]int
	// layout is the report's layout (Layout), found once.
	layout Layout
}

// Layout is how a report is laid out, the one choice that differs by the
// count of sides: the renderers write each layout as its goldens pin it,
// and read a variant's data the same way for every layout (through
// diff.Report.Variants and diff.Measure.ChangeFor).
type Layout uint8

// The layouts.
const (
	// LayoutOne is one side: its times and shares, nothing judged.
	LayoutOne Layout = iota
	// LayoutPair is two sides with the base first (the report is its one
	// variant's pair), written as before → after: a column each, the change and verdict
	// beside them, the top changes and the paths.
	LayoutPair
	// LayoutSides is a base and its variants otherwise (three sides or
	// more, or a base after its variant): a table of the sides, and rows
	// with a column per side, each variant's change beside its value.
	LayoutSides
)

// Layout returns how the report is laid out.
func (v *View) Layout() Layout { return v.layout }

// layoutOf returns how a report is laid out: as a pair when it is its one
// variant's pair (two sides, the base first), as a table of sides when it
// has other variants, else as one side.
func layoutOf(r *diff.Report) Layout {
	vs := r.Variants()
	switch {
	case len(vs) == 1 && vs[0].Pair() == r:
		return LayoutPair
	case len(vs) > 0:
		return LayoutSides
	}
	return LayoutOne
}

// orderKey names an order of a table's rows: which rows, by which metric,
// with the rows of no time or not.
type orderKey struct {
	of  TableOf
	by  diff.Metric
	all bool
}

// NewView returns the view of a report.
func NewView(r *diff.Report) *View {
	v := &View{r: r, goFiles: len(r.Sides) > 0 && r.Sides[0].Format == analyze.FormatPprof, layout: layoutOf(r)}
	var files []string
	for _, rows := range [][]diff.Row{r.Functions, r.Files} {
		for i := range rows {
			if f := rows[i].Key.File; f != "" && !strings.Contains(f, "/node_modules/") && !strings.HasPrefix(f, "node:") {
				files = append(files, f)
			}
		}
	}
	v.root = commonDir(files)
	if roots := sideRoots(r); roots != nil {
		// The files below each side's root are keyed relative to it.
		var rel []string
		for _, f := range files {
			if !strings.HasPrefix(f, "/") && !strings.Contains(f, "://") && !strings.HasPrefix(f, "node_modules/") {
				rel = append(rel, f)
			}
		}
		v.root, v.below = "", relativeDir(rel)
		if !slices.ContainsFunc(roots, func(x string) bool { return x != roots[0] }) {
			v.root = roots[0] + v.below
		}
	}
	return v
}

// relativeDir returns the longest directory prefix (ending in "/") shared
// by every relative file, "" when none.
func relativeDir(files []string) string {
	if len(files) == 0 {
		return ""
	}
	prefix := files[0]
	for _, f := range files[1:] {
		n := 0
		for n < len(prefix) && n < len(f) && prefix[n] == f[n] {
			n++
		}
		prefix = prefix[:n]
	}
	return prefix[:strings.LastIndexByte(prefix, '/')+1]
}

// sideRoots returns each side's root, nil when no side has one.
func sideRoots(r *diff.Report) []string {
	var roots []string
	for _, s := range r.Sides {
		roots = append(roots, s.Root)
	}
	if !slices.ContainsFunc(roots, func(x string) bool { return x != "" }) {
		return nil
	}
	return roots
}

// Matched says how the sides' files were matched below different roots:
// "matched old/ ↔ new/ (locations are relative to /ci/old/ and
// /ci/new/)", each root shortened to where they differ; a side that keeps
// its paths is "(as recorded)". It is "" when the files were not matched
// below different roots.
func (v *View) Matched() string {
	roots := sideRoots(v.r)
	if roots == nil || v.root != "" {
		return ""
	}
	// The directories every root starts with are left out of the short form.
	lead := ""
	for _, x := range roots {
		switch {
		case x == "":
		case lead == "":
			lead = x
		default:
			n := 0
			for n < len(lead) && n < len(x) && lead[n] == x[n] {
				n++
			}
			lead = lead[:strings.LastIndexByte(lead[:n], '/')+1]
		}
	}
	short, full := make([]string, len(roots)), make([]string, 0, len(roots))
	for i, x := range roots {
		if x == "" {
			short[i] = "(as recorded)"
			continue
		}
		short[i] = strings.TrimPrefix(x, lead)
		if short[i] == "" {
			short[i] = x
		}
		if !slices.Contains(full, x+v.below) {
			full = append(full, x+v.below)
		}
	}
	and := strings.Join(full, ", ")
	if len(full) == 2 {
		and = full[0] + " and " + full[1]
	}
	return termtext.Clean(fmt.Sprintf("matched %s (locations are relative to %s)", strings.Join(short, " ↔ "), and))
}

// Report returns the report the view formats.
func (v *View) Report() *diff.Report { return v.r }

// commonDir returns the longest directory prefix (ending in "/") shared by
// every file, or "" when the files share none beyond the root.
func commonDir(files []string) string {
	if len(files) == 0 {
		return ""
	}
	prefix := files[0]
	for _, f := range files[1:] {
		n := 0
		for n < len(prefix) && n < len(f) && prefix[n] == f[n] {
			n++
		}
		prefix = prefix[:n]
	}
	i := strings.LastIndexByte(prefix, '/')
	if i <= 0 {
		return ""
	}
	prefix = prefix[:i+1]
	if strings.Count(strings.TrimSuffix(strings.TrimPrefix(prefix, "/"), "/"), "/") < 1 && !strings.Contains(prefix, "://") {
		return "" // "/srv/" is no root worth cutting
	}
	if strings.HasSuffix(prefix, "://") || strings.HasSuffix(prefix, ":///") {
		return ""
	}
	return prefix
}

// Root returns the directory the view's locations are relative to ("" for
// none), for a report to say so.
func (v *View) Root() string { return v.root }

// Name returns a function's name as shown: "(anonymous)" for none, Go's
// generic shapes elided, control characters escaped.
func (v *View) Name(k analyze.Key) string { return termtext.Clean(elideShapes(diff.FunctionName(k))) }

// RowName is Name for a row, with the after side's name when a minified
// function was renamed between builds ("f3 → d3").
func (v *View) RowName(r *diff.Row) string {
	name := v.Name(r.Key)
	if r.Renamed != "" {
		name += " → " + termtext.Clean(r.Renamed)
	}
	if len(r.Aliases) > 0 {
		name += " (also " + termtext.Clean(strings.Join(r.Aliases, ", ")) + ")"
	}
	return name
}

// File returns a file as shown: below node_modules from the package's
// folder, a Go file by its package's import path, else relative to the
// report's common root.
func (v *View) File(k analyze.Key) string {
	f := k.File
	switch {
	case f == "":
		return termtext.Clean(k.Package)
	case strings.Contains(f, "/node_modules/"):
		f = f[strings.LastIndex(f, "/node_modules/")+len("/node_modules/"):]
	case strings.HasPrefix(f, "node_modules/"): // relative to the side's root
		f = f[len("node_modules/"):]
	case v.goFiles && (strings.HasSuffix(f, ".go") || strings.HasSuffix(f, ".s")) && k.Package != "" && !strings.HasPrefix(k.Package, "("):
		f = k.Package + "/" + path.Base(f)
	case v.root != "" && strings.HasPrefix(f, v.root):
		f = f[len(v.root):]
	case v.below != "" && strings.HasPrefix(f, v.below) && !strings.HasPrefix(f, "/"):
		f = f[len(v.below):]
	}
	return termtext.Clean(f)
}

// Location returns "file:line:column" as shown, leaving out what is
// unknown, and "-" when there is no file.
func (v *View) Location(k analyze.Key) string {
	if k.File == "" {
		return "-"
	}
	loc := v.File(k)
	if k.Line > 0 {
		loc += ":" + strconv.Itoa(int(k.Line))
		if k.Column > 0 {
			loc += ":" + strconv.Itoa(int(k.Column))
		}
	}
	return loc
}

// FileName returns a file key's full name: "(native)" and the like for
// time in no file.
func FileName(k analyze.Key) string {
	if k.File == "" {
		return k.Package
	}
	return k.File
}

// Location returns the full "file:line:column" of a key, leaving out what
// is unknown, and "-" when there is no file.
func Location(k analyze.Key) string {
	switch {
	case k.File == "":
		return "-"
	case k.Line > 0 && k.Column > 0:
		return k.File + ":" + strconv.Itoa(int(k.Line)) + ":" + strconv.Itoa(int(k.Column))
	case k.Line > 0:
		return k.File + ":" + strconv.Itoa(int(k.Line))
	}
	return k.File
}

// elideShapes shows Go's generic instantiations as pprof does:
// slices.SortFunc[go.shape.struct { ... }] reads slices.SortFunc[...].
func elideShapes(s string) string {
	i := strings.Index(s, "[go.shape.")
	if i < 0 {
		return s
	}
	var b strings.Builder
	for i >= 0 {
		b.WriteString(s[:i])
		depth, j := 0, i
		for ; j < len(s); j++ {
			if s[j] == '[' {
				depth++
			} else if s[j] == ']' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		if j == len(s) { // unbalanced: leave the rest alone
			b.WriteString(s[i:])
			return b.String()
		}
		b.WriteString("[...]")
		s = s[j+1:]
		i = strings.Index(s, "[go.shape.")
	}
	b.WriteString(s)
	return b.String()
}

// ValueSpread formats a side's mean with its spread: "12.3 ms ±4%"; the
// spread is left out with one run.
func ValueSpread(m *diff.Measure, side int) string {
	if m.Mean[side] <= 0 {
		return units.Duration(m.Mean[side])
	}
	return units.DurationSpread(m.Mean[side], m.Spread(side))
}

// cells are cells of texts that show no verdict.
func cells(texts ...string) []Cell {
	out := make([]Cell, len(texts))
	for i, t := range texts {
		out[i] = Cell{Text: t}
	}
	return out
}

// Texts returns the cells' texts.
func Texts(cells []Cell) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = c.Text
	}
	return out
}

// Sorted returns the rows ordered for a table by the metric: by the size of
// the change with two sides, by the time with one; then by the other
// metric and the key. Rows with none of the metric's time on any side are
// left out.
func (v *View) Sorted(rows []diff.Row, by diff.Metric) []diff.Row {
	idx := v.Order(rows, by)
	out := make([]diff.Row, len(idx))
	for i, j := range idx {
		out[i] = rows[j]
	}
	return out
}

// SortedAll is Sorted with the rows that have no time in the metric too,
// last: what --top 0 ("all") lists.
func (v *View) SortedAll(rows []diff.Row, by diff.Metric) []diff.Row {
	out := make([]diff.Row, 0, len(rows))
	for _, j := range v.order(rows, by, true) {
		out = append(out, rows[j])
	}
	return out
}

// Order is Sorted as indices into rows.
func (v *View) Order(rows []diff.Row, by diff.Metric) []int { return v.order(rows, by, false) }

// order sorts rows by the metric's change (or time), leaving out those with
// no time in the metric on any side unless all.
func (v *View) order(rows []diff.Row, by diff.Metric, all bool) []int {
	out := make([]int, 0, len(rows))
	for i := range rows {
		if all || slices.ContainsFunc(by.Of(&rows[i]).Mean, func(x float64) bool { return x != 0 }) {
			out = append(out, i)
		}
	}
	last := len(v.r.Sides) - 1
	compared := v.Layout() == LayoutPair
	slices.SortStableFunc(out, func(i, j int) int {
		a, b := &rows[i], &rows[j]
		ma, mb := by.Of(a), by.Of(b)
		if compared {
			if c := cmp.Compare(math.Abs(mb.Change.Delta), math.Abs(ma.Change.Delta)); c != 0 {
				return c
			}
		}
		if c := cmp.Compare(mb.Mean[last], ma.Mean[last]); c != 0 {
			return c
		}
		oa, ob := (1 - by).Of(a), (1 - by).Of(b)
		if c := cmp.Compare(ob.Mean[last], oa.Mean[last]); c != 0 {
			return c
		}
		return analyze.CompareKeys(a.Key, b.Key)
	})
	return out
}

func zeroRow(r *diff.Row) bool {
	for _, v := range r.Total.Mean {
		if v != 0 {
			return false
		}
	}
	for _, v := range r.Self.Mean {
		if v != 0 {
			return false
		}
	}
	return true
}

// TopChanges returns up to n rows for a "top changes" table: rows judged
// real by self or total time first, by the larger of their real changes,
// then the others by their larger change; rows whose changes are the same
// size (none, comparing a build with itself) heaviest first, by total time
// and then self time on either side. Rows with no time are left out.
func (v *View) TopChanges(rows []diff.Row, n int) []diff.Row {
	// Each row's size once, and indices sorted: a Row is hundreds of
	// bytes, and a page or report sorts thousands of them.
	type sized struct {
		row         int
		real        bool
		d           float64
		total, self float64 // the row's largest mean on any side
	}
	order := make([]sized, 0, len(rows))
	for i := range rows {
		r := &rows[i]
		if zeroRow(r) {
			continue
		}
		s := sized{row: i, total: slices.Max(r.Total.Mean), self: slices.Max(r.Self.Mean)}
		for _, m := range []*diff.Measure{&r.Self, &r.Total} {
			if m.Change.Verdict.Real() {
				if !s.real {
					s.real, s.d = true, 0
				}
				s.d = max(s.d, math.Abs(m.Change.Delta))
			} else if !s.real {
				s.d = max(s.d, math.Abs(m.Change.Delta))
			}
		}
		order = append(order, s)
	}
	less := func(a, b sized) int {
		if a.real != b.real {
			if a.real {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.d, a.d); c != 0 {
			return c
		}
		if c := cmp.Compare(b.total, a.total); c != 0 {
			return c
		}
		if c := cmp.Compare(b.self, a.self); c != 0 {
			return c
		}
		return analyze.CompareKeys(rows[a.row].Key, rows[b.row].Key)
	}
	if n > 0 && 4*n < len(order) {
		// The few first of thousands: kept in order as they come, rather
		// than sorting every row (rows' keys differ, so the order is
		// total and the result the sort's).
		best := make([]sized, 0, n+1)
		for _, s := range order {
			if len(best) == n && less(s, best[n-1]) >= 0 {
				continue
			}
			i, _ := slices.BinarySearchFunc(best, s, less)
			best = slices.Insert(best, i, s)
			if len(best) > n {
				best = best[:n]
			}
		}
		order = best
	} else {
		slices.SortStableFunc(order, less)
		if n > 0 && len(order) > n {
			order = order[:n]
		}
	}
	out := make([]diff.Row, len(order))
	for i, s := range order {
		out[i] = rows[s.row]
	}
	return out
}

// Deciding returns the metric whose change makes a row's change real (the
// larger one when both are), or false when neither is.
func Deciding(r *diff.Row) (diff.Metric, bool) {
	s, t := r.Self.Change, r.Total.Change
	switch {
	case s.Verdict.Real() && t.Verdict.Real():
		if math.Abs(s.Delta) >= math.Abs(t.Delta) {
			return diff.MetricSelf, true
		}
		return diff.MetricTotal, true
	case s.Verdict.Real():
		return diff.MetricSelf, true
	case t.Verdict.Real():
		return diff.MetricTotal, true
	}
	return diff.MetricSelf, false
}

// HeadlineRows are the headline as label and cells: label, before, after
// and change for two sides (the on-CPU changes with their verdicts);
// label, value and note for one.
func (v *View) HeadlineRows() [][]Cell {
	r := v.r
	if v.Layout() != LayoutPair {
		return v.oneSideHeadline()
	}
	a, b := r.Sides[0], r.Sides[1] // before, after
	ppDelta := func(pa, wa, pb, wb int64) string {
		if wa == 0 || wb == 0 {
			return ""
		}
		return fmt.Sprintf("%+.1fpp", 100*(float64(pb)/float64(wb)-float64(pa)/float64(wa)))
	}
	rows := [][]Cell{
		cells("runs", units.Count(int64(a.Runs)), units.Count(int64(b.Runs)), ""),
		cells("wall / run", units.Duration(float64(a.WallNs)), units.Duration(float64(b.WallNs)), ""),
		append(cells("on-CPU / run", ValueSpread(&r.Headline.OnCPU, 0), ValueSpread(&r.Headline.OnCPU, 1)), headlineChange(r.Headline.OnCPU.Change)),
	}
	if r.PerWork {
		rows = append(rows, append(cells("on-CPU / "+r.Options.WorkUnit, ValueSpread(&r.Headline.PerWork, 0), ValueSpread(&r.Headline.PerWork, 1)), headlineChange(r.Headline.PerWork.Change)))
	}
	if r.Headline.Basis == diff.BasisProcess {
		rows = append(rows, append(cells("process CPU / run", ValueSpread(&r.Headline.ProcessCPU, 0), ValueSpread(&r.Headline.ProcessCPU, 1)), headlineChange(r.Headline.ProcessCPU.Change)))
	}
	if a.Format != analyze.FormatPprof || b.Format != analyze.FormatPprof {
		rows = append(rows, cells("busy", units.Share(float64(a.OnCPUNs), float64(a.SampledNs)), units.Share(float64(b.OnCPUNs), float64(b.SampledNs)), ppDelta(a.OnCPUNs, a.SampledNs, b.OnCPUNs, b.SampledNs)))
	} else {
		rows = append(rows, cells("CPU / wall", units.Share(float64(a.OnCPUNs), float64(a.WallNs)), units.Share(float64(b.OnCPUNs), float64(b.WallNs)), ""))
	}
	rows = append(rows,
		cells("GC share", units.Share(float64(a.GCNs), float64(a.OnCPUNs)), units.Share(float64(b.GCNs), float64(b.OnCPUNs)), ppDelta(a.GCNs, a.OnCPUNs, b.GCNs, b.OnCPUNs)),
		cells("samples / run", units.Count(a.Samples), units.Count(b.Samples), ""),
		cells("mean interval", units.Duration(float64(a.IntervalNs)), units.Duration(float64(b.IntervalNs)), ""),
	)
	switch {
	case noneMapped(a) && noneMapped(b) && (needsMaps(a.Symbolication) || needsMaps(b.Symbolication)):
		// Not "0.0% 0.0%": with no map on either side there is no coverage
		// to compare, only code that ran as it was written (or minified
		// code, which the unmapped row names).
		rows = append(rows, cells("maps", "-", "-", "no script mapped (code as written)"))
	case needsMaps(a.Symbolication) || needsMaps(b.Symbolication):
		rows = append(rows, cells("maps", coverage(a.Symbolication), coverage(b.Symbolication), ""))
	}
	if unmapped(a) > 0 || unmapped(b) > 0 {
		rows = append(rows, cells("unmapped", units.Share(unmapped(a), readOnCPU(a)), units.Share(unmapped(b), readOnCPU(b)),
			"minified, no map: "+minifiedNames(a, b)))
	}
	if len(r.Options.Narrowing) > 0 {
		rows = append(rows, cells("narrowed", narrowedOf(a), narrowedOf(b), strings.Join(termtext.CleanAll(r.Options.Narrowing), " ")))
	}
	return rows
}

// unmapped is a side's on-CPU time per run in minified scripts without a
// map.
func unmapped(s diff.SideSummary) float64 {
	if s.Symbolication == nil {
		return 0
	}
	return float64(s.Symbolication.UnmappedMinifiedNs)
}

// noneMapped reports whether symbolication ran on a side and mapped no
// script.
func noneMapped(s diff.SideSummary) bool {
	return s.Symbolication != nil && s.Symbolication.MappedScripts == 0
}

// readOnCPU is a side's on-CPU time as read, before any narrowing: what
// symbolication's figures are shares of.
func readOnCPU(s diff.SideSummary) float64 {
	if s.NarrowedFromNs > 0 {
		return float64(s.NarrowedFromNs)
	}
	return float64(s.OnCPUNs)
}

// minifiedNames names the minified scripts without a map of the sides by
// their file names, the busiest first, up to three.
func minifiedNames(sides ...diff.SideSummary) string {
	var names []string
	for _, s := range sides {
		if s.Symbolication == nil {
			continue
		}
		for _, m := range s.Symbolication.Minified {
			if b := path.Base(m); !slices.Contains(names, b) {
				names = append(names, b) // the warnings give the whole path
			}
		}
	}
	if len(names) > 3 {
		return strings.Join(termtext.CleanAll(names[:3]), ", ") + fmt.Sprintf(" and %d more", len(names)-3)
	}
	return strings.Join(termtext.CleanAll(names), ", ")
}

// narrowedOf says how much of a side's on-CPU time narrowing kept, as
// pprof's "Showing nodes accounting for X of Y".
func narrowedOf(s diff.SideSummary) string {
	if s.NarrowedFromNs <= 0 {
		return "-"
	}
	return units.Duration(float64(s.OnCPUNs)) + " of " + units.Duration(float64(s.NarrowedFromNs)) + " (" + units.Share(float64(s.OnCPUNs), float64(s.NarrowedFromNs)) + ")"
}

func (v *View) oneSideHeadline() [][]Cell {
	s := v.r.Sides[0]
	rows := [][]Cell{cells("wall", units.Duration(float64(s.WallNs)), "")}
	if s.Format == analyze.FormatPprof {
		// pprof knows no idle time: CPU time against wall, as pprof prints it.
		rows = append(rows, cells("on-CPU", units.Duration(float64(s.OnCPUNs)), units.Share(float64(s.OnCPUNs), float64(s.WallNs))+" of wall"))
	} else {
		rows = append(rows,
			cells("sampled", units.Duration(float64(s.SampledNs)), ""),
			cells("on-CPU", units.Duration(float64(s.OnCPUNs)), units.Share(float64(s.OnCPUNs), float64(s.SampledNs))+" busy"),
			cells("idle", units.Duration(float64(s.IdleNs)), units.Share(float64(s.IdleNs), float64(s.SampledNs))+" of sampled"),
			cells("program", units.Duration(float64(s.ProgramNs)), units.Share(float64(s.ProgramNs), float64(s.SampledNs))+" of sampled"+programNote(s.Format)))
	}
	rows = append(rows,
		cells("GC", units.Duration(float64(s.GCNs)), units.Share(float64(s.GCNs), float64(s.OnCPUNs))+" of on-CPU"),
		cells("samples", units.Count(s.Samples), "mean interval "+units.Duration(float64(s.IntervalNs))))
	if s.NarrowedFromNs > 0 || len(v.r.Options.Narrowing) > 0 {
		rows = append(rows, cells("narrowed", narrowedOf(s), strings.Join(termtext.CleanAll(v.r.Options.Narrowing), " ")))
	}
	if u := unmapped(s); u > 0 {
		rows = append(rows, cells("unmapped", units.Share(u, readOnCPU(s)), "of on-CPU time in minified code without a map: "+minifiedNames(s)))
	}
	if sy := s.Symbolication; sy != nil && sy.Scripts > 0 {
		switch {
		case noneMapped(s) && sy.UnmappedMinifiedNs > 0:
			rows = append(rows, cells("maps", "-", "no script mapped: the code is as written, but for the minified above"))
		case !needsMaps(sy):
			rows = append(rows, cells("maps", "-", "no bundles: no script needed a map"))
		case sy.OnCPUJSNs == 0:
			rows = append(rows, cells("maps", "-", fmt.Sprintf("no JavaScript on-CPU time (%d of %d scripts mapped)", sy.MappedScripts, sy.Scripts)))
		case noneMapped(s) && len(sy.Minified) == 0:
			rows = append(rows, cells("maps", "-", fmt.Sprintf("no script mapped: the code is as written (%s, none minified)", units.Plural(sy.Scripts, "script", "scripts"))))
		default:
			rows = append(rows, cells("maps", coverage(sy), fmt.Sprintf("of JavaScript on-CPU time mapped to sources (%d of %s mapped)", sy.MappedScripts, units.Plural(sy.Scripts, "script", "scripts"))))
		}
	}
	return rows
}

// programNote says what V8's (program) holds in a browser.
func programNote(f analyze.Format) string {
	if f == analyze.FormatTrace {
		return " (in a browser: layout, style, paint and other work outside JavaScript)"
	}
	return ""
}

// needsMaps reports whether a side has scripts that a map serves or would
// serve: some were mapped, or some look minified and had none.
func needsMaps(s *analyze.Symbolication) bool {
	return s != nil && (s.MappedScripts > 0 || len(s.Missing) > 0)
}

// coverage writes a side's source-map coverage: "99.6%", or "-".
func coverage(s *analyze.Symbolication) string {
	if s == nil || s.OnCPUJSNs == 0 {
		return "-"
	}
	return units.Share(float64(s.OnCPUMappedNs), float64(s.OnCPUJSNs))
}

// headlineChange is the cell of a headline change, with its verdict.
func headlineChange(c diff.Change) Cell { return Cell{Text: HeadlineChange(c), Verdict: c.Verdict} }

// HeadlineChange writes a headline change: "-1.71 s -28.2% better p<0.001".
func HeadlineChange(c diff.Change) string {
	s := units.SignedDuration(c.Delta) + " " + units.SignedPct(c.DeltaPct)
	p := units.FormatP(c.P)
	if !strings.HasPrefix(p, "<") {
		p = "=" + p
	}
	return s + " " + c.Verdict.String() + " p" + p
}

// RunsNote says which measure the headline is judged on when it is the
// process CPU time, and, for a headline change past the minimum effect
// that the runs cannot settle, how many runs would; "" when neither
// applies.
func (v *View) RunsNote() string {
	var notes []string
	if v.r.Headline.Basis == diff.BasisProcess {
		notes = append(notes, "The headline is judged on process CPU time (the operating system's figure for each run, from record.json), which a loaded machine does not inflate as it does sampled on-CPU time.")
	}
	if n := v.r.Headline.RunsNeeded; n != 0 {
		if slices.ContainsFunc(v.r.Sides, func(s diff.SideSummary) bool { return s.Runs == 1 }) {
			notes = append(notes, fmt.Sprintf("One run per side cannot tell a change of this size from run-to-run noise (about %.0f%% between runs of one build); about %d runs per side would.",
				100*v.r.Options.RunNoise, n))
		} else {
			notes = append(notes, fmt.Sprintf("The runs cannot yet tell a change of this size from their spread; about %d runs per side would.", n))
		}
	}
	return strings.Join(notes, " ")
}

// Unsettled lists, largest first, up to max rows (packages and functions,
// self or total) whose change passes the minimum effect and holds at least
// a point of on-CPU time but that the runs cannot settle, each with how
// many runs a side would: "render (function) self +21.0%, p=0.12: about 9
// runs a side".
func (v *View) Unsettled(max int) []string {
	type item struct {
		text string
		pp   float64
	}
	var items []item
	add := func(kind string, rows []diff.Row, name func(*diff.Row) string) {
		for i := range rows {
			for _, m := range []struct {
				which string
				c     diff.Change
			}{{"self", rows[i].Self.Change}, {"total", rows[i].Total.Change}} {
				c := m.c
				if c.RunsNeeded == 0 || math.IsNaN(c.DeltaPP) || math.Abs(c.DeltaPP) < 1 {
					continue
				}
				items = append(items, item{fmt.Sprintf("%s (%s) %s %s, p=%s: about %d runs a side", name(&rows[i]), kind, m.which,
					units.SignedPct(c.DeltaPct), units.FormatP(c.P), c.RunsNeeded), math.Abs(c.DeltaPP)})
			}
		}
	}
	add("package", v.r.Packages, func(x *diff.Row) string { return termtext.Clean(x.Key.Package) })
	add("function", v.r.Functions, v.RowName)
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].pp != items[j].pp {
			return items[i].pp > items[j].pp
		}
		return items[i].text < items[j].text
	})
	var out []string
	for i, it := range items {
		if i == max {
			break
		}
		out = append(out, it.text)
	}
	return out
}

// Offenders names the changes that broke a rule, as the reports list
// them: the row (a function with its location) and its change, as in
// "path-to-regexp +338.7% (+7.5pp), worse, p=<0.001"; or why the rule
// could not be judged.
func (v *View) Offenders(res diff.RuleResult) []string {
	if res.NoWork {
		return []string{"no work given (--work): the rule cannot be judged"}
	}
	var out []string
	for _, o := range res.Offenders {
		var name string
		switch res.Rule.Target {
		case "on-cpu":
			name = "on-CPU"
		case "on-cpu/work":
			name = "on-CPU per " + v.r.Options.WorkUnit
		case "package":
			name = o.Key.Package
		case "function":
			name = diff.FunctionName(o.Key) + " (" + Location(o.Key) + ")"
		case "file":
			name = FileName(o.Key)
		default:
			name = stallRuleName(res.Rule.Target, o.Change)
		}
		out = append(out, name+" "+formatChange(o.Change))
	}
	return out
}

// formatChange writes a change for people: "+12.3% (+1.2pp), worse, p=0.001".
func formatChange(c diff.Change) string {
	var b strings.Builder
	if math.IsNaN(c.DeltaPct) {
		b.WriteString("new")
	} else {
		fmt.Fprintf(&b, "%+.1f%%", c.DeltaPct)
	}
	if !math.IsNaN(c.DeltaPP) {
		fmt.Fprintf(&b, " (%+.1fpp)", c.DeltaPP)
	}
	fmt.Fprintf(&b, ", %s", c.Verdict)
	if p := units.PValue(c.P); p != "" {
		b.WriteString(", " + p)
	}
	return b.String()
}

// SideLine describes a side: its files, format, runs and thread.
func SideLine(s diff.SideSummary) string {
	files := s.Files
	if len(files) > 3 {
		files = append(files[:2:2], fmt.Sprintf("… %d more", len(s.Files)-2))
	}
	d := fmt.Sprintf("%s (%s", strings.Join(files, ", "), s.Format.Describe())
	switch {
	case s.Formed != "":
		d += ", " + s.Formed
	case s.Runs > 1:
		d += fmt.Sprintf(", %d runs", s.Runs)
	}
	if len(s.Threads) > 0 {
		d += ", " + s.Threads[0].String()
	}
	return termtext.Clean(d + ")")
}

// Per names the unit of the report's values: "per run" or "per request".
func (v *View) Per() string {
	if v.r.PerWork {
		return "per " + v.r.Options.WorkUnit
	}
	return "per run"
}

// PathStep is one step of a path as shown.
type PathStep struct {
	// Node is the step's node of the report's tree.
	Node int32
	// Name is the step's function as shown.
	Name string
	// Change is what the step shows: the total change where the change
	// enters the path, and on the last step the change the path explains
	// (its self change when it ends in self time); "" on the steps that
	// only pass the change on.
	Change string
}

// Steps returns a path's steps as shown. The change enters at the first
// step whose relative change is at least half the last step's.
func (v *View) Steps(p diff.Path) []PathStep {
	lastNode := p.Nodes[len(p.Nodes)-1]
	last := v.r.Tree[lastNode].Total.Change
	enter := len(p.Nodes) - 1
	for i, n := range p.Nodes {
		c := v.r.Tree[n].Total.Change
		if !math.IsNaN(c.DeltaPct) && !math.IsNaN(last.DeltaPct) && math.Abs(c.DeltaPct) >= 0.5*math.Abs(last.DeltaPct) {
			enter = i
			break
		}
	}
	withPct := func(d, pct float64) string {
		if math.IsNaN(pct) {
			return units.SignedDuration(d)
		}
		return units.SignedDuration(d) + " (" + units.SignedPct(pct) + ")"
	}
	out := make([]PathStep, len(p.Nodes))
	for i, n := range p.Nodes {
		s := PathStep{Node: n, Name: v.Name(v.r.TreeFunction(n))}
		t := v.r.Tree[n]
		switch {
		case i == len(p.Nodes)-1 && p.End == diff.EndSelf:
			s.Change = "self " + withPct(t.Self.Change.Delta, t.Self.Change.DeltaPct)
			if i == enter && math.Abs(t.Total.Change.Delta-t.Self.Change.Delta) > 0.05*math.Abs(t.Total.Change.Delta) {
				s.Change = withPct(t.Total.Change.Delta, t.Total.Change.DeltaPct) + ", " + s.Change
			}
		case i == len(p.Nodes)-1 && p.End == diff.EndSplit && math.Abs(p.Delta-t.Total.Change.Delta) > 0.05*math.Abs(t.Total.Change.Delta):
			s.Change = withPct(t.Total.Change.Delta, t.Total.Change.DeltaPct) + ", " + units.SignedDuration(p.Delta) + " of it in no single callee"
		case i >= enter:
			s.Change = withPct(t.Total.Change.Delta, t.Total.Change.DeltaPct)
		}
		out[i] = s
	}
	return out
}

// pathStepWidth bounds one step's name in PathText.
const pathStepWidth = 60

// PathText writes a path on one line: "main → handle → … → render -1.24 s
// (-92.0%) → parse -1.24 s (-95.1%) [gone]". It elides the middle of long
// chains above where the change enters, and of runs of frames that only
// pass the same change on (a framework's module loader between the entry
// point and the code that changed), and cuts the middle of a name longer
// than pathStepWidth (a RegExp: frame's source can be a thousand
// characters); JSON keeps every step and name whole.
func (v *View) PathText(p diff.Path) string {
	steps := v.Steps(p)
	first := len(steps) - 1
	for i, s := range steps {
		if s.Change != "" {
			first = i
			break
		}
	}
	delta := func(i int) float64 { return v.r.Tree[steps[i].Node].Total.Change.Delta }
	same := func(a, b float64) bool { return math.Abs(a-b) <= 0.01*math.Abs(a) }
	elide := make([]bool, len(steps))
	for i := 1; i < len(steps)-1; i++ {
		if steps[i].Change == "" {
			elide[i] = i < first-1
		} else {
			elide[i] = same(delta(i), delta(i-1)) && same(delta(i), delta(i+1))
		}
	}
	var parts []string
	for i := 0; i < len(steps); i++ {
		j := i
		for j < len(steps) && elide[j] {
			j++
		}
		if j-i >= 2 {
			parts = append(parts, fmt.Sprintf("… %d …", j-i))
			i = j - 1
			continue
		}
		s := steps[i]
		t := termtext.Fit(s.Name, pathStepWidth, false)
		if s.Change != "" {
			t += " " + s.Change
		}
		parts = append(parts, t)
	}
	text := strings.Join(parts, " → ")
	switch p.End {
	case diff.EndSplit:
		if !strings.HasSuffix(text, "no single callee") {
			text += " [spread over its callees]"
		}
	case diff.EndNew:
		text += " [new]"
	case diff.EndGone:
		text += " [gone]"
	case diff.EndMoved:
		text += " [not gone: " + v.ElsewhereText(p) + "]"
	case diff.EndArrived:
		text += " [not new: " + v.ElsewhereText(p) + "]"
	}
	return text
}

// ElsewhereText says where the time of a path that ends moved (or
// arrived) went (or came from): the call path of the same function that
// grew (or fell) most, from where it leaves this path's, with its change;
// "it runs elsewhere" when no such path changed.
func (v *View) ElsewhereText(p diff.Path) string {
	verb := "it now runs as "
	if p.End == diff.EndArrived {
		verb = "it ran as "
	}
	if p.Elsewhere < 0 {
		return strings.TrimSuffix(verb, " as ") + " under other callers"
	}
	var chain []int32 // root's child first
	for n := p.Elsewhere; n > 0; n = v.r.Tree[n].Parent {
		chain = append(chain, n)
	}
	slices.Reverse(chain)
	shared := 0 // the nodes this path and the other share
	for shared < len(chain) && shared < len(p.Nodes) && chain[shared] == p.Nodes[shared] {
		shared++
	}
	var names []string
	if shared > 0 {
		names = append(names, "…")
		chain = chain[shared-1:] // from the last node they share
	}
	for _, n := range chain {
		names = append(names, termtext.Fit(v.Name(v.r.TreeFunction(n)), pathStepWidth, false))
	}
	c := v.r.Tree[p.Elsewhere].Total.Change
	change := units.SignedDuration(c.Delta)
	if !math.IsNaN(c.DeltaPct) {
		change += " (" + units.SignedPct(c.DeltaPct) + ")"
	}
	return verb + strings.Join(names, " → ") + " " + change
}

// PathsSummary says how much of the on-CPU change the paths explain.
func (v *View) PathsSummary() string {
	r := v.r
	d := r.OnCPU(1) - r.OnCPU(0)
	if r.Tree == nil && r.OnCPU(0) > 0 && r.OnCPU(1) > 0 {
		// A side read from a history record has rows, not a call tree.
		return "not known: a side has no call tree to follow, see the warnings"
	}
	if len(r.Paths) == 0 {
		return "no call path carries a change judged real"
	}
	return fmt.Sprintf("%s explain %s of the on-CPU change (%s of %s %s)", units.Plural(len(r.Paths), "path", "paths"),
		units.Share(r.PathsDelta, d), units.SignedDuration(r.PathsDelta), units.SignedDuration(d), v.Per())
}
