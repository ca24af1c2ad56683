package analyze

import "testing"

// BenchmarkFindStalls scans the 57 MiB tsc profile's samples for busy
// stretches and describes its five longest: the part of Aggregate that
// stalls add.
func BenchmarkFindStalls(b *testing.B) {
	p, err := ParseFile(corpusFile(b, "large/tsc-effect-unbundled.cpuprofile"), ParseOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		FindStalls(p, DefaultLongestStalls)
	}
}
