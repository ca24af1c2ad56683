package analyze

import (
	"os"
	"path/filepath"
	"testing"
)

// corpusFile returns a file of the shared corpus, skipping the benchmark when
// it is absent (the corpus lives beside the checkout, not in it).
func corpusFile(b *testing.B, rel string) string {
	b.Helper()
	p := filepath.Join("..", "..", "shared", "corpus", rel)
	if _, err := os.Stat(p); err != nil {
		b.Skipf("%s not found: %v", p, err)
	}
	return p
}

func benchmarkParseAggregate(b *testing.B, rel string) {
	path := corpusFile(b, rel)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		p, err := ParseFile(path, ParseOptions{})
		if err != nil {
			b.Fatal(err)
		}
		Aggregate(p, AggregateOptions{})
	}
}

// BenchmarkParse reads and aggregates the 57 MiB TypeScript-compiler profile.
func BenchmarkParse(b *testing.B) {
	benchmarkParseAggregate(b, "large/tsc-effect-unbundled.cpuprofile")
}

// BenchmarkParseBundled reads the 10 MiB profile of the bundled compiler.
func BenchmarkParseBundled(b *testing.B) {
	benchmarkParseAggregate(b, "large/tsc-rxjs-bundled.cpuprofile")
}

// BenchmarkParsePprof reads a Go CPU profile.
func BenchmarkParsePprof(b *testing.B) {
	benchmarkParseAggregate(b, "go-pprof/before-r1.pprof")
}

// BenchmarkAggregateEdges measures what the explorer adds to a ranking:
// caller -> callee edges and per-line times, on the 57 MiB profile.
func BenchmarkAggregateEdges(b *testing.B) {
	path := corpusFile(b, "large/tsc-effect-unbundled.cpuprofile")
	p, err := ParseFile(path, ParseOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for _, edges := range []bool{false, true} {
		b.Run(map[bool]string{false: "plain", true: "edges"}[edges], func(b *testing.B) {
			for b.Loop() {
				Aggregate(p, AggregateOptions{Edges: edges})
			}
		})
	}
}
