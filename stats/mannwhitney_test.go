package stats

import (
	"math"
	"testing"
)

// The exact figures were counted by brute force over every split of the
// pooled values (a Python one-liner over itertools.combinations); 2/252 is
// the 5 v 5 floor ../shared/reference/noise.md states.
func TestMannWhitney(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b []float64
		want float64
	}{
		{"5 v 5 all above", []float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10}, 2.0 / 252},
		{"5 v 5 all below", []float64{6, 7, 8, 9, 10}, []float64{1, 2, 3, 4, 5}, 2.0 / 252},
		{"3 v 3 all above", []float64{1, 2, 3}, []float64{4, 5, 6}, 0.1},
		{"4 v 4 mixed", []float64{1.1, 2.2, 3.3, 4.4}, []float64{0.5, 2.5, 3.5, 5.5}, 0.8857142857142857},
		{"identical", []float64{1, 1, 1}, []float64{1, 1, 1}, 1},
	} {
		if got := MannWhitney(tc.a, tc.b); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: p = %v, want %v", tc.name, got, tc.want)
		}
	}
	// With ties, the normal approximation by hand: rank sum of a 38.5, U
	// 2.5 against a mean of 32; tie groups 2,2,2,3,2,2 give Σ(t³-t) = 54,
	// σ² = 64/12 · (17 - 54/240) = 89.47; z = (29.5 - 0.5)/9.459 = 3.066,
	// two-sided p = 0.00217.
	if got := MannWhitney([]float64{1, 2, 2, 3, 4, 4, 5, 6}, []float64{5, 6, 6, 7, 8, 8, 9, 9}); math.Abs(got-0.00217) > 0.00002 {
		t.Errorf("ties: p = %v", got)
	}
	if !math.IsNaN(MannWhitney(nil, []float64{1})) {
		t.Error("empty side: want NaN")
	}
}
