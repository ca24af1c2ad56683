package stats

import (
	"math"
	"strconv"
)

// MinRuns is the fewest values per group for which BrownForsythe gives a
// p-value. With two, both absolute deviations from the group's median are
// half the range, so the group says nothing about how its deviations vary.
const MinRuns = 3

// Reason says whether BrownForsythe gave a p-value, and if not, why.
type Reason int

const (
	// Tested: the test applied and Spread.P is its p-value.
	Tested Reason = iota
	// TooFewRuns: a group has fewer than MinRuns values.
	TooFewRuns
	// NotFinite: a value is NaN or ±Inf.
	NotFinite
	// NoSpread: both groups are constant, so neither is noisier.
	NoSpread
	// EqualDeviations: within each group every value lies equally far
	// from the group's median (as in {1, 1, 3, 3}), so the deviations
	// have no variance to weigh a difference against and F is x/0.
	EqualDeviations
)

// String names the reason as a user would read it.
func (r Reason) String() string {
	switch r {
	case Tested:
		return "tested"
	case TooFewRuns:
		return "too few runs"
	case NotFinite:
		return "not finite"
	case NoSpread:
		return "no spread"
	case EqualDeviations:
		return "equal deviations"
	}
	return "Reason(" + strconv.Itoa(int(r)) + ")"
}

// Spread is the comparison of the spread of two groups, b against a.
type Spread struct {
	// F is the Brown–Forsythe statistic, F(1, N1+N2-2) distributed when
	// the groups spread equally; NaN when the test did not apply.
	F float64
	// P is the probability of an F at least as large under equal spread;
	// NaN when the test did not apply.
	P float64
	// Ratio is StdDev(b)/StdDev(a): above 1, b is the noisier. It is given
	// whenever both groups have two finite values, even without a test;
	// +Inf or 0 when only one group is constant, NaN when both are.
	Ratio float64
	// Reason is Tested, or why there is no p-value.
	Reason Reason
}

// OK reports whether the test applied, so that P is a p-value.
func (s Spread) OK() bool { return s.Reason == Tested }

// BrownForsythe tests whether a and b (say, a side's per-run times)
// spread equally: Levene's test centred on the median, the one-way ANOVA
// F of |x - median(group)| over the two groups (Brown and Forsythe, 1974).
// The median keeps it near its nominal false-alarm rate for skewed and
// heavy-tailed data and for small groups, where Levene's mean-centred
// version alarms too often.
//
// It gives a p-value only with MinRuns values per group, all finite, and
// some spread: see Reason. With few runs it is weak, and callers should
// say so: with 3 runs in both groups F cannot exceed 4, so p ≥ 0.116 and
// it can never call a difference at 0.05; with 4 and 4 it calls one in
// about 7% of same-distribution pairs at 0.05, with 5 and 5 in under 1%
// (the package's tests measure both). When one group is constant and the other is
// not, the test runs as usual (the varying group supplies the variance of
// the deviations) and may or may not call the difference real; Ratio is
// then +Inf or 0.
func BrownForsythe(a, b []float64) Spread {
	s := Spread{F: math.NaN(), P: math.NaN(), Ratio: math.NaN()}
	if !finite(a) || !finite(b) {
		s.Reason = NotFinite
		return s
	}
	if len(a) >= 2 && len(b) >= 2 {
		s.Ratio = StdDev(b) / StdDev(a)
	}
	if len(a) < MinRuns || len(b) < MinRuns {
		s.Reason = TooFewRuns
		return s
	}
	za, zb := absDev(a), absDev(b)
	ma, mb := mean(za), mean(zb)
	if ma == 0 && mb == 0 {
		s.Reason = NoSpread
		return s
	}
	n1, n2 := float64(len(a)), float64(len(b))
	grand := (n1*ma + n2*mb) / (n1 + n2)
	between := n1*(ma-grand)*(ma-grand) + n2*(mb-grand)*(mb-grand)
	var within, scale float64
	for _, z := range za {
		within += (z - ma) * (z - ma)
		scale += z * z
	}
	for _, z := range zb {
		within += (z - mb) * (z - mb)
		scale += z * z
	}
	// Deviations equal to rounding, as |0.1-0.2| and |0.3-0.2|, count as
	// equal: their F would be rounding error over rounding error.
	if within <= 1e-12*scale {
		s.Reason = EqualDeviations
		return s
	}
	df := n1 + n2 - 2
	s.F = between / (within / df)
	s.P = fSurvival(s.F, 1, df)
	s.Reason = Tested
	return s
}

func finite(xs []float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
