package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/profdiff/profdiff/side"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/internal/confine"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/record"
)

const recordUsageHead = `profdiff record runs the command of each side several times, in turns
(before, after, before, after, ...), profiles every run, and compares the
runs as profdiff DIR/before DIR/after would, with the same flags. node
gets --cpu-prof before its script, and npm, npx, pnpm and yarn through
NODE_OPTIONS (Node 23 and late 22.x); for any other tool, write {profile}
where it writes its profile (go test -cpuprofile {profile}, or
{profile}.folded for folded stacks). Commands are split into words,
quotes respected, and never run through a shell (ask for sh -c '...' if
you need one).

The folder (--out) holds before/ and after/ (the profiles: each run's main
thread's, run-01.cpuprofile, and its worker threads',
run-01.worker-1.cpuprofile, which profdiff DIR lists but does not compare),
warmup/, logs/
(each run's standard output and error) and record.json: the runs in the
order they ran, with wall and CPU times and exit statuses, a fingerprint
of the machine, and the comparison's flags: profdiff DIR compares the
runs again as record did, with the same report.

Usage:
  profdiff record [flags] --cmd 'CMD' --before-dir DIR --after-dir DIR
  profdiff record [flags] --before-cmd 'CMD' --after-cmd 'CMD'
  profdiff record [flags] --side-cmd NAME='CMD'...
  profdiff record [flags] --cmd 'CMD' --side-dir NAME=DIR...

Flags:
`

const recordUsageTail = `
Every flag of profdiff help flags (--format, --fail-on, --work, the
source-map and narrowing flags) is passed to the comparison made at the end.
At the end record sums up the runs as hyperfine does: per side the wall
time's mean ±σ and range (min…max), the CPU time of the run's processes and
the on-CPU time its profile holds; the ratios to the first side (the wall's
with a 95% interval and Welch's p); and the CPU a run spent outside its
profile (a build before it, as go test compiles its test), which the report
does not compare.

Examples:
  # One program in two checkouts (git worktree), 5 + 5 runs, interleaved
  profdiff record --cmd 'node main.js' --before-dir ../main --after-dir .

  # A Go benchmark in the main checkout and this one, gated in CI
  profdiff record --runs 8 --before-dir ../main --after-dir . \
      --cmd 'go test -run ^$ -bench Route -cpuprofile {profile} ./router' \
      --fail-on 'on-cpu>+5%'

Exit status: 0 success, 1 a --fail-on rule broke, 2 bad usage, a run that
failed (exited non-zero, timed out, wrote no profile) or an interrupt; the
runs that finished stay in the folder.
`

// recordOptions are the flags of profdiff record, beside the comparison's.
type recordOptions struct {
	cmd, beforeCmd, afterCmd string
	beforeDir, afterDir      string
	sideCmds, sideDirs       []string // NAME=CMD, NAME=DIR
	runs, warmup             int
	order                    string
	seed                     int64
	out                      string
	timeout, interval        time.Duration
	unprofiled               int
	steps                    []string // NAME=CMD
}

// recordFlags adds the flags of profdiff record to fs and returns their
// names.
func recordFlags(fs *pflag.FlagSet, r *recordOptions) []string {
	rf := pflag.NewFlagSet("record", pflag.ContinueOnError)
	rf.SortFlags = false
	rf.StringVar(&r.cmd, "cmd", "", "the command `CMD` of every side that has none of its own, e.g. with --before-dir and --after-dir")
	rf.StringVar(&r.beforeCmd, "before-cmd", "", "the command `CMD` of the BEFORE side")
	rf.StringVar(&r.afterCmd, "after-cmd", "", "the command `CMD` of the AFTER side")
	rf.StringVar(&r.beforeDir, "before-dir", "", "run the BEFORE side in `DIR` (a checkout), and match its files by their path below it (with --after-dir, or the current folder's)")
	rf.StringVar(&r.afterDir, "after-dir", "", "run the AFTER side in `DIR` (default with --before-dir: the current folder)")
	rf.StringArrayVar(&r.sideCmds, "side-cmd", nil, "the command of the side NAME, given as `NAME=CMD` (repeatable; the first side named is the base), for a base and several variants")
	rf.StringArrayVar(&r.sideDirs, "side-dir", nil, "run the side NAME in DIR, given as `NAME=DIR` (repeatable)")
	rf.IntVar(&r.runs, "runs", 5, "measured runs per side")
	rf.IntVar(&r.warmup, "warmup", 1, "warm-up runs per side, run first and left out of the comparison")
	rf.StringVar(&r.order, "order", "interleaved", "the order of the runs: interleaved (A B A B ...), alternate-abba (A B B A A B ...) or random (each round shuffled; see --seed)")
	rf.Int64Var(&r.seed, "seed", 0, "the seed of --order random (default: from the clock, kept in record.json)")
	rf.StringVar(&r.out, "out", "", "record into `DIR` (default: a new folder profdiff-record-DATE-TIME here, printed)")
	rf.DurationVar(&r.timeout, "timeout", 0, "stop a run that takes longer than `DURATION` (e.g. 2m), and the recording with it (0: no limit)")
	rf.DurationVar(&r.interval, "interval", 0, "node's sampling interval, --cpu-prof-interval (`DURATION`; default node's, 1ms)")
	stepFlags(rf, r)
	var names []string
	rf.VisitAll(func(f *pflag.Flag) {
		names = append(names, f.Name)
		fs.AddFlag(f)
	})
	return names
}

