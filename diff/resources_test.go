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

// recordedSides are two sides of one run each or more, whose resources
// are the measures given (record's eight, by name, with their units).
func recordedSides(a, b map[string][]float64) []Side {
	units := map[string]string{"wall": "ns", "user": "ns", "sys": "ns", "max_rss": "bytes", "minor_faults": "count",
		"major_faults": "count", "voluntary_ctx_switches": "count", "involuntary_ctx_switches": "count"}
	sides := []Side{{Name: "before"}, {Name: "after"}}
	for _, name := range []string{"wall", "user", "sys", "max_rss", "minor_faults", "major_faults", "voluntary_ctx_switches", "involuntary_ctx_switches"} {
		for i, runs := range []map[string][]float64{a, b} {
			sides[i].Resources = append(sides[i].Resources, ResourceRuns{Kind: "profiled", Name: name, Unit: units[name], Runs: runs[name]})
		}
	}
	return sides
}

// TestResourcesSameBuild: two runs of one build (the Go benchmark that
// bench/calibrate/gen.sh recorded, /tmp/profdiff-calibrate/go/before's
// run-03 and run-07, on a loaded 2-core machine) are not judged apart on
// any measure, though the second's wall time is 3.9 times the first's and
// its involuntary context switches 12.9 times: one run a side cannot show
// how far such measures move from run to run (issue 40; with RunNoise
// as every measure's prior, wall, sys and both context switches were
// judged worse).
func TestResourcesSameBuild(t *testing.T) {
	run03 := map[string][]float64{"wall": {7197559206}, "user": {8167981000}, "sys": {261923000}, "max_rss": {35663872},
		"minor_faults": {10495}, "major_faults": {0}, "voluntary_ctx_switches": {4314}, "involuntary_ctx_switches": {1314}}
	run07 := map[string][]float64{"wall": {28060268186}, "user": {12033522000}, "sys": {702659000}, "max_rss": {35770368},
		"minor_faults": {14389}, "major_faults": {0}, "voluntary_ctx_switches": {15062}, "involuntary_ctx_switches": {16910}}
	for _, order := range [][2]map[string][]float64{{run03, run07}, {run07, run03}} {
		for _, r := range judgeResources(recordedSides(order[0], order[1]), 0, Options{}.withDefaults()) {
			if ch := r.Measure.Change; ch.Verdict != VerdictSame {
				t.Errorf("%s %v -> %v: %v (%+.0f%%, p %.3g), want ~", r.Name, r.Measure.Runs[0], r.Measure.Runs[1], ch.Verdict, ch.DeltaPct, ch.P)
			}
		}
	}
}

