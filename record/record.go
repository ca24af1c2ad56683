// Package record makes the runs a comparison needs: it runs each side's
// command several times, in turns (interleaved), with a CPU profiler on,
// and keeps every run's profile, output, times and exit status, with a
// fingerprint of the machine, in a folder that profdiff then compares
// (DIR/before and DIR/after, or one folder per named side).
//
// Commands are words (see Split), never given to a shell. Each run starts
// in a process group of its own; a timeout or an interrupt stops that group
// and nothing else. The package starts processes and writes files in the
// folder it is given; it prints nothing.
package record

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Side is one side of a recording: the command its runs run, and where.
type Side struct {
	// Name names the side and its folder under Options.Out (before,
	// after, or a --side name).
	Name string
	// Args are the program and its arguments (see Split).
	Args []string
	// Dir is the folder the command runs in ("" for the current one).
	Dir string
}

// Options say what to record and how.
type Options struct {
	Sides  []Side
	Runs   int // measured runs per side (at least 1)
	Warmup int // warm-up runs per side, run first and not compared
	// Unprofiled runs per side run without the profiler, between the
	// measured runs, so that what profiling costs shows (node and the
	// package managers only: a {profile} command cannot be run without
	// its profiler).
	Unprofiled int
	// Steps, when given, are what each run runs, in order, in the side's
	// folder, in place of the side's command: each measured and profiled
	// apart (Run.Steps), into a folder per step (StepFolder).
	Steps []Step
	Order Order
	Seed  int64 // for Random
	// Out is the folder the recording is written to; it is created, and
	// may not hold a recording already.
	Out string
	// Timeout ends a run that takes longer (0: no limit).
	Timeout time.Duration
	// Interval is node's sampling interval (--cpu-prof-interval; 0:
	// node's default).
	Interval time.Duration
	// Env is the environment of every run (os.Environ, usually); the
	// profiler's NODE_OPTIONS is added after its own.
	Env []string
	// Grace is how long a stopped run has between the first signal and
	// SIGKILL (0: 2 seconds).
	Grace time.Duration
	// Comparison, when set, is kept in record.json: how the recording is
	// compared, so that it can be compared again the same way.
	Comparison *Comparison
	// Started, when set, is called before each run starts; Finished
	// after each run that ended, failed or not, before the next.
	Started  func(Slot, Side)
	Finished func(Run)
	// now is the clock (time.Now when nil), and envFor adds to a side's
	// environment: for tests. loadSample is how long the machine's load
	// is measured before the first run (0: 300 ms; negative: not).
	now        func() time.Time
	envFor     func(side string) []string
	loadSample time.Duration
}

// Step is one step of every run: a name (a folder of the recording) and
// its command's words.
type Step struct {
	Name string
	Args []string
}

// StepRun is one step of a run as record.json keeps it.
type StepRun struct {
	Name      string     `json:"name"`
	WallNs    int64      `json:"wall_ns"`
	CPUNs     int64      `json:"cpu_ns"`
	Resources *Resources `json:"resources,omitempty"`
	Exit      int        `json:"exit"`
	Signal    string     `json:"signal,omitempty"`
	TimedOut  bool       `json:"timed_out,omitempty"`
	Profile   string     `json:"profile,omitempty"`
	Threads   []string   `json:"threads,omitempty"`
	Stdout    string     `json:"stdout"`
	Stderr    string     `json:"stderr"`
}

// StepFolder is the folder, relative to the recording's, of a step's
// profiles of a side's measured runs.
func StepFolder(step, side string) string { return filepath.Join("steps", step, side) }

