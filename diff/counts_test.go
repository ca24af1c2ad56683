package diff

import (
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
	after := []int32{356, 362, 350, 366, 358}
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
