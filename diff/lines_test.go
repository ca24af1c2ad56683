package diff

import (
	"math"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/analyze/analyzetest"
)

// linesTable reads a fixture with its per-line times.
func linesTable(t *testing.T, name string) *analyze.Table {
	t.Helper()
	p, err := analyze.ParseFile("../testdata/"+name, analyze.ParseOptions{Lines: true})
	if err != nil {
		t.Fatal(err)
	}
	return analyze.Aggregate(p, analyze.AggregateOptions{Lines: true})
}

// TestLinesAreJudged: comparing two sides, each line's self time is judged
// as the functions' are (a p-value where the line is large enough to
// test, a verdict); a Go profile's lines carry totals, judged too; the
// functions whose lines were a bundle's are listed by row.
func TestLinesAreJudged(t *testing.T) {
	a, b := linesTable(t, "node-router-unbundled-before.cpuprofile"), linesTable(t, "node-router-unbundled-after.cpuprofile")
	r, err := Compare([]Side{{Name: "before", Tables: []*analyze.Table{a}}, {Name: "after", Tables: []*analyze.Table{b}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Lines) == 0 || r.LineTotals {
		t.Fatalf("%d lines, totals %v", len(r.Lines), r.LineTotals)
	}
	tested := 0
	for _, l := range r.Lines {
		if !math.IsNaN(l.Self.Change.P) {
			tested++
		}
	}
	if tested == 0 {
		t.Error("no line was tested")
	}

	g := linesTable(t, "go-router-before.pprof")
	r, err = Compare([]Side{{Name: "a", Tables: []*analyze.Table{g}}, {Name: "b", Tables: []*analyze.Table{g}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.LineTotals {
		t.Fatal("Go lines without totals")
	}
	for _, l := range r.Lines {
		if l.Total.Mean == nil || l.Total.Mean[0] < l.Self.Mean[0] || l.Total.Change.Verdict.Real() {
			t.Fatalf("line %d of %s: self %v total %v", l.Line, r.Functions[l.Function].Key.Function, l.Self.Mean, l.Total.Mean)
		}
	}

	bundled := &analyze.Table{Functions: []analyze.Row{{Key: analyze.Key{Function: "render", File: "src/view.js"}, Self: 10, Total: 10}},
		BundledLines: []analyze.BundledLine{{Function: analyze.Key{Function: "render", File: "src/view.js"}, Minified: true}}}
	bundled.Summary.OnCPUNs = 10
	r, err = Compare([]Side{{Name: "one", Tables: []*analyze.Table{bundled}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := r.BundledLines[0]; !ok || !m {
		t.Errorf("bundled %v", r.BundledLines)
	}
}

// TestLinesBeforeStartPerSide: time on lines before a function's first line
// (code V8 inlined into it) is counted against each side's own first line.
// render starts on line 20 before and on line 8 after (code above it was
// deleted): its after lines 9 and 12 are its own, though they lie above
// line 20; line 5 is before its start on both sides.
func TestLinesBeforeStartPerSide(t *testing.T) {
	ms := int64(1e6)
	run := func(start int32, lines map[int32]int64) *analyze.Table {
		tab := analyzetest.Synthetic(start, analyzetest.Fn("parse", 40), 100, 100, 800, analyze.Key{}, 0)
		for line, self := range lines {
			tab.Lines = append(tab.Lines, analyze.LineTime{Function: analyzetest.Fn("render", start), Line: line, Self: self * ms})
		}
		return tab
	}
	before := run(20, map[int32]int64{5: 10, 21: 90})
	after := run(8, map[int32]int64{5: 4, 9: 60, 12: 36})
	r, err := Compare([]Side{{Name: "before", Tables: []*analyze.Table{before}}, {Name: "after", Tables: []*analyze.Table{after}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var render int32 = -1
	for i, row := range r.Functions {
		if row.Key.Function == "render" {
			render = int32(i)
		}
	}
	m, ok := r.LinesBeforeStart[render]
	if !ok || m.Mean[0] != float64(10*ms) || m.Mean[1] != float64(4*ms) {
		t.Fatalf("render's time before its first line: %v (present %v), want 10 ms before and 4 ms after", m.Mean, ok)
	}
	if len(r.LinesBeforeStart) != 1 {
		t.Errorf("%d functions with time before their first line, want 1 (render)", len(r.LinesBeforeStart))
	}
}
