package stats

import (
	"math"
	"slices"
	"testing"
)

type bfCase struct {
	name        string
	a, b        []float64
	f, p, ratio float64
	meanF       float64 // Levene's F, centred on the mean
	meanP       float64
}

// bfReference holds data sets with their Brown–Forsythe F and p and
// their standard-deviation ratio, as printed by testdata/reference.py
// (scipy 1.10.1: scipy.stats.levene(a, b, center="median")), and
// Levene's mean-centred F and p (center="mean") for the negative control.
// The first two are real measurements from the corpus's
// gen/node-workload/measurements.json (unprofiled runs of one workload,
// before and after its router change).
var bfReference = []bfCase{
	{"workload cpu s", []float64{6.319, 8.545, 8.175, 6.564, 6.222}, []float64{4.662, 6.497, 6.914, 4.812, 4.786},
		0.005082633925568357, 0.9449149382992175, 0.9774873311102901, 0.011909141512808882, 0.9157878355909356},
	{"router rounds ms",
		[]float64{676.4, 728.4, 693.5, 645.2, 644.7, 643.9, 653.9, 659.5, 653.3, 662.1, 645.8, 617.1},
		[]float64{57.2, 31.4, 28.6, 29.1, 29.6, 29.2, 29.8, 29.9, 28.9, 29.5, 29.7, 29.6},
		5.621340931235585, 0.026923365336193262, 0.28128391652639, 6.909416872000186, 0.015341042578453267},
	{"one outlier", []float64{1, 2, 3, 4, 50}, []float64{10, 11, 13, 14, 15, 30},
		0.4742136887951055, 0.5084155987242652, 0.34513189087571655, 3.364026680682011, 0.09983883492549918},
	{"verdict flips", []float64{1, 2, 2, 3, 19, 20}, []float64{2, 4, 7, 10, 13, 15},
		0.31690140845070425, 0.5858747647782256, 0.5614383151731113, 5.344042499367569, 0.04338028374746153},
	{"ties", []float64{10, 10, 20, 20, 20, 30}, []float64{10, 20, 20, 20, 20, 20, 40},
		0.034773445732349854, 0.8554657496599847, 1.1952286093343936, 0.005716697071964499, 0.9410878817595111},
	// By hand too: deviations 0 0 0 and 1 0 1, F = (2/3) / ((2/3)/4) = 4.
	{"one side constant", []float64{5, 5, 5}, []float64{1, 2, 3},
		4, 0.11611652351681559, math.Inf(1), 4, 0.11611652351681559},
	// By hand too: deviations 0×10 and 4 4 3 3 2 2 1 1 5 5: between 45,
	// within 20 over 18 degrees of freedom, F = 40.5.
	{"one side constant, n=10", []float64{5, 5, 5, 5, 5, 5, 5, 5, 5, 5}, []float64{1, 9, 2, 8, 3, 7, 4, 6, 0, 10},
		40.5, 5.394654632743378e-06, math.Inf(1), 40.5, 5.394654632743378e-06},
	{"b noisier", []float64{100, 101, 99, 100.5, 99.5, 100.2, 99.8, 100.1}, []float64{90, 112, 95, 108, 101, 87, 115, 99},
		16.388072173563184, 0.001197420988573631, 16.71038849143024, 16.90164447224953, 0.001058806662590825},
	{"3 vs 10", []float64{4.1, 4.3, 4.2}, []float64{3.0, 5.5, 4.4, 3.9, 6.1, 4.8, 2.7, 5.0, 4.6, 3.3},
		4.491040988619346, 0.057649191737197174, 11.015645439303329, 5.447221161547256, 0.039593943186539235},
}

func TestBrownForsytheReference(t *testing.T) {
	for _, c := range bfReference {
		a, b := slices.Clone(c.a), slices.Clone(c.b)
		s := BrownForsythe(a, b)
		if !s.OK() {
			t.Errorf("%s: not tested (%v)", c.name, s.Reason)
			continue
		}
		if !near(s.F, c.f, 1e-10) || !near(s.P, c.p, 1e-10) || !(s.Ratio == c.ratio || near(s.Ratio, c.ratio, 1e-12)) {
			t.Errorf("%s: F %.16g p %.16g ratio %.16g; scipy F %.16g p %.16g ratio %.16g",
				c.name, s.F, s.P, s.Ratio, c.f, c.p, c.ratio)
		}
		if !slices.Equal(a, c.a) || !slices.Equal(b, c.b) {
			t.Errorf("%s: BrownForsythe reordered its input", c.name)
		}
		// The test is symmetric, and blind to units and offsets.
		r := BrownForsythe(b, a)
		if !near(r.F, s.F, 1e-12) || !near(r.P, s.P, 1e-12) || !(r.Ratio == 1/s.Ratio || near(r.Ratio, 1/s.Ratio, 1e-12)) {
			t.Errorf("%s: swapped, F %v p %v ratio %v; want %v %v %v", c.name, r.F, r.P, r.Ratio, s.F, s.P, 1/s.Ratio)
		}
		scaled := func(xs []float64) []float64 {
			out := make([]float64, len(xs))
			for i, x := range xs {
				out[i] = 1e6*x + 3e9
			}
			return out
		}
		if u := BrownForsythe(scaled(a), scaled(b)); !near(u.F, s.F, 1e-6) || !near(u.P, s.P, 1e-6) {
			t.Errorf("%s: in ns plus an offset, F %v p %v; want %v %v", c.name, u.F, u.P, s.F, s.P)
		}
	}
}

