package diff

import (
	"math"
	"slices"
)

// ResourceRuns is one measure of a side's runs that the operating system
// took, not the profiler: wall time, user and system CPU time, max RSS,
// page faults, context switches (profdiff record keeps them).
type ResourceRuns struct {
	// Step is the step of the runs measured ("" for whole runs).
	Step string
	// Kind is "profiled" for the compared runs, "unprofiled" for runs
	// made without the profiler (what profiling costs).
	Kind string
	// Name is the measure's name (wall, user, max_rss, ...) and Unit its
	// values' unit: "ns", "bytes" or "count".
	Name, Unit string
	// Runs are the values, one per run, in the order the runs ran.
	Runs []float64
	// AtMost says some of the values are only bounds from above (a max
	// RSS at the floor profdiff's own memory puts under it): the side's
	// measure is not judged.
	AtMost bool
}

// Resource is one measure of every side's runs (Side.Resources), judged
// against the base.
type Resource struct {
	Step, Kind, Name, Unit string
	// Measure has each side's runs and mean (NaN for a side without
	// them); for a pair its Change is the judged change, for more sides
	// VsBase holds one per variant.
	Measure Measure
	// AtMost says, per side, that its values are in part only bounds
	// from above (ResourceRuns.AtMost); nil when no side's are.
	AtMost []bool
}

// resourceFloor is the least mean a resource measure takes in its test,
// per unit, as a half sample stands in for a row with no time: half of
// the smallest step the kernel reports (a count of 0 page faults is
// 0.5, so that a side with none and a side with some are tested, not
// divided by zero).
var resourceFloor = map[string]float64{"ns": 0.5e6, "bytes": 512, "count": 0.5}

// resourcePrior is the prior run-to-run variation of each resource
// measure (the standard deviation of its log over runs of one build), in
// place of the time rows' RunNoise: a run's wall time, system time,
// context switches and page faults move with the machine's load far more
// than its user CPU time does, and with RunNoise (0.15) as every
// measure's prior one run a side judged the same build worse (issue 40:
// a Go run's wall +290%, involuntary context switches +1187%, p 1e-32;
// in bench/calibrate's A/A draws, a measure was flagged in 33-47% of
// reports at one run a side and 2-15.5% at two). Measured on the runs
// bench/calibrate/gen.sh recorded at a load average of 5-8 on the 2-core
// machine (10 + 10 runs of one build each: the Node router workload at
// 1 ms and 250 µs, the Go benchmark), the sd of ln over a set's 20 runs
// (Node 1 ms / 250 µs / Go): wall 0.33/0.35/0.48, user 0.07/0.15/0.12,
// sys 0.13/0.10/0.31, max RSS 0.007/0.013/0.09, minor faults
// 0.03/0.03/0.20, voluntary context switches 0.20/0.25/0.43, involuntary
// 0.65/0.92/0.94 (1.04 over Go's after runs alone); each prior is the
// largest, rounded up to 0.05. Involuntary context switches count the
// times other work took the CPU, a figure of the machine more than of
// the program: four held-out recordings of a small Node program (20 runs
// each) moved by 0.58-1.33, and with a prior of 1.0 one run a side
// flagged them in 13% of A/A draws of the widest; their prior is 1.5.
// Those recordings stay within the others (wall 0.08-0.46, voluntary
// switches 0.06-0.31, sys 0.13-0.16, user 0.06-0.10). Major faults were 0 in
// every run: they keep RunNoise, as does a measure not named here. The
// prior decides one run a side, and weighs three runs at two
// (countPriorWeight); from three runs on, the runs' own spread does.
var resourcePrior = map[string]float64{
	"wall": 0.5, "user": 0.15, "sys": 0.35, "max_rss": 0.1, "minor_faults": 0.2,
	"voluntary_ctx_switches": 0.45, "involuntary_ctx_switches": 1.5,
}

// priorOf is a resource measure's prior run-to-run variation
// (resourcePrior), runNoise for a measure it does not name.
func priorOf(name string, runNoise float64) float64 {
	if p, ok := resourcePrior[name]; ok {
		return p
	}
	return runNoise
}

// judgeResources lines up the sides' resource measures by step, kind and
// name (the base's order first) and judges each side's against the
// base's as the headline's measures are judged: the log-scale t-test of
// the noise model with the measure's run-to-run prior (resourcePrior)
// pooled with the runs' own spread, and Mann-Whitney with rankRuns runs a
// side, but no sampling noise: the kernel counts these, it does not
// sample them. Per
// variant the measures that changed are corrected together (Holm), and
// the variants against each other (Bonferroni), as a table's rows are.
func judgeResources(sides []Side, base int, opts Options) []Resource {
	out := lineUpResources(sides, base)
	if len(out) == 0 || len(sides) < 2 {
		return out
	}
	var variants []int
	for si := range sides {
		if si != base {
			variants = append(variants, si)
		}
	}
	for _, v := range variants {
		changes, ps := testResources(out, base, v, opts)
		holm(ps)
		for i := range out {
			ch := changes[i]
			switch {
			case math.IsNaN(ch.P):
			case math.IsNaN(ps[i]):
				// No change at all: no test, never a verdict but ~; its
				// p-value is the uncorrected one.
			default:
				ch.P = math.Min(1, ps[i]*float64(len(variants)))
			}
			if !math.IsNaN(ch.Delta) {
				ch.Verdict = verdict(ch, opts, false, false, false)
			}
			m := &out[i].Measure
			if len(sides) == 2 && base == 0 { // a pair: two sides, the base first
				m.Change = ch
			} else {
				m.VsBase = append(m.VsBase, ch)
			}
		}
	}
	return out
}

