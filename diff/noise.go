package diff

import (
	"github.com/profdiff/profdiff/stats"
	"math"
	"slices"
)

// The noise model.
//
// A row's time on a side is summarised by the mean over the side's runs
// (per unit of work when given), compared on a log scale: z = (ln after -
// ln before) / sqrt(var before + var after), two-sided normal p-value. The
// variance of one run's log value is expected to hold the parts below;
// with two or more runs a side, the runs' observed variance (which holds
// them all at once) is pooled with that expectation, worth priorRuns
// runs, and the side's variance is the pooled figure over n:
//
//   - run-to-run variation, the larger part in practice: the corpus's
//     repeated runs of one build differ by 7-20% per package (the machine's
//     speed drifts), which time blocks within one run cannot see. Its
//     coefficient of variation is estimated from the side's runs, pooled
//     with a prior (defaultRunNoise, worth priorRuns runs) so that one or
//     two runs per side still get a sensible figure;
//   - sampling noise: a row holding N samples would vary by about 1/sqrt(N)
//     if samples fell like a Poisson count; they do not (a function's time
//     comes in bursts, and the JIT moves time between a function and the
//     callees it inlines from one run to the next), so the count's
//     variance is taken as sampleDispersion times N. Measured on the
//     router corpus's five runs of each build, function rows between 0.3%
//     and 10% of on-CPU time have a median dispersion of 2.5 and a 90th
//     percentile of 8; 4 keeps every A/A pair of the corpus clean while
//     the router change is still found from one run per side;
//   - for functions, calls and call-tree nodes, the JIT's choices on top:
//     V8 inlines, tiers up and deoptimizes differently from run to run, so
//     that one function of one build takes 6 ms in one run and 47 ms in
//     the next (lodash's baseGet in the router corpus; a path-to-regexp
//     matcher 2.9 ms and 21 ms), consistently over pairs of runs. Their
//     prior adds attributionNoise, for rows of up to 1% of on-CPU time,
//     shrinking in proportion above (large functions are steadier: cv
//     0.1 at 3-10% in the corpus).
//
// Each table's p-values are corrected with Holm's method over all its rows,
// and a row is only called better or worse when its change also exceeds the
// minimum effect (Options.MinDeltaPP and MinDeltaPct). A side with no time
// for a row counts as half a sample per run, so that "new" and "gone" are
// tested like any other change.

const (
	defaultRunNoise  = 0.15
	priorRuns        = 3
	sampleDispersion = 4
	attributionNoise = 0.4
)

// functionPrior returns the prior run-to-run variation of a function-level
// measure whose larger side holds share percent of on-CPU time.
func functionPrior(runNoise, share float64) float64 {
	a := attributionNoise * attributionNoise
	if share > 1 {
		a /= share
	}
	return math.Sqrt(runNoise*runNoise + a)
}

// sideStats is one side's values of a row.
type sideStats struct {
	mean float64 // per run, per unit of work when given
	v    float64 // variance of ln(mean)
}

// sideStatsOf summarises runs (already per unit of work) of a side whose samples
// stand for intervalNs each (scaled to the same unit by unitScale).
func sideStatsOf(runs []float64, intervalNs, unitScale, prior float64) sideStats {
	n := float64(len(runs))
	var sum float64
	for _, x := range runs {
		sum += x
	}
	mean := sum / n
	half := 0.5 * intervalNs * unitScale // half a sample per run
	samples := sum / (intervalNs * unitScale)
	if mean < half {
		mean, samples = half, 0.5*n
	}
	dispersion := float64(sampleDispersion)
	if sum == 0 {
		// No sample at all: the half-sample stand-in is a bound, not a
		// count whose bursts could hide more.
		dispersion = 1
	}
	// The expected variance of one run's log value: run-to-run variation
	// plus the sampling noise of one run's samples. Runs observed on the
	// side show both at once, so with two or more runs their variance is
	// pooled with this expectation (worth priorRuns runs) rather than
	// added to it: five clearly separated runs a side settle a change
	// that one run each cannot.
	perRun := prior*prior + dispersion*n/math.Max(samples, 0.5)
	cv2 := perRun
	if len(runs) >= 2 && sum > 0 {
		var ss float64
		for _, x := range runs {
			d := x/mean - 1
			ss += d * d
		}
		s2 := ss / (n - 1)
		cv2 = (priorRuns*perRun + (n-1)*s2) / (priorRuns + n - 1)
	}
	return sideStats{mean: mean, v: cv2 / n}
}

