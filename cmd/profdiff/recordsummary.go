package main

import (
	"fmt"
	"math"
	"path/filepath"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/internal/units"
	"github.com/profdiff/profdiff/record"
)

// sideRuns are one side's measured runs as record's summary sums them up:
// per run the wall time, the CPU time of its processes (rusage) and the
// on-CPU time its profile holds (NaN where the profile could not be read).
type sideRuns struct {
	name                string
	wall, cpu, profiled []float64
	// user and sys split cpu, when every run kept its resource use
	user, sys []float64
}

// recordSummary is record's summary of its runs beside the report, as
// hyperfine writes one: per side the wall time's mean ±σ and range
// (min…max), the CPU time (user and system apart, when the runs kept their
// resource use) and the profiled on-CPU time per run; each later
// side's ratios to the first, the wall's with a 95% interval and Welch's
// p. When a side's processes used more CPU than its profiles hold (a
// build before the profiled program, as go test compiles its test; a
// wrapper), it says how much a run spent outside the profile, and that
// the report compares the profiled time only. profiled reads a run's
// profile's on-CPU time.
func recordSummary(rec *record.Recording, walls []record.Wall, profiled func(record.Run) (float64, bool)) []string {
	var sides []sideRuns
	for _, s := range rec.Sides {
		sr := sideRuns{name: s.Name}
		for _, r := range rec.Runs {
			if r.Side != s.Name || r.Warmup || r.Profile == "" {
				continue
			}
			sr.wall = append(sr.wall, float64(r.WallNs))
			sr.cpu = append(sr.cpu, float64(r.CPUNs))
			if r.Resources != nil {
				sr.user = append(sr.user, float64(r.Resources.UserNs))
				sr.sys = append(sr.sys, float64(r.Resources.SysNs))
			}
			p, ok := profiled(r)
			if !ok {
				p = math.NaN()
			}
			sr.profiled = append(sr.profiled, p)
		}
		if len(sr.wall) > 0 {
			sides = append(sides, sr)
		}
	}
	width := 0
	for _, s := range sides {
		width = max(width, len(s.name))
	}
	var lines []string
	for _, s := range sides {
		m, sd := meanSD(s.wall)
		line := fmt.Sprintf("%-*s  wall %s  (%s … %s)  CPU %s", width, s.name, units.DurationSpread(m, sd),
			units.Duration(minOf(s.wall)), units.Duration(maxOf(s.wall)), units.DurationSpread(meanSD(s.cpu)))
		if len(s.user) == len(s.cpu) {
			um, _ := meanSD(s.user)
			sm, _ := meanSD(s.sys)
			line += fmt.Sprintf(" (user %s, sys %s)", units.Duration(um), units.Duration(sm))
		}
		if pm, psd := meanSD(s.profiled); !math.IsNaN(pm) {
			line += "  profiled " + units.DurationSpread(pm, psd)
		}
		lines = append(lines, line+"  "+units.Plural(len(s.wall), "run", "runs"))
	}
	for _, s := range sides {
		cm, _ := meanSD(s.cpu)
		pm, _ := meanSD(s.profiled)
		if outside := cm - pm; !math.IsNaN(pm) && outside > 0.2*cm && outside > 50e6 {
			lines = append(lines, fmt.Sprintf("%s: %s CPU a run went outside the profile (%s of %s): the runtime starting before its profiler, a build before the program (go test compiles its test) or a process the profiler did not follow; the report's rows hold only the profiled time",
				s.name, units.Duration(outside), units.Share(outside, cm), units.Duration(cm)))
		}
	}
	if len(sides) < 2 {
		return lines
	}
	base := sides[0]
	for _, s := range sides[1:] {
		line := fmt.Sprintf("%s / %s: wall %s", s.name, base.name, ratioText(base.wall, s.wall))
		for _, w := range walls {
			if w.Side == s.name && w.P != nil {
				line += " " + units.PValue(*w.P)
			}
		}
		line += ", CPU " + ratioText(base.cpu, s.cpu)
		if pa, _ := meanSD(base.profiled); !math.IsNaN(pa) {
			if pb, _ := meanSD(s.profiled); !math.IsNaN(pb) {
				line += ", profiled " + ratioText(base.profiled, s.profiled)
			}
		}
		lines = append(lines, line)
	}
	return lines
}

// ratioText is b's mean over a's, with a 95% interval (normal, from the
// means' standard errors by the delta method) when both have 2 runs or
// more: "0.74x (0.70x…0.78x)".
func ratioText(a, b []float64) string {
	ma, sa := meanSD(a)
	mb, sb := meanSD(b)
	if ma <= 0 {
		return "-"
	}
	r := mb / ma
	s := fmt.Sprintf("%.2fx", r)
	if math.IsNaN(sa) || math.IsNaN(sb) || mb <= 0 {
		return s
	}
	se := r * math.Sqrt(sa*sa/float64(len(a))/(ma*ma)+sb*sb/float64(len(b))/(mb*mb))
	return s + fmt.Sprintf(" (%.2fx…%.2fx)", math.Max(0, r-1.96*se), r+1.96*se)
}

// meanSD is the mean and the standard deviation (n-1) of xs; σ is NaN
// for one value, and both are NaN when any value is.
func meanSD(xs []float64) (float64, float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	if len(xs) < 2 {
		return m, math.NaN()
	}
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, math.Sqrt(v / float64(len(xs)-1))
}

func minOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = math.Min(m, x)
	}
	return m
}

func maxOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = math.Max(m, x)
	}
	return m
}

// profiledOnCPU reads a run's profile (below the recording's folder) for
// its on-CPU time: the default profile's, as the comparison takes it.
func profiledOnCPU(dir string) func(record.Run) (float64, bool) {
	return func(r record.Run) (float64, bool) {
		infos, err := analyze.ListFile(filepath.Join(dir, r.Profile), analyze.ParseOptions{})
		if err != nil {
			return 0, false
		}
		for _, in := range infos {
			if in.Default {
				return float64(in.OnCPUNs), true
			}
		}
		return 0, false
	}
}