// runRecord is profdiff record: it records the runs, then compares them as
// run would, and returns the exit status.
func runRecord(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var o options
	o.ceilings = ceilingsFromEnv(os.Getenv)
	var r recordOptions
	fs := newFlagSet(&o)
	fs.SetOutput(io.Discard)
	own := recordFlags(fs, &r)
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "profdiff record: %s (see profdiff record --help)\n", errorText(err))
		return exitUsage
	}
	if o.help {
		writeRecordHelp(stdout, fs, own)
		return exitOK
	}
	plan, err := planRecording(r, o, fs)
	if err != nil {
		return usageError(stderr, "record: %v", err)
	}
	flags := comparisonArgs(args, fs, own)
	compare := append(slices.Clone(flags), plan.compare...)
	cwd, err := os.Getwd()
	if err != nil {
		return usageError(stderr, "record: %v", err)
	}
	// Kept in record.json, so that profdiff DIR compares the runs again
	// as this comparison does (outputFlags only say where to write).
	plan.opts.Comparison = &record.Comparison{Dir: cwd, Flags: append(comparisonArgs(flags, fs, outputFlags), plan.roots...), Named: plan.named}
	plan.again = againCommand(plan.opts.Out, plan.opts.Comparison.Flags) + " compares them"
	if err := checkComparison(o, len(plan.opts.Sides), isTerminal(stdin) && isTerminal(stdout), isTerminal(stdout)); err != nil {
		return usageError(stderr, "record: %v", err)
	}
	if !fs.Changed("out") {
		fmt.Fprintf(stderr, "profdiff: recording into %s\n", plan.opts.Out)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	plan.opts.Finished = progress(stderr, (r.runs+r.warmup+r.unprofiled)*len(plan.opts.Sides), o.quiet)
	rec, err := record.Do(ctx, plan.opts)
	stop()
	if err != nil {
		fmt.Fprintf(stderr, "profdiff record: %s\n", errorText(err))
		if rec != nil && everySideRan(rec) {
			fmt.Fprintf(stderr, "profdiff record: the runs that finished are in %s (%s)\n", plan.opts.Out, termtext.Clean(plan.again))
		}
		return exitUsage
	}
	if !o.quiet {
		for _, w := range rec.Warnings {
			fmt.Fprintf(stderr, "profdiff record: warning: %s\n", w)
		}
		for _, line := range recordSummary(rec, rec.Wall, profiledOnCPU(plan.opts.Out)) {
			fmt.Fprintf(stderr, "profdiff record: %s\n", termtext.Clean(line))
		}
	}
	return compareRecording(plan, compare, stdin, stdout, stderr)
}

// writeRecordHelp writes profdiff record --help: its usage and its own
// flags (own names them in fs).
func writeRecordHelp(stdout io.Writer, fs *pflag.FlagSet, own []string) {
	fmt.Fprint(stdout, recordUsageHead)
	rf := pflag.NewFlagSet("record", pflag.ContinueOnError)
	rf.SortFlags = false
	for _, n := range own {
		rf.AddFlag(fs.Lookup(n))
	}
	writeFlags(stdout, rf)
	fmt.Fprint(stdout, recordUsageTail)
}

