package stats

import "math"

// FCDF is the cumulative distribution function of Snedecor's F
// distribution with d1 and d2 degrees of freedom: P(X ≤ x). It is NaN for
// a NaN argument or non-positive degrees of freedom.
func FCDF(x, d1, d2 float64) float64 {
	if math.IsNaN(x) || !(d1 > 0) || !(d2 > 0) {
		return math.NaN()
	}
	if x <= 0 {
		return 0
	}
	if math.IsInf(x, 1) {
		return 1
	}
	return betaInc(d1/2, d2/2, d1*x/(d1*x+d2))
}

// fSurvival is 1 - FCDF(x, d1, d2), computed without the subtraction so
// that small p-values keep their digits.
func fSurvival(x, d1, d2 float64) float64 {
	if math.IsNaN(x) || !(d1 > 0) || !(d2 > 0) {
		return math.NaN()
	}
	if x <= 0 {
		return 1
	}
	if math.IsInf(x, 1) {
		return 0
	}
	return betaInc(d2/2, d1/2, d2/(d2+d1*x))
}

// TCDF is the cumulative distribution function of Student's t
// distribution with df degrees of freedom: P(T ≤ x). It is NaN for a NaN
// argument or non-positive degrees of freedom.
func TCDF(x, df float64) float64 {
	if math.IsNaN(x) || !(df > 0) {
		return math.NaN()
	}
	if math.IsInf(x, 0) {
		if x > 0 {
			return 1
		}
		return 0
	}
	// P(|T| > |x|) = I_{df/(df+x²)}(df/2, 1/2).
	tail := betaInc(df/2, 0.5, df/(df+x*x)) / 2
	if x > 0 {
		return 1 - tail
	}
	return tail
}

// betaInc is the regularized incomplete beta function I_x(a, b), from its
// continued fraction (Numerical Recipes, 3rd ed., §6.4), evaluated where
// it converges fast (x < (a+1)/(a+b+2)) and through I_x(a,b) = 1 -
// I_{1-x}(b,a) elsewhere. It is NaN if the fraction does not converge.
func betaInc(a, b, x float64) float64 {
	switch {
	case math.IsNaN(x) || !(a > 0) || !(b > 0):
		return math.NaN()
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(a*math.Log(x) + b*math.Log1p(-x) - la - lb + lab)
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, 1-x)/b
}

// betaCF evaluates the continued fraction of I_x(a, b) by the modified
// Lentz method. It needs O(sqrt(max(a, b))) terms.
func betaCF(a, b, x float64) float64 {
	const (
		tiny    = 1e-300
		eps     = 1e-15
		maxIter = 10000
	)
	clamp := func(v float64) float64 {
		if math.Abs(v) < tiny {
			return tiny
		}
		return v
	}
	c := 1.0
	d := 1 / clamp(1-(a+b)*x/(a+1))
	h := d
	for m := 1.0; m <= maxIter; m++ {
		// The even step, d_{2m}.
		aa := m * (b - m) * x / ((a + 2*m - 1) * (a + 2*m))
		d = 1 / clamp(1+aa*d)
		c = clamp(1 + aa/c)
		h *= d * c
		// The odd step, d_{2m+1}.
		aa = -(a + m) * (a + b + m) * x / ((a + 2*m) * (a + 2*m + 1))
		d = 1 / clamp(1+aa*d)
		c = clamp(1 + aa/c)
		del := d * c
		h *= del
		if math.Abs(del-1) < eps {
			return h
		}
	}
	return math.NaN()
}
