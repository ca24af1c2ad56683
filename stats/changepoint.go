package stats

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
)

// Series is one measure (the headline, or one function's, package's or
// file's time) over the points of a history, oldest first: each point
// holds that point's values, one per run. A point with no runs is missing
// (a commit that was not run, or whose runs were lost): it is skipped, not
// read as zero. NaN and infinite values are dropped as if the run were
// missing.
type Series [][]float64

// ChangePointOptions tune ChangePoints. The zero value of a field takes
// its default. Material and Floor are called from several goroutines at
// once, so they must be safe for concurrent use (pure functions of their
// arguments are).
type ChangePointOptions struct {
	// Alpha is the family-wise false-alarm rate over all the series
	// tested together: on a history where nothing changed, the chance
	// that any change point is reported at all is at most Alpha (under
	// the assumption that runs of one build are exchangeable). Default
	// 0.05.
	Alpha float64
	// Permutations is how many random permutations of the runs each round
	// of tests draws for its null distribution. Default 2000.
	Permutations int
	// Seed seeds the permutations: the same series, options and seed give
	// the same change points.
	Seed uint64
	// MinSegment is the fewest points (with runs) on each side of a
	// change. Default 1.
	MinSegment int
	// Material reports whether a change of series s from a mean of before
	// to a mean of after is big enough to report: the caller's min-delta
	// floors (say at least 5% and at least 0.1 percentage points of
	// on-CPU time). Splits that are not material are not change points,
	// neither in the data nor in its permutations. Nil counts every
	// change as material.
	Material func(s int, before, after float64) bool
	// Floor is the least variance one run's value of series s can have,
	// as a function of the mean of the runs it is drawn from: for a time
	// T measured by sampling at an interval dt, about T·dt (a count of
	// samples is Poisson). The variance of a difference of means is never
	// taken below what the floors of its two sides give. It keeps
	// constant and mostly-zero series from giving infinite statistics:
	// five samples in one run and none in the nine others is no evidence
	// of a change, but its spread within sides is zero. It is a floor,
	// not an addition, because the spread the runs show already holds
	// their sampling noise: adding it would count it twice and cost
	// power. Nil is no floor.
	Floor func(s int, mean float64) float64
	// Below marks censored points: for point i of series s it returns nil
	// when the point's runs were measured, or, when they were censored
	// (known only to lie below a bound, as a row a history record left
	// out for being under its floor), each run's bound, one per run of
	// the point; the point's values in the series are then ignored. A
	// censored run is an interval [0, bound], and a split counts only the
	// difference that holds wherever in their intervals the censored runs
	// are: the difference of the means with the censored runs at their
	// midpoints, less half the width of the intervals on each side (and
	// zero where that crosses zero). Its variance is taken with the runs at
	// their midpoints, the means passed to Material and Floor are the ends
	// of the intervals nearest each other. So a series that hovers at a
	// bound, measured just above it at some points and censored below it
	// at others, shows no change, and a row that falls from well above its
	// bound to below it still does. Nil censors nothing.
	Below func(s, i int) []float64
}

// ChangePoint is one change of one series that ChangePoints found.
type ChangePoint struct {
	// Series is the index of the series in the slice given to
	// ChangePoints.
	Series int
	// At is the index of the first point after the change: the first
	// commit that has the new value.
	At int
	// Before and After are the means of the runs of the segments on
	// either side of the change, between it and the series' neighbouring
	// change points (or its ends). Where runs were censored (see
	// ChangePointOptions.Below), they are the ends of the two means'
	// intervals nearest each other: the least change the runs allow.
	Before, After float64
	// P is the p-value of the change adjusted for every segment of every
	// series tested in the same round (Westfall–Young max-T): the share
	// of permutations in which some segment showed a statistic at least
	// as large.
	P float64
}