// Run is one run as record.json keeps it.
type Run struct {
	Side   string `json:"side"`
	Index  int    `json:"index"` // 1-based, among the side's runs of its kind
	Warmup bool   `json:"warmup"`
	// Unprofiled says the run ran without the profiler (--unprofiled-runs).
	Unprofiled bool  `json:"unprofiled,omitempty"`
	WallNs     int64 `json:"wall_ns"`
	// CPUNs is the user and system CPU time of the run's process and of
	// the processes it waited for (rusage).
	CPUNs int64 `json:"cpu_ns"`
	// Resources are the rest of what the operating system measured of
	// the run (absent in recordings made before they were kept); with
	// steps, the steps' summed (max RSS: the largest).
	Resources *Resources `json:"resources,omitempty"`
	// MachineCPUNs is the CPU time the whole machine was busy while the
	// run ran (Linux's /proc/stat, every process's, the run's too): less
	// the run's CPUNs, what other work took (absent where unread).
	MachineCPUNs int64 `json:"machine_cpu_ns,omitempty"`
	// Exit is the exit status, -1 when a signal ended the run.
	Exit     int    `json:"exit"`
	Signal   string `json:"signal,omitempty"` // SIGKILL, where a signal ended it
	TimedOut bool   `json:"timed_out,omitempty"`
	// Profile, Stdout and Stderr are paths relative to the recording's
	// folder; Profile is empty when the run wrote none.
	Profile string `json:"profile"`
	// Threads are the profiles of the run's worker threads (node writes
	// one per thread), beside Profile, the main thread's, in thread order:
	// run-01.worker-1.cpuprofile for worker 1.
	Threads []string `json:"threads,omitempty"`
	Stdout  string   `json:"stdout"`
	Stderr  string   `json:"stderr"`
	// Steps are the run's steps, in order, with Steps; the run's wall
	// and CPU times are then their sums, and Profile is empty.
	Steps []StepRun `json:"steps,omitempty"`
}

// SideRecord is a side as record.json keeps it.
type SideRecord struct {
	Name     string   `json:"name"`
	Command  []string `json:"command"`
	Dir      string   `json:"dir,omitempty"`
	Profiler string   `json:"profiler"`
	Folder   string   `json:"folder"` // the profiles' folder, relative to the recording's
}

// Comparison is how a recording was compared when it was made: every flag
// that shaped the comparison (matching roots, source maps, path maps,
// narrowing, thresholds, format), as given, and the folder they were given
// in, so that comparing the recording again gives the same report.
type Comparison struct {
	// Dir is the folder the command ran in: relative paths in Flags are
	// read from it.
	Dir string `json:"dir"`
	// Flags are the comparison's flags, as given, without those that only
	// say where to write (-o, --json-output).
	Flags []string `json:"flags"`
	// Named says the sides are compared as --side NAME=FOLDER, a base and
	// its variants, rather than as BEFORE AFTER.
	Named bool `json:"named,omitempty"`
}

// Recording is what record.json holds: the sides, the plan, the machine's
// fingerprint, the runs in the order they ran, and the wall times judged
// between the sides.
type Recording struct {
	Version       int          `json:"version"`
	Sides         []SideRecord `json:"sides"`
	Order         string       `json:"order"`
	Seed          int64        `json:"seed,omitempty"`
	RunsPerSide   int          `json:"runs_per_side"`
	WarmupPerSide int          `json:"warmup_per_side"`
	// UnprofiledPerSide are the runs per side made without the profiler.
	UnprofiledPerSide int `json:"unprofiled_per_side,omitempty"`
	// Steps name the steps of every run, in order (absent without).
	Steps       []string    `json:"steps,omitempty"`
	TimeoutNs   int64       `json:"timeout_ns,omitempty"`
	Environment Environment `json:"environment"`
	// Warnings name what makes the runs less trustworthy.
	Warnings []string `json:"warnings,omitempty"`
	Runs     []Run    `json:"runs"`
	// Wall is each side's wall time over its measured runs, the others
	// judged against the first.
	Wall []Wall `json:"wall,omitempty"`
	// Resources are each side's measures (wall and the operating
	// system's resource figures), mean ± σ per side, step and kind of run.
	Resources []Summary `json:"resources,omitempty"`
	// Stopped says why the recording ended before its last run, if it did.
	Stopped string `json:"stopped,omitempty"`
	// Comparison is how the recording was compared (nil in recordings
	// made before it was kept).
	Comparison *Comparison `json:"comparison,omitempty"`
}

