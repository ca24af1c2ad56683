package diff

import (
	"math"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// threeSides is the unbundled router workload: before as the base, after
// (bucketed routing), and before again as a variant that changed nothing.
func threeSides(t *testing.T, opts Options) (*Report, []Side) {
	t.Helper()
	before := table(t, "node-router-unbundled-before.cpuprofile")
	after := table(t, "node-router-unbundled-after.cpuprofile")
	sides := []Side{
		{Name: "base", Tables: []*analyze.Table{before}},
		{Name: "bucketed", Tables: []*analyze.Table{after}},
		{Name: "again", Tables: []*analyze.Table{before}},
	}
	r, err := Compare(sides, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r, sides
}

func TestSeveralSidesJudgeEachVariantAgainstTheBase(t *testing.T) {
	r, sides := threeSides(t, DefaultOptions())
	if !(r.pairs != nil) || (len(r.Sides) == 2 && r.pairs == nil) || len(r.pairs) != 2 || len(r.Sides) != 3 || r.Base != 0 {
		t.Fatalf("report shape: several %v, compared %v, %d pairs, %d sides, base %d", (r.pairs != nil), (len(r.Sides) == 2 && r.pairs == nil), len(r.pairs), len(r.Sides), r.Base)
	}
	ptr := find(r.Packages, "path-to-regexp", "")
	if ptr == nil || len(ptr.Self.VsBase) != 2 {
		t.Fatalf("path-to-regexp: %+v", ptr)
	}
	if c := ptr.Self.VsBase[0]; c.Side != 1 || c.Verdict != VerdictBetter {
		t.Errorf("bucketed: %+v", c)
	}
	if c := ptr.Self.VsBase[1]; c.Side != 2 || c.Verdict != VerdictSame || c.Delta != 0 {
		t.Errorf("again (the base's own profile): %+v", c)
	}
	if r.Headline.OnCPU.Change.Verdict != VerdictNone {
		t.Errorf("a report of three sides has no one change: %+v", r.Headline.OnCPU.Change)
	}
	// Every side's values are its own: the merged row holds the pair's.
	pair, err := Compare(sides[:2], DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := find(pair.Packages, "path-to-regexp", "")
	if ptr.Self.Mean[0] != want.Self.Mean[0] || ptr.Self.Mean[1] != want.Self.Mean[1] || ptr.Self.Mean[2] != want.Self.Mean[0] {
		t.Errorf("means %v, pair %v", ptr.Self.Mean, want.Self.Mean)
	}
	// The p-value covers both variants: twice the pair's, which covers
	// one.
	if got, one := ptr.Self.VsBase[0].P, want.Self.Change.P; math.Abs(got-math.Min(1, 2*one)) > 1e-15 {
		t.Errorf("p = %v, the pair's alone %v", got, one)
	}
	if got, one := r.Headline.OnCPU.VsBase[0].P, pair.Headline.OnCPU.Change.P; math.Abs(got-math.Min(1, 2*one)) > 1e-15 || r.Headline.OnCPU.VsBase[0].DeltaPct != pair.Headline.OnCPU.Change.DeltaPct {
		t.Errorf("headline p = %v, the pair's alone %v", got, one)
	}
	// Every row of every pair is in the merged table, once.
	keys := map[analyze.Key]bool{}
	for _, row := range r.Functions {
		if keys[row.Key] {
			t.Fatalf("%v twice", row.Key)
		}
		keys[row.Key] = true
	}
	for _, p := range r.pairs {
		for _, row := range p.Functions {
			if !keys[row.Key] {
				t.Fatalf("%v of a pair is missing", row.Key)
			}
		}
	}
}

func TestTwoSidesAreAPair(t *testing.T) {
	r := routerPair(t, DefaultOptions())
	if (r.pairs != nil) || !(len(r.Sides) == 2 && r.pairs == nil) || r.Headline.OnCPU.VsBase != nil {
		t.Fatalf("two sides: several %v, compared %v", (r.pairs != nil), (len(r.Sides) == 2 && r.pairs == nil))
	}
	cs := r.Headline.OnCPU.Changes()
	if len(cs) != 1 || cs[0].Side != 1 || cs[0].Verdict != r.Headline.OnCPU.Change.Verdict {
		t.Errorf("changes of a pair: %+v", cs)
	}
}

func TestAnotherBase(t *testing.T) {
	opts := DefaultOptions()
	opts.Base = 1 // bucketed
	r, _ := threeSides(t, opts)
	if r.Base != 1 || len(r.pairs) != 2 || r.pairs[0].Sides[0].Name != "bucketed" || r.pairs[0].Sides[1].Name != "base" {
		t.Fatalf("base %d, pairs %d", r.Base, len(r.pairs))
	}
	ptr := find(r.Packages, "path-to-regexp", "")
	if c := ptr.Self.VsBase[0]; c.Side != 0 || c.Verdict != VerdictWorse {
		t.Errorf("base against bucketed: %+v", c)
	}
	if _, err := Compare(nil, Options{Base: 0}); err == nil {
		t.Error("no sides: no error")
	}
	if _, err := Compare([]Side{{Name: "a"}}, Options{Base: 1}); err == nil {
		t.Error("a base past the sides: no error")
	}
	_, sides := threeSides(t, DefaultOptions())
	sides[1].Work = 100
	if _, err := Compare(sides, DefaultOptions()); err == nil {
		t.Error("work on one side of three: no error")
	}
}

func TestSpreadVerdicts(t *testing.T) {
	steady := []float64{100, 101, 99, 100.5, 99.5, 100, 101, 99}
	noisy := []float64{100, 120, 80, 110, 90, 125, 75, 100}
	same := []float64{100.2, 101.1, 98.9, 100.4, 99.6, 100.1, 100.9, 99.2}
	m := &Measure{Runs: [][]float64{steady, noisy, same, {100, 130}}}
	got := judgeSpreads(m, 0, 0.05)
	if len(got) != 3 {
		t.Fatalf("%d spread changes for 3 variants", len(got))
	}
	if c := got[0]; c.Side != 1 || c.Verdict != SpreadNoisier || c.Ratio < 10 || !(c.P < 0.05) {
		t.Errorf("noisy: %+v", c)
	}
	if c := got[1]; c.Verdict != SpreadSame {
		t.Errorf("same: %+v", c)
	}
	if c := got[2]; c.Verdict != SpreadUntested || c.Why != "too few runs" || !math.IsNaN(c.P) {
		t.Errorf("two runs: %+v", c)
	}
	// The base against the noisy side is steadier, and the p-value is
	// corrected for the variants: here two were tested.
	back := judgeSpreads(&Measure{Runs: [][]float64{noisy, steady, same}}, 0, 0.05)
	one := judgeSpreads(&Measure{Runs: [][]float64{noisy, steady}}, 0, 0.05)
	if back[0].Verdict != SpreadSteadier || back[0].P <= one[0].P {
		t.Errorf("steadier: %+v, alone %+v", back[0], one[0])
	}
}
