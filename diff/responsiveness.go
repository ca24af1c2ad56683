package diff

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/profdiff/profdiff/analyze"
)

// Responsiveness compares the sides' stalls: how long the profiled thread
// stayed busy without an idle moment (see analyze.FindStalls for the rule),
// per run, with each figure judged as on-CPU time is.
type Responsiveness struct {
	// Source says where the stretches come from: "samples" (runs of
	// samples without (idle)), "tasks" (the thread's tasks a Chrome trace
	// recorded, exact), or "tasks and samples" when the runs differ.
	Source string
	// IntervalNs is each side's mean sampling interval: each end of a
	// stretch is known to within one.
	IntervalNs []float64
	// LongestStall is each run's longest stretch, in ns.
	LongestStall Measure
	// Over16ms and Over50ms count each run's stretches longer than 16 ms
	// and 50 ms (the measures hold counts, not ns).
	Over16ms, Over50ms Measure
	// Blocking is each run's blocking time, in ns: the sum over its
	// stretches of their length beyond 50 ms.
	Blocking Measure
	// LateFrames counts each run's animation frames over 16 ms, from the
	// browser's AnimationFrame events; nil unless every run's trace
	// recorded frames.
	LateFrames *Measure
	// Longest are each side's longest stretches over its runs (at most
	// analyze.DefaultLongestStalls a side), the longest first within a
	// side, sides in order.
	Longest []Stall
	// Runs holds every run's stalls, per side and run in the sides'
	// order: every stretch over 16 ms (Long), for a timeline.
	Runs [][]*analyze.Stalls
}

// Stall is one of a side's longest stretches.
type Stall struct {
	// Side and Run are the indexes of the side (in Report.Sides) and of
	// the run (in the side's files) the stretch was found in.
	Side, Run int
	analyze.Stretch
}

// HasLong reports whether some run of some side has a stretch over 50 ms.
func (r *Responsiveness) HasLong() bool {
	for _, m := range r.Over50ms.Runs {
		for _, v := range m {
			if v > 0 {
				return true
			}
		}
	}
	return false
}

// Figure names a responsiveness measure for the rules and renderers.
type Figure struct {
	// Name is the figure as printed ("longest stall").
	Name string
	// Rule is its --fail-on target ("longest-stall"); "" for none.
	Rule string
	// Count says the measure holds counts, not nanoseconds.
	Count bool
	// Measure is the figure's measure in the report.
	Measure *Measure
}

// Figures returns the report's four figures in the order they are shown.
// With frame events, a fifth: frames over 16 ms.
func (r *Responsiveness) Figures() []Figure {
	f := []Figure{
		{"longest stall", "longest-stall", false, &r.LongestStall},
		{"stalls over 16 ms", "stalls-16ms", true, &r.Over16ms},
		{"stalls over 50 ms", "stalls-50ms", true, &r.Over50ms},
		{"blocking time", "blocking", false, &r.Blocking},
	}
	if r.LateFrames != nil {
		f = append(f, Figure{"frames over 16 ms", "", true, r.LateFrames})
	}
	return f
}

// hasFrames reports whether every run recorded animation frames.
func hasFrames(runs [][]*analyze.Stalls) bool {
	for _, side := range runs {
		for _, st := range side {
			if st.Frames == 0 {
				return false
			}
		}
	}
	return len(runs) > 0
}

// figure returns the measure a rule target names, or nil.
func (r *Responsiveness) figure(target string) *Figure {
	if r == nil {
		return nil
	}
	for _, f := range r.Figures() {
		if f.Rule == target {
			return &f
		}
	}
	return nil
}

// isStallTarget reports whether a rule target is a responsiveness figure.
func isStallTarget(target string) bool {
	return target == "longest-stall" || target == "stalls-16ms" || target == "stalls-50ms" || target == "blocking"
}

// stallRulesMeasurable returns an error when a rule asks for stall figures
// and a run has no sample times to measure them from.
func stallRulesMeasurable(sides []Side, rules []Rule) error {
	for _, rule := range rules {
		if !isStallTarget(rule.Target) {
			continue
		}
		for _, s := range sides {
			for _, t := range s.Tables {
				if t.Stalls == nil {
					return fmt.Errorf("--fail-on %s: %s is %s, which records no sample times: stalls cannot be measured from it", rule.Text, t.File, t.Format.Describe())
				}
			}
		}
	}
	return nil
}

