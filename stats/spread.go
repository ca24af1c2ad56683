package stats

import (
	"math"
	"slices"
)

// madScale makes the median absolute deviation of a normal sample
// estimate its σ: 1/Φ⁻¹(3/4).
const madScale = 1.482602218505602

// StdDev is the sample standard deviation of xs (divided by n-1): NaN for
// fewer than two values, and NaN or ±Inf as the values lead it.
func StdDev(xs []float64) float64 {
	n := len(xs)
	if n < 2 {
		return math.NaN()
	}
	m := mean(xs)
	var ss float64
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return math.Sqrt(ss / float64(n-1))
}

// MAD is a robust spread of xs on the scale of σ: the median absolute
// deviation from the median times 1.4826, so that for normal data it
// estimates the same σ as StdDev while one wild run moves it little. It
// is NaN for fewer than two values or a NaN among them.
func MAD(xs []float64) float64 {
	if len(xs) < 2 || slices.ContainsFunc(xs, math.IsNaN) {
		return math.NaN()
	}
	return madScale * median(absDev(xs))
}

// absDev is |x - median(xs)| for each x, in the order of xs.
func absDev(xs []float64) []float64 {
	m := median(xs)
	z := make([]float64, len(xs))
	for i, x := range xs {
		z[i] = math.Abs(x - m)
	}
	return z
}

// median is the middle value of xs, or the mean of the two middle ones.
// It does not reorder xs.
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
