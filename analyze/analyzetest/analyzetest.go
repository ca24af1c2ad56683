// Package analyzetest builds the tables the tests of diff and of its
// renderers (report) compare: the shared fixtures of testdata/, the runs of
// the shared corpus, and a small synthetic workload whose times are chosen
// by the test.
package analyzetest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// Table reads a shared fixture (a path below the repository's testdata/,
// from a package one folder below the root) and aggregates it with calls,
// lines and tree, named by that path as the goldens name it.
func Table(tb testing.TB, name string) *analyze.Table {
	tb.Helper()
	p, err := analyze.ParseFile(filepath.Join("..", "testdata", name), analyze.ParseOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	tab := analyze.Aggregate(p, analyze.AggregateOptions{Edges: true, Lines: true, Tree: true})
	tab.File = name
	return tab
}

// RouterRuns are the tables of the five runs of each side of the bundled
// router pair of the shared corpus, before and after; the benchmark skips
// when the corpus is absent.
func RouterRuns(b *testing.B) (before, after []*analyze.Table) {
	b.Helper()
	var sides [2][]*analyze.Table
	for si, name := range []string{"before", "after"} {
		for r := 1; r <= 5; r++ {
			p := filepath.Join("..", "..", "shared", "corpus", "node-router-ab", fmt.Sprintf("%s-r%d.cpuprofile", name, r))
			if _, err := os.Stat(p); err != nil {
				b.Skipf("%s not found: the corpus lives beside this repository as ../shared/corpus: %v", p, err)
			}
			prof, err := analyze.ParseFile(p, analyze.ParseOptions{})
			if err != nil {
				b.Fatal(err)
			}
			sides[si] = append(sides[si], analyze.Aggregate(prof, analyze.AggregateOptions{Edges: true, Lines: true, Tree: true}))
		}
	}
	return sides[0], sides[1]
}

// Fn is a function key in the synthetic workload's file.
func Fn(name string, line int32) analyze.Key {
	return analyze.Key{Package: "app", Function: name, File: "/src/app.js", Line: line, Column: 1}
}

// Synthetic builds one run's table: main calls render, which calls one
// more function; the times are in milliseconds, sampled every 1 ms.
func Synthetic(renderLine int32, callee analyze.Key, mainSelf, renderSelf, calleeSelf int64, min analyze.Key, minSelf int64) *analyze.Table {
	ms := int64(1e6)
	main, render := Fn("main", 1), Fn("render", renderLine)
	renderTotal := renderSelf + calleeSelf
	mainTotal := mainSelf + renderTotal
	on := mainTotal + minSelf
	t := &analyze.Table{
		Format:  analyze.FormatCPUProfile,
		File:    "run.cpuprofile",
		Summary: analyze.Summary{WallNs: on * ms, SampledNs: on * ms, OnCPUNs: on * ms, Samples: on, IntervalNs: ms},
		Packages: []analyze.Row{
			{Key: analyze.Key{Package: "app"}, Self: on * ms, Total: on * ms},
		},
		Functions: []analyze.Row{
			{Key: main, Self: mainSelf * ms, Total: mainTotal * ms},
			{Key: render, Self: renderSelf * ms, Total: renderTotal * ms},
			{Key: callee, Self: calleeSelf * ms, Total: calleeSelf * ms},
			{Key: min, Self: minSelf * ms, Total: minSelf * ms},
		},
		Files: []analyze.Row{{Key: analyze.Key{Package: "app", File: "/src/app.js"}, Self: on * ms, Total: on * ms}},
		Edges: []analyze.Edge{{Caller: 0, Callee: 1, Total: renderTotal * ms}, {Caller: 1, Callee: 2, Total: calleeSelf * ms}},
		Tree: analyze.CallTreeOf([]analyze.CallNode{
			{Parent: -1, Function: -1, Self: 0},
			{Parent: 0, Function: 0, Self: mainSelf * ms},
			{Parent: 1, Function: 1, Self: renderSelf * ms},
			{Parent: 2, Function: 2, Self: calleeSelf * ms},
			{Parent: 0, Function: 3, Self: minSelf * ms},
		}),
	}
	return t
}