// ChangePoints finds where the series changed for real, sorted by At and
// then Series.
//
// Method: binary segmentation with a permutation test, the family-wise
// rate held by the Westfall–Young max-T method.
//
// In a segment of a series, the statistic is the largest over the
// material split points of
//
//	t² = d² / max(s²·(1/n₁ + 1/n₂), Floor(m₁)/n₁ + Floor(m₂)/n₂)
//
// where the runs of the points on either side are pooled (n₁, n₂ runs,
// means m₁, m₂, d = m₂ − m₁) and s² is the variance within sides pooled
// over both. The null distribution comes from permuting the runs of the
// segment, not only its points: with one run a point the two are the
// same, and with several runs a point, permuting runs gives power with
// few commits (eight commits have only 8!/(4!·4!) = 70 ways to split four
// and four, twenty-four runs millions). The price is the assumption that
// the runs of one build are exchangeable across commits. Drift shared by
// the runs of a commit breaks it: simulated on stores of eight commits of
// three runs, a slowdown of the whole machine drawn afresh for each
// commit with a spread of 3% raised the false-alarm rate from 0.05 to
// 0.10, and 5% to 0.21 (mostly the headline, whose runs agree to a
// percent or two), despite 5% Material floors. Runs of a history should
// be taken on one quiet machine, or interleaved. A variance from the
// spread of commit means instead of runs, tried, cut power (380 of 400
// steps found instead of 395) and barely that rate (0.13 instead of 0.14
// with 5% drift of each series apart), so it is not used.
//
// Several hundred series are tested at once, so per-series p-values with
// a Holm or Bonferroni correction cannot work: ten runs split five and
// five allow no p-value below 1/252. Instead every permutation applies
// the same rearrangement of run positions to every series tested over
// the same number of runs, the null distribution is the largest
// statistic over all of them, and a series' adjusted p-value is the
// share of permutations whose largest statistic reaches its observed
// one (plus one in the numerator and the denominator). The permutations
// keep whatever dependence the series have on one another (a function's
// time is part of its package's and of the headline), which Bonferroni
// would pay for as if they were independent. Series with more or fewer
// runs in the segment than others (missing points) draw their own
// rearrangements, which treats them as independent of the rest: that
// errs on the safe side for series that move together.
//
// Each series starts as one segment over all its points. A round tests
// every segment of every series jointly as above, accepts those whose
// adjusted p-value is at most Alpha and splits each at its best split
// point; the next round tests the segments so made, along with all the
// others, until a round accepts nothing or no segment holds 2·MinSegment
// points. On a history where nothing changed, the first round is the only
// chance of a false alarm, so the rate over the whole store is at most
// Alpha. Later rounds test the new segments in the family of all series
// again, not only among themselves: a round of a few dozen tests would
// set a low bar, and spurious second splits of series that changed once
// would pass it about Alpha of the time.
//
// Then each change moves to the commit where the most series changed, if
// that commit is within its confidence set for the location (see
// snapToCommonCommits): a noisy function that changed with everything
// else should not add a commit of its own a point early or late. Last,
// each series' change points are checked against Material once more
// with the means of the segments between them, and those no longer
// material are dropped.
//
// The work is one pass over each segment's runs for each permutation
// (prefix sums at the point boundaries, the total and total sum of
// squares being the same in every permutation), skipping the Floor and
// Material calls of splits that cannot raise the permutation's largest
// statistic, spread over the CPUs: 600 series of 10 one-run points with
// 2000 permutations take 45-80 ms on two shared CPUs, 600 of 50 points of
// three runs about half a second.
func ChangePoints(series []Series, opts ChangePointOptions) []ChangePoint {
	if opts.Alpha <= 0 {
		opts.Alpha = 0.05
	}
	if opts.Permutations <= 0 {
		opts.Permutations = 2000
	}
	if opts.MinSegment <= 0 {
		opts.MinSegment = 1
	}
	rng := rand.New(rand.NewPCG(opts.Seed, 0x70726f6664696666))

	cuts := make([][]int, len(series)) // accepted change points, by series
	pOf := map[[2]int]float64{}        // their adjusted p-values, by series and At
	for {
		var open []*cpTest
		for s, ser := range series {
			bounds := append(append([]int{0}, cuts[s]...), len(ser))
			for k := 1; k < len(bounds); k++ {
				if t := newCPTest(s, ser, bounds[k-1], bounds[k], &opts); t != nil {
					open = append(open, t)
				}
			}
		}
		if len(open) == 0 {
			break
		}
		cpRound(open, &opts, rng)
		accepted := false
		for _, t := range open {
			if t.p > opts.Alpha || t.best <= 0 {
				continue
			}
			accepted = true
			cuts[t.s] = append(cuts[t.s], t.at)
			slices.Sort(cuts[t.s])
			pOf[[2]int{t.s, t.at}] = t.p
		}
		if !accepted {
			break
		}
	}

	snapToCommonCommits(series, cuts, pOf, &opts)

	var out []ChangePoint
	for s, at := range cuts {
		if len(at) == 0 {
			continue
		}
		slices.Sort(at)
		for {
			cps := segmentMeans(s, series[s], at, opts.Below)
			keep := at[:0:0]
			for i, c := range cps {
				if opts.Material == nil || opts.Material(s, c.Before, c.After) {
					keep = append(keep, at[i])
				}
			}
			if len(keep) == len(at) {
				for i := range cps {
					cps[i].P = pOf[[2]int{s, cps[i].At}]
				}
				out = append(out, cps...)
				break
			}
			at = keep
			if len(at) == 0 {
				break
			}
		}
	}
	slices.SortFunc(out, func(a, b ChangePoint) int {
		if a.At != b.At {
			return a.At - b.At
		}
		return a.Series - b.Series
	})
	return out
}

