package diff

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/analyze/analyzetest"
	"github.com/profdiff/profdiff/internal/confine"
	"github.com/profdiff/profdiff/symbolicate"
)

// TestStatsByHand checks the noise test against values computed by hand
// (python3: see the comment on each figure).
func TestStatsByHand(t *testing.T) {
	a := sideStatsOf([]float64{100, 120}, 1, 1, 0.15)
	b := sideStatsOf([]float64{50, 60}, 1, 1, 0.15)
	// per run: 0.15² + 4·n/samples; var = (3·that + Σ(x/mean-1)²)/(3+1)/n
	// (the prior is worth priorWeight(2) = 3 runs)
	if math.Abs(a.v-0.024139979338842973) > 1e-12 || math.Abs(b.v-0.03777634297520661) > 1e-12 || a.mean != 110 || b.mean != 55 {
		t.Errorf("stats: %+v %+v", a, b)
	}
	// t = ln(55/110)/sqrt(va+vb) = -2.78563; each side's degrees of
	// freedom are the prior's weight (3 at two runs) plus one, and
	// Welch-Satterthwaite gives df = (va+vb)²/(va²/4+vb²/4) = 7.6299; the
	// two-sided tail of Student's t there, by Simpson's rule over the
	// density in python3 (math.lgamma), is 0.0248430761.
	if p := zTest(a, b); math.Abs(p-0.024843076072958877) > 1e-9 {
		t.Errorf("zTest = %v", p)
	}
	// One run: the prior alone, 0.15² + 4/100.
	if s := sideStatsOf([]float64{100}, 1, 1, 0.15); math.Abs(s.v-0.0625) > 1e-12 {
		t.Errorf("one run: %+v", s)
	}
	// No sample: half a sample per run stands in, its variance 1/(n/2).
	if s := sideStatsOf([]float64{0, 0}, 10, 1, 0.15); s.mean != 5 || math.Abs(s.v-(0.0225/2+1)) > 1e-12 {
		t.Errorf("empty side: %+v", s)
	}
	// The standard deviation: sqrt(((100-110)² + (120-110)²) / 1) = 14.1421.
	if got := spread([]float64{100, 120}); math.Abs(got-math.Sqrt(200)) > 1e-12 {
		t.Errorf("spread = %v", got)
	}
	if !math.IsNaN(spread([]float64{5})) {
		t.Errorf("one run has a spread")
	}
	// Function-level prior: 0.4 added up to 1% of on-CPU time, shrinking
	// in proportion above.
	if got := functionPrior(0.15, 0.5); math.Abs(got-math.Sqrt(0.0225+0.16)) > 1e-12 {
		t.Errorf("functionPrior(0.5%%) = %v", got)
	}
	if got := functionPrior(0.15, 4); math.Abs(got-math.Sqrt(0.0225+0.04)) > 1e-12 {
		t.Errorf("functionPrior(4%%) = %v", got)
	}
}

// fn and synthetic build the synthetic workload's keys and runs.
var fn, synthetic = analyzetest.Fn, analyzetest.Synthetic

