package diff

import (
	"math"

	"github.com/profdiff/profdiff/stats"
)

// overdispersion is a table's run-to-run variance of its rows' counts of
// samples above the binomial noise those counts must have (of one run's
// log count, as countStatsOf's extra), pooled over the table's rows in
// three classes of size: under 1% of the run's samples, 1-5%, and 5% or
// more. A row's own five runs estimate it badly: by chance they often lie
// no further apart than their binomial noise, and the test then took the
// count's variance as known. In one 5 v 5 A/A draw of 10 + 10 quiet runs
// of one Node build, a function of 2.2% of the run held 121, 126, 138,
// 112 and 116 samples on one side and 141, 172, 157, 142 and 155 on the
// other, each side within its binomial noise, and read p = 4e-5. The
// table's rows of a size show that size's overdispersion together, with
// hundreds of degrees of freedom rather than four: that is the prior a
// row's own runs are pooled with, an empirical Bayes prior as limma's
// moderated t takes the genes' pooled variance (Smyth 2004), worth
// weight runs (at most twice the side's runs less one). With every row
// that changed in the correction's family, the calibration bench's quiet
// runs (200 draws) flagged 0.0 / 2.5 / 0.0% of A/A reports at 3 / 5 / 10
// runs a side with it, 0.0 / 4.0 / 0.5% with the fixed prior, and a +20%
// change in a function of 6% was found at 3 v 3 in 26.5% of draws
// against 0% (11% against 0% on loaded runs).
// The zero value holds nothing (the fixed prior is used).
type overdispersion struct {
	extra [3]float64
	ok    [3]bool
	// weight is how many runs the pooled figure is worth as a row's
	// prior: the prior degrees of freedom of limma's moderated t, large
	// when the table's rows of a size vary alike, small when some vary
	// far more than others.
	weight float64
}

const (
	// pooledRuns is the least runs a side whose rows take the table's
	// pooled overdispersion as their prior.
	pooledRuns = 3
	// maxPooledWeight is the most runs the pooled prior is worth.
	maxPooledWeight = 50
	// pooledMinRows is the least rows a class of size must hold for its
	// own pooled figure; a class with fewer takes that of the whole table.
	pooledMinRows = 3
	// pooledMinSamples is the least samples a run a row must hold on a
	// side for its runs' variance to count in the pool: below it the
	// variance of a log count is far from its binomial approximation.
	pooledMinSamples = 20
)

// sizeClass returns the class of size of a row holding frac of its runs'
// samples.
func sizeClass(frac float64) int {
	switch {
	case frac < 0.01:
		return 0
	case frac < 0.05:
		return 1
	}
	return 2
}

// at returns the pooled overdispersion of a row holding frac of its runs'
// samples, and whether the table had one.
func (o overdispersion) at(frac float64) (float64, bool) {
	k := sizeClass(frac)
	return o.extra[k], o.ok[k]
}

// overdispersionOf pools a table's counted measures' run-to-run variance
// above their binomial noise, per class of size: the sum over rows and
// sides of (runs - 1) times the runs' variance of x/mean less the
// binomial (1 - frac)/mean, over the sum of (runs - 1), the figure
// countStatsOf estimates for one row, unbiased where one row's is clipped
// at 0. Rows holding more than half the run are left out (their test
// takes the rest of the run, see test). Nil counts give the zero value.
func (c *comparison) overdispersionOf(counts []*Measure) overdispersion {
	var o overdispersion
	if counts == nil || c.runSamples == nil {
		return o
	}
	type entry struct {
		class     int
		s2, binom float64
		df        float64
	}
	var entries []entry
	var rows [4]int
	k := (mean(c.runSamples[0]) + mean(c.runSamples[1])) / 2
	for _, n := range counts {
		if n == nil {
			continue
		}
		frac := min(c.countShare(n), 1)
		if frac > 0.5 {
			continue
		}
		class := sizeClass(frac)
		counted := false
		for side := range 2 {
			runs, on := n.Runs[side], c.runSamples[side]
			if len(runs) < 2 {
				continue
			}
			var total float64
			for i, v := range runs {
				if on[i] > 0 {
					total += v / on[i] * k
				}
			}
			m := total / float64(len(runs))
			if m < pooledMinSamples {
				continue
			}
			var ss float64
			for i, v := range runs {
				x := 0.0
				if on[i] > 0 {
					x = v / on[i] * k
				}
				d := x/m - 1
				ss += d * d
			}
			r := float64(len(runs) - 1)
			entries = append(entries, entry{class, ss / r, math.Max(1-frac, 0.01) / m, r})
			counted = true
		}
		if counted {
			rows[class]++
			rows[3]++
		}
	}
	if rows[3] < pooledMinRows {
		return o
	}
	var sum, df [4]float64
	for _, e := range entries {
		for _, j := range [2]int{e.class, 3} {
			sum[j] += e.df * (e.s2 - e.binom)
			df[j] += e.df
		}
	}
	for j := range 3 {
		from := j
		if rows[j] < pooledMinRows {
			from = 3
		}
		o.extra[j], o.ok[j] = math.Max(sum[from]/df[from], 0), true
	}
	// The prior's weight, as limma's (Smyth 2004): each entry's variance
	// over what the pool expects of it, on a log scale, varies by the
	// chance of its own degrees of freedom, trigamma(df/2), and by how
	// much the rows' own overdispersion differs, trigamma(d0/2).
	var ls, ls2, tri float64
	var used int
	for _, e := range entries {
		want := e.binom + o.extra[e.class]
		if !(e.s2 > 0) || !(want > 0) {
			continue
		}
		l := math.Log(e.s2/want) - stats.Digamma(e.df/2) + math.Log(e.df/2)
		ls += l
		ls2 += l * l
		tri += stats.Trigamma(e.df / 2)
		used++
	}
	o.weight = maxPooledWeight
	if used >= pooledMinRows {
		u := float64(used)
		v := (ls2 - ls*ls/u) / (u - 1)
		if excess := v - tri/u; excess > 0 {
			o.weight = min(2*stats.InverseTrigamma(excess), maxPooledWeight)
		}
	}
	return o
}
