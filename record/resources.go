package record

import (
	"math"
	"path/filepath"

	"github.com/profdiff/profdiff/stats"
)

// Resources are what the operating system measured of one run, from the
// rusage that wait4 returns when the run's process is reaped (getrusage's
// RUSAGE_CHILDREN figure for that one child):
//
//   - user, system CPU time and the page faults and context switches are
//     the run's process's own (every thread of it: a Node worker's time
//     is its process's) plus those of every descendant that was waited
//     for (reaped) before the run's process was; a descendant the run left
//     running, or one orphaned to init (a daemon, `cmd &` never waited
//     for), is not in them, and the warning of the machine's load counts
//     it among the others' work;
//   - max RSS is the largest resident set of any one of those processes
//     (the kernel keeps the maximum over the reaped tree, not a sum): a
//     run that forks four children of 100 MiB each reports about 100 MiB,
//     as /usr/bin/time -v does for the same command; but never less than
//     profdiff's own resident set when it started the run, which the
//     kernel charges a command a Go program starts (MaxRSSFloorBytes).
//
// profdiff's own RUSAGE_CHILDREN is not read: it holds every child
// profdiff reaped (the version checks, the other runs) and, being the
// process's, could not be told apart per run.
type Resources struct {
	UserNs      int64 `json:"user_ns"`
	SysNs       int64 `json:"sys_ns"`
	MaxRSSBytes int64 `json:"max_rss_bytes"`
	MinorFaults int64 `json:"minor_faults"`
	MajorFaults int64 `json:"major_faults"`
	// VoluntaryCtx are the context switches the processes asked for
	// (waiting for I/O, a lock, a sleep); InvoluntaryCtx those the
	// scheduler forced (the time slice ran out, another task took the
	// CPU): many of these say the run competed for a CPU.
	VoluntaryCtx   int64 `json:"voluntary_ctx_switches"`
	InvoluntaryCtx int64 `json:"involuntary_ctx_switches"`
	// MaxRSSFloorBytes is the least max RSS the kernel could report for
	// the run (Linux): profdiff's own resident set when it started the
	// run, which the kernel charges a command a Go program starts (see
	// rssFloor). A max RSS at the floor says only "at most this".
	MaxRSSFloorBytes int64 `json:"max_rss_floor_bytes,omitempty"`
}

// AtFloor reports whether the max RSS is no more than the floor the way
// the run was started puts under it (within 5%): the run's own is then
// unknown, at most that.
func (r *Resources) AtFloor() bool {
	return r != nil && r.MaxRSSFloorBytes > 0 && float64(r.MaxRSSBytes) <= 1.05*float64(r.MaxRSSFloorBytes)
}

// Measure names one of a run's measures: wall time, or one of its
// Resources.
type Measure int

// The measures of a run, in the order the reports show them.
const (
	MeasureWall Measure = iota
	MeasureUser
	MeasureSys
	MeasureMaxRSS
	MeasureMinorFaults
	MeasureMajorFaults
	MeasureVoluntaryCtx
	MeasureInvoluntaryCtx
)

// Measures are all the measures, in order.
var Measures = []Measure{MeasureWall, MeasureUser, MeasureSys, MeasureMaxRSS, MeasureMinorFaults, MeasureMajorFaults, MeasureVoluntaryCtx, MeasureInvoluntaryCtx}

// String is the measure's name as the reports and record.json write it.
func (m Measure) String() string {
	switch m {
	case MeasureWall:
		return "wall"
	case MeasureUser:
		return "user"
	case MeasureSys:
		return "sys"
	case MeasureMaxRSS:
		return "max_rss"
	case MeasureMinorFaults:
		return "minor_faults"
	case MeasureMajorFaults:
		return "major_faults"
	case MeasureVoluntaryCtx:
		return "voluntary_ctx_switches"
	case MeasureInvoluntaryCtx:
		return "involuntary_ctx_switches"
	}
	return "measure?"
}

// Unit is the unit of the measure's values: "ns", "bytes" or "count".
func (m Measure) Unit() string {
	switch m {
	case MeasureWall, MeasureUser, MeasureSys:
		return "ns"
	case MeasureMaxRSS:
		return "bytes"
	}
	return "count"
}