// zTest returns the two-sided p-value of the difference of two sides.
func zTest(a, b sideStats) float64 {
	z := (math.Log(b.mean) - math.Log(a.mean)) / math.Sqrt(a.v+b.v)
	return math.Erfc(math.Abs(z) / math.Sqrt2)
}

// holm adjusts p-values for testing them all at once (Holm-Bonferroni),
// in place. NaN entries are left alone and not counted.
func holm(p []float64) {
	idx := make([]int, 0, len(p))
	for i, x := range p {
		if !math.IsNaN(x) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case p[a] < p[b]:
			return -1
		case p[a] > p[b]:
			return 1
		}
		return 0
	})
	m := len(idx)
	running := 0.0
	for rank, i := range idx {
		adj := math.Min(1, float64(m-rank)*p[i])
		running = math.Max(running, adj)
		p[i] = running
	}
}

// judgeHeadline judges the headline's on-CPU change, whose runs are scaled
// by scale per side.
func (c *comparison) judgeHeadline(m *Measure, scale []float64) {
	a := sideStatsOf(m.Runs[0], c.interval[0], scale[0], c.opts.RunNoise)
	b := sideStatsOf(m.Runs[1], c.interval[1], scale[1], c.opts.RunNoise)
	m.Change = change(m.Mean[0], m.Mean[1], math.NaN())
	m.Change.P = c.family(zTest(a, b))
	m.Change.Verdict = verdict(m.Change, c.opts, false, false, false)
}

// runsNeeded returns how many runs per side would tell a headline change
// of this size from noise, when a side has a single run and the change is
// not settled; 0 otherwise.
func (c *comparison) runsNeeded(m Measure) int {
	if m.Change.Verdict.Real() || (len(m.Runs[0]) > 1 && len(m.Runs[1]) > 1) || m.Mean[0] <= 0 || m.Mean[1] <= 0 {
		return 0
	}
	if math.Abs(m.Change.DeltaPct) < c.opts.MinDeltaPct {
		return 0 // below the minimum effect: no number of runs makes it count
	}
	d := math.Abs(math.Log(m.Mean[1] / m.Mean[0]))
	// var(ln mean) is about cv²/n per side at the prior's run noise.
	z := 1.959964
	n := math.Ceil(2 * c.opts.RunNoise * c.opts.RunNoise * (z / d) * (z / d))
	return int(max(n, 2))
}

// judgeSet judges measures at once, Holm-corrected over the set. has
// says whether the key has any time before and after (to tell new and
// gone); eligible, when not nil, leaves out of the test the measures that
// cannot pass the minimum effect whatever their p-value, so that they do
// not dilute the correction.
//
// Function-level measures (functions, calls, tree nodes) take the
// function prior (see functionPrior).
func (c *comparison) judgeSet(ms []*Measure, has func(i int) (before, after bool), eligible func(i int) bool, functionLevel bool) {
	ps := make([]float64, len(ms))
	for i, m := range ms {
		ps[i] = math.NaN()
		if eligible == nil || eligible(i) {
			ps[i] = c.pValue(m, functionLevel)
		}
	}
	holm(ps)
	for i, m := range ms {
		m.Change = c.change(m)
		m.Change.P = c.family(ps[i])
		before, after := has(i)
		m.Change.Verdict = verdict(m.Change, c.opts, true, !before, !after)
	}
}

