// Package flamegraph writes a judged comparison (or one profile) as one
// self-contained, offline HTML file: an icicle flame graph of the merged
// call tree, coloured by package for one profile and by the judged change
// for two sides (grey where the change is not real), beside the headline,
// the paths that carry the change, the package and function tables and the
// warnings. The page loads nothing: its script and style are inline and
// allowed by hash in a Content-Security-Policy that forbids every other
// source, and its data is JSON in the page. The same report gives the same
// bytes.
package flamegraph

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html"
	"io"
	"math"
	"strings"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/jsonwrite"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/report"
)

//go:embed page.js
var flameJS string

//go:embed page.css
var flameCSS string

// pageJS and pageCSS are the page's script and style: the flame graph's,
// then the stalls strip's (stalls.go).
var (
	pageJS  = flameJS + stallsJS
	pageCSS = flameCSS + stallsCSS
)

// Options tune the page.
type Options struct {
	// Title heads the page.
	Title string
	// Top is how many rows the package and function tables hold.
	Top int
	// Lines adds each function's per-line times (and source, through
	// Source) to the page, shown when a frame is clicked.
	Lines bool
	// Source returns side's text of a file (side indexes the report's
	// sides), or false; nil for none. A function whose text differs
	// between the first and the last side shows both, aligned.
	Source func(side int, file string) (string, bool)
}

// The page's data is one JSON object, which the page's script reads:
//
//	title, compared, per: the page's title, whether two sides are
//	    compared, and what the times are per ("per run").
//	sides: each side's one-line summary; headline: the headline's rows
//	    of cells; warnings.
//	functions: the functions the tree's nodes name, as [name, package,
//	    location]; fnJudged: each one's judged change over all its calls
//	    (a judgedSet; comparisons only, null otherwise).
//	parent, function: the tree's nodes, as parallel arrays (parents
//	    before children); function indexes functions, -1 at the root.
//	self, total: per side, each node's time (ns, rounded).
//	judged: each node's judged change (a judgedSet; comparisons only).
//	other: per side, the time of the nodes left out of the tree (under
//	    Options.TreeMinShare of the comparison); minShare: that share.
//	paths: {nodes, text} of each path; pathsNote: what they explain.
//	packages, functionTable: the tables (see table); the page shows
//	    at most six columns of them at a time.
//	stalls: the responsiveness strip (see stallsData), null without
//	    stall figures.
//
// A judgedSet holds judged changes of self and total time as parallel
// arrays: selfVerdict and totalVerdict as codes (see verdictCodes),
// selfPct and totalPct (Δ%, null when before is 0), selfP and totalP.
//
// Lists the report has nothing for are null where json.Marshal, which
// wrote the data before, wrote a nil slice as null (functions, parent,
// paths...), and [] where it wrote an empty one (warnings, other).

// verdictCodes are the verdicts as the page's script knows them.
var verdictCodes = map[diff.Verdict]int8{diff.VerdictSame: 0, diff.VerdictBetter: 1, diff.VerdictWorse: 2, diff.VerdictNew: 3, diff.VerdictGone: 4}

