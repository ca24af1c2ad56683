package diff

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/analyze/analyzetest"
)

// corpusTables are the five runs of each side of the bundled router pair
// of the shared corpus; the benchmark skips when the corpus is absent.
func corpusTables(b *testing.B) []Side {
	before, after := analyzetest.RouterRuns(b)
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

// largeTable reads and aggregates the corpus's 63 MiB profile (271,450
// call-tree nodes) with opts; the benchmark skips when the corpus is
// absent.
func largeTable(b *testing.B, opts analyze.AggregateOptions) *analyze.Table {
	p := filepath.Join("..", "..", "shared", "corpus", "large", "tsc-effect-unbundled.cpuprofile")
	if _, err := os.Stat(p); err != nil {
		b.Skipf("%s not found: the corpus lives beside this repository as ../shared/corpus: %v", p, err)
	}
	prof, err := analyze.ParseFile(p, analyze.ParseOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return analyze.Aggregate(prof, opts)
}

// benchCompare times Compare of sides with opts.
func benchCompare(b *testing.B, sides []Side, opts Options) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compare(sides, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompareLarge compares the corpus's 63 MiB profile with itself,
// as the command does: with calls and trees.
func BenchmarkCompareLarge(b *testing.B) {
	t := largeTable(b, analyze.AggregateOptions{Edges: true, Lines: true, Tree: true})
	benchCompare(b, []Side{{Name: "before", Tables: []*analyze.Table{t}}, {Name: "after", Tables: []*analyze.Table{t}}}, DefaultOptions())
}

// BenchmarkCompareLargeJSON compares the corpus's 63 MiB profile with a
// copy of itself as the command's JSON does: calls (the 5,000 heaviest),
// and the tree only as far as the paths need it.
func BenchmarkCompareLargeJSON(b *testing.B) {
	aopts := analyze.AggregateOptions{Edges: true, Tree: true}
	before, after := largeTable(b, aopts), largeTable(b, aopts)
	opts := DefaultOptions()
	opts.PathsOnlyTree, opts.MaxCalls = true, 5000
	benchCompare(b, []Side{{Name: "before", Tables: []*analyze.Table{before}}, {Name: "after", Tables: []*analyze.Table{after}}}, opts)
}

// BenchmarkCompareLargeOneTree ranks the corpus's 63 MiB profile alone with
// its merged tree, as the HTML flame graph of one profile needs it.
func BenchmarkCompareLargeOneTree(b *testing.B) {
	t := largeTable(b, analyze.AggregateOptions{Tree: true})
	benchCompare(b, []Side{{Name: "profile", Tables: []*analyze.Table{t}}}, DefaultOptions())
}
