package stats

import "math"

// Trigamma returns ψ'(x), the second derivative of ln Γ at x > 0: by the
// recurrence ψ'(x) = ψ'(x+1) + 1/x² up to x ≥ 12, then its asymptotic
// series (error below 1e-12 there).
func Trigamma(x float64) float64 {
	if !(x > 0) {
		return math.NaN()
	}
	var acc float64
	for x < 12 {
		acc += 1 / (x * x)
		x++
	}
	x2 := 1 / (x * x)
	// 1/x + 1/(2x²) + 1/(6x³) - 1/(30x⁵) + 1/(42x⁷) - 1/(30x⁹)
	series := 1/x + x2/2 + (1.0/6-(1.0/30-(1.0/42-x2/30)*x2)*x2)*x2/x
	return acc + series
}

// InverseTrigamma returns the y > 0 with Trigamma(y) = v, for v > 0, by
// bisection (ψ' falls from +∞ to 0 over (0, ∞)).
func InverseTrigamma(v float64) float64 {
	if !(v > 0) {
		return math.NaN()
	}
	lo, hi := 1e-8, 1.0
	for Trigamma(hi) > v {
		lo, hi = hi, hi*2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if Trigamma(mid) > v {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo < 1e-12*hi {
			break
		}
	}
	return (lo + hi) / 2
}

// Digamma returns ψ(x), the derivative of ln Γ at x > 0: by the
// recurrence ψ(x) = ψ(x+1) - 1/x up to x ≥ 12, then its asymptotic series.
func Digamma(x float64) float64 {
	if !(x > 0) {
		return math.NaN()
	}
	var acc float64
	for x < 12 {
		acc -= 1 / x
		x++
	}
	x2 := 1 / (x * x)
	// ln x - 1/(2x) - 1/(12x²) + 1/(120x⁴) - 1/(252x⁶)
	return acc + math.Log(x) - 0.5/x - (1.0/12-(1.0/120-x2/252)*x2)*x2
}