// Write writes the page for r. It streams: the markup, then the data
// written value by value as it is read from the report, then the rest.
// The page draws one side, or the base against one variant: of a report
// with several, the first (to draw another, pass its diff.Variant.Pair).
func Write(w io.Writer, r *diff.Report, opts Options) error {
	if vs := r.Variants(); len(vs) > 0 {
		r = vs[0].Pair()
	}
	if opts.Top <= 0 {
		opts.Top = 50
	}
	v := report.NewView(r)
	// Compact, and escaping <, > and & as \u003c...: safe in a script
	// element.
	j := jsonwrite.New(w, jsonwrite.Options{})
	j.Raw(pageHead(opts.Title))
	j.BeginObject()
	j.Key("title")
	j.String(opts.Title)
	j.Key("compared")
	j.Bool(r.Judged())
	j.Key("per")
	j.String(v.Per())
	j.Key("sides")
	if len(r.Sides) == 0 {
		j.Null()
	} else {
		j.BeginArray()
		for _, s := range r.Sides {
			j.String(report.SideLine(s))
		}
		j.EndArray()
	}
	j.Key("headline")
	stringRows(j, headline(v))
	j.Key("resources")
	writeResources(j, v)
	j.Key("warnings")
	j.BeginArray()
	for _, wn := range r.Warnings {
		j.String(termtext.Clean(wn.String()))
	}
	j.EndArray()
	fns := writeTree(j, r, v)
	if opts.Lines {
		j.Key("sources")
		writeSources(j, r, fns, opts.Source)
	}
	j.Key("minShare")
	j.Float(r.Options.TreeMinShare)
	j.Key("paths")
	if len(r.Paths) == 0 {
		j.Null()
	} else {
		j.BeginArray()
		for _, p := range r.Paths {
			j.BeginObject()
			j.Key("nodes")
			jsonwrite.Ints(j, p.Nodes)
			j.Key("text")
			j.String(v.PathText(p))
			j.EndObject()
		}
		j.EndArray()
	}
	j.Key("pathsNote")
	if r.Judged() {
		j.String(v.PathsSummary())
	} else {
		j.String("")
	}
	j.Key("packages")
	rowsTable(v, r, report.TablePackages, "Packages", opts.Top).write(j)
	j.Key("functionTable")
	rowsTable(v, r, report.TableFunctions, "Functions", opts.Top).write(j)
	stallsOf(r, v).write(j)
	j.EndObject()
	writeTail(j)
	return j.Flush()
}

// writeResources writes the resource tables of a recording (the
// operating system's measures of each run) as the page shows them, a
// table per step and group of measures with a row per measure and a
// column per side (and kind of run), so that they fit the panel; [] when
// there are none.
func writeResources(j *jsonwrite.Writer, v *report.View) {
	j.BeginArray()
	for _, t := range v.ResourceTables() {
		n := len(t.Header) - 1 // the last column names the side
		j.BeginObject()
		j.Key("step")
		j.String(termtext.Clean(t.Step))
		j.Key("header")
		header := []string{""}
		for _, row := range t.Rows {
			header = append(header, termtext.Clean(row[n].Text))
		}
		j.Strings(header)
		j.Key("rows")
		j.BeginArray()
		for mi := range n {
			cells := []string{t.Header[mi]}
			for _, row := range t.Rows {
				cells = append(cells, row[mi].Text)
			}
			j.Strings(cells)
		}
		j.EndArray()
		j.EndObject()
	}
	j.EndArray()
}

// headline is the headline table's rows of cells as the page shows them
// (the page heads and aligns them itself).
func headline(v *report.View) [][]string {
	t := v.HeadlineTable()
	var rows [][]string
	for _, row := range t.Rows {
		rows = append(rows, report.Texts(row.Cells))
	}
	return rows
}

// stringRows writes rows of cells (null for none).
func stringRows(j *jsonwrite.Writer, rows [][]string) {
	if rows == nil {
		j.Null()
		return
	}
	j.BeginArray()
	for _, row := range rows {
		j.Strings(row)
	}
	j.EndArray()
}

// writeTree writes the merged call tree: the functions its nodes name
// (in the order the nodes first name them) with their judged changes,
// then node by node the parent, function, self and total per side, and
// judged changes; and, per side, the time left out of the tree.
func writeTree(j *jsonwrite.Writer, r *diff.Report, v *report.View) []int32 {
	fnIndex, fns := treeFunctions(r)
	writeTreeFunctions(j, r, v, fns)
	n := len(r.Tree)
	j.Key("parent")
	writeNodeInts(j, n, func(i int) int32 { return r.Tree[i].Parent })
	j.Key("function")
	writeNodeInts(j, n, func(i int) int32 {
		if f := r.Tree[i].Function; f >= 0 {
			return fnIndex[f]
		}
		return -1
	})
	held := writeTreeTimes(j, r)
	j.Key("judged")
	writeJudged(j, n, r.Judged(), func(i int) (*diff.Measure, *diff.Measure) { return &r.Tree[i].Self, &r.Tree[i].Total })
	// other: on-CPU time not held by the nodes' self time.
	j.Key("other")
	j.BeginArray()
	for s := range r.Sides {
		other := 0.0
		if n > 0 {
			other = math.Max(0, round(r.Tree[0].Total.Mean[s])-held[s])
		}
		j.Float(other)
	}
	j.EndArray()
	return fns
}