// progress returns what says each run as it finishes, on stderr ("[3/10]
// after #2  1.2s wall  1.4s CPU"), of total runs; nothing when quiet.
func progress(stderr io.Writer, total int, quiet bool) func(record.Run) {
	done := 0
	return func(run record.Run) {
		done++
		if quiet {
			return
		}
		kind := ""
		if run.Warmup {
			kind = " (warm-up)"
		} else if run.Unprofiled {
			kind = " (unprofiled)"
		}
		status := ""
		if !run.Succeeded() {
			status = "  failed"
		}
		fmt.Fprintf(stderr, "profdiff: [%d/%d] %s #%d%s  %s wall  %s CPU%s\n", done, total, run.Side, run.Index, kind,
			seconds(run.WallNs), seconds(run.CPUNs), status)
	}
}

// recordPlan is a checked profdiff record command line: the recording's
// options, and the arguments that compare what it records.
type recordPlan struct {
	opts    record.Options
	compare []string // the sides' arguments, after the passed-through flags
	roots   []string // the flags of compare that match each side below its checkout
	named   bool     // the sides are compared as --side NAME=DIR
	again   string   // the command that compares the runs again
}

// outputFlags are the comparison's flags that only say where its outputs
// go: a recording compared again writes to standard output.
var outputFlags = []string{"output", "json-output", "cpuprofile", "memprofile"}

// planRecording turns the record flags into the recording's options and
// the comparison's side arguments.
func planRecording(r recordOptions, o options, fs *pflag.FlagSet) (recordPlan, error) {
	var p recordPlan
	if fs.NArg() > 0 {
		return p, fmt.Errorf("%q: profdiff record takes no profiles; it makes them (to compare profiles, leave out record)", fs.Arg(0))
	}
	if len(o.before)+len(o.after)+len(o.named) > 0 {
		return p, errors.New("--before, --after and --side name profiles; record's sides are --before-cmd/--after-cmd, --cmd with --before-dir/--after-dir, or --side-cmd/--side-dir")
	}
	order, err := record.ParseOrder(r.order)
	if err != nil {
		return p, err
	}
	twoSides := r.beforeCmd != "" || r.afterCmd != "" || r.beforeDir != "" || r.afterDir != ""
	sides, err := recordSides(r, twoSides)
	if err != nil {
		return p, err
	}
	out := r.out
	if out == "" {
		out = newRecordFolder(time.Now())
	}
	seed := r.seed
	if order == record.Random && !fs.Changed("seed") {
		seed = time.Now().UnixNano()
	}
	p.opts = record.Options{Sides: sides, Runs: r.runs, Warmup: r.warmup, Order: order, Seed: seed, Out: out,
		Timeout: r.timeout, Interval: r.interval, Env: os.Environ(), Unprofiled: r.unprofiled}
	if p.opts.Steps, err = parseSteps(r.steps); err != nil {
		return p, err
	}
	// The comparison: the sides' folders, each matched below its checkout
	// unless the command line says how.
	userRoots := len(o.roots) > 0 || o.rootBefore != "" || o.rootAfter != "" || o.noRootMatch
	allDirs := !slices.ContainsFunc(sides, func(s record.Side) bool { return s.Dir == "" })
	if twoSides {
		if allDirs && !userRoots {
			p.roots = []string{"--root-before", sides[0].Dir, "--root-after", sides[1].Dir}
		}
		p.compare = append(slices.Clone(p.roots), filepath.Join(out, "before"), filepath.Join(out, "after"))
		p.again = fmt.Sprintf("profdiff %s compares them", out)
		return p, nil
	}
	p.named = true
	for _, s := range sides {
		if allDirs && !userRoots {
			p.roots = append(p.roots, "--root", s.Name+"="+s.Dir)
		}
	}
	p.compare = slices.Clone(p.roots)
	for _, s := range sides {
		p.compare = append(p.compare, "--side="+s.Name+"="+filepath.Join(out, s.Name))
	}
	p.again = fmt.Sprintf("profdiff %s compares them", out)
	return p, nil
}

