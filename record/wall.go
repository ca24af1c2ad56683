package record

import (
	"math"

	"github.com/profdiff/profdiff/stats"
)

// Wall is a side's wall time over its measured runs, as hyperfine reports
// it (mean ± standard deviation), and for a side after the first, its
// ratio to the first side's mean and the p-value of Welch's t-test of the
// difference.
type Wall struct {
	Side     string  `json:"side"`
	Runs     int     `json:"runs"`
	MeanNs   float64 `json:"mean_ns"`
	StdDevNs float64 `json:"stddev_ns"` // 0 with one run
	MinNs    int64   `json:"min_ns"`
	MaxNs    int64   `json:"max_ns"`
	// Ratio is the mean over the first side's (0 for the first side).
	Ratio float64 `json:"ratio,omitempty"`
	// P is Welch's two-sided p-value against the first side (absent for
	// the first side, or with fewer than two runs on either side).
	P *float64 `json:"p,omitempty"`
}

// wallTimes sums up the measured runs' wall times per side, in the sides'
// order; sides with no finished measured run are left out.
func wallTimes(runs []Run, names []string) []Wall {
	var out []Wall
	var first []float64
	for i, name := range names {
		var xs []float64
		w := Wall{Side: name, MinNs: math.MaxInt64}
		for _, r := range runs {
			if r.Side == name && r.Kind() == KindMeasured && r.Succeeded() {
				xs = append(xs, float64(r.WallNs))
				w.MinNs, w.MaxNs = min(w.MinNs, r.WallNs), max(w.MaxNs, r.WallNs)
			}
		}
		if len(xs) == 0 {
			continue
		}
		w.Runs, w.MeanNs = len(xs), mean(xs)
		if len(xs) > 1 {
			w.StdDevNs = stats.StdDev(xs)
		}
		if i == 0 {
			first = xs
		} else if len(first) > 0 {
			w.Ratio = w.MeanNs / mean(first)
			if p, ok := welch(first, xs); ok {
				w.P = &p
			}
		}
		out = append(out, w)
	}
	return out
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// welch is the two-sided p-value of Welch's t-test of a against b.
func welch(a, b []float64) (float64, bool) {
	if len(a) < 2 || len(b) < 2 {
		return 0, false
	}
	va, vb := sq(stats.StdDev(a))/float64(len(a)), sq(stats.StdDev(b))/float64(len(b))
	if va+vb == 0 {
		if mean(a) == mean(b) {
			return 1, true
		}
		return 0, true
	}
	t := (mean(b) - mean(a)) / math.Sqrt(va+vb)
	df := sq(va+vb) / (sq(va)/float64(len(a)-1) + sq(vb)/float64(len(b)-1))
	return 2 * stats.TCDF(-math.Abs(t), df), true
}

func sq(x float64) float64 { return x * x }