// responsiveness compares the sides' stalls, judged for a pair; nil when a
// run has no sample times.
func (c *comparison) responsiveness() *Responsiveness {
	r := &Responsiveness{Source: "samples", IntervalNs: slices.Clone(c.interval)}
	for _, s := range c.sides {
		var runs []*analyze.Stalls
		for _, t := range s.Tables {
			if t.Stalls == nil {
				return nil
			}
			runs = append(runs, t.Stalls)
		}
		r.Runs = append(r.Runs, runs)
	}
	r.Source = sourceOf(r.Runs)
	of := func(f func(*analyze.Stalls) float64) Measure {
		m := Measure{Mean: make([]float64, len(r.Runs)), Runs: make([][]float64, len(r.Runs))}
		for si, runs := range r.Runs {
			for _, st := range runs {
				m.Runs[si] = append(m.Runs[si], f(st))
			}
			m.Mean[si] = mean(m.Runs[si])
		}
		return m
	}
	r.LongestStall = of(func(s *analyze.Stalls) float64 { return float64(s.LongestNs) })
	r.Over16ms = of(func(s *analyze.Stalls) float64 { return float64(s.Over16ms) })
	r.Over50ms = of(func(s *analyze.Stalls) float64 { return float64(s.Over50ms) })
	r.Blocking = of(func(s *analyze.Stalls) float64 { return float64(s.BlockingNs) })
	if hasFrames(r.Runs) {
		m := of(func(s *analyze.Stalls) float64 { return float64(s.FramesOver16ms) })
		r.LateFrames = &m
	}
	if len(c.sides) == 2 {
		for _, f := range r.Figures() {
			interval := c.interval
			if f.Count {
				interval = []float64{1, 1} // a stall is one event
			}
			c.judgeFigure(f.Measure, interval, c.loadGap())
		}
	}
	for si, runs := range r.Runs {
		var side []Stall
		for ri, st := range runs {
			for _, s := range st.Longest {
				side = append(side, Stall{Side: si, Run: ri, Stretch: s})
			}
		}
		slices.SortStableFunc(side, func(a, b Stall) int { return cmp.Compare(b.Duration, a.Duration) })
		r.Longest = append(r.Longest, side[:min(len(side), analyze.DefaultLongestStalls)]...)
	}
	return r
}

// judgeFigure judges a responsiveness figure of a pair with the headline's
// noise model (see judgeHeadline): each run's value stands for value /
// interval observations, and runs vary by the run-noise prior pooled with
// their observed spread, widened by the sides' gap in load (loadGap): a
// stretched gap between samples lengthens a stall as it does on-CPU time.
func (c *comparison) judgeFigure(m *Measure, interval []float64, load float64) {
	a := sideStatsOf(m.Runs[0], interval[0], 1, c.opts.RunNoise).withLoad(load)
	b := sideStatsOf(m.Runs[1], interval[1], 1, c.opts.RunNoise).withLoad(load)
	m.Change = change(m.Mean[0], m.Mean[1], math.NaN())
	m.Change.P = c.family(zTest(a, b))
	m.Change.Verdict = verdict(m.Change, c.opts, false, false, false)
}

// mergeResponsiveness lines up the pairs' responsiveness into one of every
// side; nil when a pair has none.
func (m *merger) responsiveness() *Responsiveness {
	for _, p := range m.pairs {
		if p.Responsiveness == nil {
			return nil
		}
	}
	r := &Responsiveness{Source: "samples", IntervalNs: make([]float64, len(m.sides)), Runs: make([][]*analyze.Stalls, len(m.sides))}
	for k, p := range m.pairs {
		v := m.variants[k]
		r.IntervalNs[m.base], r.IntervalNs[v] = p.Responsiveness.IntervalNs[0], p.Responsiveness.IntervalNs[1]
		r.Runs[m.base], r.Runs[v] = p.Responsiveness.Runs[0], p.Responsiveness.Runs[1]
	}
	r.Source = sourceOf(r.Runs)
	r.LongestStall = m.measure(m.each(func(p *Report) *Measure { return &p.Responsiveness.LongestStall }))
	r.Over16ms = m.measure(m.each(func(p *Report) *Measure { return &p.Responsiveness.Over16ms }))
	r.Over50ms = m.measure(m.each(func(p *Report) *Measure { return &p.Responsiveness.Over50ms }))
	r.Blocking = m.measure(m.each(func(p *Report) *Measure { return &p.Responsiveness.Blocking }))
	if hasFrames(r.Runs) {
		lf := m.measure(m.each(func(p *Report) *Measure { return p.Responsiveness.LateFrames }))
		r.LateFrames = &lf
	}
	for si := range m.sides {
		for k, p := range m.pairs {
			pair := 1
			if si == m.base {
				if k > 0 {
					continue
				}
				pair = 0
			} else if m.variants[k] != si {
				continue
			}
			for _, s := range p.Responsiveness.Longest {
				if s.Side == pair {
					s.Side = si
					r.Longest = append(r.Longest, s)
				}
			}
		}
	}
	return r
}

// sourceOf names where the runs' stretches come from: "tasks" when every
// run's are its trace's tasks, "samples" when none are, else "tasks and
// samples".
func sourceOf(runs [][]*analyze.Stalls) string {
	tasks, samples := false, false
	for _, side := range runs {
		for _, st := range side {
			if st.FromTasks {
				tasks = true
			} else {
				samples = true
			}
		}
	}
	switch {
	case tasks && samples:
		return "tasks and samples"
	case tasks:
		return "tasks"
	}
	return "samples"
}
