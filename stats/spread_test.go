package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestStdDevAndMAD(t *testing.T) {
	nan := math.NaN()
	// Reference values: by hand, and scipy 1.10.1 (testdata/reference.py:
	// numpy.std(ddof=1) and median_abs_deviation(scale="normal")).
	cases := []struct {
		name     string
		xs       []float64
		sd, mad  float64
		tolerate float64
	}{
		{"textbook", []float64{2, 4, 4, 4, 5, 5, 7, 9}, 2.138089935299395, 0.741301109252801, 1e-14},
		// One wild run: σ follows it, the MAD does not (median 3,
		// deviations 2 1 0 1 97, their median 1).
		{"one outlier", []float64{1, 2, 3, 4, 100}, 43.617656975128774, 1.482602218505602, 1e-14},
		{"two values", []float64{1, 3}, math.Sqrt2, 1.482602218505602, 1e-14},
		// A large offset costs no digits (two passes, not sum of squares).
		{"offset", []float64{1e9 + 1, 1e9 + 2, 1e9 + 3}, 1, 1.482602218505602, 1e-12},
		{"constant", []float64{7, 7, 7}, 0, 0, 0},
		{"one value", []float64{7}, nan, nan, 0},
		{"none", nil, nan, nan, 0},
		{"NaN", []float64{1, nan, 3}, nan, nan, 0},
	}
	for _, c := range cases {
		for _, f := range []struct {
			name      string
			got, want float64
		}{{"StdDev", StdDev(c.xs), c.sd}, {"MAD", MAD(c.xs), c.mad}} {
			if math.IsNaN(f.want) != math.IsNaN(f.got) || math.Abs(f.got-f.want) > f.want*c.tolerate {
				t.Errorf("%s: %s = %.16g, want %.16g", c.name, f.name, f.got, f.want)
			}
		}
	}
}

// TestMADEstimatesSigma checks the scale: on a large normal sample the
// MAD and the standard deviation both estimate σ.
func TestMADEstimatesSigma(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, 200001)
	for i := range xs {
		xs[i] = 10 + 3*r.NormFloat64()
	}
	for name, got := range map[string]float64{"StdDev": StdDev(xs), "MAD": MAD(xs)} {
		if math.Abs(got-3) > 0.03 {
			t.Errorf("%s of N(10, 3²) = %v, want 3 ± 1%%", name, got)
		}
	}
}

func TestMedianLeavesInputAlone(t *testing.T) {
	xs := []float64{3, 1, 2}
	if m := median(xs); m != 2 || xs[0] != 3 || xs[1] != 1 {
		t.Errorf("median = %v, input now %v", m, xs)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median of four = %v, want 2.5", m)
	}
}
