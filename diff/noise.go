package diff

import (
	"math"
	"path"
	"slices"
	"strings"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/stats"
)

// The noise model.
//
// A row's time on a side is summarised by the mean over the side's runs
// (per unit of work when given), compared on a log scale: t = (ln after -
// ln before) / sqrt(var before + var after). The variance of one run's
// log value is expected to hold the parts below (the prior); with two or
// more runs a side, the runs' observed variance (which holds them all at
// once) is pooled with that expectation, the prior worth priorWeight(n)
// runs, and the side's variance is the pooled figure over n. The p-value
// is Student's t with the Welch-Satterthwaite degrees of freedom of the
// two sides, each side's being its runs less one plus the prior's weight
// (a side of one run has nothing but the prior, taken as known: normal).
// The prior's weight falls as runs grow (priorWeight): at one or two runs
// a side it is what stands between a verdict and the luck of the draw; at
// five or ten, the runs' own spread is the better figure, and a prior
// that kept weighing like three runs swallowed a tight, consistent change
// (issue 40: +23% in every one of 5 v 5 runs judged ~). The parts:
//
//   - run-to-run variation, the larger part in practice: the corpus's
//     repeated runs of one build differ by 7-20% per package (the machine's
//     speed drifts), which time blocks within one run cannot see
//     (defaultRunNoise);
//   - sampling noise: a row holding N samples would vary by about 1/sqrt(N)
//     if samples fell like a Poisson count; they do not (a function's time
//     comes in bursts, and the JIT moves time between a function and the
//     callees it inlines from one run to the next), so the count's
//     variance is taken as sampleDispersion times N (for a row's counts
//     of samples, which do fall like a binomial count, see countStatsOf,
//     the binomial variance alone). Measured on the
//     router corpus's five runs of each build, function rows between 0.3%
//     and 10% of on-CPU time have a median dispersion of 2.5 and a 90th
//     percentile of 8;
//   - for functions, calls and call-tree nodes, the JIT's choices on top:
//     V8 inlines, tiers up and deoptimizes differently from run to run, so
//     that one function of one build takes 6 ms in one run and 47 ms in
//     the next (lodash's baseGet in the router corpus; a path-to-regexp
//     matcher 2.9 ms and 21 ms), consistently over pairs of runs. Their
//     prior adds attributionNoise, for rows of up to 1% of on-CPU time,
//     shrinking in proportion above (large functions are steadier: cv
//     0.1 at 3-10% in the corpus).
//
// With rankRuns runs a side or more, a row must also pass Mann-Whitney's
// rank test (the larger p-value of the two is kept): with that many runs
// the ranks can settle a change (two-sided p down to 1e-4 at 8 v 8), and
// they cannot be moved by one wild run the way a mean can.
//
// With enough runs a side, the tables of packages, functions and files are
// corrected together over the splits of their runs (permutation.go);
// otherwise, and for the call tree and calls always, each table's
// p-values are corrected with Holm's weighted method over every row that
// changed, each weighing by its share of on-CPU time (a
// row of a few samples weighs almost nothing), the self times two thirds
// of α and the totals one third (selfBlockWeight). The minimum effect
// (Options.MinDeltaPP and MinDeltaPct) gates the verdict, not the family:
// a family of the rows whose change passed it was chosen by the changes
// it then tested, and on a quiet machine, where few rows pass, the few
// noisy ones that did took all of α between them (10 + 10 Node runs of
// one build: 5 v 5 A/A reports flagged a row in 11% of draws, 10 v 10 in
// 21.5%). A side with no time for a row counts as half a sample per run,
// so that "new" and "gone" are tested like any other change.
//
// bench/calibrate measures the model: the share of A/A reports with any
// row flagged and the changes found, at 1 to 10 runs a side (README).

const (
	defaultRunNoise  = 0.15
	priorRuns        = 3
	sampleDispersion = 4
	attributionNoise = 0.4
	rankRuns         = 8
	// minWeight is the least weight (in percent of on-CPU time) a row
	// takes in the weighted correction (see judgeSet).
	minWeight = 0.01
	// uniformWeight is the part of a block's weight in the correction
	// shared equally between its tested rows (the rest goes by share) in
	// a table of packages or files; a function-level table (functions,
	// calls, call-tree nodes) goes by share alone (see judgeCounted).
	uniformWeight = 0.5
	// shareNoise is the prior run-to-run variation of a row's share of
	// its run's on-CPU time.
	shareNoise = 0.2
	// schedulerNoise is the prior run-to-run variation of a row whose time
	// the Go runtime's scheduler sets rather than the build's code (see
	// ScheduledRow): runtime.asyncPreempt's time and its share of the run
	// moved with an sd of ln of 1.0 over the calibration bench's 20 runs
	// of one Go build (0.7% to 14.8% of on-CPU time), far beyond the
	// function prior, and one run a side flagged it in 8.5% of A/A draws.
	schedulerNoise = 1.0
	// selfBlockWeight is the weight of a table's self times in its
	// correction against its totals' 1 (2: two thirds of α): a change
	// lands in the self time of the code that changed, and every caller's
	// total moves with it. Chosen with the family of every row that
	// changed (judgeCounted), on the calibration bench's 10 + 10 Node runs
	// of one build (200 draws a cell): +20% in a function of 6% found at
	// 5 v 5 in 78.0% of draws on a quiet machine (72.5% with the self
	// times weighing as the totals), 56.5% on a loaded one (46.0%, in
	// another stream of draws), A/A reports flagging a row in at most
	// 2.5% at 3, 5 and 10 runs a side either way; 3 gained 1.5 and 0.5
	// points more.
	selfBlockWeight = 2
	// untestedShare is the share of on-CPU time (percent) under which a
	// row that changed less than the minimum effect is left untested in
	// its table's family, with p = 1 (see judgeCounted).
	untestedShare = 1
	// maxRunsNeeded is the most runs a side RunsNeeded names; a change
	// that would need more is reported as not worth the runs (0).
	maxRunsNeeded = 50
)

