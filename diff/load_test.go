package diff

import (
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// stretchedRun is one run of a V8 profile (one sample per tick) of onMs
// of sampled on-CPU time in samples samples whose tick (the lower quartile
// of their gaps) is tickUs.
func stretchedRun(onMs, samples, tickUs int64) *analyze.Table {
	on := onMs * 1_000_000
	t := &analyze.Table{Format: analyze.FormatCPUProfile, Summary: analyze.Summary{
		OnCPUNs: on, SampledNs: on, IntervalNs: on / samples, TickNs: tickUs * 1000,
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
// samples against 908 and about the same tick. Its samples are
// stretched 1.59x against 1.15x. The headline is ~ and a warning names
// the stretched side; the same runs with no tick known (the load
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
	r := judge(stretchedRun(1149, 908, 1096), stretchedRun(1815, 1052, 1083))
	if ch := r.Headline.OnCPU.Change; ch.Verdict != VerdictSame || !loaded(r) {
		t.Errorf("stretched apart: on-CPU %+.0f%% judged %v (p = %.3g), warned %v; want ~ and a warning", ch.DeltaPct, ch.Verdict, ch.P, loaded(r))
	}
	r = judge(stretchedRun(1149, 908, 0), stretchedRun(1815, 1052, 0))
	if ch := r.Headline.OnCPU.Change; ch.Verdict != VerdictWorse || loaded(r) {
		t.Errorf("gaps unknown: on-CPU %+.0f%% judged %v (p = %.3g), warned %v; want worse, no warning", ch.DeltaPct, ch.Verdict, ch.P, loaded(r))
	}
	// Heavier load stretches even the median gap: another pair of the same
	// recording (before run 1, after run 8, 2.5x the sampled time) has ticks
	// of 1101 and 1089 µs but median gaps of 1106 and 1673 µs. By its ticks
	// the gap in load shows and the headline is ~; taken by the medians it
	// hid, and on-CPU was judged worse.
	if ch := judge(stretchedRun(1146, 943, 1101), stretchedRun(2876, 1290, 1089)).Headline.OnCPU.Change; ch.Verdict != VerdictSame {
		t.Errorf("by ticks: on-CPU %+.0f%% judged %v (p = %.3g); want ~", ch.DeltaPct, ch.Verdict, ch.P)
	}
	if ch := judge(stretchedRun(1146, 943, 1106), stretchedRun(2876, 1290, 1673)).Headline.OnCPU.Change; ch.Verdict != VerdictWorse {
		t.Errorf("by median gaps: on-CPU %+.0f%% judged %v (p = %.3g); want worse, the load hidden", ch.DeltaPct, ch.Verdict, ch.P)
	}
	r = judge(stretchedRun(1149, 908, 1096), stretchedRun(1815, 1434, 1096))
	if ch := r.Headline.OnCPU.Change; ch.Verdict != VerdictWorse || loaded(r) {
		t.Errorf("stretched alike: on-CPU %+.0f%% judged %v (p = %.3g), warned %v; want worse, no warning", ch.DeltaPct, ch.Verdict, ch.P, loaded(r))
	}
}