// TestBrownForsytheCentresOnMedian is the negative control: on data with
// outlying runs, Levene's mean-centred F is far from Brown–Forsythe's,
// and on "verdict flips" and "3 vs 10" it even calls the spreads unequal
// at 0.05 where Brown–Forsythe does not. An implementation centred on
// the mean fails here.
func TestBrownForsytheCentresOnMedian(t *testing.T) {
	for _, name := range []string{"one outlier", "verdict flips", "3 vs 10"} {
		i := slices.IndexFunc(bfReference, func(c bfCase) bool { return c.name == name })
		c := bfReference[i]
		if math.Abs(c.meanF-c.f) < 0.2*c.f {
			t.Fatalf("%s: the data no longer tells the centrings apart (F %v vs %v)", name, c.f, c.meanF)
		}
		s := BrownForsythe(c.a, c.b)
		if near(s.F, c.meanF, 1e-3) || !near(s.F, c.f, 1e-10) {
			t.Errorf("%s: F = %v: Levene's mean-centred F is %v, Brown–Forsythe's %v", name, s.F, c.meanF, c.f)
		}
		if name != "one outlier" && (s.P < 0.05 || c.meanP >= 0.05) {
			t.Errorf("%s: p = %v (mean-centred %v): want Brown–Forsythe ≥ 0.05 and Levene < 0.05", name, s.P, c.meanP)
		}
	}
}

func TestBrownForsytheNoTest(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name   string
		a, b   []float64
		reason Reason
		ratio  float64 // NaN: none
	}{
		// With two runs the deviations from the median are both half the
		// range: the group holds no variance of deviations. The ratio of
		// σ is still given.
		{"two runs", []float64{1, 3}, []float64{2, 3, 9, 4, 5}, TooFewRuns, StdDev([]float64{2, 3, 9, 4, 5}) / math.Sqrt2},
		{"two and two", []float64{1, 3}, []float64{1, 5}, TooFewRuns, 2},
		{"one run", []float64{1}, []float64{1, 2, 3}, TooFewRuns, nan},
		{"no runs", nil, nil, TooFewRuns, nan},
		{"NaN", []float64{1, 2, nan}, []float64{1, 2, 3}, NotFinite, nan},
		{"Inf", []float64{1, 2, 3}, []float64{1, math.Inf(1), 3}, NotFinite, nan},
		{"both constant", []float64{5, 5, 5}, []float64{7, 7, 7, 7}, NoSpread, nan},
		// Deviations 1 1 1 1 and 0 0 0: nothing varies within a group.
		{"equal deviations", []float64{1, 1, 3, 3}, []float64{5, 5, 5}, EqualDeviations, 0},
		// Equal up to rounding: |0.1-0.2| and |0.3-0.2| differ in the last bit.
		{"equal up to rounding", []float64{0.1, 0.1, 0.3, 0.3}, []float64{0.7, 0.7, 0.9, 0.9}, EqualDeviations, 1},
	}
	for _, c := range cases {
		s := BrownForsythe(c.a, c.b)
		if s.Reason != c.reason || s.OK() || !math.IsNaN(s.F) || !math.IsNaN(s.P) {
			t.Errorf("%s: %+v, want no p-value, reason %v", c.name, s, c.reason)
		}
		if math.IsNaN(c.ratio) != math.IsNaN(s.Ratio) || !math.IsNaN(c.ratio) && !near(s.Ratio, c.ratio, 1e-12) {
			t.Errorf("%s: ratio %v, want %v", c.name, s.Ratio, c.ratio)
		}
	}
}

func TestReasonString(t *testing.T) {
	for r, want := range map[Reason]string{
		Tested: "tested", TooFewRuns: "too few runs", NotFinite: "not finite",
		NoSpread: "no spread", EqualDeviations: "equal deviations", Reason(42): "Reason(42)",
	} {
		if got := r.String(); got != want {
			t.Errorf("Reason(%d).String() = %q, want %q", int(r), got, want)
		}
	}
}