// treeFunctions numbers the functions the tree's nodes name, in the order
// the nodes first name them: fnIndex maps a row of r.Functions to its
// number (-1 for a row no node names), fns the numbers back to rows.
func treeFunctions(r *diff.Report) (fnIndex, fns []int32) {
	fnIndex = make([]int32, len(r.Functions))
	for i := range fnIndex {
		fnIndex[i] = -1
	}
	for i := range r.Tree {
		if f := r.Tree[i].Function; f >= 0 && fnIndex[f] < 0 {
			fnIndex[f] = int32(len(fns))
			fns = append(fns, f)
		}
	}
	return fnIndex, fns
}

// writeTreeFunctions writes the functions the nodes name (name, package,
// location) and their judged changes.
func writeTreeFunctions(j *jsonwrite.Writer, r *diff.Report, v *report.View, fns []int32) {
	j.Key("functions")
	if fns == nil {
		j.Null()
	} else {
		j.BeginArray()
		for _, f := range fns {
			row := &r.Functions[f]
			j.BeginArray()
			j.String(v.RowName(row))
			j.String(termtext.Clean(row.Key.Package))
			j.String(v.Location(row.Key))
			j.EndArray()
		}
		j.EndArray()
	}
	j.Key("fnJudged")
	writeJudged(j, len(fns), r.Judged(), func(i int) (*diff.Measure, *diff.Measure) {
		row := &r.Functions[fns[i]]
		return &row.Self, &row.Total
	})
}

// writeNodeInts writes one number per node (null for no nodes).
func writeNodeInts(j *jsonwrite.Writer, n int, of func(int) int32) {
	if n == 0 {
		j.Null()
		return
	}
	j.BeginArray()
	for i := range n {
		j.Int(int64(of(i)))
	}
	j.EndArray()
}

// writeTreeTimes writes each side's self and total time per node, rounded,
// and returns per side the sum of the self times written.
func writeTreeTimes(j *jsonwrite.Writer, r *diff.Report) (held []float64) {
	held = make([]float64, len(r.Sides))
	for _, key := range []string{"self", "total"} {
		j.Key(key)
		j.BeginArray()
		for s := range r.Sides {
			if len(r.Tree) == 0 {
				j.Null()
				continue
			}
			j.BeginArray()
			for i := range r.Tree {
				if key == "self" {
					x := round(r.Tree[i].Self.Mean[s])
					held[s] += x
					j.Float(x)
				} else {
					j.Float(round(r.Tree[i].Total.Mean[s]))
				}
			}
			j.EndArray()
		}
		j.EndArray()
	}
	return held
}

// writeJudged writes the judged changes of n rows or nodes as a judgedSet:
// every array null when not compared or n is 0.
func writeJudged(j *jsonwrite.Writer, n int, compared bool, at func(int) (self, total *diff.Measure)) {
	j.BeginObject()
	for _, f := range []struct {
		key   string
		total bool
		code  func(*diff.Measure)
	}{
		{"selfVerdict", false, func(m *diff.Measure) { j.Int(int64(verdictCodes[m.Change.Verdict])) }},
		{"totalVerdict", true, func(m *diff.Measure) { j.Int(int64(verdictCodes[m.Change.Verdict])) }},
		{"selfPct", false, func(m *diff.Measure) { num(j, m.Change.DeltaPct) }},
		{"totalPct", true, func(m *diff.Measure) { num(j, m.Change.DeltaPct) }},
		{"selfP", false, func(m *diff.Measure) { num(j, m.Change.P) }},
		{"totalP", true, func(m *diff.Measure) { num(j, m.Change.P) }},
	} {
		j.Key(f.key)
		if !compared || n == 0 {
			j.Null()
			continue
		}
		j.BeginArray()
		for i := range n {
			self, total := at(i)
			if f.total {
				f.code(total)
			} else {
				f.code(self)
			}
		}
		j.EndArray()
	}
	j.EndObject()
}

