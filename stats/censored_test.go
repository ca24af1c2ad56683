package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// censoredHistory is one series over points of three runs, sampled every
// ms, whose level is level(i) ms at point i; a point where the runs' sum
// is under 3·bound ms is censored (as a history record leaves out a row
// below its floor), its runs known only to be under bound.
func censoredHistory(points int, level func(i int) float64, bound float64, seed uint64) (Series, func(s, i int) []float64) {
	rng := rand.New(rand.NewPCG(seed, 3))
	ser := make(Series, points)
	below := make([][]float64, points)
	for i := range ser {
		var sum float64
		for range 3 {
			l := level(i)
			v := math.Max(0, l+math.Sqrt(l)*rng.NormFloat64()) * (1 + 0.05*rng.NormFloat64())
			ser[i] = append(ser[i], v)
			sum += v
		}
		if sum < 3*bound {
			below[i] = []float64{bound, bound, bound}
			ser[i] = []float64{0, 0, 0}
		}
	}
	return ser, func(_, i int) []float64 { return below[i] }
}

func censoredOptions(below func(s, i int) []float64) ChangePointOptions {
	return ChangePointOptions{Alpha: 0.05, Permutations: 1000, Seed: 1, Below: below,
		Material: func(_ int, b, a float64) bool { d := math.Abs(a - b); return d >= 6 && d >= 0.05*math.Abs(b) },
		Floor:    func(_ int, m float64) float64 { return math.Max(m, 0) }}
}

// TestChangePointsCensoredAtTheBound: a row of about 10 ms against a
// bound of 10 ms is censored at some points and measured just above it at
// others. Read as zero where censored, it changes at many points; read
// as censored, at none.
func TestChangePointsCensoredAtTheBound(t *testing.T) {
	asZero, asCensored := 0, 0
	for seed := range uint64(20) {
		ser, below := censoredHistory(10, func(int) float64 { return 10 }, 10, seed)
		asCensored += len(ChangePoints([]Series{ser}, censoredOptions(below)))
		asZero += len(ChangePoints([]Series{ser}, censoredOptions(nil)))
	}
	if asCensored != 0 {
		t.Errorf("%d change points in 20 series hovering at their bound, read as censored: want none", asCensored)
	}
	if asZero == 0 {
		t.Errorf("read as zero, the hovering series show no change point either: the test shows nothing")
	}
}

// TestChangePointsCensoredDropIsFound: a row that falls from 200 ms to
// under its bound of 10 ms at the fifth point is found there, and its
// after is the bound, not 0.
func TestChangePointsCensoredDropIsFound(t *testing.T) {
	ser, below := censoredHistory(10, func(i int) float64 {
		if i >= 4 {
			return 2
		}
		return 200
	}, 10, 1)
	cps := ChangePoints([]Series{ser}, censoredOptions(below))
	if len(cps) != 1 || cps[0].At != 4 {
		t.Fatalf("change points %+v, want one at 4", cps)
	}
	if cps[0].After != 10 {
		t.Errorf("after %.2f ms, want the bound (10 ms): the least change the censored runs allow", cps[0].After)
	}
}