// priorWeight is how many runs the prior is worth on a side of n runs:
// priorRuns up to two runs, then falling as 2·priorRuns/n (two at three
// runs, 1.2 at five, 0.6 at ten).
func priorWeight(n int) float64 {
	if n <= 2 {
		return priorRuns
	}
	r := 2 / float64(n)
	return priorRuns * r * r * r
}

// countPriorWeight is how many runs the prior of a row's counts of
// samples is worth on a side of n runs: priorRuns up to two runs, then
// falling as priorRuns·(2/n)⁴ (0.59 at three runs, 0.08 at five, 0.005
// at ten), faster than a time's (priorWeight). A count's sampling noise
// is known (binomial), and the prior stands only for the overdispersion
// above it, which five runs already show: at five runs a side the time's
// weight of 0.19 runs still doubled the variance of a function of 300
// samples a run whose runs varied no more than their samples must. In
// the calibration bench (1 ms Node runs, 400 draws at 5 v 5) a +20%
// change in it was found in 22.5% of draws with the time's weight, 54%
// with this one (and α by share in a table of functions, judgeCounted),
// A/A reports flagged 2.2% and 3.0%; priorRuns·(2/n)⁵ found 62% and
// flagged 4.2%, too close to the 5% allowed.
func countPriorWeight(n int) float64 {
	if n <= 2 {
		return priorRuns
	}
	r := 2 / float64(n)
	return priorRuns * r * r * r * r
}

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
	df   float64 // degrees of freedom of v; +Inf for the prior alone
	cv2  float64 // the pooled variance of one run's log value
	// fixed is the part of v that no count of runs lowers (half the
	// sides' gap in load, see loadGap), 0 for most measures.
	fixed float64
}

// withLoad returns s widened by half the variance of a gap in load
// between the sides (see loadGap).
func (s sideStats) withLoad(load float64) sideStats {
	s.fixed = load * load / 2
	s.v += s.fixed
	return s
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
	// pooled with this expectation (worth priorWeight runs) rather than
	// added to it.
	perRun := prior*prior + dispersion*n/math.Max(samples, 0.5)
	cv2, df := perRun, math.Inf(1)
	if len(runs) >= 2 && sum > 0 {
		var ss float64
		for _, x := range runs {
			d := x/mean - 1
			ss += d * d
		}
		s2 := ss / (n - 1)
		w := priorWeight(len(runs))
		cv2 = (w*perRun + (n-1)*s2) / (w + n - 1)
		df = w + n - 1
	}
	return sideStats{mean: mean, v: cv2 / n, df: df, cv2: cv2}
}

