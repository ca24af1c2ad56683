package diff

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/internal/difftest"
)

// corpusTables are the five runs of each side of the bundled router pair
// of the shared corpus; the benchmark skips when the corpus is absent.
func corpusTables(b *testing.B) []Side {
	before, after := difftest.RouterRuns(b)
	return []Side{{Name: "before", Tables: before}, {Name: "after", Tables: after}}
}

// BenchmarkCompare joins and tests two sides of five runs each.
func BenchmarkCompare(b *testing.B) {
	sides := corpusTables(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compare(sides, DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompareLarge compares the corpus's 63 MiB profile (271,450
// call-tree nodes) with itself, as the command does: with calls and trees.
func BenchmarkCompareLarge(b *testing.B) {
	p := filepath.Join("..", "..", "shared", "corpus", "large", "tsc-effect-unbundled.cpuprofile")
	if _, err := os.Stat(p); err != nil {
		b.Skipf("%s not found: the corpus lives beside this repository as ../shared/corpus: %v", p, err)
	}
	prof, err := analyze.ParseFile(p, analyze.ParseOptions{})
	if err != nil {
		b.Fatal(err)
	}
	t := analyze.Aggregate(prof, analyze.AggregateOptions{Edges: true, Lines: true, Tree: true})
	sides := []Side{{Name: "before", Tables: []*analyze.Table{t}}, {Name: "after", Tables: []*analyze.Table{t}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compare(sides, DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompareLargeJSON compares the corpus's 63 MiB profile with a
// copy of itself as the command's JSON does: calls (the 5,000 heaviest),
// and the tree only as far as the paths need it.
func BenchmarkCompareLargeJSON(b *testing.B) {
	p := filepath.Join("..", "..", "shared", "corpus", "large", "tsc-effect-unbundled.cpuprofile")
	if _, err := os.Stat(p); err != nil {
		b.Skipf("%s not found: the corpus lives beside this repository as ../shared/corpus: %v", p, err)
	}
	var tables []*analyze.Table
	for range 2 {
		prof, err := analyze.ParseFile(p, analyze.ParseOptions{})
		if err != nil {
			b.Fatal(err)
		}
		tables = append(tables, analyze.Aggregate(prof, analyze.AggregateOptions{Edges: true, Tree: true}))
	}
	sides := []Side{{Name: "before", Tables: tables[:1]}, {Name: "after", Tables: tables[1:]}}
	opts := DefaultOptions()
	opts.PathsOnlyTree, opts.MaxCalls = true, 5000
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compare(sides, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompareLargeOneTree ranks the corpus's 63 MiB profile alone with
// its merged tree, as the HTML flame graph of one profile needs it.
func BenchmarkCompareLargeOneTree(b *testing.B) {
	p := filepath.Join("..", "..", "shared", "corpus", "large", "tsc-effect-unbundled.cpuprofile")
	if _, err := os.Stat(p); err != nil {
		b.Skipf("%s not found: the corpus lives beside this repository as ../shared/corpus: %v", p, err)
	}
	prof, err := analyze.ParseFile(p, analyze.ParseOptions{})
	if err != nil {
		b.Fatal(err)
	}
	t := analyze.Aggregate(prof, analyze.AggregateOptions{Tree: true})
	sides := []Side{{Name: "profile", Tables: []*analyze.Table{t}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compare(sides, DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
}
