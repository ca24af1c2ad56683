package diff

import (
	"math"
	"slices"
)

// The noise model.
//
// A row's time on a side is summarised by the mean over the side's runs
// (per unit of work when given), compared on a log scale: z = (ln after -
// ln before) / sqrt(var before + var after), two-sided normal p-value. The
// variance of a side's log-mean has two parts:
//
//   - run-to-run variation, the larger part in practice: the corpus's
//     repeated runs of one build differ by 7-20% per package (the machine's
//     speed drifts), which time blocks within one run cannot see. Its
//     coefficient of variation is estimated from the side's runs, pooled
//     with a prior (defaultRunNoise, worth priorRuns runs) so that one or
//     two runs per side still get a sensible figure;
//   - sampling noise: a row holding N samples varies by about 1/sqrt(N), as
//     a count does; it matters for small rows.
//
// Each table's p-values are corrected with Holm's method over all its rows,
// and a row is only called better or worse when its change also exceeds the
// minimum effect (Options.MinDeltaPP and MinDeltaPct). A side with no time
// for a row counts as half a sample per run, so that "new" and "gone" are
// tested like any other change.

const (
	defaultRunNoise = 0.15
	priorRuns       = 3
)

// sideStats is one side's values of a row.
type sideStats struct {
	mean float64 // per run, per unit of work when given
	v    float64 // variance of ln(mean)
}

// stats summarises runs (already per unit of work) of a side whose samples
// stand for intervalNs each (scaled to the same unit by unitScale).
func stats(runs []float64, intervalNs, unitScale, prior float64) sideStats {
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
	cv2 := prior * prior
	if len(runs) >= 2 && sum > 0 {
		var ss float64
		for _, x := range runs {
			d := x/mean - 1
			ss += d * d
		}
		s2 := ss / (n - 1)
		cv2 = (priorRuns*prior*prior + (n-1)*s2) / (priorRuns + n - 1)
	}
	return sideStats{mean: mean, v: cv2/n + 1/math.Max(samples, 0.5)}
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

// judge computes the headline's and every row's change and verdict.
func judge(r *Report, sides []Side, opts Options) {
	a, b := r.Sides[0], r.Sides[1]
	scale := func(s Side) float64 {
		if s.Work > 0 {
			return 1 / s.Work
		}
		return 1
	}
	sa, sb := scale(sides[0]), scale(sides[1])
	perRun := func(s Side, f func(t int) float64) []float64 {
		out := make([]float64, len(s.Tables))
		for i := range s.Tables {
			out[i] = f(i)
		}
		return out
	}
	onA := perRun(sides[0], func(i int) float64 { return float64(sides[0].Tables[i].Summary.OnCPUNs) })
	onB := perRun(sides[1], func(i int) float64 { return float64(sides[1].Tables[i].Summary.OnCPUNs) })
	ia, ib := float64(max(a.IntervalNs, 1)), float64(max(b.IntervalNs, 1))

	headline := func(ra, rb []float64, scaleA, scaleB float64) Change {
		xa, xb := scaled(ra, scaleA), scaled(rb, scaleB)
		s1, s2 := stats(xa, ia, scaleA, opts.RunNoise), stats(xb, ib, scaleB, opts.RunNoise)
		c := change(mean(xa), mean(xb), math.NaN())
		c.P = zTest(s1, s2)
		c.Verdict = verdict(c, opts, false)
		return c
	}
	r.Headline.OnCPU = headline(onA, onB, 1, 1)
	r.Headline.PerWork.P = math.NaN()
	if sides[0].Work > 0 && sides[1].Work > 0 {
		r.Headline.PerWork = headline(onA, onB, sa, sb)
	}

	onCPUA, onCPUB := mean(scaled(onA, sa)), mean(scaled(onB, sb))
	for _, rows := range [][]Row{r.Packages, r.Functions, r.Files} {
		ps := make([]float64, len(rows))
		for i := range rows {
			row := &rows[i]
			xa, xb := scaled(row.runs[0], sa), scaled(row.runs[1], sb)
			ma, mb := mean(xa), mean(xb)
			pp := math.NaN()
			if onCPUA > 0 && onCPUB > 0 {
				pp = 100 * (mb/onCPUB - ma/onCPUA)
			}
			row.Change = change(ma, mb, pp)
			row.Change.appeared = row.Total[0] == 0
			row.Change.vanished = row.Total[1] == 0
			ps[i] = zTest(stats(xa, ia, sa, opts.RunNoise), stats(xb, ib, sb, opts.RunNoise))
		}
		holm(ps)
		for i := range rows {
			rows[i].Change.P = ps[i]
			rows[i].Change.Verdict = verdict(rows[i].Change, opts, true)
		}
	}
}

func scaled(x []float64, s float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = v * s
	}
	return out
}

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

// verdict decides a change's verdict from its corrected p-value and size.
func verdict(c Change, opts Options, row bool) Verdict {
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
	case c.appeared:
		return VerdictNew
	case c.vanished:
		return VerdictGone
	case c.Delta < 0:
		return VerdictBetter
	}
	return VerdictWorse
}
