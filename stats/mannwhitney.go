package stats

import (
	"math"
	"slices"
)

// MannWhitney returns the two-sided p-value of Mann-Whitney's U test that
// a and b come from the same distribution: exact (the distribution of U
// over every split of the ranks) when there are no ties and the samples
// are small enough to count (n·m ≤ 2500), else the normal approximation
// with the correction for ties and for continuity. It is NaN when a side
// is empty.
func MannWhitney(a, b []float64) float64 {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return math.NaN()
	}
	type obs struct {
		v    float64
		side int
	}
	all := make([]obs, 0, n+m)
	for _, x := range a {
		all = append(all, obs{x, 0})
	}
	for _, x := range b {
		all = append(all, obs{x, 1})
	}
	slices.SortStableFunc(all, func(x, y obs) int {
		switch {
		case x.v < y.v:
			return -1
		case x.v > y.v:
			return 1
		}
		return 0
	})
	// Ranks, ties given their mean rank.
	var ra, tieSum float64
	ties := false
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		rank := float64(i+j+1) / 2 // ranks i+1..j
		if t := float64(j - i); t > 1 {
			ties = true
			tieSum += t*t*t - t
		}
		for k := i; k < j; k++ {
			if all[k].side == 0 {
				ra += rank
			}
		}
		i = j
	}
	u := ra - float64(n*(n+1))/2 // U of a
	mu := float64(n*m) / 2
	if !ties && n*m <= 2500 {
		return exactU(u, n, m)
	}
	N := float64(n + m)
	sigma2 := float64(n*m) / 12 * ((N + 1) - tieSum/(N*(N-1)))
	if sigma2 <= 0 {
		return 1
	}
	z := (math.Abs(u-mu) - 0.5) / math.Sqrt(sigma2)
	if z < 0 {
		return 1
	}
	return math.Min(1, math.Erfc(z/math.Sqrt2))
}

// exactU is the two-sided exact p-value of U = u for samples of n and m
// without ties: twice the smaller tail, counted over the C(n+m, n) splits.
func exactU(u float64, n, m int) float64 {
	// count[k][s]: ways k of the first i values go to a side with U sum s,
	// by the recurrence over values; here the standard one over (n, m):
	// f(n, m, s) = f(n-1, m, s-m) + f(n, m-1, s).
	max := n * m
	prev := make([][]float64, m+1) // f(i-1, j, ·)
	for j := range prev {
		prev[j] = make([]float64, max+1)
		prev[j][0] = 1 // f(0, j, 0) = 1
	}
	for i := 1; i <= n; i++ {
		cur := make([][]float64, m+1)
		for j := 0; j <= m; j++ {
			cur[j] = make([]float64, max+1)
			for s := 0; s <= i*j; s++ {
				var v float64
				if s-j >= 0 {
					v += prev[j][s-j]
				}
				if j > 0 {
					v += cur[j-1][s]
				}
				cur[j][s] = v
			}
		}
		prev = cur
	}
	f := prev[m]
	var total, lo, hi float64
	for s, c := range f {
		total += c
		if float64(s) <= u {
			lo += c
		}
		if float64(s) >= u {
			hi += c
		}
	}
	return math.Min(1, 2*math.Min(lo, hi)/total)
}