// LocationSlack is how much lower than its best a split's t² may be
// and still be a place the change could have been, when m series
// changed: χ²₁'s quantile at 1 − 0.05/m, so that the splits within it
// are about a 95% confidence set for the location of all m changes at
// once, as likelihood-ratio intervals would give (3.84 for one series,
// 12.1 for a hundred). With a 95% set each, five in a hundred series that
// changed at one commit would keep a location of their own.
func LocationSlack(m int) float64 {
	z := math.Sqrt2 * math.Erfinv(1-0.05/float64(max(m, 1)))
	return z * z
}

// snapToCommonCommits moves each change to the commit where the most
// series changed, if that commit is in its confidence set for the
// location (its t² within LocationSlack of the best, widened by twice
// the log of the ratio of the two commits' support; see locationStats).
// A change no longer material where it moved is then dropped. A noisy function that went up with the commit that
// changed everything else often peaks a commit early or late, and would
// otherwise add a commit to the history where nothing happened.
func snapToCommonCommits(series []Series, cuts [][]int, pOf map[[2]int]float64, o *ChangePointOptions) {
	support := map[int]int{}
	changed := 0
	for _, at := range cuts {
		for _, a := range at {
			support[a]++
		}
		if len(at) > 0 {
			changed++
		}
	}
	slack := LocationSlack(changed)
	for s, at := range cuts {
		for k, a := range at {
			lo, hi := 0, len(series[s])
			if k > 0 {
				lo = at[k-1]
			}
			if k+1 < len(at) {
				hi = at[k+1]
			}
			t := newCPTest(s, series[s], lo, hi, o)
			if t == nil {
				continue
			}
			own := slices.Index(t.pts, a)
			if own < 0 {
				continue
			}
			stats := t.locationStats(o, own)
			if stats[own] < 0 {
				continue
			}
			best := own
			for j, st := range stats {
				// the prior odds of the commits, as many series changed
				// at each, widen the set (exp(−Δt²/2) is the likelihood
				// ratio)
				c := t.pts[j]
				if st >= 0 && support[c] > support[t.pts[best]] && st >= stats[own]-slack-2*math.Log(float64(support[c])/float64(max(support[a], 1))) {
					best = j
				}
			}
			if best != own {
				pOf[[2]int{s, t.pts[best]}] = pOf[[2]int{s, a}]
				at[k] = t.pts[best]
			}
		}
	}
}

// cpTest is the test of one segment [lo, hi) of one series.
type cpTest struct {
	s, lo, hi int
	minSeg    int
	vals      []float64 // the runs of the segment, in point order, less their mean
	half      []float64 // half the width of each run's interval; nil when none was censored
	totalHalf float64   // the sum of half
	mean      float64   // the mean of the runs
	total     float64   // the sum of vals (zero but for rounding)
	sst       float64   // the sum of squares of vals
	cum       []int     // cum[j]: how many runs the first j points with runs hold
	splits    []cpSplit // splits[j]: constants of the split after j points
	pts       []int     // the index of each point with runs

	best float64 // the observed statistic (t²); 0 if no split is material
	at   int     // the first point after the best split
	p    float64 // the adjusted p-value
}

// cpSplit holds the constants of one split of a segment: with n₁ and n₂
// runs on either side out of n, 1/n₁, 1/n₂, n₁n₂/n (the between-sides sum
// of squares is that times d²), and (1/n₁ + 1/n₂)/(n − 2) (the within-sides
// sum of squares times that is the variance of d).
type cpSplit struct{ inv1, inv2, between, within float64 }