// countStatsOf summarises a side's counts of samples of a row (its share
// of each run's samples, in samples of the sides' mean run) whose share
// of the runs is frac: one run's log count varies by the binomial
// sampling noise of its samples, (1 - frac) / samples, which is known,
// plus the run-to-run variation above it, which is not: its estimate is
// the runs' variance less the sampling noise (never below 0) pooled with
// the prior (worth countPriorWeight runs), which expects the count to be
// overdispersed as a time is. The degrees of freedom are those of
// the estimated part alone (Satterthwaite's): when the runs vary no more
// than their samples must, the test is nearly a normal one. That is so at
// one or two runs a side, or when pooled holds nothing; from pooledRuns
// runs, with the table's pooled overdispersion, see below.
func countStatsOf(runs []float64, prior, frac float64, pooled overdispersion) sideStats {
	n := float64(len(runs))
	var sum float64
	for _, x := range runs {
		sum += x
	}
	mean := sum / n
	if mean < 0.5 {
		mean = 0.5
	}
	binom := math.Max(1-frac, 0.01) / mean
	if sum == 0 {
		binom = 1 / mean
	}
	// The prior's run-to-run part: the row's prior, and its samples'
	// overdispersion as sampleDispersion expects of a time (a JIT's
	// deoptimization put 144 samples on a function of 0-6 in one of 20
	// runs at 250 µs): at one or two runs a side this is what a row is
	// held to, and it weighs less as the runs show their own.
	extra, df := prior*prior+(sampleDispersion-1)*binom, math.Inf(1)
	if sum == 0 {
		// No sample at all: the half-sample stand-in is a bound, not a
		// count whose bursts could hide more (as sideStatsOf).
		extra = prior * prior
	}
	w := countPriorWeight(len(runs))
	var ss float64 // the runs' sum of squared relative deviations
	for _, x := range runs {
		d := x/mean - 1
		ss += d * d
	}
	if e, ok := pooled.at(frac); ok && len(runs) >= pooledRuns && sum > 0 {
		// The table's own overdispersion at this size (see
		// overdispersion): the runs' variance, the binomial noise
		// included and never below it, is pooled with the binomial noise
		// plus the table's figure, worth the table's weight (at most
		// twice the side's own runs less one), and the test is Student's
		// t with the runs' degrees of freedom plus the prior's. Taking the
		// binomial part as known and estimating only what is above it
		// (below) judged a row whose runs lay close together by chance on
		// its binomial noise alone: on 10 + 10 quiet Node runs of one
		// build, 5 v 5 A/A reports flagged a row in 11% of draws.
		s2 := math.Max(ss/(n-1), binom)
		w = min(pooled.weight, 2*(n-1))
		cv2 := (w*(binom+e) + (n-1)*s2) / (w + n - 1)
		return sideStats{mean: mean, v: cv2 / n, df: w + n - 1, cv2: cv2}
	}
	if len(runs) >= 2 && sum > 0 {
		s2 := math.Max(ss/(n-1)-binom, 0)
		extra = (w*extra + (n-1)*s2) / (w + n - 1)
		df = w + n - 1
		if extra > 0 {
			cv := binom + extra
			df = cv * cv / (extra * extra / df)
		} else {
			df = math.Inf(1)
		}
	}
	cv2 := binom + extra
	return sideStats{mean: mean, v: cv2 / n, df: df, cv2: cv2}
}

// floored returns s with its variance no lower than the sampling noise
// a row of runs (samples of sampleNs each) holding frac of its runs' time
// must have: a binomial count's, (1 - frac) / samples per run. Few runs
// of a small row can lie close together by chance, and with the prior
// weighing little at ten runs a side their spread alone would be
// believed.
func (s sideStats) floored(runs []float64, sampleNs, frac float64) sideStats {
	var sum float64
	for _, x := range runs {
		sum += x
	}
	n := float64(len(runs))
	samples := math.Max(sum/sampleNs, 0.5*n)
	floor := math.Max(1-frac, 0.01) * n / samples
	if s.cv2 < floor {
		s.cv2, s.v = floor, floor/n
	}
	return s
}

// zTest returns the two-sided p-value of the difference of two sides:
// Student's t with Welch-Satterthwaite degrees of freedom (normal when
// both sides rest on the prior alone).
func zTest(a, b sideStats) float64 {
	t := (math.Log(b.mean) - math.Log(a.mean)) / math.Sqrt(a.v+b.v)
	df := (a.v + b.v) * (a.v + b.v) / (a.v*a.v/a.df + b.v*b.v/b.df)
	if math.IsInf(a.df, 1) && math.IsInf(b.df, 1) || math.IsNaN(df) || math.IsInf(df, 1) || df > 1e6 {
		return math.Erfc(math.Abs(t) / math.Sqrt2)
	}
	return 2 * stats.TCDF(-math.Abs(t), df)
}

// testRuns returns a change's p-value: the t-test of the two sides (see
// zTest), and with rankRuns runs a side or more the larger of that and
// Mann-Whitney's.
func testRuns(a, b []float64, sa, sb sideStats) float64 {
	p := zTest(sa, sb)
	if len(a) >= rankRuns && len(b) >= rankRuns {
		p = max(p, stats.MannWhitney(a, b))
	}
	return p
}