// TestResourcesConsistentChange: user CPU time 30% longer in every one of
// 5 v 5 runs is judged worse, every other measure the same runs' and ~.
// The runs are rounds 1-5 of the Node and of the Go recordings of
// bench/calibrate/gen.sh (before, and after with its user time made 30%
// longer), whose user time moved 7% (Node) and 12% (Go) between runs of
// one build.
func TestResourcesConsistentChange(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b map[string][]float64
	}{
		{"node", map[string][]float64{
			"wall": {14805829645, 8848391676, 8688193286, 6970541556, 6925876554}, "user": {8208293000, 7278933000, 6539655000, 6358369000, 6710173000},
			"sys": {752154000, 690381000, 551633000, 601140000, 862736000}, "max_rss": {150016000, 153300992, 149602304, 150446080, 151355392},
			"minor_faults": {35659, 35061, 34080, 35234, 35767}, "major_faults": {0, 0, 0, 0, 0},
			"voluntary_ctx_switches": {11106, 8383, 8615, 6895, 6883}, "involuntary_ctx_switches": {7430, 5331, 4917, 3663, 1426}}, map[string][]float64{
			"wall": {8774308039, 10369999016, 7831901816, 6294337358, 7813579762}, "user": {6932764000, 7017301000, 6521935000, 6370243000, 7812878000},
			"sys": {787445000, 605221000, 611431000, 706912000, 892557000}, "max_rss": {152248320, 151531520, 151826432, 149491712, 150704128},
			"minor_faults": {35696, 33602, 33665, 35941, 35623}, "major_faults": {0, 0, 0, 0, 0},
			"voluntary_ctx_switches": {8575, 8843, 7486, 6590, 7826}, "involuntary_ctx_switches": {5349, 5023, 4506, 851, 1256}}},
		{"go", map[string][]float64{
			"wall": {11822188538, 9079913181, 7197559206, 14457939596, 11767885508}, "user": {8506401000, 8519410000, 8167981000, 9082787000, 8309203000},
			"sys": {414465000, 330425000, 261923000, 365561000, 312195000}, "max_rss": {50016256, 35524608, 35663872, 36315136, 35188736},
			"minor_faults": {18893, 10202, 10495, 15491, 11562}, "major_faults": {0, 0, 0, 0, 0},
			"voluntary_ctx_switches": {7056, 5399, 4314, 9417, 7051}, "involuntary_ctx_switches": {9280, 4297, 1314, 11538, 6709}}, map[string][]float64{
			"wall": {14763112321, 8491619976, 9378084736, 13683848718, 27040177769}, "user": {8973078000, 8419120000, 8732022000, 8725322000, 10046680000},
			"sys": {261929000, 316417000, 339421000, 429626000, 543371000}, "max_rss": {35774464, 36716544, 35643392, 37986304, 42946560},
			"minor_faults": {13879, 11644, 13889, 13962, 18535}, "major_faults": {0, 0, 0, 0, 0},
			"voluntary_ctx_switches": {8435, 5117, 5901, 9407, 14139}, "involuntary_ctx_switches": {8925, 3767, 3004, 12724, 17032}}},
	} {
		user := make([]float64, 5)
		for i, x := range tc.b["user"] {
			user[i] = 1.3 * x
		}
		tc.b["user"] = user
		for _, r := range judgeResources(recordedSides(tc.a, tc.b), 0, Options{}.withDefaults()) {
			want := VerdictSame
			if r.Name == "user" {
				want = VerdictWorse
			}
			if ch := r.Measure.Change; ch.Verdict != want {
				t.Errorf("%s %s: %v (%+.0f%%, p %.3g), want %v", tc.name, r.Name, ch.Verdict, ch.DeltaPct, ch.P, want)
			}
		}
	}
}

// TestResourcesTightWall: five runs a side of two programs that truly
// differ, on a quiet machine (testdata/record-power's wall times: runs
// 1-5% apart, the after side 15.5% longer), are judged worse: a wall
// prior of 0.5 must not swamp the spread five runs show (with the weight
// of a time's prior, priorWeight, p was 0.085).
func TestResourcesTightWall(t *testing.T) {
	sides := resourceSides(map[string][2][]float64{"wall": {
		{588669324, 597545965, 642989788, 618903367, 596229106},
		{696773137, 738545344, 739947230, 700607110, 640762224}}})
	if ch := judgeResources(sides, 0, Options{}.withDefaults())[0].Measure.Change; ch.Verdict != VerdictWorse {
		t.Errorf("wall +%.1f%% at 5 v 5: %v (p %.3g), want worse", ch.DeltaPct, ch.Verdict, ch.P)
	}
}

// TestResourcesRareCountIsNotAChange: one major fault against none, one
// run a side (a held-out recording had one in 20 runs), is ~: a count of
// rare events moves by itself. Without the Poisson floor (counted) it
// read +100% against the floor of 0.5 and was judged worse. Ten times as
// many in every one of five runs a side are still judged worse.
func TestResourcesRareCountIsNotAChange(t *testing.T) {
	one := func(v float64) map[string][]float64 {
		m := map[string][]float64{}
		for _, k := range []string{"wall", "user", "sys", "max_rss", "minor_faults", "voluntary_ctx_switches", "involuntary_ctx_switches"} {
			m[k] = []float64{1000}
		}
		m["major_faults"] = []float64{v}
		return m
	}
	for _, r := range judgeResources(recordedSides(one(0), one(1)), 0, Options{}.withDefaults()) {
		if r.Name == "major_faults" && r.Measure.Change.Verdict != VerdictSame {
			t.Errorf("major faults 0 -> 1: %v (p %.3g), want ~", r.Measure.Change.Verdict, r.Measure.Change.P)
		}
	}
	sides := resourceSides(map[string][2][]float64{"major_faults": {{2, 3, 2, 4, 3}, {25, 31, 28, 22, 30}}})
	if ch := judgeResources(sides, 0, Options{}.withDefaults())[0].Measure.Change; ch.Verdict != VerdictWorse {
		t.Errorf("major faults x10 at 5 v 5: %v (p %.3g), want worse", ch.Verdict, ch.P)
	}
}