// Read reads the record.json of a recording's folder.
func Read(dir string) (*Recording, error) {
	name := filepath.Join(dir, FileName)
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var rec Recording
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("%s: not a recording's summary: %v", name, err)
	}
	if rec.Version != 1 || len(rec.Sides) < 2 {
		return nil, fmt.Errorf("%s: not a recording's summary (version %d, %d sides)", name, rec.Version, len(rec.Sides))
	}
	for _, s := range rec.Sides {
		if s.Folder == "" || s.Folder != filepath.Base(s.Folder) || s.Folder == ".." || s.Folder == "." {
			return nil, fmt.Errorf("%s: side %q: its folder %q is not a folder of the recording", name, s.Name, s.Folder)
		}
	}
	return &rec, nil
}

// FileName is the name of the recording's summary in its folder.
const FileName = "record.json"

// ErrInterrupted is wrapped by the error of a recording its context
// stopped (Ctrl-C): the runs that had finished are kept.
var ErrInterrupted = errors.New("interrupted")

// RunError is a run that failed: it exited non-zero, was ended by a signal
// or the timeout, could not start, or wrote no profile.
type RunError struct {
	Run     Run
	Command string // the command as the user would type it
	Reason  string // what went wrong
	Tail    string // the last lines of its standard error, joined by " | "
	Out     string // the recording's folder
}

func (e *RunError) Error() string {
	kind := ""
	switch {
	case e.Run.Warmup:
		kind = " warm-up"
	case e.Run.Unprofiled:
		kind = " unprofiled"
	}
	msg := fmt.Sprintf("run %s%s #%d (%s) %s", e.Run.Side, kind, e.Run.Index, e.Command, e.Reason)
	if e.Tail != "" {
		msg += "; its stderr ends: " + e.Tail + " (all of it in " + filepath.Join(e.Out, e.Run.Stderr) + ")"
	}
	return msg
}

// Do records the runs opts ask for in opts.Out and returns the recording,
// which is also written to Out/record.json, after every run, so that what
// finished stays usable if the recording stops. A failed run stops the
// recording with a *RunError; ctx's end (an interrupt) stops the running
// command's process group and returns an error wrapping ErrInterrupted;
// either way the recording so far is returned with the error.
func Do(ctx context.Context, opts Options) (*Recording, error) {
	if err := supported(); err != nil {
		return nil, err
	}
	profilers, stepProfilers, err := check(opts)
	if err != nil {
		return nil, err
	}
	if opts.Grace <= 0 {
		opts.Grace = 2 * time.Second
	}
	if opts.now == nil {
		opts.now = time.Now
	}
	if err := makeFolders(opts); err != nil {
		return nil, err
	}
	rec, names := newRecording(ctx, &opts, profilers)
	if err := rec.write(opts.Out); err != nil {
		return nil, err
	}
	width := max(2, len(strconv.Itoa(opts.Runs)))
	finish := func() {
		rec.Wall = wallTimes(rec.Runs, names)
		rec.Resources = rec.summaries()
		rec.Warnings = append(rec.Environment.warnings(names), loadWarnings(rec.Runs, names)...)
		rec.Warnings = append(rec.Warnings, floorWarnings(rec.Runs, names)...)
	}
	for _, slot := range ScheduleWith(opts.Order, len(opts.Sides), opts.Runs, opts.Warmup, opts.Unprofiled, opts.Seed) {
		side := opts.Sides[slot.Side]
		if ctx.Err() != nil { // interrupted between two runs
			err := fmt.Errorf("%w before run %s #%d (%s)", ErrInterrupted, side.Name, slot.Index, quoteCommand(side.Args))
			rec.Stopped = err.Error()
			finish()
			return rec, errors.Join(err, rec.write(opts.Out))
		}
		if opts.Started != nil {
			opts.Started(slot, side)
		}
		r, rerr := runOnce(ctx, opts, side, profilers[slot.Side], stepProfilers, slot, width)
		if r.Side != "" { // it started, or was meant to
			rec.Runs = append(rec.Runs, r)
		}
		if rerr != nil {
			rec.Stopped = rerr.Error()
			finish()
			if err := rec.write(opts.Out); err != nil {
				return rec, errors.Join(rerr, err)
			}
			if opts.Finished != nil && r.Side != "" {
				opts.Finished(r)
			}
			return rec, rerr
		}
		if opts.Finished != nil {
			opts.Finished(r)
		}
		if err := rec.write(opts.Out); err != nil {
			return rec, err
		}
	}
	finish()
	return rec, rec.write(opts.Out)
}

