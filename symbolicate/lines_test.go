package symbolicate

import (
	"path/filepath"
	"testing"

	"github.com/profdiff/profdiff/analyze"
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