// pageHead is the page up to its data: the Content-Security-Policy that
// allows the inline style and script by hash (neither depends on the
// data), the title and the style.
func pageHead(title string) string {
	if title == "" {
		title = "profdiff"
	}
	csp := fmt.Sprintf("default-src 'none'; script-src '%s'; style-src '%s'; img-src data:; base-uri 'none'; form-action 'none'", hash(pageJS), hash(pageCSS))
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	fmt.Fprintf(&b, "<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n", csp)
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	fmt.Fprintf(&b, "<title>%s</title>\n", html.EscapeString(termtext.Clean(title)))
	fmt.Fprintf(&b, "<style>%s</style>\n</head>\n<body>\n", pageCSS)
	b.WriteString("<script type=\"application/json\" id=\"data\">")
	return b.String()
}

// writeTail writes the page after its data: the markup the script fills,
// and the script.
func writeTail(j *jsonwrite.Writer) {
	j.Raw("</script>\n")
	j.Raw(pageHTML)
	j.Raw("<script>")
	j.Raw(pageJS)
	j.Raw("</script>\n</body>\n</html>\n")
}

// hash is a CSP source allowing exactly one inline script or style.
func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(h[:])
}

func round(x float64) float64 { return math.Round(x) }

// num writes x rounded to 6 decimals, or null when it is not a finite
// number.
func num(j *jsonwrite.Writer, x float64) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		j.Null()
		return
	}
	j.Float(math.Round(x*1e6) / 1e6)
}

// table is a table as the text report shows it: headers and cells, and
// per row the sort keys of each column (numbers where the cell is one).
type table struct {
	Title   string
	Headers []string
	Rows    [][]string
	Keys    [][]float64
	Total   int
	// Names are the columns of names (sorted as text).
	Names []int
	// Fn is, per row of a functions table, the function's index in the
	// page's functions (-1 when no node of the tree names it); nil for
	// packages. A click on the row selects that function's frames.
	Fn []int32
}

// write writes the table as the page's script reads it: {title, headers,
// rows, keys, total, names}.
func (t table) write(j *jsonwrite.Writer) {
	j.BeginObject()
	j.Key("title")
	j.String(t.Title)
	j.Key("headers")
	j.Strings(t.Headers)
	j.Key("rows")
	stringRows(j, t.Rows)
	j.Key("keys")
	if t.Keys == nil {
		j.Null()
	} else {
		j.BeginArray()
		for _, k := range t.Keys {
			j.Floats(k)
		}
		j.EndArray()
	}
	j.Key("total")
	j.Int(int64(t.Total))
	j.Key("names")
	jsonwrite.Ints(j, t.Names)
	j.Key("fn")
	if t.Fn == nil {
		j.Null()
	} else {
		j.BeginArray()
		for _, f := range t.Fn {
			j.Int(int64(f))
		}
		j.EndArray()
	}
	j.EndObject()
}

// rowsTable is a table of rows as the text report shows them (the top
// changes for a comparison, the heaviest for one profile), laid out for
// the page: the first name first, the figures, each measure's p for a
// comparison (the page shows one measure at a time, see page.js), then
// the other names; each figure's sort key its value (a change's and a
// p's rounded, a verdict's none).
func rowsTable(v *report.View, r *diff.Report, of report.TableOf, title string, top int) table {
	rows := r.Packages
	if of == report.TableFunctions {
		rows = r.Functions
	}
	t := table{Title: title, Total: len(rows)}
	var rt report.Table
	compared := r.Judged()
	if compared {
		rt = v.TopTable(of, top)
	} else {
		rt = v.RowsTable(report.RowsRequest{Of: of, By: diff.MetricSelf, Top: top})
	}
	var figures, names []int
	for i, c := range rt.Columns {
		if c.Kind.Numeric() {
			figures = append(figures, i)
		} else {
			names = append(names, i)
		}
	}
	order := append(append([]int{names[0]}, figures...), names[1:]...)
	t.Headers = make([]string, 0, len(order)+2)
	for _, i := range order {
		t.Headers = append(t.Headers, rt.Columns[i].Header)
		if i == figures[len(figures)-1] && compared {
			t.Headers = append(t.Headers, "self p", "total p")
		}
	}
	t.Names = []int{0}
	for i := range names[1:] {
		t.Names = append(t.Names, len(t.Headers)-len(names)+1+i)
	}
	var fnIndex []int32
	if of == report.TableFunctions {
		fnIndex, _ = treeFunctions(r)
		t.Fn = []int32{}
	}
	for _, row := range rt.Rows {
		cells := make([]string, 0, len(t.Headers))
		keys := make([]float64, 0, len(t.Headers))
		for _, i := range order {
			c := row.Cells[i]
			cells = append(cells, c.Text)
			keys = append(keys, sortKey(rt.Columns[i].Kind, c.Value))
			if i == figures[len(figures)-1] && compared {
				x := &rows[row.Index]
				cells = append(cells, pText(&x.Self), pText(&x.Total))
				keys = append(keys, key(x.Self.Change.P), key(x.Total.Change.P))
			}
		}
		if fnIndex != nil {
			t.Fn = append(t.Fn, fnIndex[row.Index])
		}
		t.Rows = append(t.Rows, cells)
		t.Keys = append(t.Keys, keys)
	}
	if t.Rows == nil {
		t.Rows, t.Keys = [][]string{}, [][]float64{}
	}
	return t
}