// change returns a measure's change between the two sides, in ns and in
// points of on-CPU time, not yet tested.
func (c *comparison) change(m *Measure) Change {
	pp := math.NaN()
	if c.onCPU[0] > 0 && c.onCPU[1] > 0 {
		pp = 100 * (m.Mean[1]/c.onCPU[1] - m.Mean[0]/c.onCPU[0])
	}
	return change(m.Mean[0], m.Mean[1], pp)
}

// pValue tests a measure's change between the two sides, before any
// correction; functionLevel takes the prior of a function's time.
func (c *comparison) pValue(m *Measure, functionLevel bool) float64 {
	prior := c.opts.RunNoise
	if functionLevel {
		prior = functionPrior(prior, c.share(m))
	}
	return zTest(sideStatsOf(m.Runs[0], c.interval[0], c.scale[0], prior), sideStatsOf(m.Runs[1], c.interval[1], c.scale[1], prior))
}

// judge returns a call's change with its verdict, given its p-value
// corrected over the calls (NaN when untested), as judgeSet judges.
func (c *comparison) judge(m *Measure, p float64) Change {
	ch := c.change(m)
	ch.P = c.family(p)
	ch.Verdict = verdict(ch, c.opts, true, !(m.Mean[0] > 0), !(m.Mean[1] > 0))
	return ch
}

// judgeRows judges a table's self and total changes, each corrected over
// the table.
func (c *comparison) judgeRows(rows []Row, functionLevel bool) {
	self, total := make([]*Measure, len(rows)), make([]*Measure, len(rows))
	for i := range rows {
		self[i], total[i] = &rows[i].Self, &rows[i].Total
	}
	has := func(i int) (bool, bool) { return rows[i].Total.Mean[0] > 0, rows[i].Total.Mean[1] > 0 }
	c.judgeSet(self, has, nil, functionLevel)
	c.judgeSet(total, has, nil, functionLevel)
}

// share returns the larger side's share of on-CPU time of a measure, in
// percent.
func (c *comparison) share(m *Measure) float64 {
	big := 0.0
	for i, v := range m.Mean {
		if c.onCPU[i] > 0 {
			big = max(big, 100*v/c.onCPU[i])
		}
	}
	return big
}

// eligible reports whether a measure is large enough on some side to pass
// the minimum effect in points of on-CPU time.
func (c *comparison) eligible(m *Measure) bool { return c.share(m) >= c.opts.MinDeltaPP }

// family widens a pair's corrected p-value for the variants judged against
// the same base (Bonferroni over them), so that the chance of any false
// verdict in the whole report stays within alpha.
func (c *comparison) family(p float64) float64 {
	if c.opts.families > 1 && !math.IsNaN(p) {
		return math.Min(1, p*float64(c.opts.families))
	}
	return p
}

// spread returns the standard deviation of runs (NaN with fewer than two):
// the ± users write beside a mean.
func spread(runs []float64) float64 { return stats.StdDev(runs) }

func mean(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// change fills the deltas of a comparison of before and after.
func change(before, after, pp float64) Change {
	c := Change{Delta: after - before, DeltaPP: pp, DeltaPct: math.NaN(), P: math.NaN()}
	if before > 0 {
		c.DeltaPct = 100 * (after - before) / before
	}
	return c
}

// verdict decides a change's verdict from its corrected p-value and size;
// appeared and vanished say the key has no time at all before, or after.
func verdict(c Change, opts Options, row, appeared, vanished bool) Verdict {
	if c.Delta == 0 {
		return VerdictSame
	}
	if row && !math.IsNaN(c.DeltaPP) && math.Abs(c.DeltaPP) < opts.MinDeltaPP {
		return VerdictSame
	}
	if !math.IsNaN(c.DeltaPct) && math.Abs(c.DeltaPct) < opts.MinDeltaPct {
		return VerdictSame
	}
	if math.IsNaN(c.P) || c.P >= opts.Alpha {
		return VerdictSame
	}
	switch {
	case appeared:
		return VerdictNew
	case vanished:
		return VerdictGone
	case c.Delta < 0:
		return VerdictBetter
	}
	return VerdictWorse
}