// newCPTest gathers the runs of series ser (index s) over points [lo, hi),
// or returns nil if they are too few to split.
func newCPTest(s int, ser Series, lo, hi int, o *ChangePointOptions) *cpTest {
	t := &cpTest{s: s, lo: lo, hi: hi, minSeg: o.MinSegment, cum: []int{0}}
	var sum float64
	for i := lo; i < hi; i++ {
		k := len(t.vals)
		var below []float64
		if o.Below != nil {
			below = o.Below(s, i)
		}
		if below != nil {
			if t.half == nil {
				t.half = make([]float64, len(t.vals), len(t.vals)+len(below))
			}
			for _, b := range below {
				if !math.IsNaN(b) && !math.IsInf(b, 0) {
					h := math.Max(b, 0) / 2
					t.vals = append(t.vals, h)
					t.half = append(t.half, h)
					t.totalHalf += h
					sum += h
				}
			}
		} else {
			for _, v := range ser[i] {
				if !math.IsNaN(v) && !math.IsInf(v, 0) {
					t.vals = append(t.vals, v)
					if t.half != nil {
						t.half = append(t.half, 0)
					}
					sum += v
				}
			}
		}
		if len(t.vals) > k {
			t.pts = append(t.pts, i)
			t.cum = append(t.cum, len(t.vals))
		}
	}
	if len(t.pts) < 2*t.minSeg || len(t.vals) < 2 {
		return nil
	}
	if t.totalHalf == 0 {
		t.half = nil
	}
	t.mean = sum / float64(len(t.vals))
	for i, v := range t.vals {
		c := v - t.mean
		t.vals[i] = c
		t.total += c
		t.sst += c * c
	}
	n := float64(len(t.vals))
	t.splits = make([]cpSplit, len(t.pts)+1)
	for j := 1; j < len(t.pts); j++ {
		n1 := float64(t.cum[j])
		n2 := n - n1
		sp := cpSplit{inv1: 1 / n1, inv2: 1 / n2, between: n1 * n2 / n}
		if n > 2 {
			sp.within = (1/n1 + 1/n2) / (n - 2)
		}
		t.splits[j] = sp
	}
	return t
}

// stat returns the largest t² over the material splits of the segment
// with its runs in the order perm (nil: as observed), and the number of
// points left of that split; (0, -1) if no split is material. Splits
// whose t² cannot exceed floor are not looked at (Floor and Material
// are not called for them), and it gives up, returning what it has,
// once it exceeds enough.
func (t *cpTest) stat(perm []int32, o *ChangePointOptions, floor, enough float64) (float64, int) {
	m := len(t.pts)
	var sum, sumHalf float64
	i := 0
	best, bestJ := 0.0, -1
	thr := max(floor, 0)
	for j := 1; j <= m-t.minSeg; j++ {
		switch {
		case t.half != nil && perm == nil:
			for ; i < t.cum[j]; i++ {
				sum += t.vals[i]
				sumHalf += t.half[i]
			}
		case t.half != nil:
			for ; i < t.cum[j]; i++ {
				sum += t.vals[perm[i]]
				sumHalf += t.half[perm[i]]
			}
		case perm == nil:
			for ; i < t.cum[j]; i++ {
				sum += t.vals[i]
			}
		default:
			for ; i < t.cum[j]; i++ {
				sum += t.vals[perm[i]]
			}
		}
		if j < t.minSeg {
			continue
		}
		sp := &t.splits[j]
		c1 := sum * sp.inv1
		c2 := (t.total - sum) * sp.inv2
		d := c2 - c1
		// the spread within sides alone bounds t² from above; the
		// floor can only lower it
		se2 := max(t.sst-sp.between*d*d, 0) * sp.within
		if t.half != nil {
			c1, c2, d = Narrowest(c1, c2, sumHalf*sp.inv1, (t.totalHalf-sumHalf)*sp.inv2)
		}
		d2 := d * d
		if d2 <= thr*se2 || d == 0 {
			continue
		}
		m1, m2 := c1+t.mean, c2+t.mean
		if math.Abs(d) <= 1e-12*(math.Abs(m1)+math.Abs(m2)) {
			continue // no difference but rounding
		}
		if o.Floor != nil {
			se2 = max(se2, max(o.Floor(t.s, m1), 0)*sp.inv1+max(o.Floor(t.s, m2), 0)*sp.inv2)
		}
		if d2 <= thr*se2 {
			continue
		}
		if o.Material != nil && !o.Material(t.s, m1, m2) {
			continue
		}
		best, bestJ = math.Inf(1), j
		if se2 > 0 {
			best = d2 / se2
		}
		thr = max(thr, best)
		if best >= enough || math.IsInf(best, 1) {
			break
		}
	}
	return best, bestJ
}