// newRecording starts the recording opts ask for: its sides, steps and
// order, and the machine's fingerprint and load before the first run; it
// returns the sides' names too.
func newRecording(ctx context.Context, opts *Options, profilers []Profiler) (*Recording, []string) {
	rec := &Recording{Version: 1, Order: opts.Order.String(), RunsPerSide: opts.Runs, WarmupPerSide: opts.Warmup,
		UnprofiledPerSide: opts.Unprofiled, TimeoutNs: int64(opts.Timeout), Runs: []Run{}, Comparison: opts.Comparison}
	for _, st := range opts.Steps {
		rec.Steps = append(rec.Steps, st.Name)
	}
	if opts.Order == Random {
		rec.Seed = opts.Seed
	}
	names := make([]string, len(opts.Sides))
	for i, s := range opts.Sides {
		names[i] = s.Name
		prof := ""
		if len(opts.Steps) == 0 {
			prof = profilers[i].String()
		}
		rec.Sides = append(rec.Sides, SideRecord{Name: s.Name, Command: s.Args, Dir: s.Dir, Profiler: prof, Folder: s.Name})
	}
	asked := opts.Sides // the programs whose versions the fingerprint asks
	if len(opts.Steps) > 0 {
		asked = slices.Clone(opts.Sides)
		for i := range asked {
			asked[i].Args = opts.Steps[0].Args
		}
	}
	rec.Environment = fingerprint(ctx, asked, opts.Env, opts.now())
	if opts.loadSample == 0 {
		opts.loadSample = 300 * time.Millisecond
	}
	if opts.loadSample > 0 {
		rec.Environment.BusyCPUsBefore = busyCPUs(opts.loadSample)
	}
	rec.Warnings = rec.Environment.warnings(names)
	return rec, names
}

