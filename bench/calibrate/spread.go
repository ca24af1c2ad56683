package main

import (
	"fmt"
	"io"
	"math"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/stats"
)

// spreads prints, for each injection target of s, the run-to-run spread
// (standard deviation of the log over the set's runs) of its self time,
// of its share of the run's on-CPU time by sample time (what profdiff
// tests) and by sample count, and of the runs' process CPU time; for a
// recording, also the spread of the differences within its rounds (over
// √2, to read on the same scale), which a paired test would see.
func (s *set) spreads(out io.Writer) {
	fmt.Fprintf(out, "%s: %d runs; sd of ln over runs (paired within rounds)\n", s.name, len(s.profiles))
	for _, t := range s.targets() {
		var lt, ls, lc, lp []float64
		var samples float64
		for i, p := range s.profiles {
			var c, tc, w, tw float64
			for _, sm := range p.Samples {
				if !p.OnCPU(sm) {
					continue
				}
				tc++
				tw += float64(sm.Weight)
				if p.Frames[p.Nodes[sm.Node].Frame].Name == t {
					c++
					w += float64(sm.Weight)
				}
			}
			// Ticks of the profiler: the time over the run's interval (a
			// pprof sample holds many).
			samples += w / float64(max(s.tables[i].Summary.IntervalNs, 1)) / float64(len(s.profiles))
			lt = append(lt, math.Log(w))
			ls = append(ls, math.Log(w/tw))
			lc = append(lc, math.Log(c/tc))
			if s.cpu[i] > 0 {
				lp = append(lp, math.Log(float64(s.cpu[i])))
			}
		}
		paired := func(x []float64) string {
			if s.pairs == nil || len(x) != len(s.profiles) {
				return ""
			}
			var d []float64
			for _, p := range s.pairs {
				d = append(d, x[p[1]]-x[p[0]])
			}
			return fmt.Sprintf(" (%.3f)", stats.StdDev(d)/math.Sqrt2)
		}
		proc := "-"
		if len(lp) == len(s.profiles) {
			proc = fmt.Sprintf("%.3f%s", stats.StdDev(lp), paired(lp))
		}
		byCount := fmt.Sprintf("%.3f%s", stats.StdDev(lc), paired(lc))
		if p := s.profiles[0]; p.Format == analyze.FormatPprof || p.Format == analyze.FormatFolded {
			byCount = "- (samples hold counts)"
		}
		fmt.Fprintf(out, "  %s: %.0f ticks a run; self time %.3f%s, share by sample time %.3f%s, share by sample count %s, process CPU %s\n",
			t, samples, stats.StdDev(lt), paired(lt), stats.StdDev(ls), paired(ls), byCount, proc)
	}
}

// shareTest reports whether one Welch t-test on the log of a function's
// share of each run's on-CPU time, with nothing else (no prior, no
// second test, no correction for the other rows), finds it worse at the
// 5% level: what the runs' own noise allows a test of that row alone.
func shareTest(r *diff.Report, fn string) bool {
	on := r.Headline.OnCPU.Runs
	for _, row := range r.Functions {
		if row.Key.Function != fn {
			continue
		}
		var x [2][]float64
		for si := range 2 {
			for i, v := range row.Self.Runs[si] {
				if v <= 0 || on[si][i] <= 0 {
					return false
				}
				x[si] = append(x[si], math.Log(v/on[si][i]))
			}
		}
		na, nb := float64(len(x[0])), float64(len(x[1]))
		if na < 2 || nb < 2 {
			return false
		}
		va, vb := sq(stats.StdDev(x[0]))/na, sq(stats.StdDev(x[1]))/nb
		t := (meanOf(x[1]) - meanOf(x[0])) / math.Sqrt(va+vb)
		df := (va + vb) * (va + vb) / (va*va/(na-1) + vb*vb/(nb-1))
		return t > 0 && 2*stats.TCDF(-t, df) < 0.05
	}
	return false
}

func sq(x float64) float64 { return x * x }

func meanOf(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// countTest is shareTest on the function's share of each run's on-CPU
// samples by count rather than by sample time (the after runs' counts
// grown as inject grows them), for profiles of one sample per tick; ok
// is false for pprof and folded sets, whose samples hold counts.
func (s *set) countTest(a, b []int, fn string, factor float64) (found, ok bool) {
	var x [2][]float64
	for si, idx := range [][]int{a, b} {
		for _, i := range idx {
			p := s.profiles[i]
			if p.Format == analyze.FormatPprof || p.Format == analyze.FormatFolded {
				return false, false
			}
			var c, on float64
			for _, sm := range p.Samples {
				if p.OnCPU(sm) {
					on++
					if p.Frames[p.Nodes[sm.Node].Frame].Name == fn {
						c++
					}
				}
			}
			if si == 1 {
				added := math.Floor(c*(factor-1) + 1e-9)
				c, on = c+added, on+added
			}
			if c == 0 {
				return false, true
			}
			x[si] = append(x[si], math.Log(c/on))
		}
	}
	na, nb := float64(len(x[0])), float64(len(x[1]))
	if na < 2 || nb < 2 {
		return false, true
	}
	va, vb := sq(stats.StdDev(x[0]))/na, sq(stats.StdDev(x[1]))/nb
	t := (meanOf(x[1]) - meanOf(x[0])) / math.Sqrt(va+vb)
	df := (va + vb) * (va + vb) / (va*va/(na-1) + vb*vb/(nb-1))
	return t > 0 && 2*stats.TCDF(-t, df) < 0.05, true
}
