package history

import (
	"os"
	"testing"
)

// BenchmarkAnalyzeStore analyses the store at $PROFDIFF_HISTORY_STORE
// (bench/history-store.py makes one from real records), streaming.
func BenchmarkAnalyzeStore(b *testing.B) {
	dir := os.Getenv("PROFDIFF_HISTORY_STORE")
	if dir == "" {
		b.Skip("set PROFDIFF_HISTORY_STORE to a store (bench/history-store.py)")
	}
	b.ReportAllocs()
	for b.Loop() {
		src, err := OpenSource(dir, "", 0)
		if err != nil {
			b.Fatal(err)
		}
		res, err := AnalyzeSource(src, Options{Alpha: 0.05, MinDeltaPct: 5, MinDeltaPP: 0.1, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(res.ChangePoints)), "changepoints")
		b.ReportMetric(float64(src.Len()), "commits")
	}
}
