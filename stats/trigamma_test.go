package stats

import (
	"math"
	"testing"
)

// TestTrigamma pins ψ' at known values: ψ'(1) = π²/6, ψ'(1/2) = π²/2,
// ψ'(2) = π²/6 - 1, and its inverse round trip.
func TestTrigamma(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{
		{1, math.Pi * math.Pi / 6},
		{0.5, math.Pi * math.Pi / 2},
		{2, math.Pi*math.Pi/6 - 1},
		{10, 0.10516633568168565}, // ψ'(10) = π²/6 - Σ_{k=1}^{9} 1/k²
	} {
		if got := Trigamma(c.x); math.Abs(got-c.want) > 1e-10*c.want {
			t.Errorf("Trigamma(%g) = %.15g, want %.15g", c.x, got, c.want)
		}
	}
	for _, y := range []float64{0.3, 1, 2.5, 20, 400} {
		if got := InverseTrigamma(Trigamma(y)); math.Abs(got-y) > 1e-8*y {
			t.Errorf("InverseTrigamma(Trigamma(%g)) = %g", y, got)
		}
	}
	if !math.IsNaN(InverseTrigamma(0)) || !math.IsNaN(Trigamma(-1)) {
		t.Error("out of domain: want NaN")
	}
}