// sortKey is the page's sort key of a cell of kind k showing x: a time as
// it is, a change or p rounded (see key), a verdict or a name none.
func sortKey(k report.Kind, x float64) float64 {
	switch k {
	case report.KindDuration, report.KindPercent:
		return x
	case report.KindChange, report.KindP:
		return key(x)
	}
	return 0
}

// pText is a measure's p as the text report writes it.
func pText(m *diff.Measure) string {
	c := report.ChangeCells(m)
	return c[len(c)-1].Text
}

// key is a sort key: NaN sorts as 0.
func key(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return math.Round(x*1e6) / 1e6
}

// pageHTML is the page's fixed markup; the script fills it.
const pageHTML = `<header>
<h1 id="title">profdiff</h1>
<div id="sides"></div>
</header>
<section id="stalls-section" hidden><h2>Responsiveness: long stretches</h2><p id="stalls-note"></p><div id="stalls-strips"></div><div id="stalls-detail"></div></section>
<main>
<section id="graph-section">
<div id="controls">
<label>width <select id="width"></select></label>
<label>colour <select id="metric"><option value="total">total time</option><option value="self">self time</option></select></label>
<label>judge <select id="judge"><option value="function">each function over all its calls</option><option value="path">each frame on its own call path</option></select></label>
<label>palette <select id="palette"><option value="rb">red / blue</option><option value="ob">orange / blue (colour-blind safe)</option></select></label>
<label>search <input id="search" type="search" placeholder="function, package or file (regexp)"></label>
<span id="match"></span>
<button id="reset" type="button">reset zoom</button>
</div>
<div id="crumbs"></div>
<div id="legend"></div>
<div id="flame"><canvas id="canvas"></canvas></div>
<div id="tip" hidden></div>
<p id="other"></p>
<section id="source-section" hidden><h2 id="source-title"></h2><p id="source-note"></p><table id="source" class="rows"></table></section>
</section>
<aside>
<section><h2>Headline</h2><table id="headline"></table></section>
<section id="resources-section" hidden><h2>Resources per run, from the operating system</h2><div id="resources"></div></section>
<section id="paths-section"><h2>Where it changed</h2><p id="paths-note"></p><ol id="paths"></ol></section>
<section><div class="table-head"><h2 id="packages-title">Packages</h2><label>time <select id="packages-measure"><option value="deciding">deciding: self or total</option><option value="self">self</option><option value="total">total</option></select></label></div><table id="packages" class="rows"></table></section>
<section><div class="table-head"><h2 id="functions-title">Functions</h2><label>time <select id="functions-measure"><option value="deciding">deciding: self or total</option><option value="self">self</option><option value="total">total</option></select></label></div><table id="functions" class="rows"></table></section>
<section id="warnings-section"><h2>Warnings</h2><ul id="warnings"></ul></section>
</aside>
</main>
<pre id="selftest" hidden></pre>
`
