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