// recordSides are the recording's sides from the record flags: before
// and after (twoSides), or named ones (--side-cmd, --side-dir), each with
// its command split and its folder made absolute.
func recordSides(r recordOptions, twoSides bool) ([]record.Side, error) {
	named := len(r.sideCmds)+len(r.sideDirs) > 0
	var sides []record.Side
	var cmds []string
	switch {
	case twoSides && named:
		return nil, errors.New("give the sides as before/after (--before-cmd, --before-dir, ...) or as named sides (--side-cmd, --side-dir), not both")
	case twoSides:
		sides = []record.Side{{Name: "before", Dir: r.beforeDir}, {Name: "after", Dir: r.afterDir}}
		cmds = []string{r.beforeCmd, r.afterCmd}
		if (r.beforeDir == "") != (r.afterDir == "") {
			// One checkout named: the other side is the one here.
			sides[0].Dir, sides[1].Dir = cmp.Or(r.beforeDir, "."), cmp.Or(r.afterDir, ".")
		}
	case named:
		byName := map[string]int{}
		add := func(flag, v string, set func(i int, val string)) error {
			name, val, ok := strings.Cut(v, "=")
			if !ok || name == "" || val == "" {
				return fmt.Errorf("--%s %q: give NAME=%s", flag, v, map[string]string{"side-cmd": "CMD", "side-dir": "DIR"}[flag])
			}
			i, seen := byName[name]
			if !seen {
				i = len(sides)
				byName[name] = i
				sides = append(sides, record.Side{Name: name})
				cmds = append(cmds, "")
			}
			set(i, val)
			return nil
		}
		for _, v := range r.sideCmds {
			if err := add("side-cmd", v, func(i int, val string) { cmds[i] = val }); err != nil {
				return nil, err
			}
		}
		for _, v := range r.sideDirs {
			if err := add("side-dir", v, func(i int, val string) { sides[i].Dir = val }); err != nil {
				return nil, err
			}
		}
	default:
		return nil, errors.New("nothing to record: give --cmd 'CMD' with --before-dir and --after-dir, or --before-cmd and --after-cmd")
	}
	for i := range sides {
		c := cmds[i]
		if c == "" {
			c = r.cmd
		}
		if c == "" && len(r.steps) > 0 {
			continue // the steps are its commands
		}
		if c == "" {
			return nil, fmt.Errorf("the side %s has no command: give --cmd, or its own (--%s-cmd)", sides[i].Name, sides[i].Name)
		}
		var err error
		if sides[i].Args, err = record.Split(c); err != nil {
			return nil, fmt.Errorf("the command of the side %s: %v", sides[i].Name, err)
		}
		if sides[i].Dir != "" {
			if sides[i].Dir, err = filepath.Abs(sides[i].Dir); err != nil {
				return nil, err
			}
		}
	}
	if len(sides) < 2 {
		return nil, fmt.Errorf("one side (%s) only: a recording compares two sides or more", sides[0].Name)
	}
	return sides, nil
}

// replayArgs are the arguments that compare the recording in dir again as
// record compared it: the flags record.json keeps, then extra (flags given
// now, which come after and so take precedence), then the sides' folders.
// The flags are read as given in the folder record ran in; from another
// folder, a relative path among them would name another file, and that is
// an error.
func replayArgs(dir string, rec *record.Recording, extra []string) ([]string, error) {
	c := rec.Comparison
	if c == nil {
		return nil, fmt.Errorf("%s: this recording does not keep the flags it was compared with (made by an older profdiff): compare %s with the same flags", filepath.Join(dir, record.FileName), strings.Join(sideFolders(dir, rec), " "))
	}
	if cwd, err := os.Getwd(); err == nil && cwd != c.Dir {
		for _, f := range c.Flags {
			v := f
			if _, val, ok := strings.Cut(f, "="); ok && strings.HasPrefix(f, "-") {
				v = val
			}
			if v == "" || strings.HasPrefix(v, "-") || filepath.IsAbs(v) {
				continue
			}
			if _, err := os.Stat(filepath.Join(c.Dir, v)); err == nil {
				return nil, fmt.Errorf("%s: it was compared with %s, a path relative to %s: run profdiff %s from there", filepath.Join(dir, record.FileName), v, c.Dir, dir)
			}
		}
	}
	// Never write where record.json says: only to where the user says now.
	args := comparisonArgs(c.Flags, newFlagSet(&options{}), outputFlags)
	if err := checkReplayedFolders(dir, args, extra); err != nil {
		return nil, err
	}
	args = append(args, extra...)
	if !c.Named {
		return append(args, sideFolders(dir, rec)...), nil
	}
	for i, s := range rec.Sides {
		args = append(args, "--side="+s.Name+"="+sideFolders(dir, rec)[i])
	}
	return args, nil
}