// TestNewGoneMovedRenamedAndPaths: between two builds, render's start line
// moved (6 -> 9) and it stopped calling parse (gone) for a cache lookup
// (new); a minified function at one position was renamed f3 -> d3. render
// stays one row, one caller and one callee set; parse is gone, lookup new,
// f3/d3 one row; the first path leads to parse; the paths add up.
func TestNewGoneMovedRenamedAndPaths(t *testing.T) {
	parse, lookup := fn("parse", 20), fn("lookup", 30)
	f3 := analyze.Key{Package: "app", Function: "f3", File: "/dist/app.min.js", Line: 1, Column: 500}
	d3 := f3
	d3.Function = "d3"
	before := Side{Name: "before", Tables: []*analyze.Table{
		synthetic(6, parse, 100, 100, 800, f3, 300), synthetic(6, parse, 110, 90, 820, f3, 310)}}
	after := Side{Name: "after", Tables: []*analyze.Table{
		synthetic(9, lookup, 100, 100, 60, d3, 300), synthetic(9, lookup, 105, 95, 55, d3, 290)}}
	r, err := Compare([]Side{before, after}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*Row{}
	for i := range r.Functions {
		row := &r.Functions[i]
		if byName[row.Key.Function] != nil {
			t.Fatalf("two rows for %s", row.Key.Function)
		}
		byName[row.Key.Function] = row
	}
	if len(r.Functions) != 5 {
		t.Errorf("%d function rows, want main, render, parse, lookup and f3 → d3", len(r.Functions))
	}
	if v := byName["render"].Total.Change.Verdict; v != VerdictBetter {
		t.Errorf("render total %v, want better", v)
	}
	if v := byName["parse"].Total.Change.Verdict; v != VerdictGone {
		t.Errorf("parse %v, want gone", v)
	}
	if v := byName["lookup"].Total.Change.Verdict; v != VerdictNew {
		t.Errorf("lookup %v, want new", v)
	}
	if m := byName["f3"]; m == nil || m.Renamed != "d3" || m.Self.Change.Verdict.Real() || byName["d3"] != nil {
		t.Errorf("the renamed minified function: %+v", m)
	}
	// Calls: one main -> render edge although render moved; render's
	// callees are parse (gone) and lookup (new).
	var main2render, renderCallees int
	for _, c := range r.Calls {
		caller, callee := r.Functions[c.Caller].Key.Function, r.Functions[c.Callee].Key.Function
		switch {
		case caller == "main" && callee == "render":
			main2render++
		case caller == "render":
			renderCallees++
			want := map[string]Verdict{"parse": VerdictGone, "lookup": VerdictNew}[callee]
			if c.Total.Change.Verdict != want {
				t.Errorf("render -> %s: %v, want %v", callee, c.Total.Change.Verdict, want)
			}
		}
	}
	if main2render != 1 || renderCallees != 2 {
		t.Errorf("calls: %d main -> render, %d render -> x", main2render, renderCallees)
	}
	// The tree: main -> render is one node on both sides.
	renders := 0
	for i := range r.Tree {
		if r.TreeFunction(int32(i)).Function == "render" {
			renders++
		}
	}
	if renders != 1 {
		t.Errorf("%d tree nodes for render", renders)
	}
	// Paths: the first leads to parse, gone; the paths' deltas add up to
	// PathsDelta, and together with the change they leave unexplained to
	// the on-CPU change.
	if len(r.Paths) == 0 {
		t.Fatal("no path")
	}
	first := r.Paths[0]
	if r.TreeFunction(first.Nodes[len(first.Nodes)-1]).Function != "parse" || first.End != EndGone {
		t.Errorf("first path ends in %s, %v", r.TreeFunction(first.Nodes[len(first.Nodes)-1]).Function, first.End)
	}
	var sum float64
	for _, p := range r.Paths {
		sum += p.Delta
		// A path is a chain: each node the parent of the next.
		for i := 1; i < len(p.Nodes); i++ {
			if r.Tree[p.Nodes[i]].Parent != p.Nodes[i-1] {
				t.Errorf("path %v is not a chain", p.Nodes)
			}
		}
		if r.Tree[p.Nodes[0]].Parent != 0 {
			t.Errorf("path %v does not start below the root", p.Nodes)
		}
	}
	if math.Abs(sum-r.PathsDelta) > 1e-6 {
		t.Errorf("paths sum to %v, PathsDelta %v", sum, r.PathsDelta)
	}
	onDelta := r.OnCPU(1) - r.OnCPU(0)
	if r.PathsDelta/onDelta < 0.9 || r.PathsDelta/onDelta > 1.1 {
		t.Errorf("paths explain %v of %v", r.PathsDelta, onDelta)
	}
	// Every row: self <= total on each side.
	for _, rows := range [][]Row{r.Packages, r.Functions, r.Files} {
		for _, row := range rows {
			for s := range 2 {
				if row.Self.Mean[s] > row.Total.Mean[s] {
					t.Errorf("%v: self %v > total %v", row.Key, row.Self.Mean[s], row.Total.Mean[s])
				}
			}
		}
	}
}

// TestPathsOfSingleRunsAndNone: the corpus's router pair (one run each
// side) finds its path to the matcher; a profile against itself has none.
func TestPathsOfSingleRunsAndNone(t *testing.T) {
	r := routerPair(t, DefaultOptions())
	if len(r.Paths) == 0 {
		t.Fatal("no path in the router change")
	}
	if last := r.TreeFunction(r.Paths[0].Nodes[len(r.Paths[0].Nodes)-1]); last.Function != "match" {
		t.Errorf("first path ends in %s", last.Function)
	}
	tab := table(t, "node-router-unbundled-before.cpuprofile")
	same, err := Compare([]Side{{Name: "a", Tables: []*analyze.Table{tab}}, {Name: "b", Tables: []*analyze.Table{tab}}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(same.Paths) != 0 || same.PathsDelta != 0 {
		t.Errorf("paths in a profile against itself: %v", same.Paths)
	}
}

// TestCachePathsReachBelowSelf: 2 + 2 real runs where a cache made
// renderDocument ~45x faster in total, called from a loop in main whose
// own time fell too. A path that ends in main's self time explains only
// that, so the next paths still go on below main to parse and to
// renderDocument's own time; the moved function is one row, judged better
// in total. Without the self-only claim, the first path took main's whole
// change and the cache never appeared.
func TestCachePathsReachBelowSelf(t *testing.T) {
	side := func(name string, files ...string) Side {
		s := Side{Name: name}
		for _, f := range files {
			s.Tables = append(s.Tables, table(t, "cache/"+f))
		}
		return s
	}
	r, err := Compare([]Side{side("before", "before-r1.cpuprofile", "before-r2.cpuprofile"),
		side("after", "after-r1.cpuprofile", "after-r2.cpuprofile")}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ends := map[string]PathEnd{}
	var sum float64
	for _, p := range r.Paths {
		ends[r.TreeFunction(p.Nodes[len(p.Nodes)-1]).Function] = p.End
		sum += p.Delta
	}
	if e, ok := ends["parse"]; !ok || e != EndSelf {
		t.Errorf("paths end at %v, want one in parse's self time", ends)
	}
	if e, ok := ends["main"]; !ok || e != EndSelf {
		t.Errorf("paths end at %v, want one in main's self time", ends)
	}
	if d := r.OnCPU(1) - r.OnCPU(0); math.Abs(sum-d) > 0.05*math.Abs(d) {
		t.Errorf("paths explain %v of %v", sum, d)
	}
	n := 0
	for _, row := range r.Functions {
		if row.Key.Function == "renderDocument" {
			n++
			if row.Total.Change.Verdict != VerdictBetter {
				t.Errorf("renderDocument total %v", row.Total.Change.Verdict)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d rows for renderDocument", n)
	}
}

// TestTreeLeavesOutTinyNodes: the report's tree keeps exactly the merged
// nodes holding at least TreeMinShare of on-CPU time on some side (checked
// against the whole tree), parents before children, each child within its
// parent.
func TestTreeLeavesOutTinyNodes(t *testing.T) {
	all := DefaultOptions()
	all.TreeMinShare = -1
	whole, r := routerPair(t, all), routerPair(t, DefaultOptions())
	share := DefaultOptions().TreeMinShare
	least := share * max(r.Tree[0].Total.Mean[0], r.Tree[0].Total.Mean[1])
	for i, n := range r.Tree[1:] {
		i++
		if max(n.Total.Mean[0], n.Total.Mean[1]) < least {
			t.Errorf("node %d holds %v, under %v", i, n.Total.Mean, least)
		}
		if p := r.Tree[n.Parent]; int(n.Parent) >= i || p.Total.Mean[0] < n.Total.Mean[0] || p.Total.Mean[1] < n.Total.Mean[1] {
			t.Errorf("node %d above or larger than its parent %d", i, n.Parent)
		}
	}
	want := 0
	for _, n := range whole.Tree {
		if max(n.Total.Mean[0], n.Total.Mean[1]) >= least {
			want++
		}
	}
	if len(r.Tree) != want || want >= len(whole.Tree) {
		t.Errorf("report tree %d nodes; %d of the whole tree's %d hold %v", len(r.Tree), want, len(whole.Tree), least)
	}
	if len(r.Paths) != len(whole.Paths) || r.PathsDelta != whole.PathsDelta {
		t.Errorf("paths differ: %d (%v) against %d (%v) on the whole tree", len(r.Paths), r.PathsDelta, len(whole.Paths), whole.PathsDelta)
	}
}

// TestUnmappedBundlePositionsAreNotNewOrGone: the router's two bundled
// builds compared without their maps, one run each. A position that holds
// time on both sides is one function, however V8 named it there: no row
// of such a position is new or gone (three were: g_ before and after, y_
// after only, at one position), and the other name is kept as an alias.
func TestUnmappedBundlePositionsAreNotNewOrGone(t *testing.T) {
	var sides []Side
	for _, name := range []string{"before", "after"} {
		p := filepath.Join("..", "..", "shared", "corpus", "node-router-ab", name+"-r1.cpuprofile")
		prof, err := analyze.ParseFile(p, analyze.ParseOptions{})
		if err != nil {
			t.Skipf("corpus: %v", err)
		}
		sides = append(sides, Side{Name: name, Tables: []*analyze.Table{analyze.Aggregate(prof, analyze.AggregateOptions{Edges: true, Lines: true, Tree: true})}})
	}
	r, err := Compare(sides, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	type pos struct {
		file         string
		line, column int32
	}
	at := map[pos][]*Row{}
	aliases := 0
	for i := range r.Functions {
		row := &r.Functions[i]
		if row.Key.Line > 0 && row.Key.Column > 0 {
			p := pos{row.Key.File, row.Key.Line, row.Key.Column}
			at[p] = append(at[p], row)
		}
		aliases += len(row.Aliases)
	}
	for p, rows := range at {
		if len(rows) < 2 {
			continue
		}
		for _, row := range rows {
			for _, v := range []Verdict{row.Self.Change.Verdict, row.Total.Change.Verdict} {
				if v == VerdictNew || v == VerdictGone {
					t.Errorf("%v: %s is %v though the position has time on both sides", p, row.Key.Function, v)
				}
			}
		}
	}
	if aliases == 0 {
		t.Errorf("no alias kept")
	}
}

// TestWarningsOnce: a warning every run gives is said once ("all 4
// runs"), one run's names its file. (report's TestHeadlineUnmapped reads
// the headline of such runs.)
func TestWarningsOnce(t *testing.T) {
	mk := func(file string, warnings ...string) *analyze.Table {
		tab := synthetic(6, fn("parse", 20), 100, 100, 800, analyze.Key{}, 0)
		tab.File = file
		for _, w := range warnings {
			tab.Warnings = append(tab.Warnings, analyze.Warning{Message: w})
		}
		tab.Symbolication = &analyze.Symbolication{Scripts: 1, OnCPUJSNs: tab.Summary.OnCPUNs, Missing: []string{"/srv/dist/app.min.js"},
			Minified: []string{"/srv/dist/app.min.js"}, UnmappedMinifiedNs: tab.Summary.OnCPUNs / 2}
		return tab
	}
	const noMap = "no source map for /srv/dist/app.min.js"
	r, err := Compare([]Side{{Name: "before", Tables: []*analyze.Table{mk("b1", noMap), mk("b2", noMap, "1 negative time deltas were clamped to 0")}},
		{Name: "after", Tables: []*analyze.Table{mk("a1", noMap), mk("a2", noMap)}}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"all 4 runs: " + noMap, "b2: 1 negative time deltas were clamped to 0"}
	var got []string
	for _, w := range r.Warnings[:2] {
		got = append(got, w.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings %q", r.Warnings)
	}
}

// TestHolmWeighted checks Holm's weighted method against a hand count:
// p = 0.01, 0.02, 0.04 with weights 0.5, 0.25, 0.25 (total 1): ordered by
// p/w (0.02, 0.08, 0.16), the adjusted values are 1·0.01/0.5 = 0.02,
// max(0.02, 0.5·0.02/0.25) = 0.04 and max(0.04, 0.25·0.04/0.25) = 0.04;
// equal weights give Holm's own.
func TestHolmWeighted(t *testing.T) {
	p := []float64{0.01, 0.02, math.NaN(), 0.04}
	holmWeighted(p, []float64{0.5, 0.25, 7, 0.25})
	want := []float64{0.02, 0.04, math.NaN(), 0.04}
	for i := range p {
		if !(math.Abs(p[i]-want[i]) < 1e-12 || math.IsNaN(p[i]) && math.IsNaN(want[i])) {
			t.Errorf("weighted: %v, want %v", p, want)
			break
		}
	}
	a, b := []float64{0.01, 0.04, 0.03}, []float64{0.01, 0.04, 0.03}
	holm(a)
	holmWeighted(b, []float64{1, 1, 1})
	if !slices.Equal(a, b) {
		t.Errorf("equal weights: %v, Holm %v", b, a)
	}
}

// TestPriorWeighsLessWithRuns: the prior is worth three runs at one and
// two runs a side and falls after, so that tight runs settle a change.
func TestPriorWeighsLessWithRuns(t *testing.T) {
	if priorWeight(1) != 3 || priorWeight(2) != 3 || math.Abs(priorWeight(5)-0.192) > 1e-12 || priorWeight(10) >= priorWeight(5) {
		t.Errorf("priorWeight: %v %v %v %v", priorWeight(1), priorWeight(2), priorWeight(5), priorWeight(10))
	}
	// Five runs a side 2% apart, +20%: settled (the prior of 15% worth
	// three runs at every n, with the normal, left it at p = 0.0038 before
	// correction, by hand in python3).
	a := sideStatsOf([]float64{100, 102, 98, 101, 99}, 0.01, 1, 0.15)
	b := sideStatsOf([]float64{120, 122, 118, 121, 119}, 0.01, 1, 0.15)
	if p := zTest(a, b); !(p < 0.001) {
		t.Errorf("5 v 5, +20%%, runs 2%% apart: p = %v", p)
	}
}

// TestShareSilentWhenTheWholeRunMoved: the corpus's router change at 5 v
// 5 (on-CPU time 25% lower after) leaves node's internals as they were
// (the corpus's README): their self time +5%, within its runs' spread,
// while their share of the shorter runs is +46%. The share of a run that
// changed as a whole says nothing of a row, and node's self time must not
// be judged worse (it was, p = 0.006, while the share counted). Nor may
// lodash and marked, whose share rose 3.4 and 3.6 points while their time
// fell 17% and 13.5%: the time is the verdict's. Their time fell in every
// after-run, below every before-run (lodash 1216-1451 ms before,
// 996-1215 ms after), which the runs' splits judge real at 5 v 5 (see
// permutation.go), as a rank test would (Mann-Whitney p = 0.008); the
// corpus's own in-process timing of renderDocument (marked) fell too,
// 806 -> 743 ms. Judged by Holm's method they stayed ~ (p = 0.065, 0.074).
func TestShareSilentWhenTheWholeRunMoved(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "corpus", "node-router-ab")
	var sides []Side
	for _, name := range []string{"before", "after"} {
		side := Side{Name: name}
		maps := filepath.Join(dir, "bundle-"+name)
		sym := symbolicate.New(symbolicate.Options{Dirs: []string{maps}, Files: confine.New(maps)})
		for i := 1; i <= 5; i++ {
			prof, err := analyze.ParseFile(filepath.Join(dir, fmt.Sprintf("%s-r%d.cpuprofile", name, i)), analyze.ParseOptions{})
			if err != nil {
				t.Skipf("corpus: %v", err)
			}
			sym.Apply(prof)
			analyze.AttributePackages(prof, confine.New(dir, maps))
			side.Tables = append(side.Tables, analyze.Aggregate(prof, analyze.AggregateOptions{}))
		}
		sides = append(sides, side)
	}
	r, err := Compare(sides, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if v := r.Headline.OnCPU.Change.Verdict; v != VerdictBetter {
		t.Fatalf("on-CPU time %v, want better (the setup of this test)", v)
	}
	if r.Splits != 126 {
		t.Errorf("5 v 5 corrected over %d splits, want all 126 (permutation.go)", r.Splits)
	}
	found := false
	for _, row := range r.Packages {
		if ch := row.Self.Change; (row.Key.Package == "lodash" || row.Key.Package == "marked") && ch.Verdict.Real() {
			// Their time fell in every after-run (-17%, -13.5%), their
			// share rose: only the time's verdict, better, may be given,
			// and only when the runs separate (above).
			a, b := row.Self.Runs[0], row.Self.Runs[1]
			if ch.Verdict != VerdictBetter || slices.Min(a) <= slices.Max(b) {
				t.Errorf("%s self %+.1f%% judged %v, p = %.3g, runs %v -> %v", row.Key.Package, ch.DeltaPct, ch.Verdict, ch.P, a, b)
			}
		}
		if row.Key.Package == "path-to-regexp" && (row.Self.Change.Verdict != VerdictBetter || row.Self.Change.P != 1.0/126) {
			// The change is in every split's family but the recorded
			// one's: the least p-value 126 splits give.
			t.Errorf("path-to-regexp self %v, p = %.4g, want better at 1/126", row.Self.Change.Verdict, row.Self.Change.P)
		}
		if row.Key.Package != "node" {
			continue
		}
		found = true
		ch := row.Self.Change
		if math.Abs(ch.DeltaPct) > 10 || ch.DeltaPP < 0.2 {
			t.Fatalf("node self %+.1f%% (%+.2f points), want a small change in time and a larger one in share (the setup)", ch.DeltaPct, ch.DeltaPP)
		}
		if ch.Verdict.Real() {
			t.Errorf("node self %+.1f%% (%+.2f points of on-CPU) judged %v, p = %.3g", ch.DeltaPct, ch.DeltaPP, ch.Verdict, ch.P)
		}
	}
	if !found {
		t.Fatalf("no node package")
	}
}