// Narrowest returns the ends of the intervals c1 ± w1 and c2 ± w2 (two
// sides' means with their censored runs anywhere below their bounds)
// nearest each other, and their difference: 0 where the intervals meet.
func Narrowest(c1, c2, w1, w2 float64) (float64, float64, float64) {
	switch d := c2 - c1; {
	case d > w1+w2:
		return c1 + w1, c2 - w2, d - w1 - w2
	case d < -(w1 + w2):
		return c1 - w1, c2 + w2, d + w1 + w2
	}
	return c1, c1, 0
}

// splitStats returns the observed t² of each split j (after j points),
// or −1 where the split is not allowed or not material.
func (t *cpTest) splitStats(o *ChangePointOptions) []float64 {
	return t.splitT2(o, -1)
}

// locationStats returns the t² that place the change split at point
// index own: those of splitStats, but whether or not a split is material,
// and all with the within-sides sum of squares of the split at own. Where
// a change lies is a question of likelihood alone: a small change that
// peaks a few commits from where the others changed, and is too small
// to report there, moves there (and is then dropped as not material)
// rather than staying where noise put it; and with each split's own
// variance, moving the one point that lies between the two levels
// changes the variance more than the fit, so a t² of 390 against 370
// would read as a sure place where the likelihood ratio is 3.
func (t *cpTest) locationStats(o *ChangePointOptions, own int) []float64 {
	var sum float64
	for i := range t.cum[own] {
		sum += t.vals[i]
	}
	sp := &t.splits[own]
	d := (t.total-sum)*sp.inv2 - sum*sp.inv1
	return t.splitT2(o, max(t.sst-sp.between*d*d, 0))
}

// splitT2 is splitStats, or locationStats's t² when ssw, the within-sides
// sum of squares every split shares, is not negative.
func (t *cpTest) splitT2(o *ChangePointOptions, ssw float64) []float64 {
	out := make([]float64, len(t.pts))
	var sum, sumHalf float64
	i := 0
	for j := range out {
		out[j] = -1
		if j == 0 {
			continue
		}
		for ; i < t.cum[j]; i++ {
			sum += t.vals[i]
			if t.half != nil {
				sumHalf += t.half[i]
			}
		}
		if j < t.minSeg || j > len(t.pts)-t.minSeg {
			continue
		}
		sp := &t.splits[j]
		c1, c2 := sum*sp.inv1, (t.total-sum)*sp.inv2
		d := c2 - c1
		se2 := max(t.sst-sp.between*d*d, 0) * sp.within
		if ssw >= 0 {
			se2 = ssw * sp.within
		}
		if t.half != nil {
			c1, c2, d = Narrowest(c1, c2, sumHalf*sp.inv1, (t.totalHalf-sumHalf)*sp.inv2)
		}
		m1, m2 := c1+t.mean, c2+t.mean
		if ssw < 0 && o.Material != nil && !o.Material(t.s, m1, m2) {
			continue
		}
		if o.Floor != nil {
			se2 = max(se2, max(o.Floor(t.s, m1), 0)*sp.inv1+max(o.Floor(t.s, m2), 0)*sp.inv2)
		}
		switch {
		case se2 > 0:
			out[j] = d * d / se2
		case d != 0:
			out[j] = math.Inf(1)
		default:
			out[j] = 0
		}
	}
	return out
}

