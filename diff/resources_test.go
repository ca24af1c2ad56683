package diff

import (
	"math"
	"testing"
)

// resourceSide is a side of one run table per value, whose resources are
// the given measures.
func resourceSides(measures map[string][2][]float64) []Side {
	sides := []Side{{Name: "a"}, {Name: "b"}}
	for _, name := range []string{"wall", "max_rss", "major_faults"} {
		v, ok := measures[name]
		if !ok {
			continue
		}
		unit := map[string]string{"wall": "ns", "max_rss": "bytes", "major_faults": "count"}[name]
		for i := range sides {
			sides[i].Resources = append(sides[i].Resources, ResourceRuns{Kind: "profiled", Name: name, Unit: unit, Runs: v[i]})
		}
	}
	return sides
}

// TestJudgeResources: a tight, large change of max RSS is worse; the same
// wall times on both sides are ~; a count of 0 on one side is tested, not
// divided by; with one run a side the prior alone judges (no verdict for
// a 10% change, which the run-to-run prior covers).
func TestJudgeResources(t *testing.T) {
	opts := Options{}.withDefaults()
	mib := float64(1 << 20)
	sides := resourceSides(map[string][2][]float64{
		"wall":         {{1e9, 1.02e9, 0.98e9, 1.01e9, 0.99e9}, {1.01e9, 0.99e9, 1e9, 1.02e9, 0.98e9}},
		"max_rss":      {{100 * mib, 101 * mib, 100 * mib, 99 * mib, 100 * mib}, {150 * mib, 151 * mib, 149 * mib, 150 * mib, 150 * mib}},
		"major_faults": {{0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}},
	})
	rs := judgeResources(sides, 0, opts)
	if len(rs) != 3 {
		t.Fatalf("%d resources, want 3", len(rs))
	}
	want := map[string]Verdict{"wall": VerdictSame, "max_rss": VerdictWorse, "major_faults": VerdictSame}
	for _, r := range rs {
		if r.Measure.Change.Verdict != want[r.Name] {
			t.Errorf("%s: verdict %v (p %.3g, %+.1f%%), want %v", r.Name, r.Measure.Change.Verdict, r.Measure.Change.P, r.Measure.Change.DeltaPct, want[r.Name])
		}
	}
	if rss := rs[1].Measure; math.Abs(rss.Mean[1]/mib-150) > 0.01 || rss.Spread(0) <= 0 {
		t.Errorf("max RSS means %v, spread %v", rss.Mean, rss.Spread(0))
	}
	// One run a side: a 10% change is within the prior.
	one := resourceSides(map[string][2][]float64{"wall": {{1e9}, {1.1e9}}})
	if v := judgeResources(one, 0, opts)[0].Measure.Change.Verdict; v != VerdictSame {
		t.Errorf("1 v 1 runs, +10%%: %v, want ~", v)
	}
	// Three sides: one change per variant, in VsBase.
	three := append(resourceSides(map[string][2][]float64{"max_rss": {{100 * mib, 101 * mib, 99 * mib, 100 * mib, 100 * mib}, {100 * mib, 100 * mib, 101 * mib, 99 * mib, 100 * mib}}}),
		Side{Name: "c", Resources: []ResourceRuns{{Kind: "profiled", Name: "max_rss", Unit: "bytes", Runs: []float64{200 * mib, 201 * mib, 199 * mib, 200 * mib, 200 * mib}}}})
	r3 := judgeResources(three, 0, opts)[0].Measure
	if len(r3.VsBase) != 2 || r3.VsBase[0].Verdict != VerdictSame || r3.VsBase[1].Verdict != VerdictWorse || r3.VsBase[1].Side != 2 {
		t.Errorf("three sides: %+v", r3.VsBase)
	}
	// A side whose max RSS is only a bound is not judged.
	bound := resourceSides(map[string][2][]float64{"max_rss": {{100 * mib, 101 * mib, 100 * mib, 99 * mib, 100 * mib}, {150 * mib, 151 * mib, 149 * mib, 150 * mib, 150 * mib}}})
	bound[0].Resources[0].AtMost = true
	if r := judgeResources(bound, 0, opts)[0]; r.Measure.Change.Verdict != VerdictSame || !math.IsNaN(r.Measure.Change.P) || !r.AtMost[0] || r.AtMost[1] {
		t.Errorf("a bound judged: %+v", r)
	}
}