// runsNeededFor returns about how many runs a side would settle a change
// of the size the sides show at the pooled spread of one run (cv2 of
// each), at level alpha: n = (cv2a + cv2b) / ((d/z)² - fixed), fixed the
// variance no count of runs lowers (a gap in load), at least one more than
// the sides have. 0 when the change is nil, when fixed alone hides it, or
// when it would take more than maxRunsNeeded.
func runsNeededFor(a, b sideStats, alpha float64, have int) uint8 {
	d := math.Abs(math.Log(b.mean / a.mean))
	if !(d > 0) || math.IsNaN(alpha) {
		return 0
	}
	z := math.Sqrt2 * math.Erfinv(1-alpha)
	room := (d/z)*(d/z) - a.fixed - b.fixed // what the runs' own variance may be
	if !(room > 0) {
		return 0 // the gap in load alone hides it, however many runs
	}
	n := math.Ceil((a.cv2 + b.cv2) / room)
	n = max(n, float64(have+1), 2)
	if n > maxRunsNeeded {
		return 0
	}
	return uint8(n)
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

// holmWeighted adjusts p-values for testing them all at once with Holm's
// weighted method (Holm 1979, §4), in place: a test of weight w_i is
// rejected at step k when p_i/w_i ≤ α / (the weight of the tests not yet
// rejected), so the chance of any false rejection stays within α for any
// weights fixed before the p-values are seen. NaN entries are left alone
// and not counted; weights must be positive where p is not NaN. Equal
// weights give holm. A +Inf entry is a test in the family that is never
// rejected: its weight counts, it is not sorted (any test ordered after
// it would be adjusted to 1 anyway), and it stays +Inf.
func holmWeighted(p, w []float64) {
	idx := make([]int, 0, len(p))
	var total float64
	for i, x := range p {
		if !math.IsNaN(x) {
			total += w[i]
			if !math.IsInf(x, 1) {
				idx = append(idx, i)
			}
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		x, y := p[a]/w[a], p[b]/w[b]
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	running, left := 0.0, total
	for _, i := range idx {
		adj := math.Min(1, left*p[i]/w[i])
		running = math.Max(running, adj)
		left -= w[i]
		p[i] = running
	}
}

// judgeHeadline judges the headline's on-CPU change, whose runs are scaled
// by scale per side; load is the gap between the sides' load (loadGap)
// for sampled time, 0 for the operating system's figures.
func (c *comparison) judgeHeadline(m *Measure, scale []float64, load float64) {
	t := c.testHeadline(m, scale, load)
	m.Change = change(m.Mean[0], m.Mean[1], math.NaN())
	m.Change.P = c.family(t.p)
	m.Change.Verdict = verdict(m.Change, c.opts, false, false, false)
	c.needs(&m.Change, t.a, t.b, c.opts.Alpha, len(m.Runs[0]), len(m.Runs[1]))
}

// headlineTest is a headline's test before any correction: its p-value
// and the two sides' statistics.
type headlineTest struct {
	p    float64
	a, b sideStats
}

// testHeadline tests a headline's change (see judgeHeadline).
func (c *comparison) testHeadline(m *Measure, scale []float64, load float64) headlineTest {
	a := sideStatsOf(m.Runs[0], c.interval[0], scale[0], c.opts.RunNoise)
	b := sideStatsOf(m.Runs[1], c.interval[1], scale[1], c.opts.RunNoise)
	// The gap in load between the sides is a bias the runs' spread cannot
	// show (every run of a side recorded in a busy spell is stretched
	// alike), so it widens the test at any count of runs.
	a, b = a.withLoad(load), b.withLoad(load)
	return headlineTest{p: testRuns(m.Runs[0], m.Runs[1], a, b), a: a, b: b}
}

// loadGap returns how far apart the two sides' samples are stretched: the
// difference of their runs' mean log stretch (see stretchesOf), 0 when
// not known. Sampled on-CPU time grows with the stretch, which the
// machine's load sets, not the code: in the calibration bench's runs of
// one build without their process CPU time, one run a side flagged the
// headline in 36.5% of A/A draws (1 ms Node) and 10% (250 µs) against a
// prior of RunNoise alone; a held-out pair of runs of one build read
// +58% on-CPU (p = 0.048) at stretches of 1.15 and 1.59, while the
// process CPU time the kernel counted was 1.35 s and 1.39 s.
func (c *comparison) loadGap() float64 {
	if c.runStretch == nil {
		return 0
	}
	return mean(c.runStretch[1]) - mean(c.runStretch[0])
}

// needs fills a change's RunsNeeded when it passes the minimum effect but
// not the test; level is the uncorrected level its p-value would have to
// reach (alpha, or its share of alpha in the correction), and a and b are
// the sides' statistics of its time, whose pooled spread more runs would
// keep.
func (c *comparison) needs(ch *Change, a, b sideStats, level float64, na, nb int) {
	if ch.Verdict.Real() || math.IsNaN(ch.P) || math.IsNaN(ch.DeltaPct) || !passesMinimum(*ch, c.opts) {
		return
	}
	ch.RunsNeeded = runsNeededFor(a, b, level/float64(max(c.opts.families, 1)), max(na, nb))
}

// runsNeeded returns how many runs per side would tell the headline's
// change from noise, when the change is large but not settled; 0
// otherwise.
func (c *comparison) runsNeeded(m Measure) int { return int(m.Change.RunsNeeded) }

// judgeSet judges measures at once, Holm-corrected over the set's
// measures that changed (the minimum effect gates their verdicts, not the
// family: see the model at the top of this file). has says
// whether the key has any time before and after (to tell new and gone);
// eligible, when not nil, leaves more measures out of the test: those
// too small on either side to pass the minimum effect in points.
//
// Function-level measures (functions, calls, tree nodes) take the
// function prior (see functionPrior). kinds splits ms into that many
// blocks of equal length (a table's self measures, then its totals) that
// share the correction: each block's weights are scaled to sum to one
// (the self block's to selfBlockWeight when there are two), so a table
// is one family in which its totals (whose shares add up to many times
// on-CPU time) do not crowd out its self times.
func (c *comparison) judgeSet(ms []*Measure, has func(i int) (before, after bool), eligible func(i int) bool, functionLevel bool, kinds int) {
	c.judgeCounted(ms, nil, nil, has, eligible, functionLevel, kinds)
}

// judgeCounted is judgeSet with each measure's counts of samples, where
// counts (when not nil) has them (not nil): those measures are tested on
// their counts (see timeRuns). scheduled, when not nil, says which
// measures' time the scheduler sets (see ScheduledRow).
func (c *comparison) judgeCounted(ms, counts []*Measure, scheduled []bool, has func(i int) (before, after bool), eligible func(i int) bool, functionLevel bool, kinds int) {
	f := &family{ms: ms, counts: counts, scheduled: scheduled, has: has, eligible: eligible, functionLevel: functionLevel, kinds: kinds}
	c.testFamily(f)
	holmWeighted(f.ps, f.ws)
	c.finishFamily(f)
}

// family is one correction's measures (a table's self measures then its
// totals, kinds 2, or one block), what judges them, and what their tests
// gave: ps, the p-values (NaN out of the family, +Inf in it but never
// rejected), corrected in place; ws, the weights; sts, the two sides'
// statistics of what each tested; same, the totals whose runs are their
// self's (sameAsSelf).
type family struct {
	ms, counts    []*Measure
	scheduled     []bool
	has           func(i int) (before, after bool)
	eligible      func(i int) bool
	functionLevel bool
	kinds         int
	ps, ws        []float64
	sts           [][2]sideStats
	same          []bool
}

// testFamily tests a family's measures, filling its p-values, weights
// and statistics, not yet corrected.
func (c *comparison) testFamily(f *family) {
	ms, counts, scheduled, eligible, functionLevel, kinds := f.ms, f.counts, f.scheduled, f.eligible, f.functionLevel, f.kinds
	ps, ws := make([]float64, len(ms)), make([]float64, len(ms))
	sts := make([][2]sideStats, len(ms))
	f.ps, f.ws, f.sts = ps, ws, sts
	pooled := c.overdispersionOf(counts)
	// A total whose runs are its self's (a leaf, a package whose code
	// calls no other's) is the same hypothesis as the self: one test,
	// the self's, whose verdict the total shares, and no second weight
	// in the family. Tested apart, a leaf package's identical self and
	// total of the router corpus read better and ~ side by side.
	same := sameAsSelf(ms, counts, kinds)
	f.same = same
	// A row that changed but not past the minimum effect can have no
	// verdict, and shows no p-value. It keeps its weight in the family;
	// below 1% of on-CPU time it is not even tested but takes p = 1,
	// never rejected, which holds the others to as strict a level as its
	// own p-value would or stricter (Holm's remaining weight only
	// shrinks when a row is rejected), and saves the test of hundreds of
	// small rows. A heavier one is tested, as its rejection frees much of
	// α for the rest.
	for i, m := range ms {
		ps[i] = math.NaN()
		if eligible != nil && !eligible(i) || same != nil && same[i] {
			continue
		}
		if ch := c.change(m); ch.Delta != 0 {
			ws[i] = max(c.share(m), minWeight)
			if c.share(m) < untestedShare && !passesMinimum(ch, c.opts) {
				ps[i] = math.Inf(1) // in the family, never rejected (holmWeighted)
				continue
			}
			var n *Measure
			if counts != nil {
				n = counts[i]
			}
			ps[i], sts[i] = c.test(m, n, functionLevel, scheduled != nil && scheduled[i], pooled)
		}
	}
	kinds = max(kinds, 1)
	uniform := uniformWeight
	if functionLevel {
		uniform = 0
	}
	if size := len(ms) / kinds; size > 0 {
		for k := 0; k < kinds; k++ {
			var sum float64
			n := 0
			for i := k * size; i < (k+1)*size; i++ {
				if !math.IsNaN(ps[i]) {
					sum += ws[i]
					n++
				}
			}
			// A block's weight by share, a heavy row getting more of α,
			// and in a table of packages or files half of it shared
			// equally, so that a small row with a clear change keeps
			// enough to be found. Not in a function-level table
			// (functions, calls, call-tree nodes): its hundreds of small
			// rows took half of α and gave back almost
			// no finding (in the calibration bench, 1 ms Node runs, 400
			// draws at 5 v 5, a +20% change in a function of 5% of
			// on-CPU time was found in 45% of draws with half shared
			// equally, 54% by share alone, A/A reports flagged 4.5% and
			// 3.0%). Packages keep it: by share alone, lodash's time 17%
			// lower in every after-run of the router corpus's 5 v 5
			// (unchanged code, the run 25% shorter) was judged better.
			block := 1.0
			if kinds == 2 && k == 0 {
				block = selfBlockWeight
			}
			for i := k * size; i < (k+1)*size && sum > 0; i++ {
				if !math.IsNaN(ps[i]) {
					ws[i] = block * (uniform*(1/float64(n)) + (1-uniform)*ws[i]/sum)
				}
			}
		}
	}
}

// finishFamily sets a family's changes and verdicts from its corrected
// p-values.
func (c *comparison) finishFamily(f *family) {
	ms, ps, ws, sts, same, has := f.ms, f.ps, f.ws, f.sts, f.same, f.has
	var total float64
	for i := range ms {
		if !math.IsNaN(ps[i]) {
			total += ws[i]
		}
	}
	for i := range same {
		if same[i] {
			self := i - len(ms)/2
			ps[i], ws[i], sts[i] = ps[self], ws[self], sts[self]
		}
	}
	for i, m := range ms {
		m.Change = c.change(m)
		if math.IsInf(ps[i], 1) || !math.IsNaN(ps[i]) && !passesMinimum(m.Change, c.opts) {
			ps[i] = math.NaN() // no verdict possible: no p-value to show
		}
		m.Change.P = c.family(ps[i])
		before, after := has(i)
		m.Change.Verdict = verdict(m.Change, c.opts, true, !before, !after)
		if !math.IsNaN(ps[i]) {
			// The row's first-step level in the weighted correction,
			// halved for the two tests (time and share) more runs give.
			c.needs(&m.Change, sts[i][0], sts[i][1], c.opts.Alpha*ws[i]/total/2, len(m.Runs[0]), len(m.Runs[1]))
		}
	}
}

// sameAsSelf says which of ms, a table's self measures then its totals
// (kinds 2), are totals whose runs (and counts of samples, when counted)
// are their self's, run for run; nil for other kinds.
func sameAsSelf(ms, counts []*Measure, kinds int) []bool {
	if kinds != 2 {
		return nil
	}
	same := make([]bool, len(ms))
	size := len(ms) / 2
	equal := func(a, b *Measure) bool {
		for s := range a.Runs {
			if !slices.Equal(a.Runs[s], b.Runs[s]) {
				return false
			}
		}
		return true
	}
	for i := size; i < 2*size; i++ {
		same[i] = equal(ms[i], ms[i-size]) && (counts == nil || counts[i] == nil || equal(counts[i], counts[i-size]))
	}
	return same
}

// passesMinimum reports whether a row's change is at least the minimum
// effect (in points of on-CPU time, where it has them, and in percent
// where before is not 0): the changes a test can make real.
func passesMinimum(c Change, opts Options) bool {
	if c.Delta == 0 {
		return false
	}
	if !math.IsNaN(c.DeltaPP) && math.Abs(c.DeltaPP) < opts.MinDeltaPP {
		return false
	}
	return math.IsNaN(c.DeltaPct) || math.Abs(c.DeltaPct) >= opts.MinDeltaPct
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
	p, _ := c.test(m, nil, functionLevel, false, overdispersion{})
	return p
}

// test returns pValue and the two sides' statistics of what it tested
// (its time, or its share of the runs' samples when counted); n, when
// not nil, holds the measure's counts of samples (Row.samples).
//
// Counted (runs of one sample per tick: V8, Chrome traces), a row is
// tested on its share of each run's on-CPU samples by count alone
// (countStatsOf), unless the whole run changed (below), when its time is
// tested as its share of the run's samples times the run's time (process
// CPU time, or sampled on-CPU time). A loaded machine stretches the time
// between ticks, and a sample's time lands on whatever was on top: in the
// calibration bench's runs, the share by sample time of a function of
// 5-10% of on-CPU time moved 12-15% from run to run, its share by count
// 5-6%, about the binomial noise of its count (bench/calibrate -spread).
//
// Otherwise (pprof and folded samples hold counts of ticks in their
// weight already, so that their time is their count):
// A row is tested twice: on its time, and on its share of each run's
// on-CPU time (scaled to the two sides' mean on-CPU time, so that the
// sampling noise reads the same). Most run-to-run noise is common to the
// whole run (a loaded machine slows every row at once: ../shared's
// noise.md measured time CVs of 5-10% against share CVs of 0.5-6% on the
// same runs), and the share cancels it; but a change that makes a row
// that dominates the run slower hardly moves its share, which the time
// shows. The row takes the smaller p-value of the two, doubled
// (Bonferroni over the two tests); when a side has a single run, the
// share's alone. A share counts only when it moved the way the time did:
// when one row's time falls by a second, every other row's share rises.
// Nor does it count when the whole run changed (the judged headline
// better or worse): every row's share then moves by the run's change, and
// a row whose time is the same reads as a change (the router corpus at
// 5 v 5: on-CPU time 25% lower, the node package's self time +5%, its
// share +46%, judged worse with p = 0.006); rows are judged on their time
// alone then, at the level of two tests as when the share says nothing
// for other reasons (lodash and marked there, their time 17% and 13% lower
// in every after-run, p = 0.032 and 0.037 taken alone, stayed ~ at 0.065
// and 0.074 under Holm's method; the runs' splits, which that 5 v 5 now
// takes, judge them better at 0.024, their runs separating entirely: see
// permutation.go).
func (c *comparison) test(m, n *Measure, functionLevel, scheduled bool, pooled overdispersion) (float64, [2]sideStats) {
	share := c.share(m)
	prior, sharePrior := c.opts.RunNoise, shareNoise
	if functionLevel {
		prior = functionPrior(prior, share)
		sharePrior = functionPrior(sharePrior, share)
	}
	if scheduled {
		prior, sharePrior = max(prior, schedulerNoise), max(sharePrior, schedulerNoise)
	}
	frac := min(share/100, 1)
	if n != nil {
		frac = min(c.countShare(n), 1)
	}
	ta, ua := c.timeRuns(m, n, 0)
	tb, ub := c.timeRuns(m, n, 1)
	a := sideStatsOf(ta, ua, 1, prior).floored(ta, ua, frac)
	b := sideStatsOf(tb, ub, 1, prior).floored(tb, ub, frac)
	p := testRuns(ta, tb, a, b)
	if (b.mean > a.mean) != (m.Mean[1] > m.Mean[0]) {
		// Counted, the time can move the other way than the time the
		// report shows (the verdict's direction): it says nothing then.
		p = 1
	}
	if c.runOnCPU == nil {
		return p, [2]sideStats{a, b}
	}
	if c.wholeMoved {
		// The share says nothing (as one that moved the other way): the
		// time alone, held to the level of the two tests from two runs a
		// side, as when the share spoke.
		if len(m.Runs[0]) == 1 || len(m.Runs[1]) == 1 {
			return p, [2]sideStats{a, b}
		}
		return math.Min(1, 2*p), [2]sideStats{a, b}
	}
	// More than half of on-CPU time (of its samples, counted).
	rest := (m.Mean[0] + m.Mean[1]) > (c.onCPU[0]+c.onCPU[1])/2
	if n != nil {
		rest = (n.Mean[0] + n.Mean[1]) > (mean(c.runSamples[0])+mean(c.runSamples[1]))/2
	}
	ra, sua := c.shareRuns(m, n, 0, rest)
	rb, sub := c.shareRuns(m, n, 1, rest)
	if rest {
		frac = 1 - frac
	}
	sa := sideStatsOf(ra, sua, 1, sharePrior).floored(ra, sua, frac)
	sb := sideStatsOf(rb, sub, 1, sharePrior).floored(rb, sub, frac)
	if n != nil {
		sa, sb = countStatsOf(ra, sharePrior, frac, pooled), countStatsOf(rb, sharePrior, frac, pooled)
	}
	ps := testRuns(ra, rb, sa, sb)
	// The verdict's direction is the time's: a share that moved the other
	// way (a row whose time fell a little while the rest fell more) says
	// nothing for it.
	up := sb.mean > sa.mean
	if rest {
		up = !up
	}
	if up != (m.Mean[1] > m.Mean[0]) {
		ps = 1
	}
	if n != nil {
		// Counted, the share is the test: it holds what the time (its
		// share times the run's) knows of the row, without the run's
		// noise, and a second test would only halve its level.
		return ps, [2]sideStats{sa, sb}
	}
	if len(m.Runs[0]) == 1 || len(m.Runs[1]) == 1 {
		// A side of one run shows nothing of the run-to-run noise that
		// moves every row's time at once (two runs of one build on a
		// loaded machine differ by 75% in the bench), and only the share
		// cancels it.
		return ps, [2]sideStats{a, b}
	}
	return math.Min(1, 2*math.Min(p, ps)), [2]sideStats{a, b}
}

// countShare returns the larger side's share of its runs' on-CPU samples
// of a row's counts n, as a fraction.
func (c *comparison) countShare(n *Measure) float64 {
	big := 0.0
	for si, v := range n.Mean {
		if on := mean(c.runSamples[si]); on > 0 {
			big = max(big, v/on)
		}
	}
	return big
}

// timeRuns returns a side's runs of a row as the time tested, with the
// time one sample of them stands for: as sampled, or, when the runs carry
// their process CPU time, the row's share of each run's sampled on-CPU
// time times that run's process CPU time. On a loaded machine the
// profiler's clock keeps running while the process waits for a CPU: in
// the shared check's two programs at a load average of 7 on 2 CPUs, five
// runs' sampled on-CPU time went 511-1031 ms while their process CPU time
// went 562-604 ms. The share keeps what the samples tell apart, the
// kernel's figure what the process spent.
//
// With the row's counts of samples n (runs of one sample per tick), the
// share is by count: a loaded machine stretches the time between two
// ticks (a sample of 215 ms in the bench's runs lands on whatever was on
// top), and the share by sample time of a function of 5% of on-CPU time
// moved 8.5-17% from run to run where its share by count moved 3-7%
// (bench/calibrate -spread). The run's time it is a share of is the
// process CPU time, or else the run's sampled on-CPU time.
func (c *comparison) timeRuns(m, n *Measure, side int) ([]float64, float64) {
	runs := m.Runs[side]
	if n == nil && c.runProcess == nil {
		return runs, c.interval[side] * c.scale[side]
	}
	out := make([]float64, len(runs))
	var total, samples float64
	for i, v := range runs {
		on, whole := c.runOnCPU[side][i], c.runOnCPU[side][i]
		if c.runProcess != nil {
			whole = c.runProcess[side][i]
		}
		if n != nil {
			v, on = n.Runs[side][i], c.runSamples[side][i]
			total, samples = total+whole, samples+on
		}
		if on > 0 {
			out[i] = v / on * whole
		}
	}
	if n == nil {
		return out, c.interval[side] * c.scale[side]
	}
	return out, total / max(samples, 1)
}

// shareRuns returns a side's runs of a row as shares of each run's
// on-CPU time (by count of samples with the row's counts n), times the
// two sides' mean on-CPU time (count), with the time (count) one sample
// of them stands for; with rest, the share of the rest of each run
// instead: a row that holds most of the run (a main function's total) can
// move only as much as what is left of it, and what is left is the count
// whose sampling noise and relative change are the row's.
func (c *comparison) shareRuns(m, n *Measure, side int, rest bool) ([]float64, float64) {
	runs, on, k, unit := m.Runs[side], c.runOnCPU[side], (c.onCPU[0]+c.onCPU[1])/2, c.interval[side]*c.scale[side]
	if n != nil {
		runs, on, unit = n.Runs[side], c.runSamples[side], 1
		k = (mean(c.runSamples[0]) + mean(c.runSamples[1])) / 2
	}
	out := make([]float64, len(runs))
	for i, v := range runs {
		if on[i] > 0 {
			if rest {
				v = max(on[i]-v, 0)
			}
			out[i] = v / on[i] * k
		}
	}
	return out, unit
}

// judge returns a call's change with its verdict, given its p-value
// corrected over the calls (NaN when untested), as judgeSet judges.
func (c *comparison) judge(m *Measure, p float64) Change {
	ch := c.change(m)
	ch.P = c.family(p)
	ch.Verdict = verdict(ch, c.opts, true, !(m.Mean[0] > 0), !(m.Mean[1] > 0))
	return ch
}

// judgeRows judges a table's self and total changes, corrected over the
// table as one family (its self and total times sharing it equally): the
// calibration bench's A/A reports at ten runs a side flagged a row in 9%
// of draws with the two judged as families of their own.
func (c *comparison) judgeRows(rows []Row, functionLevel bool) {
	f := rowsFamily(rows, functionLevel)
	c.testFamily(f)
	holmWeighted(f.ps, f.ws)
	c.finishFamily(f)
}

// rowsFamily returns a table's rows as one family, untested: their self
// measures, then their totals (kinds 2).
func rowsFamily(rows []Row, functionLevel bool) *family {
	ms := make([]*Measure, 2*len(rows))
	var counts []*Measure
	for i := range rows {
		ms[i], ms[len(rows)+i] = &rows[i].Self, &rows[i].Total
		if n := rows[i].samples; n != nil {
			if counts == nil {
				counts = make([]*Measure, 2*len(rows))
			}
			counts[i], counts[len(rows)+i] = &n.Self, &n.Total
		}
	}
	var scheduled []bool
	for i := range rows {
		if ScheduledRow(rows[i].Key) {
			if scheduled == nil {
				scheduled = make([]bool, 2*len(rows))
			}
			scheduled[i], scheduled[len(rows)+i] = true, true
		}
	}
	has := func(i int) (bool, bool) {
		r := &rows[i%len(rows)]
		return r.Total.Mean[0] > 0, r.Total.Mean[1] > 0
	}
	return &family{ms: ms, counts: counts, scheduled: scheduled, has: has, functionLevel: functionLevel, kinds: 2}
}

// ScheduledRow reports whether a function's or file's time is set by the
// Go runtime's scheduler rather than by the build's code: Go's
// asynchronous preemption handler, runtime.asyncPreempt, whose file
// (runtime/preempt_<arch>.s, generated by mkpreempt.go) holds nothing
// else. A CPU sample lands in it while a goroutine the scheduler
// preempts saves its registers, so its time follows how often the
// scheduler preempts, which the machine's load sets: 0.7% to 14.8% of
// on-CPU time over 20 runs of one build in the calibration bench. Such a
// row is tested with the prior schedulerNoise.
func ScheduledRow(k analyze.Key) bool {
	if k.Package != "runtime" {
		return false
	}
	if k.Function != "" {
		return k.Function == "runtime.asyncPreempt"
	}
	base := path.Base(k.File)
	return strings.HasPrefix(base, "preempt_") && strings.HasSuffix(base, ".s")
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
