package diff

import (
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// stretchedRun is one run of a V8 profile (one sample per tick) of onMs
// of sampled on-CPU time in samples samples whose median gap is medUs.
func stretchedRun(onMs, samples, medUs int64) *analyze.Table {
	on := onMs * 1_000_000
	t := &analyze.Table{Format: analyze.FormatCPUProfile, Summary: analyze.Summary{
		OnCPUNs: on, SampledNs: on, IntervalNs: on / samples, MedianIntervalNs: medUs * 1000,
		Samples: samples, OnCPUSamples: samples}}
	t.Functions = []analyze.Row{{Key: analyze.Key{Package: "app", Function: "build", File: "/app/app.js", Line: 5, Column: 15},
		Self: on, Total: on, SelfSamples: int32(samples), TotalSamples: int32(samples)}}
	t.Packages = []analyze.Row{{Key: analyze.Key{Package: "app"}, Self: on, Total: on, SelfSamples: int32(samples), TotalSamples: int32(samples)}}
	return t
}

// TestLoadGapWidensTheHeadline: a held-out pair of runs of one build
// (recorded with `profdiff record`, whose record.json counted 1.35 s and
// 1.39 s of process CPU time): the second ran while the machine was busy,
// and its sampled on-CPU time read 1.82 s against 1.15 s (+58%), with 1052
// samples against 908 and about the same median gap. Its samples are
// stretched 1.53x against 1.13x. The headline is ~ and a warning names
// the stretched side; the same runs with no median gap known (the load
// gap unknown) are judged worse, as they were before loadGap, so the
// test fails without it. Two runs stretched alike with the same change
// are still judged worse: a gap in load, not load itself, widens the test.
func TestLoadGapWidensTheHeadline(t *testing.T) {
	judge := func(b, a *analyze.Table) *Report {
		t.Helper()
		r, err := Compare([]Side{{Name: "before", Tables: []*analyze.Table{b}}, {Name: "after", Tables: []*analyze.Table{a}}}, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	loaded := func(r *Report) bool {
		for _, w := range r.Warnings {
			if w.Kind == analyze.WarnLoaded && strings.Contains(w.Message, "side after's samples are stretched more than before's") {
				return true
			}
		}
		return false
	}
	r := judge(stretchedRun(1149, 908, 1120), stretchedRun(1815, 1052, 1129))
	if ch := r.Headline.OnCPU.Change; ch.Verdict != VerdictSame || !loaded(r) {
		t.Errorf("stretched apart: on-CPU %+.0f%% judged %v (p = %.3g), warned %v; want ~ and a warning", ch.DeltaPct, ch.Verdict, ch.P, loaded(r))
	}
	r = judge(stretchedRun(1149, 908, 0), stretchedRun(1815, 1052, 0))
	if ch := r.Headline.OnCPU.Change; ch.Verdict != VerdictWorse || loaded(r) {
		t.Errorf("gaps unknown: on-CPU %+.0f%% judged %v (p = %.3g), warned %v; want worse, no warning", ch.DeltaPct, ch.Verdict, ch.P, loaded(r))
	}
	r = judge(stretchedRun(1149, 908, 1120), stretchedRun(1815, 1434, 1120))
	if ch := r.Headline.OnCPU.Change; ch.Verdict != VerdictWorse || loaded(r) {
		t.Errorf("stretched alike: on-CPU %+.0f%% judged %v (p = %.3g), warned %v; want worse, no warning", ch.DeltaPct, ch.Verdict, ch.P, loaded(r))
	}
}