// check checks the options and returns each side's profiler and, with
// steps, each step's.
func check(opts Options) ([]Profiler, []Profiler, error) {
	profs, err := checkSides(opts)
	if err != nil {
		return nil, nil, err
	}
	var steps []Profiler
	seen := map[string]bool{}
	for _, st := range opts.Steps {
		if st.Name == "" || st.Name == "." || st.Name == ".." || strings.ContainsAny(st.Name, `/\`) || seen[st.Name] {
			return nil, nil, fmt.Errorf("--step %q: a step's name is a folder of the recording: give each step a plain name of its own", st.Name)
		}
		seen[st.Name] = true
		if len(st.Args) == 0 {
			return nil, nil, fmt.Errorf("step %s: an empty command", st.Name)
		}
		p, err := Detect(st.Args)
		if err != nil {
			return nil, nil, fmt.Errorf("step %s: %w", st.Name, err)
		}
		if opts.Unprofiled > 0 && p != ProfilerNode {
			return nil, nil, fmt.Errorf("--unprofiled-runs: the step %s (%s) names its profile with {profile}, and cannot be run without its profiler", st.Name, quoteCommand(st.Args))
		}
		steps = append(steps, p)
	}
	if len(opts.Steps) == 0 && opts.Unprofiled > 0 {
		for i, s := range opts.Sides {
			if profs[i] != ProfilerNode {
				return nil, nil, fmt.Errorf("--unprofiled-runs: the side %s (%s) names its profile with {profile}, and cannot be run without its profiler (node and the package managers can)", s.Name, quoteCommand(s.Args))
			}
		}
	}
	return profs, steps, nil
}

// checkSides checks the options' sides and returns each side's profiler
// (none with steps, whose commands are the steps').
func checkSides(opts Options) ([]Profiler, error) {
	switch {
	case len(opts.Sides) == 0:
		return nil, errors.New("nothing to record: give a command for each side")
	case opts.Runs < 1:
		return nil, fmt.Errorf("--runs %d: give at least 1 run per side", opts.Runs)
	case opts.Warmup < 0:
		return nil, fmt.Errorf("--warmup %d: give 0 or more warm-up runs", opts.Warmup)
	case opts.Unprofiled < 0:
		return nil, fmt.Errorf("--unprofiled-runs %d: give 0 or more", opts.Unprofiled)
	case opts.Timeout < 0:
		return nil, fmt.Errorf("--timeout %s: give a positive duration, or 0 for none", opts.Timeout)
	case opts.Out == "":
		return nil, errors.New("no folder to record to")
	}
	var out []Profiler
	seen := map[string]bool{}
	for _, s := range opts.Sides {
		if s.Name == "" || s.Name == "." || s.Name == ".." || strings.ContainsAny(s.Name, `/\`) || s.Name == "logs" || s.Name == "warmup" || s.Name == "steps" {
			return nil, fmt.Errorf("side %q: a side's name is a folder of the recording: a plain name other than logs, warmup and steps", s.Name)
		}
		if seen[s.Name] {
			return nil, fmt.Errorf("side %q is given twice", s.Name)
		}
		seen[s.Name] = true
		var p Profiler
		switch {
		case len(opts.Steps) > 0 && len(s.Args) > 0:
			return nil, fmt.Errorf("side %s: a command and steps: with --step, every side runs the steps, each in its folder", s.Name)
		case len(opts.Steps) == 0 && len(s.Args) == 0:
			return nil, fmt.Errorf("side %s: an empty command", s.Name)
		case len(opts.Steps) == 0:
			var err error
			if p, err = Detect(s.Args); err != nil {
				return nil, err
			}
		}
		if s.Dir != "" {
			if st, err := os.Stat(s.Dir); err != nil || !st.IsDir() {
				return nil, fmt.Errorf("side %s: %s is not a folder", s.Name, s.Dir)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// makeFolders creates the recording's folder and its side, logs and warmup
// folders, refusing one that holds a recording already.
func makeFolders(opts Options) error {
	if _, err := os.Stat(filepath.Join(opts.Out, FileName)); err == nil {
		return fmt.Errorf("%s holds a recording already (%s): give another --out", opts.Out, FileName)
	}
	dirs := []string{"logs"}
	if opts.Warmup > 0 {
		dirs = append(dirs, "warmup")
	}
	for _, s := range opts.Sides {
		dirs = append(dirs, s.Name)
		for _, st := range opts.Steps {
			dirs = append(dirs, StepFolder(st.Name, s.Name))
		}
	}
	for _, d := range dirs {
		p := filepath.Join(opts.Out, d)
		if err := os.MkdirAll(p, 0o755); err != nil {
			return err
		}
		if d == "logs" || d == "warmup" || (len(opts.Steps) > 0 && !strings.HasPrefix(d, "steps")) {
			continue
		}
		if entries, err := os.ReadDir(p); err != nil {
			return err
		} else if len(entries) > 0 {
			return fmt.Errorf("%s is not empty: its files would be compared with the runs; give another --out", p)
		}
	}
	return nil
}

// write writes the recording to DIR/record.json, through a temporary file
// so that an interrupt never leaves half of it.
func (rec *Recording) write(dir string) error {
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, "."+FileName+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, FileName))
}

// runOnce runs one slot of the schedule and returns its run; the error is
// a *RunError, or wraps ErrInterrupted, or says why it could not start.
// With steps, the run is its steps, run in order, the first that fails
// ending it.
func runOnce(ctx context.Context, opts Options, side Side, p Profiler, stepProfilers []Profiler, slot Slot, width int) (r Run, err error) {
	r = Run{Side: side.Name, Index: slot.Index, Warmup: slot.Warmup, Unprofiled: slot.Unprofiled}
	name := fmt.Sprintf("run-%0*d", width, slot.Index)
	folder := side.Name
	logName := fmt.Sprintf("%s-%0*d", side.Name, width, slot.Index)
	switch {
	case slot.Warmup:
		folder, name = "warmup", fmt.Sprintf("%s-%d", side.Name, slot.Index)
		logName = fmt.Sprintf("%s-warmup-%d", side.Name, slot.Index)
	case slot.Unprofiled:
		logName = fmt.Sprintf("%s-unprofiled-%d", side.Name, slot.Index)
	}
	busy0, busyOK := machineCPU()
	defer func() {
		if busy1, ok := machineCPU(); ok && busyOK && r.Side != "" {
			r.MachineCPUNs = int64(busy1 - busy0)
			if re, ok := err.(*RunError); ok {
				re.Run.MachineCPUNs = r.MachineCPUNs
			}
		}
	}()
	if len(opts.Steps) == 0 {
		base := filepath.Join(opts.Out, folder, name)
		res, err := invoke(ctx, opts, side.Args, side, p, base, logName, slot)
		r.WallNs, r.CPUNs, r.Resources, r.Exit, r.Signal, r.TimedOut = res.WallNs, res.CPUNs, res.Resources, res.Exit, res.Signal, res.TimedOut
		r.Profile, r.Threads, r.Stdout, r.Stderr = res.Profile, res.Threads, res.Stdout, res.Stderr
		if err != nil {
			if re, ok := err.(*RunError); ok {
				re.Run = r
			}
			return r, err
		}
		return r, nil
	}
	for i, st := range opts.Steps {
		base := filepath.Join(opts.Out, StepFolder(st.Name, side.Name), name)
		if slot.Warmup {
			base = filepath.Join(opts.Out, folder, name+"."+st.Name)
		}
		res, err := invoke(ctx, opts, st.Args, side, stepProfilers[i], base, logName+"."+st.Name, slot)
		res.Name = st.Name
		r.Steps = append(r.Steps, res)
		r.WallNs += res.WallNs
		r.CPUNs += res.CPUNs
		r.Resources = addResources(r.Resources, res.Resources)
		r.Exit, r.Signal, r.TimedOut = res.Exit, res.Signal, res.TimedOut
		r.Stdout, r.Stderr = res.Stdout, res.Stderr // the last step's
		if err != nil {
			if re, ok := err.(*RunError); ok {
				re.Run = r
				re.Reason = "step " + st.Name + " " + re.Reason
			}
			return r, err
		}
	}
	return r, nil
}

// addResources adds b's figures to a's (nil when both are), keeping the
// larger max RSS: the steps run one after the other.
func addResources(a, b *Resources) *Resources {
	if a == nil && b == nil {
		return nil
	}
	var out Resources
	for _, x := range []*Resources{a, b} {
		if x == nil {
			continue
		}
		out.UserNs += x.UserNs
		out.SysNs += x.SysNs
		out.MaxRSSBytes = max(out.MaxRSSBytes, x.MaxRSSBytes)
		out.MaxRSSFloorBytes = max(out.MaxRSSFloorBytes, x.MaxRSSFloorBytes)
		out.MinorFaults += x.MinorFaults
		out.MajorFaults += x.MajorFaults
		out.VoluntaryCtx += x.VoluntaryCtx
		out.InvoluntaryCtx += x.InvoluntaryCtx
	}
	return &out
}

// invoke runs one command of a run (the side's, or a step's) in the
// side's folder, in a process group of its own, its profile at base (and
// none when the slot is unprofiled), its output in logs/logName.out and
// .err; the error is a *RunError (its Run for the caller to fill), or
// wraps ErrInterrupted, or says why it could not start.
func invoke(ctx context.Context, opts Options, args []string, side Side, p Profiler, base, logName string, slot Slot) (StepRun, error) {
	r := StepRun{Stdout: filepath.Join("logs", logName+".out"), Stderr: filepath.Join("logs", logName+".err")}
	base, err := filepath.Abs(base)
	if err != nil {
		return r, err
	}
	inv := invocation{args: args}
	if !slot.Unprofiled {
		inv = prepare(p, args, base, opts.Interval, envValue(opts.Env, "NODE_OPTIONS"))
	}
	fail := func(reason string) (StepRun, error) {
		return r, &RunError{Command: quoteCommand(args), Reason: reason, Tail: tail(filepath.Join(opts.Out, r.Stderr), 3), Out: opts.Out}
	}
	stdout, stderr, err := openLogs(opts.Out, r)
	if err != nil {
		return r, err
	}
	defer stdout.Close()
	defer stderr.Close()
	if inv.stage != "" {
		if err := os.MkdirAll(inv.stage, 0o755); err != nil {
			return r, err
		}
	}
	cmd := exec.Command(inv.args[0], inv.args[1:]...)
	cmd.Dir = side.Dir
	cmd.Env = append(slices.Clone(opts.Env), inv.env...) // the last of a name wins
	if opts.envFor != nil {
		cmd.Env = append(cmd.Env, opts.envFor(side.Name)...)
	}
	cmd.Stdout, cmd.Stderr = stdout, stderr // stdin: /dev/null
	ownGroup(cmd)
	floor := rssFloor()
	start := opts.now()
	if err := cmd.Start(); err != nil {
		return fail(fmt.Sprintf("could not start: %v", err))
	}
	stop, interrupted := watch(ctx, cmd.Process, opts.Timeout, opts.Grace)
	if waitExited(cmd.Process.Pid) {
		// The leader has exited and is not reaped: its group's number
		// is still ours. What it left running there goes with it.
		signalGroup(cmd.Process, killSignal)
	}
	werr := cmd.Wait()
	r.WallNs = int64(opts.now().Sub(start))
	signalGroup(cmd.Process, killSignal) // where the leader could not be waited for unreaped
	timedOut := stop()
	cpu, res, sig := usage(cmd.ProcessState)
	if res != nil {
		res.MaxRSSFloorBytes = floor
	}
	r.CPUNs, r.Resources, r.Exit, r.Signal, r.TimedOut = int64(cpu), res, cmd.ProcessState.ExitCode(), sig, timedOut
	var ee *exec.ExitError
	switch {
	case interrupted():
		return r, fmt.Errorf("%w during run %s #%d (%s)", ErrInterrupted, side.Name, slot.Index, quoteCommand(args))
	case timedOut:
		return fail(fmt.Sprintf("took longer than --timeout %s and was stopped", opts.Timeout))
	case werr != nil && !errors.As(werr, &ee):
		return fail(werr.Error())
	case sig != "":
		return fail("was ended by the signal " + sig)
	case r.Exit != 0:
		reason := fmt.Sprintf("exited with status %d", r.Exit)
		if len(inv.env) > 0 && strings.Contains(tail(filepath.Join(opts.Out, r.Stderr), 3), "is not allowed in NODE_OPTIONS") {
			reason += " (this node refuses --cpu-prof in NODE_OPTIONS, which profiles the node a package manager starts: use Node 23 or a late 22.x, or run node itself, e.g. 'node script.js')"
		}
		return fail(reason)
	}
	if slot.Unprofiled {
		return r, nil
	}
	if reason := keepProfiles(opts.Out, inv, &r); reason != "" {
		return fail(reason)
	}
	return r, nil
}

// openLogs creates the run's output files, as r names them below out.
func openLogs(out string, r StepRun) (stdout, stderr *os.File, err error) {
	if stdout, err = os.Create(filepath.Join(out, r.Stdout)); err != nil {
		return nil, nil, err
	}
	if stderr, err = os.Create(filepath.Join(out, r.Stderr)); err != nil {
		stdout.Close()
		return nil, nil, err
	}
	return stdout, stderr, nil
}

// keepProfiles names in r the profile the run wrote (the main thread's)
// and its other threads', relative to out; it returns why not, when the
// run wrote none.
func keepProfiles(out string, inv invocation, r *StepRun) string {
	var threads []string
	if inv.stage != "" {
		var err error
		if threads, err = pickProfiles(inv.stage, inv.profile); err != nil {
			return err.Error()
		}
	}
	if st, err := os.Stat(inv.profile); err != nil || st.Size() == 0 {
		return fmt.Sprintf("wrote no profile at %s", inv.profile)
	}
	r.Profile, _ = filepath.Rel(mustAbs(out), inv.profile)
	for _, t := range threads {
		rel, _ := filepath.Rel(mustAbs(out), t)
		r.Threads = append(r.Threads, rel)
	}
	return ""
}

// watch stops the run's process group when the timeout passes (SIGTERM)
// or ctx ends (SIGINT, as Ctrl-C would have), then after grace with
// SIGKILL. stop ends the watch and reports whether the timeout struck;
// interrupted whether ctx did.
func watch(ctx context.Context, p *os.Process, timeout, grace time.Duration) (stop func() bool, interrupted func() bool) {
	done := make(chan struct{})
	result := make(chan [2]bool, 1)
	go func() {
		var timer <-chan time.Time
		if timeout > 0 {
			t := time.NewTimer(timeout)
			defer t.Stop()
			timer = t.C
		}
		var timed, intr bool
		select {
		case <-done:
			result <- [2]bool{}
			return
		case <-timer:
			timed = true
			signalGroup(p, terminateSignal)
		case <-ctx.Done():
			intr = true
			signalGroup(p, interruptSignal)
		}
		select {
		case <-done:
		case <-time.After(grace):
			signalGroup(p, killSignal)
			<-done
		}
		result <- [2]bool{timed, intr}
	}()
	var got *[2]bool
	get := func() [2]bool {
		if got == nil {
			close(done)
			v := <-result
			got = &v
		}
		return *got
	}
	return func() bool { return get()[0] }, func() bool { return get()[1] }
}

// nodeProfileName is the name node gives a profile it names itself:
// CPU.<date>.<time>.<pid>.<thread id>.<sequence>.cpuprofile, thread id 0
// for the main thread and N for worker N.
var nodeProfileName = regexp.MustCompile(`^CPU\.\d+\.\d+\.(\d+)\.(\d+)\.\d+\.cpuprofile$`)

// WorkerSuffix ends the name of a worker thread's profile, kept beside
// its run's main-thread profile: run-01.worker-1.cpuprofile.
var WorkerSuffix = regexp.MustCompile(`\.worker-(\d+)\.cpuprofile$`)

// pickProfiles moves the profiles node wrote into stage to the run's: the
// main thread's of the run's process to path, and each of its worker
// threads' beside it, named for the thread (run-01.worker-1.cpuprofile),
// returned in thread order. The run's process is the one whose main
// thread wrote the largest profile (a package manager's own node writes a
// small one); profiles not named as node names them count as main threads
// of processes of their own. The folder is removed if nothing else is left
// in it.
func pickProfiles(stage, path string) ([]string, error) {
	entries, err := os.ReadDir(stage)
	if err != nil {
		return nil, err
	}
	type prof struct {
		name     string
		size     int64
		pid, tid int
	}
	var profs []prof
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || e.IsDir() || !strings.HasSuffix(e.Name(), ".cpuprofile") {
			continue
		}
		p := prof{name: e.Name(), size: info.Size(), pid: -1 - len(profs)}
		if m := nodeProfileName.FindStringSubmatch(e.Name()); m != nil {
			p.pid, _ = strconv.Atoi(m[1])
			p.tid, _ = strconv.Atoi(m[2])
		}
		profs = append(profs, p)
	}
	best := -1
	for i, p := range profs {
		if p.tid != 0 {
			continue
		}
		if b := best; b < 0 || p.size > profs[b].size || p.size == profs[b].size && p.name < profs[b].name {
			best = i
		}
	}
	if best < 0 {
		return nil, fmt.Errorf("wrote no profile in %s", stage)
	}
	if err := os.Rename(filepath.Join(stage, profs[best].name), path); err != nil {
		return nil, err
	}
	var workers []prof
	for _, p := range profs {
		if p.pid == profs[best].pid && p.tid != 0 {
			workers = append(workers, p)
		}
	}
	slices.SortFunc(workers, func(a, b prof) int { return a.tid - b.tid })
	var threads []string
	for _, w := range workers {
		to := strings.TrimSuffix(path, ".cpuprofile") + fmt.Sprintf(".worker-%d.cpuprofile", w.tid)
		if err := os.Rename(filepath.Join(stage, w.name), to); err != nil {
			return threads, err
		}
		threads = append(threads, to)
	}
	_ = os.Remove(stage) // fails, and stays, when the other processes' profiles are there
	return threads, nil
}

// tail returns the last n non-empty lines of a file, joined by " | ", at
// most 300 bytes of them.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	s := strings.Join(lines, " | ")
	if len(s) > 300 {
		s = "..." + s[len(s)-300:]
	}
	return s
}

// envValue is the value of name in env, the last one set.
func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
}

// mustAbs is path made absolute, or path itself.
func mustAbs(path string) string {
	if a, err := filepath.Abs(path); err == nil {
		return a
	}
	return path
}