// Value returns the run's value of the measure, and false when the run
// has none (it was not measured: a recording made before resources were
// kept, or a system that does not say).
func (r Run) Value(m Measure) (float64, bool) {
	if m == MeasureWall {
		return float64(r.WallNs), r.WallNs > 0
	}
	res := r.Resources
	if res == nil {
		return 0, false
	}
	switch m {
	case MeasureUser:
		return float64(res.UserNs), true
	case MeasureSys:
		return float64(res.SysNs), true
	case MeasureMaxRSS:
		return float64(res.MaxRSSBytes), true
	case MeasureMinorFaults:
		return float64(res.MinorFaults), true
	case MeasureMajorFaults:
		return float64(res.MajorFaults), true
	case MeasureVoluntaryCtx:
		return float64(res.VoluntaryCtx), true
	case MeasureInvoluntaryCtx:
		return float64(res.InvoluntaryCtx), true
	}
	return 0, false
}

// Kind is the kind of a run: profiled and compared, a warm-up, or run
// without the profiler to measure what profiling costs.
type Kind int

// The kinds of runs.
const (
	KindMeasured Kind = iota
	KindWarmup
	KindUnprofiled
)

// String names the kind as the reports write it.
func (k Kind) String() string {
	switch k {
	case KindWarmup:
		return "warm-up"
	case KindUnprofiled:
		return "unprofiled"
	}
	return "profiled"
}

// Kind returns the run's kind.
func (r Run) Kind() Kind {
	switch {
	case r.Warmup:
		return KindWarmup
	case r.Unprofiled:
		return KindUnprofiled
	}
	return KindMeasured
}

// Succeeded reports whether the run finished as it should: exit 0, and a
// profile where it was profiled.
func (r Run) Succeeded() bool {
	if r.Exit != 0 || r.Signal != "" || r.TimedOut {
		return false
	}
	if len(r.Steps) > 0 {
		for _, st := range r.Steps {
			if st.Exit != 0 || st.Signal != "" || st.TimedOut || !r.Unprofiled && st.Profile == "" {
				return false
			}
		}
		return true
	}
	return r.Unprofiled || r.Profile != ""
}

// Series is one measure of one side's runs of one kind and step, in the
// order they ran: what a comparison judges (see diff.ResourceRuns).
type Series struct {
	Side    string
	Step    string // "" for the whole run
	Kind    Kind
	Measure Measure
	Values  []float64
}

// Mean and StdDev are the series' mean and standard deviation (0 with one
// value).
func (s Series) Mean() float64 { return meanOf(s.Values) }

// StdDev is the standard deviation of the series' values, 0 with fewer
// than two.
func (s Series) StdDev() float64 {
	if len(s.Values) < 2 {
		return 0
	}
	return stats.StdDev(s.Values)
}

func meanOf(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return mean(xs)
}