// lineUpResources makes a Resource of each step, kind and name the sides
// measured (the base's order first), with each side's runs and mean (NaN
// for a side without them) and whether its max RSS is only a bound.
func lineUpResources(sides []Side, base int) []Resource {
	type key struct{ step, kind, name string }
	var keys []key
	units := map[key]string{}
	for _, si := range append([]int{base}, seq(len(sides))...) {
		for _, rr := range sides[si].Resources {
			k := key{rr.Step, rr.Kind, rr.Name}
			if _, ok := units[k]; !ok {
				units[k] = rr.Unit
				keys = append(keys, k)
			}
		}
	}
	if len(keys) == 0 {
		return nil
	}
	out := make([]Resource, len(keys))
	for i, k := range keys {
		var atMost []bool
		m := Measure{Mean: make([]float64, len(sides)), Runs: make([][]float64, len(sides)),
			Change: Change{DeltaPP: math.NaN(), DeltaPct: math.NaN(), P: math.NaN()}}
		for si, s := range sides {
			m.Mean[si] = math.NaN()
			for _, rr := range s.Resources {
				if (key{rr.Step, rr.Kind, rr.Name}) == k {
					m.Runs[si] = slices.Clone(rr.Runs)
					if rr.AtMost {
						if atMost == nil {
							atMost = make([]bool, len(sides))
						}
						atMost[si] = true
					}
					if len(rr.Runs) > 0 {
						m.Mean[si] = mean(rr.Runs)
					}
				}
			}
		}
		out[i] = Resource{Step: k.step, Kind: k.kind, Name: k.name, Unit: units[k], Measure: m, AtMost: atMost}
	}
	return out
}

// testResources tests variant v's measures against the base's: each
// change, and the p-values of those past the minimum effect (NaN for the
// others, and for a bound, which is not tested), to be corrected together.
func testResources(out []Resource, base, v int, opts Options) ([]Change, []float64) {
	changes := make([]Change, len(out))
	ps := make([]float64, len(out))
	for i := range out {
		m := &out[i].Measure
		a, b := m.Runs[base], m.Runs[v]
		ch := Change{Delta: math.NaN(), DeltaPP: math.NaN(), DeltaPct: math.NaN(), P: math.NaN(), Side: int32(v)}
		ps[i] = math.NaN()
		bounded := out[i].AtMost != nil && (out[i].AtMost[base] || out[i].AtMost[v])
		if len(a) > 0 && len(b) > 0 && bounded {
			ch = change(m.Mean[base], m.Mean[v], math.NaN())
			ch.Side = int32(v) // a bound is not tested: P stays NaN, the verdict ~
		} else if len(a) > 0 && len(b) > 0 {
			ch = change(m.Mean[base], m.Mean[v], math.NaN())
			ch.Side = int32(v)
			floor := resourceFloor[out[i].Unit]
			prior := priorOf(out[i].Name, opts.RunNoise)
			sa, sb := plainStats(a, prior, floor), plainStats(b, prior, floor)
			if out[i].Unit == "count" {
				sa, sb = sa.counted(len(a)), sb.counted(len(b))
			}
			ch.P = testRuns(a, b, sa, sb)
			if ch.Delta != 0 {
				// Every measure that changed is in the family, as a
				// table's rows are (judgeCounted); the minimum effect
				// gates the verdict alone.
				ps[i] = ch.P
			}
		}
		changes[i] = ch
	}
	return changes, ps
}

// plainStats summarises a side's runs of a measure the kernel counts, as
// sideStatsOf does a row's time but with no sampling noise: the prior's
// run-to-run variation pooled with the runs' own, over a log scale; floor
// is the least mean. The prior stands for the run-to-run part alone, as a
// count's prior stands for its overdispersion alone, and weighs as that
// does (countPriorWeight: three runs up to two, 0.59 at three, 0.08 at
// five), not as a time's (priorWeight, 0.19 at five): with a time's
// weight a wall prior of 0.5 swamped the spread of five runs 3% apart,
// and a real +15.5% of wall at 5 v 5 (testdata/record-power, quiet
// machine) went from p 0.026 to 0.085, while bench/calibrate's A/A draws
// flagged at most 0.5% of reports at any n with either weight (200 draws
// a cell, the three sets of resourcePrior), and at most 0.5% from three
// runs on with RunNoise as every prior.
func plainStats(runs []float64, prior, floor float64) sideStats {
	n := float64(len(runs))
	m := math.Max(mean(runs), floor)
	cv2, df := prior*prior, math.Inf(1)
	if len(runs) >= 2 {
		var ss float64
		for _, x := range runs {
			d := math.Max(x, floor)/m - 1
			ss += d * d
		}
		w := countPriorWeight(len(runs))
		cv2 = (w*prior*prior + ss) / (w + n - 1)
		df = w + n - 1
	}
	return sideStats{mean: m, v: cv2 / n, df: df, cv2: cv2}
}

// counted returns s, a side's statistics of a count of events (page
// faults, context switches), with one run's variance no less than a
// Poisson count's, 1/mean: a count of rare events moves by itself from
// run to run. Without it one major fault against none (the floor of
// 0.5) read as +100% against a prior of 0.15 and was judged worse in 13%
// of one-run A/A draws of a held-out recording (/tmp/heldout/recAA2: one
// run of 20 had a major fault); counts in the thousands are unchanged.
func (s sideStats) counted(runs int) sideStats {
	if p := 1 / s.mean; s.cv2 < p {
		s.cv2, s.v = p, p/float64(runs)
	}
	return s
}

// seq is 0, 1, ..., n-1.
func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
