package report

import (
	"math"
	"testing"

	"github.com/profdiff/profdiff/diff"
)

// TestFigureNumbers: counts of stalls are whole when the runs' counts are,
// their means one decimal at most, and a count that goes to (or comes from)
// none is said in words, not as -100%; durations carry σ in their own unit.
func TestFigureNumbers(t *testing.T) {
	m := func(before, after []float64, verdict diff.Verdict, p float64) *diff.Measure {
		mean := func(x []float64) float64 {
			s := 0.0
			for _, v := range x {
				s += v
			}
			return s / float64(len(x))
		}
		a, b := mean(before), mean(after)
		return &diff.Measure{Mean: []float64{a, b}, Runs: [][]float64{before, after},
			Change: diff.Change{Verdict: verdict, Delta: b - a, DeltaPct: 100 * (b - a) / a, P: p}}
	}
	gone := diff.Figure{Name: "stalls over 50 ms", Count: true, Measure: m([]float64{1, 1, 1}, []float64{0, 0, 0}, diff.VerdictSame, 0.569)}
	if got := figureChange(gone).Text; got != "1 a run before, none after ~ p=0.569" {
		t.Errorf("1,1,1 -> 0,0,0: %q", got)
	}
	some := diff.Figure{Name: "stalls over 16 ms", Count: true, Measure: m([]float64{150, 152, 153}, []float64{151, 152, 153}, diff.VerdictSame, 0.8)}
	if got := figureValue(some, 0); got != "151.7 ±1.5" {
		t.Errorf("a mean of counts: %q", got)
	}
	if got := figureChange(some).Text; got != "+0.3 +0.2% ~ p=0.800" {
		t.Errorf("a change of counts: %q", got)
	}
	whole := diff.Figure{Count: true, Measure: m([]float64{3, 3}, []float64{3, 3}, diff.VerdictSame, math.NaN())}
	if got := figureValue(whole, 0); got != "3" {
		t.Errorf("whole counts: %q", got)
	}
	d := diff.Figure{Measure: m([]float64{3.0e9, 3.2e9, 3.2e9}, []float64{3e9, 3e9, 3e9}, diff.VerdictSame, 0.5)}
	if got := figureValue(d, 0); got != "3.13 s ±0.12 s" {
		t.Errorf("a duration: %q", got)
	}
}
