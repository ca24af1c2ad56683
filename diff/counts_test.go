package diff

import (
	"fmt"
	"math"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// tickTable is a run of a profile of one sample per tick: function f holds
// fSamples of the run's samples and fNs of its time, g the rest; with
// counted false the run carries no counts (a pprof-like table).
func tickTable(fSamples, samples int32, fNs, onNs int64, counted bool) *analyze.Table {
	t := &analyze.Table{Format: analyze.FormatCPUProfile, Summary: analyze.Summary{
		OnCPUNs: onNs, SampledNs: onNs, IntervalNs: onNs / int64(samples), Samples: int64(samples)}}
	rows := []analyze.Row{
		{Key: analyze.Key{Package: "app", Function: "f", File: "/app/f.js", Line: 1, Column: 1}, Self: fNs, Total: fNs, SelfSamples: fSamples, TotalSamples: fSamples},
		{Key: analyze.Key{Package: "app", Function: "g", File: "/app/g.js", Line: 1, Column: 1}, Self: onNs - fNs, Total: onNs - fNs, SelfSamples: samples - fSamples, TotalSamples: samples - fSamples},
	}
	pkg := []analyze.Row{{Key: analyze.Key{Package: "app"}, Self: onNs, Total: onNs, SelfSamples: samples, TotalSamples: samples}}
	if counted {
		t.Summary.OnCPUSamples = int64(samples)
	} else {
		for _, rs := range [][]analyze.Row{rows, pkg} {
			for i := range rs {
				rs[i].SelfSamples, rs[i].TotalSamples = 0, 0
			}
		}
	}
	t.Functions, t.Packages = rows, pkg
	return t
}

// TestCountsJudgeTicks: a function whose count of samples grew by 20% in
// every one of five runs, within sampling noise, while its sampled time
// (each sample weighing the time to the next, stretched at random by a
// loaded machine) moved by ±40% from run to run, is judged worse on its
// counts; the same runs without counts are not judged. It fails when rows
// are judged on their sample time alone.
func TestCountsJudgeTicks(t *testing.T) {
	before := []int32{300, 290, 310, 296, 304}
	after := []int32{338, 349, 330, 354, 335}
	stretch := []float64{1.0, 1.4, 0.7, 1.25, 0.8} // the sampled time of f's samples, relative
	runs := func(counts []int32, counted bool, flip bool) []*analyze.Table {
		var out []*analyze.Table
		for i, c := range counts {
			k := stretch[i]
			if flip {
				k = stretch[len(stretch)-1-i]
			}
			on := int64(5_000_000_000)
			out = append(out, tickTable(c, 5000, int64(float64(c)*1e6*k), on+int64(float64(c)*1e6*(k-1)), counted))
		}
		return out
	}
	for _, counted := range []bool{true, false} {
		r, err := Compare([]Side{{Name: "before", Tables: runs(before, counted, false)}, {Name: "after", Tables: runs(after, counted, true)}}, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		var f *Row
		for i := range r.Functions {
			if r.Functions[i].Key.Function == "f" {
				f = &r.Functions[i]
			}
		}
		if f == nil {
			t.Fatal("no row f")
		}
		got := f.Self.Change
		if counted && (got.Verdict != VerdictWorse || !(got.P < 0.01)) {
			t.Errorf("counted: f self %+v, want worse at p < 0.01", got)
		}
		if !counted && got.Verdict.Real() {
			t.Errorf("without counts: f self %+v, want ~ (its sampled time is too noisy)", got)
		}
		if math.IsNaN(got.P) {
			t.Errorf("counted %v: f self untested", counted)
		}
	}
}

// TestCountPriorWeighsLessThanATime: a count's prior (its sampling noise
// known, the prior standing only for the overdispersion above it) weighs
// as a time's up to two runs a side, then falls faster.
func TestCountPriorWeighsLessThanATime(t *testing.T) {
	if countPriorWeight(1) != priorRuns || countPriorWeight(2) != priorRuns {
		t.Errorf("countPriorWeight(1), (2) = %v, %v, want %v", countPriorWeight(1), countPriorWeight(2), priorRuns)
	}
	if w := countPriorWeight(5); math.Abs(w-0.0768) > 1e-12 || !(w < priorWeight(5)) {
		t.Errorf("countPriorWeight(5) = %v, want 0.0768, below a time's %v", w, priorWeight(5))
	}
	if countPriorWeight(10) >= countPriorWeight(5) {
		t.Errorf("countPriorWeight(10) = %v, not below five runs'", countPriorWeight(10))
	}
}

// TestConsistentChangeAmongManySmallRows: at five runs a side, a function
// of 6% of on-CPU samples whose count grew by 14% in every after-run
// (within binomial noise of each other) is judged worse (p = 0.041) in a
// table where 60 small functions (0.8% each) moved by ±15%, as a real
// table's hundreds of small rows do. It fails when half of the table's α
// is shared equally among its rows (p = 0.071: the small ones took it and
// gave back nothing) or when the count's prior weighs as a time's at five
// runs (p = 0.25: 0.19 runs of a 26% prior doubled the function's
// variance).
func TestConsistentChangeAmongManySmallRows(t *testing.T) {
	const samples, small = 5000, 60
	before := []int32{300, 286, 312, 294, 305}
	after := []int32{338, 349, 330, 354, 335}
	run := func(f int32, side, i int) *analyze.Table {
		const interval = 1_000_000
		tb := &analyze.Table{Format: analyze.FormatCPUProfile, Summary: analyze.Summary{
			OnCPUNs: samples * interval, SampledNs: samples * interval, IntervalNs: interval, Samples: samples, OnCPUSamples: samples}}
		add := func(name string, c int32) {
			tb.Functions = append(tb.Functions, analyze.Row{Key: analyze.Key{Package: "app", Function: name, File: "/app/" + name + ".js", Line: 1, Column: 1},
				Self: int64(c) * interval, Total: int64(c) * interval, SelfSamples: c, TotalSamples: c})
		}
		rest := samples - f
		add("f", f)
		for k := range small {
			c := int32(40 + (k+i)%5 - 2)
			if (k%2 == 0) == (side == 1) {
				c += 6
			} else {
				c -= 6
			}
			add(fmt.Sprintf("h%d", k), c)
			rest -= c
		}
		add("g", rest)
		tb.Packages = []analyze.Row{{Key: analyze.Key{Package: "app"}, Self: samples * interval, Total: samples * interval, SelfSamples: samples, TotalSamples: samples}}
		return tb
	}
	var sides [2]Side
	for s, counts := range [][]int32{before, after} {
		sides[s].Name = []string{"before", "after"}[s]
		for i, c := range counts {
			sides[s].Tables = append(sides[s].Tables, run(c, s, i))
		}
	}
	r, err := Compare(sides[:], DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range r.Functions {
		if row.Key.Function == "f" {
			if ch := row.Self.Change; ch.Verdict != VerdictWorse {
				t.Errorf("f self %+.1f%% judged %v, p = %.3g; want worse", ch.DeltaPct, ch.Verdict, ch.P)
			}
			return
		}
	}
	t.Fatal("no row f")
}