// cpRound tests the segments of one round jointly: it sets each test's
// observed statistic, best split and Westfall–Young adjusted p-value.
func cpRound(tests []*cpTest, o *ChangePointOptions, rng *rand.Rand) {
	B := o.Permutations
	maxObs := 0.0
	for _, t := range tests {
		var j int
		t.best, j = t.stat(nil, o, 0, math.Inf(1))
		if j >= 0 {
			t.at = t.pts[j]
		}
		maxObs = max(maxObs, t.best)
	}
	if maxObs <= 0 {
		for _, t := range tests {
			t.p = 1
		}
		return
	}

	maxNull := permutedMaxima(tests, o, cpPermutations(tests, B, rng), maxObs)
	for _, t := range tests {
		if t.best <= 0 {
			t.p = 1
			continue
		}
		count := 1
		for _, v := range maxNull {
			if v >= t.best {
				count++
			}
		}
		t.p = float64(count) / float64(B+1)
	}
}

// cpPermutations draws B rearrangements of run positions for each number
// of runs the tests have, shared by every test over that many runs: for n
// runs, B×n positions, permutation b at [b·n, (b+1)·n).
func cpPermutations(tests []*cpTest, B int, rng *rand.Rand) map[int][]int32 {
	var sizes []int
	for _, t := range tests {
		sizes = append(sizes, len(t.vals))
	}
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	perms := make(map[int][]int32, len(sizes))
	idx := make([][]int32, len(sizes))
	for k, n := range sizes {
		perms[n] = make([]int32, B*n)
		idx[k] = make([]int32, n)
		for i := range idx[k] {
			idx[k][i] = int32(i)
		}
	}
	for b := range B {
		for k, n := range sizes {
			p := idx[k]
			rng.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
			copy(perms[n][b*n:], p)
		}
	}
	return perms
}

// permutedMaxima returns, for each permutation, the largest statistic
// over all tests, computed on as many goroutines as there are CPUs. Once
// it reaches maxObs, the largest observed one, no count can change, so
// the rest of that permutation is skipped.
func permutedMaxima(tests []*cpTest, o *ChangePointOptions, perms map[int][]int32, maxObs float64) []float64 {
	B := o.Permutations
	workers := min(runtime.GOMAXPROCS(0), len(tests))
	maxNull := make([][]float64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		maxNull[w] = make([]float64, B)
		wg.Add(1)
		go func() {
			defer wg.Done()
			mx := maxNull[w]
			for k := w; k < len(tests); k += workers {
				t := tests[k]
				n := len(t.vals)
				pn := perms[n]
				for b := range B {
					if mx[b] >= maxObs {
						continue
					}
					st, _ := t.stat(pn[b*n:(b+1)*n], o, mx[b], maxObs)
					mx[b] = max(mx[b], st)
				}
			}
		}()
	}
	wg.Wait()
	for w := 1; w < workers; w++ {
		for b, v := range maxNull[w] {
			maxNull[0][b] = max(maxNull[0][b], v)
		}
	}
	return maxNull[0]
}

// segmentMeans returns the change points of series ser (index s) at the
// sorted points at, each with the means of the runs between it and its
// neighbours: where runs were censored (below), the ends of the two
// means' intervals nearest each other.
func segmentMeans(s int, ser Series, at []int, below func(s, i int) []float64) []ChangePoint {
	bounds := append(append([]int{0}, at...), len(ser))
	lo := make([]float64, len(bounds)-1)
	hi := make([]float64, len(bounds)-1)
	for k := range lo {
		var sumLo, sumHi float64
		n := 0
		for i := bounds[k]; i < bounds[k+1]; i++ {
			var b []float64
			if below != nil {
				b = below(s, i)
			}
			if b != nil {
				for _, v := range b {
					if !math.IsNaN(v) && !math.IsInf(v, 0) {
						sumHi += math.Max(v, 0)
						n++
					}
				}
				continue
			}
			for _, v := range ser[i] {
				if !math.IsNaN(v) && !math.IsInf(v, 0) {
					sumLo += v
					sumHi += v
					n++
				}
			}
		}
		lo[k] = sumLo / float64(max(n, 1))
		hi[k] = sumHi / float64(max(n, 1))
	}
	cps := make([]ChangePoint, len(at))
	for k, a := range at {
		before, after := lo[k], lo[k+1]
		switch {
		case lo[k+1] > hi[k]:
			before, after = hi[k], lo[k+1]
		case hi[k+1] < lo[k]:
			before, after = lo[k], hi[k+1]
		case hi[k] != lo[k] || hi[k+1] != lo[k+1]:
			before = (lo[k] + hi[k]) / 2 // the intervals meet: no change
			after = before
		}
		cps[k] = ChangePoint{Series: s, At: a, Before: before, After: after}
	}
	return cps
}