// checkReplayedFolders refuses kept flags that would let profdiff read
// below a folder the user did not give: a recording is data (a fork's job
// can write the record.json a later job compares), so what it names does
// not widen what profdiff reads. The working directory, the recording's
// folder and the folders the flags given now grant (extra) are given; for
// any other, the error names the --source-root that allows it.
func checkReplayedFolders(dir string, kept, extra []string) error {
	outside, err := ungrantedFolders(dir, kept, extra)
	if err != nil {
		return fmt.Errorf("%s: its flags do not parse: %v", filepath.Join(dir, record.FileName), err)
	}
	if len(outside) > 0 {
		f := outside[0]
		return fmt.Errorf("%s asks to read below %s (%s), a folder you did not give: a recording's flags do not widen what profdiff reads; to allow it, add --source-root %s", filepath.Join(dir, record.FileName), f.dir, f.flag, f.dir)
	}
	return nil
}

// ungrantedFolders are the folders the kept flags would let profdiff read
// below that neither the working directory, the recording's folder dir
// nor the flags in extra grant.
func ungrantedFolders(dir string, kept, extra []string) ([]replayedFolder, error) {
	granted := func(args []string) ([]replayedFolder, error) {
		var o options
		if err := newFlagSet(&o).Parse(args); err != nil {
			return nil, err
		}
		return replayedFolders(o), nil
	}
	keptFolders, err := granted(kept)
	if err != nil {
		return nil, err
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	allowed := []string{wd, dir}
	given, _ := granted(extra) // parsed again, and said, with the rest
	for _, f := range given {
		allowed = append(allowed, f.dir)
	}
	var out []replayedFolder
	for _, f := range keptFolders {
		if !confine.New(allowed...).Holds(f.dir) {
			out = append(out, f)
		}
	}
	return out, nil
}

// againCommand is the command that compares a recording in out again:
// with a --source-root for each folder its flags read that the recording
// itself does not grant (see checkReplayedFolders).
func againCommand(out string, kept []string) string {
	cmd := "profdiff"
	outside, _ := ungrantedFolders(out, comparisonArgs(kept, newFlagSet(&options{}), outputFlags), nil)
	seen := map[string]bool{}
	for _, f := range outside {
		if abs, err := filepath.Abs(f.dir); err == nil && !seen[abs] {
			seen[abs] = true
			cmd += " --source-root " + abs
		}
	}
	return cmd + " " + out
}

// replayedFolder is a folder a kept flag lets profdiff read below.
type replayedFolder struct{ flag, dir string }

// replayedFolders are the folders the comparison flags in o grant (the
// values of --source-root, --sourcemaps*, --sourcemap* maps' folders,
// --path-map targets and the checkouts of --root*).
func replayedFolders(o options) []replayedFolder {
	var out []replayedFolder
	add := func(flag string, values []string, pick func(string) string) {
		for _, v := range values {
			if d := pick(v); d != "" && !strings.Contains(d, "://") {
				out = append(out, replayedFolder{"--" + flag + " " + v, d})
			}
		}
	}
	whole := func(v string) string { return v }
	afterFirst := func(v string) string { // NAME=DIR, FROM=TO
		if _, d, ok := strings.Cut(v, "="); ok {
			return d
		}
		return v
	}
	mapFolder := func(v string) string { // [NAME=]SCRIPT=MAP
		return filepath.Dir(v[strings.LastIndex(v, "=")+1:])
	}
	add("source-root", o.sourceRoots, whole)
	add("sourcemaps", o.sourceMapDirs, afterFirst)
	add("sourcemaps-before", o.sourceDirsBefore, whole)
	add("sourcemaps-after", o.sourceDirsAfter, whole)
	add("sourcemap", o.sourceMaps, mapFolder)
	add("sourcemap-before", o.sourceMapsBefore, mapFolder)
	add("sourcemap-after", o.sourceMapsAfter, mapFolder)
	add("path-map", o.pathMaps, afterFirst)
	add("root", o.roots, afterFirst)
	add("root-before", []string{o.rootBefore}, whole)
	add("root-after", []string{o.rootAfter}, whole)
	return out
}

// sideFolders are the folders of a recording's sides.
func sideFolders(dir string, rec *record.Recording) []string {
	var out []string
	for _, s := range rec.Sides {
		out = append(out, filepath.Join(dir, s.Folder))
	}
	return out
}

// recordingFolder reports whether path is a recording's folder (it holds
// record.json).
func recordingFolder(path string) bool {
	st, err := os.Stat(filepath.Join(path, record.FileName))
	return err == nil && st.Mode().IsRegular()
}

// newRecordFolder is a name for a new recording's folder in the current
// directory, one that does not exist yet.
func newRecordFolder(now time.Time) string {
	base := "profdiff-record-" + now.Format("20060102-150405")
	name := base
	for i := 2; ; i++ {
		if _, err := os.Lstat(name); errors.Is(err, os.ErrNotExist) {
			return name
		}
		name = fmt.Sprintf("%s-%d", base, i)
	}
}

// comparisonArgs returns the arguments of a record command line that are
// the comparison's: all but record's own flags (and their values).
func comparisonArgs(args []string, fs *pflag.FlagSet, own []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		takesNext := false
		switch {
		case a == "--":
			return append(out, args[i:]...)
		case strings.HasPrefix(a, "--"):
			name, _, hasValue := strings.Cut(a[2:], "=")
			f := fs.Lookup(name)
			takesNext = f != nil && f.NoOptDefVal == "" && !hasValue
			if slices.Contains(own, name) {
				if takesNext {
					i++
				}
				continue
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j, c := range a[1:] {
				if f := fs.ShorthandLookup(string(c)); f != nil && f.NoOptDefVal == "" {
					takesNext = j == len(a)-2 // -o FILE, not -oFILE
					if j == 0 && slices.Contains(own, f.Name) {
						if takesNext {
							i++
						}
						a = ""
					}
					break
				}
			}
			if a == "" {
				continue
			}
		}
		out = append(out, a)
		if takesNext && i+1 < len(args) {
			i++
			out = append(out, args[i])
		}
	}
	return out
}

// checkComparison checks the comparison's flags before the runs, so that a
// typo in --fail-on does not cost a recording.
func checkComparison(o options, nsides int, interactive, stdoutTerminal bool) error {
	if _, err := parseOptions(o, false); err != nil {
		return err
	}
	if _, err := narrowFilters(o); err != nil {
		return err
	}
	if _, err := diffOptions(o, nsides); err != nil {
		return err
	}
	return o.chooseFormat(interactive, stdoutTerminal)
}

// everySideRan reports whether every side has a measured run that left a
// profile: what a comparison of the runs so far needs.
func everySideRan(rec *record.Recording) bool {
	for _, s := range rec.Sides {
		if !slices.ContainsFunc(rec.Runs, func(r record.Run) bool { return r.Side == s.Name && !r.Warmup && profiled(r) }) {
			return false
		}
	}
	return true
}

// profiled reports whether a run left a profile: its own, or, in a
// recording of steps, one of its steps'.
func profiled(r record.Run) bool {
	return r.Profile != "" || slices.ContainsFunc(r.Steps, func(st record.StepRun) bool { return st.Profile != "" })
}

// seconds formats nanoseconds as seconds with three decimals.
func seconds(ns int64) string { return fmt.Sprintf("%.3fs", float64(ns)/1e9) }

// recordingNote says, when the sides are the folders of one recording
// compared without the flags record compared them with (profdiff
// DIR/before DIR/after, which loses the checkouts' roots), what those
// flags were and that profdiff DIR compares as record did; nil otherwise.
func recordingNote(args []string, sides []side.Side) *analyze.Warning {
	dir := ""
	for _, s := range sides {
		if len(s.Files) == 0 || s.Files[0] == "-" {
			return nil
		}
		d := filepath.Dir(filepath.Dir(s.Files[0]))
		if dir != "" && d != dir {
			return nil
		}
		dir = d
	}
	if dir == "" || !recordingFolder(dir) {
		return nil
	}
	rec, err := record.Read(dir)
	if err != nil || rec.Comparison == nil || len(rec.Comparison.Flags) == 0 {
		return nil
	}
	kept := comparisonArgs(rec.Comparison.Flags, newFlagSet(&options{}), outputFlags)
	if len(args) >= len(kept) && slices.Equal(args[:len(kept)], kept) {
		return nil // compared with record's flags (profdiff DIR does so)
	}
	return &analyze.Warning{Kind: analyze.WarnOther,
		Message: fmt.Sprintf("these are the folders of the recording %s, which record compared with %s; profdiff %s compares it as record did", dir, strings.Join(kept, " "), dir)}
}
