package analyze

import (
	"os"
	"path/filepath"
	"testing"
)

// The benchmarks read the shared corpus beside the checkout and, for the
// largest inputs, the files bench/make-large.sh makes (in $PROFDIFF_LARGE,
// by default $TMPDIR/profdiff-large). Each skips when its file is absent.
// Run them with
//
//	go test ./analyze -run '^$' -bench . -count 6 | tee new.txt
//	benchstat old.txt new.txt

// corpusFile returns a file of the shared corpus, skipping the benchmark when
// it is absent (the corpus lives beside the checkout, not in it).
func corpusFile(b *testing.B, rel string) string {
	b.Helper()
	return existing(b, filepath.Join("..", "..", "shared", "corpus", rel))
}

// largeFile returns a file made by bench/make-large.sh, or skips.
func largeFile(b *testing.B, name string) string {
	b.Helper()
	dir := os.Getenv("PROFDIFF_LARGE")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "profdiff-large")
	}
	return existing(b, filepath.Join(dir, name))
}

func existing(b *testing.B, p string) string {
	b.Helper()
	if _, err := os.Stat(p); err != nil {
		b.Skipf("%s not found (see bench/make-large.sh): %v", p, err)
	}
	return p
}

// benchmarkParse measures reading a file into a Profile: decompression,
// scanning, interning and building the tree.
func benchmarkParse(b *testing.B, path string) {
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseFile(path, ParseOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParse reads the 57 MiB TypeScript-compiler profile (271k nodes).
func BenchmarkParse(b *testing.B) {
	benchmarkParse(b, corpusFile(b, "large/tsc-effect-unbundled.cpuprofile"))
}

// BenchmarkParseBundled reads the 10 MiB profile of the bundled compiler.
func BenchmarkParseBundled(b *testing.B) {
	benchmarkParse(b, corpusFile(b, "large/tsc-rxjs-bundled.cpuprofile"))
}

// BenchmarkParseTrace reads a gzipped Chromium trace with two renderer
// profiles.
func BenchmarkParseTrace(b *testing.B) {
	benchmarkParse(b, existing(b, fixture("chrome156-multi-process.trace.json.gz")))
}

// BenchmarkParsePprof reads a Go CPU profile.
func BenchmarkParsePprof(b *testing.B) {
	benchmarkParse(b, corpusFile(b, "go-pprof/before-r1.pprof"))
}

// BenchmarkParseLarge reads the 300-450 MB profile bench/make-large.sh makes.
func BenchmarkParseLarge(b *testing.B) {
	benchmarkParse(b, largeFile(b, "tsc-large.cpuprofile"))
}

// BenchmarkParseLargePprof reads the large Go profile bench/make-large.sh
// makes.
func BenchmarkParseLargePprof(b *testing.B) {
	benchmarkParse(b, largeFile(b, "go-large.pprof"))
}

// BenchmarkAggregate ranks the 57 MiB profile: plain (what the reports
// use), and with caller -> callee edges and per-line times (what the
// explorer adds). Bytes are the file's, so MB/s compares with parsing.
// Packages are attributed once first, as the command does: Aggregate
// names frames without one on every call, without changing them.
func BenchmarkAggregate(b *testing.B) {
	path := corpusFile(b, "large/tsc-effect-unbundled.cpuprofile")
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	p, err := ParseFile(path, ParseOptions{})
	if err != nil {
		b.Fatal(err)
	}
	AttributePackages(p, nil) // as the command does before aggregating
	for _, c := range []struct {
		name string
		opts AggregateOptions
	}{{"plain", AggregateOptions{}}, {"edges", AggregateOptions{Edges: true}}, {"tree", AggregateOptions{Tree: true}}, {"both", AggregateOptions{Edges: true, Tree: true}}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(st.Size())
			b.ReportAllocs()
			for b.Loop() {
				Aggregate(p, c.opts)
			}
		})
	}
}
