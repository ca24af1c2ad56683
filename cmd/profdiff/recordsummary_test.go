package main

import (
	"strings"
	"testing"

	"github.com/profdiff/profdiff/record"
)

// TestRecordSummary: record's summary gives per side wall mean ±σ (σ in
// the mean's unit), range, CPU and profiled time and runs, singular at one
// run; the ratios with an interval and p<0.001 (never p=0.000); and when
// the processes' CPU is far above what the profiles hold (go test's
// compile before the profiled test), how much went outside the profile.
func TestRecordSummary(t *testing.T) {
	rec := &record.Recording{Sides: []record.SideRecord{{Name: "before"}, {Name: "after"}}}
	// before: 2.0-2.2 s wall, of which 1.6 s CPU is a build the profile
	// does not see (0.4 s profiled); after: the same build, a faster test.
	for i, w := range []int64{2.0e9, 2.1e9, 2.2e9} {
		rec.Runs = append(rec.Runs, record.Run{Side: "before", Index: i + 1, WallNs: w, CPUNs: 2.0e9, Profile: "b"})
		rec.Runs = append(rec.Runs, record.Run{Side: "after", Index: i + 1, WallNs: w - 0.3e9, CPUNs: 1.64e9, Profile: "a",
			Resources: &record.Resources{UserNs: 1.5e9, SysNs: 0.14e9}})
	}
	rec.Runs = append(rec.Runs, record.Run{Side: "before", Warmup: true, WallNs: 9e9, CPUNs: 9e9, Profile: "w"})
	p := 0.0001
	walls := []record.Wall{{Side: "before"}, {Side: "after", P: &p}}
	lines := recordSummary(rec, walls, func(r record.Run) (float64, bool) {
		if r.Profile == "b" {
			return 0.4e9, true
		}
		return 0.04e9, true
	})
	got := strings.Join(lines, "\n")
	for _, want := range []string{
		"before  wall 2.10 s ±0.10 s  (2.00 s … 2.20 s)  CPU 2.00 s ±0.00 s  profiled 400 ms ±0 ms  3 runs",
		"after   wall 1.80 s ±0.10 s  (1.70 s … 1.90 s)  CPU 1.64 s ±0.00 s (user 1.50 s, sys 140 ms)  profiled 40.0 ms ±0.0 ms  3 runs",
		"before: 1.60 s CPU a run went outside the profile (80.0% of 2.00 s)",
		"after: 1.60 s CPU a run went outside the profile (97.6% of 1.64 s)",
		// r = 1.8/2.1 = 0.857, se = r·√(0.1²/3/2.1² + 0.1²/3/1.8²) = 0.0362
		"after / before: wall 0.86x (0.79x…0.93x) p<0.001, CPU 0.82x (0.82x…0.82x), profiled 0.10x",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "p=0.000") {
		t.Error(got)
	}
	one := &record.Recording{Sides: []record.SideRecord{{Name: "x"}}, Runs: []record.Run{{Side: "x", WallNs: 1e9, CPUNs: 1e9, Profile: "x"}}}
	if got := strings.Join(recordSummary(one, nil, func(record.Run) (float64, bool) { return 1e9, true }), "\n"); !strings.HasSuffix(got, "1 run") {
		t.Errorf("one run: %q", got)
	}
}
