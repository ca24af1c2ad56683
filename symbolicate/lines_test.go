package symbolicate

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/sourcemap"
)

// TestLineTicksMapToOriginalLines: in a bundle built without minifying,
// each line maps to one line of its source, so V8's ticks on the bundle's
// lines land on the original lines (sumSquares' loop body, lines 5-7 of
// src/work.js, with most of its time on line 7); in a minified bundle they
// do not, and the functions are listed as bundled instead.
func TestLineTicksMapToOriginalLines(t *testing.T) {
	dir := filepath.Join("..", "testdata", "bundles", "lines")
	p, err := analyze.ParseFile(filepath.Join(dir, "lines.cpuprofile"), analyze.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	New(Options{Dirs: []string{filepath.Join(dir, "dist")}}).Apply(p)
	tab := analyze.Aggregate(p, analyze.AggregateOptions{Lines: true})
	byLine := map[int32]int64{}
	var self int64
	for _, l := range tab.Lines {
		if l.Function.Function == "sumSquares" {
			if l.Function.File != "src/work.js" {
				t.Fatalf("sumSquares' lines in %s", l.Function.File)
			}
			byLine[l.Line] += l.Self
			self += l.Self
		}
	}
	for line := range byLine {
		if line < 3 || line > 10 {
			t.Errorf("sumSquares has time on line %d, outside its lines 3-10: %v", line, byLine)
		}
	}
	if self == 0 || byLine[7] < self/3 {
		t.Errorf("sumSquares by line %v, want most on line 7", byLine)
	}
	if len(tab.BundledLines) != 0 {
		t.Errorf("bundled %+v", tab.BundledLines)
	}

	dir = filepath.Join("..", "testdata", "bundles", "esbuild-ts")
	p, err = analyze.ParseFile(filepath.Join(dir, "esbuild-ts.cpuprofile"), analyze.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	New(Options{Dirs: []string{filepath.Join(dir, "dist")}}).Apply(p)
	tab = analyze.Aggregate(p, analyze.AggregateOptions{Lines: true})
	for _, l := range tab.Lines {
		if l.Function.File == "src/micro.ts" {
			t.Errorf("a minified bundle's line gave %s line %d", l.Function.Function, l.Line)
		}
	}
	if len(tab.BundledLines) < 3 || !tab.BundledLines[0].Minified {
		t.Errorf("bundled %+v", tab.BundledLines)
	}
}

// TestLineTicksOfInlinedAndReprintedCode: in a bundle built without
// minifying, a line of code V8 inlined from another module (mapping to one
// line of another file) and a statement the bundler reprinted on one line
// (mapping to two or three lines of the function's file) keep the
// function's other lines, counted as unattributed; a line covering many
// lines, as minified code does, still leaves the function's lines as
// recorded.
func TestLineTicksOfInlinedAndReprintedCode(t *testing.T) {
	// Bundle lines: 1 -> a.js:1; 2 -> b.js:6 (inlined); 3 -> a.js:2-3
	// (reprinted); 4 -> a.js:4-14 (minified).
	m, err := sourcemap.Parse([]byte(`{"version":3,"sources":["a.js","b.js"],"mappings":"AAAA,UAAI;ACKJ,QAAG;ADJH,MACA;AACA,oBAUA"}`))
	if err != nil {
		t.Fatal(err)
	}
	gen := &analyze.Position{Name: "x", File: "dist/app.js"}
	p := &analyze.Profile{
		Frames: []analyze.Frame{{Name: "f", File: "a.js", Generated: gen}, {Name: "g", File: "a.js", Generated: gen}},
		Nodes:  []analyze.Node{{Frame: 0, Parent: -1}, {Frame: 1, Parent: 0}},
		LineTicks: []analyze.LineTick{
			{Node: 0, Line: 1, Ticks: 5}, {Node: 0, Line: 2, Ticks: 3}, {Node: 0, Line: 3, Ticks: 2},
			{Node: 1, Line: 1, Ticks: 1}, {Node: 1, Line: 4, Ticks: 1},
		},
	}
	mapLineTicks(p, m, []int32{0, 1})
	got := []int32{}
	for _, lt := range p.LineTicks {
		got = append(got, lt.Line)
	}
	if want := []int32{1, 0, 0, 1, 4}; !slices.Equal(got, want) {
		t.Errorf("lines %v, want %v (f: a.js:1, then unattributed twice; g as recorded)", got, want)
	}
	if !p.Frames[0].LinesMapped || p.Frames[1].LinesMapped {
		t.Errorf("lines mapped: f %v, g %v; want f only", p.Frames[0].LinesMapped, p.Frames[1].LinesMapped)
	}
}