// SeriesOf returns, for each side (in rec's order), step and kind (measured,
// then unprofiled) and measure, the values of the runs that succeeded;
// warm-ups are left out, and so are measures no run of the series has.
func (rec *Recording) SeriesOf(side string) []Series {
	steps := []string{""}
	for _, s := range rec.Steps {
		steps = append(steps, s)
	}
	var out []Series
	for _, step := range steps {
		for _, kind := range []Kind{KindMeasured, KindUnprofiled} {
			for _, m := range Measures {
				s := Series{Side: side, Step: step, Kind: kind, Measure: m}
				for _, r := range rec.Runs {
					if r.Side != side || r.Kind() != kind || !r.Succeeded() {
						continue
					}
					run := r
					if step != "" {
						st, ok := r.step(step)
						if !ok {
							continue
						}
						run = Run{WallNs: st.WallNs, Resources: st.Resources}
					}
					if v, ok := run.Value(m); ok {
						s.Values = append(s.Values, v)
					}
				}
				if len(s.Values) > 0 {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// step returns the run's step of that name.
func (r Run) step(name string) (StepRun, bool) {
	for _, s := range r.Steps {
		if s.Name == name {
			return s, true
		}
	}
	return StepRun{}, false
}

// RunSet is the runs of one side (and step) whose profiles a comparison
// reads, and that side's unprofiled runs, each a whole run or, for a
// step, the step's figures as a run's.
type RunSet struct {
	Side, Step string
	Profiled   []Run // in the order of the profiles asked for
	Unprofiled []Run // in the order they ran
}

// RunsOf returns the runs whose profiles are profiles (paths as given:
// absolute, or relative to the working directory) of the recording in
// dir,
// when each is the profile of a measured run (or of one step of it) of the
// same side and step; false otherwise.
func (rec *Recording) RunsOf(dir string, profiles []string) (RunSet, bool) {
	var set RunSet
	abs := func(p string) string {
		if a, err := filepath.Abs(p); err == nil {
			return a
		}
		return filepath.Clean(p)
	}
	type found struct {
		run  Run
		step string
	}
	byFile := map[string]found{}
	for _, r := range rec.Runs {
		if r.Kind() != KindMeasured || !r.Succeeded() {
			continue
		}
		if r.Profile != "" {
			byFile[abs(filepath.Join(dir, r.Profile))] = found{r, ""}
		}
		for _, st := range r.Steps {
			if st.Profile != "" {
				byFile[abs(filepath.Join(dir, st.Profile))] = found{stepRun(r, st), st.Name}
			}
		}
	}
	for i, p := range profiles {
		f, ok := byFile[abs(p)]
		if !ok || i > 0 && (f.run.Side != set.Side || f.step != set.Step) {
			return RunSet{}, false
		}
		set.Side, set.Step = f.run.Side, f.step
		set.Profiled = append(set.Profiled, f.run)
	}
	if len(set.Profiled) == 0 {
		return RunSet{}, false
	}
	for _, r := range rec.Runs {
		if r.Side != set.Side || r.Kind() != KindUnprofiled || !r.Succeeded() {
			continue
		}
		if set.Step == "" {
			set.Unprofiled = append(set.Unprofiled, r)
		} else if st, ok := r.step(set.Step); ok {
			set.Unprofiled = append(set.Unprofiled, stepRun(r, st))
		}
	}
	return set, true
}

// stepRun is a run's step as a run of its own: its side, index and kind,
// the step's times, resources and profile.
func stepRun(r Run, st StepRun) Run {
	return Run{Side: r.Side, Index: r.Index, Warmup: r.Warmup, Unprofiled: r.Unprofiled, WallNs: st.WallNs, CPUNs: st.CPUNs,
		Resources: st.Resources, Exit: st.Exit, Signal: st.Signal, TimedOut: st.TimedOut, Profile: st.Profile, Threads: st.Threads,
		Stdout: st.Stdout, Stderr: st.Stderr}
}

// Values returns the runs' values of the measure, and false unless every
// run has one.
func Values(runs []Run, m Measure) ([]float64, bool) {
	out := make([]float64, 0, len(runs))
	for _, r := range runs {
		v, ok := r.Value(m)
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
	return out, len(out) > 0
}

// Summary is one measure of one side's runs of one kind and step as
// record.json keeps it: mean ± standard deviation over the runs that
// succeeded (the judged comparison is the report's, see diff.Resource).
type Summary struct {
	Side    string  `json:"side"`
	Step    string  `json:"step,omitempty"`
	Kind    string  `json:"kind"` // profiled or unprofiled
	Measure string  `json:"measure"`
	Unit    string  `json:"unit"`
	Runs    int     `json:"runs"`
	Mean    float64 `json:"mean"`
	StdDev  float64 `json:"stddev"` // 0 with one run
}

// summaries sums up every side's series, sides in order.
func (rec *Recording) summaries() []Summary {
	var out []Summary
	for _, s := range rec.Sides {
		for _, se := range rec.SeriesOf(s.Name) {
			out = append(out, Summary{Side: se.Side, Step: se.Step, Kind: se.Kind.String(), Measure: se.Measure.String(), Unit: se.Measure.Unit(),
				Runs: len(se.Values), Mean: se.Mean(), StdDev: se.StdDev()})
		}
	}
	return out
}
