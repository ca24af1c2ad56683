package main

import (
	"errors"
	"fmt"
	"github.com/profdiff/profdiff/report"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/symbolicate"
)

const usageHead = `profdiff ranks where a CPU profile spends its on-CPU time, by package,
function and file, and compares two profiles (or two sets of repeated runs)
with a verdict on noise. It reads V8 .cpuprofile files (Node --cpu-prof, Chrome
DevTools, CDP Profiler.stop), Chrome Performance-panel traces, pprof files
(Go, @datadog/pprof) and folded stacks ("frame;frame;... count" lines, from
perf via stackcollapse, async-profiler, py-spy, rbspy), gzipped or not; the
format is detected from the content.
(idle) and (program) are left out of on-CPU time; garbage collection is kept
and shown as the package (gc).
Stalls (profiles with sample times: V8, Chrome traces; not pprof or folded):
a busy stretch is a run of samples with no (idle) sample, however late the
samples came; (program) counts as busy (V8's own work on the thread), and a
stretch runs from the (idle) sample before it to the one after it. The
report gives the longest stretch, stretches over 16 and 50 ms and blocking
time (each stretch's length beyond 50 ms), each end known to within one
sampling interval, and what ran in the longest. In a Chrome trace the
stretches are the thread's tasks as the browser recorded them (RunTask), exact.

Usage:
  profdiff [flags] PROFILE
  profdiff [flags] BEFORE AFTER        each a profile or a directory of runs
  profdiff [flags] --before F... --after F...
  profdiff [flags] BASE V1 V2...       a base and variants, each judged
                                       against it
  profdiff [flags] a-r1.cpuprofile a-r2.cpuprofile b-r1.cpuprofile...
                                       files of one folder that differ only
                                       in a run number are runs of one side
                                       (here a and b)
  profdiff [flags] runs/*.cpuprofile   names saying before/after (base/head,
                                       old/new, a/b) make the two sides, in
                                       that order; so do those of one folder
                                       (profdiff runs/)
  profdiff [flags] --side NAME=PATH...
  profdiff [flags] --base-store DIR --base-commit SHA AFTER...
                                       the base is the store's record of SHA
  profdiff history add --store DIR --commit SHA [flags] PROFILE...
  profdiff history [--order FILE] DIR  change points over commits
                                       (profdiff help history)
  profdiff record [flags] --cmd CMD --before-dir DIR --after-dir DIR
                                       run, profile and compare
                                       (profdiff help record)

Flags:
`

const usageRules = `
Rules (--fail-on): TARGET>LIMIT or TARGET<LIMIT, where TARGET is on-cpu,
on-cpu/work, package:NAME, function:NAME or file:NAME (the end of the path),
which judge a row's self time, or package-total:NAME, function-total:NAME or
file-total:NAME, which judge its total time (NAME may be *), or
longest-stall, stalls-16ms, stalls-50ms or blocking (the stall figures per
run; an error, exit 2, on profiles without sample times), and LIMIT is +N%
(relative), +Npp (percentage points of on-CPU time, for rows) or +Nms (for
longest-stall and blocking: grew by more than N ms).
A rule breaks only on a change judged real (better/worse/new/gone); a NAME
that matches no row on either side is an error (exit 2), not a pass:
  on-cpu>+5%   on-cpu/work>+3%   package:*>+2pp   package:lodash>+10%
  function:match>+5%   function-total:render>+10%   file:src/router.js>+5%
  longest-stall>+20%   longest-stall>+10ms   stalls-50ms>+0%   blocking>+50ms
`

const usageExamples = `
Examples:
  # Rank one Node profile: headline, top packages, top functions
  profdiff CPU.20260101.120000.4242.0.001.cpuprofile

  # Everything, every row, as JSON for a script
  profdiff --format json -o ranking.json profile.cpuprofile

  # The 50 heaviest rows of a Go CPU profile
  profdiff --top 50 cpu.pprof

  # A Chrome trace holding several threads: list them, then pick one
  profdiff --list Trace-20260101T120000.json
  profdiff --thread CrRendererMain Trace-20260101T120000.json

  # A @datadog/pprof profile by wall time instead of CPU time
  profdiff --sample-type wall profile.pb.gz

  # A bundled app profiled on a server: find app.min.js and its .map locally
  profdiff --sourcemaps ./dist CPU.20260101.120000.4242.0.001.cpuprofile
  profdiff --path-map /srv/app=./build profile.cpuprofile
  profdiff --sourcemap app.min.js=./dist/app.min.js.map profile.cpuprofile

  # Compare two builds, five runs each, with their own source maps
  profdiff --sourcemaps-before old/dist --sourcemaps-after new/dist \
      runs-before/ runs-after/

  # The same per request served, as markdown for a pull request, gated in CI
  profdiff --work 40000 --work-unit request --format markdown \
      --fail-on 'on-cpu/work>+3%' --fail-on 'package:*>+2pp' \
      before.cpuprofile after.cpuprofile

  # Bisect: a base and two candidate builds, runs of each, a verdict per build
  profdiff --side base=runs/2869/ --side worker-pool=runs/2870/ \
      --side this=runs/2871/ --sourcemaps base=dist-2869 \
      --sourcemaps worker-pool=dist-2870 --sourcemaps this=dist-2871

  # profdiff itself slow on your files? Profile it, attach the file to a report
  profdiff --cpuprofile profdiff.pprof runs-before/ runs-after/

Exit status: 0 success, 1 a --fail-on rule broke (the report is written
first), 2 bad usage or unreadable input.
`

// options are the parsed command line.
type options struct {
	lineFlags
	fleet        fleetFlags // query sides (fleet.go)
	format       string
	output       string
	jsonOutput   string
	top          int
	topSet       bool // --top was given: every output shows that many rows
	thread       string
	sampleType   string
	list         bool
	version      bool
	help         bool
	helpAll      bool
	maxInputSize string
	foldedUnit   string
	focus        string
	ignore       string
	hide         string
	show         string
	showFrom     string
	pruneFrom    string
	window       string
	windowMarks  string
	trimIdle     bool
	frameShare   float64
	foldedEvery  string
	cpuProfile   string
	memProfile   string

	before, after []string
	named         []string // --side NAME=PATH
	base          string
	variant       string
	works         []string // --work N or NAME=N
	phases        []string // --phase NAME=FROM..TO or NAME=MARK_A..MARK_B
	quiet         bool
	workBefore    float64
	workAfter     float64
	workBeforeSet bool // --work-before was given (0 included)
	workAfterSet  bool
	workUnit      string
	commit        string // the commit the (after) side comes from
	baseCommit    string // the commit the base side comes from
	baseStore     string // --base-store: the history store whose record of --base-commit is the base
	previous      string // the earlier pull-request comment's body
	// workOfOneSide lets --work apply to one side: history add records
	// a commit's runs per unit of work.
	workOfOneSide bool
	// previousResults are the results --previous keeps, read by
	// newInvocation.
	previousResults []report.CommentResult
	alpha           float64
	minDelta        []string
	sort            string
	by              string
	failOn          []string

	allowMixed       bool
	noSourceMaps     bool
	sourceMaps       []string // SCRIPT=MAP
	sourceMapDirs    []string
	sourceMapsBefore []string
	sourceMapsAfter  []string
	sourceDirsBefore []string
	sourceDirsAfter  []string
	pathMaps         []string // FROM=TO
	sourceRoots      []string // --source-root: more folders whose files profiles may name
	ceilings         []string // from PROFDIFF_CONFINE: nothing outside these is read

	roots       []string // --root NAME=DIR
	rootBefore  string
	rootAfter   string
	noRootMatch bool
}

func newFlagSet(o *options) *pflag.FlagSet {
	fs := pflag.NewFlagSet("profdiff", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.StringVarP(&o.format, "format", "f", "", "output format: tui, an interactive explorer (the default when standard input and output are a terminal), text (the default otherwise), markdown, json, html (an offline flame graph page); or for other tools: pprof (gzipped profile.proto, a pprof diff for two sides), speedscope, folded (flamegraph.pl)")
	fs.StringVarP(&o.output, "output", "o", "", "write the report to `FILE` instead of standard output")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "do not say the report's warnings on standard error (they stay in the report); errors are still said")
	fs.StringVar(&o.jsonOutput, "json-output", "", "also write the comparison as JSON to `FILE`, from the same run (for CI: markdown to post, JSON to read)")
	o.fleet.register(fs)
	fs.IntVarP(&o.top, "top", "n", 20, "rows per table (0 for all); without it text shows 20, markdown's top changes 10 and the HTML page 50; JSON always has every row")
	fs.StringArrayVar(&o.before, "before", nil, "a profile of the BEFORE side (repeatable: repeated runs); with --after, instead of BEFORE AFTER")
	fs.StringArrayVar(&o.after, "after", nil, "a profile of the AFTER side (repeatable)")
	fs.StringArrayVar(&o.named, "side", nil, "a side named NAME, given as `NAME=PATH` (repeatable; PATH a profile, a directory of runs, a glob or a server query parca+http://... or pyroscope+http://..., and a NAME given again adds runs): instead of BEFORE AFTER, for a base and several variants")
	fs.StringVar(&o.base, "base", "", "judge every other side against the side `NAME` (default: the first)")
	fs.StringVar(&o.variant, "variant", "", "with three sides or more, the side `NAME` drawn against the base by --format html, tui and the exports (default: the first after the base)")
	fs.StringArrayVar(&o.works, "work", nil, "work each run did (requests, iterations), `N` for every side or NAME=N for one (repeatable): adds values per unit of work")
	fs.Float64Var(&o.workBefore, "work-before", 0, "work each BEFORE run did, when the sides differ")
	fs.Float64Var(&o.workAfter, "work-after", 0, "work each AFTER run did")
	fs.StringVar(&o.workUnit, "work-unit", "unit", "name of the unit of work in output, e.g. run or request")
	fs.StringVar(&o.sort, "sort", "self", "rank the detail tables by the change in self or total time (both are always judged)")
	fs.StringVar(&o.by, "by", "", "also list rows by file (--by file)")
	fs.StringVar(&o.commit, "commit", "", "the commit `SHA` the compared (after) side was built from: markdown keeps it for the next comment's --previous; history add records it")
	fs.StringVar(&o.baseCommit, "base-commit", "", "the commit `SHA` the base side was built from")
	fs.StringVar(&o.baseStore, "base-store", "", "take the base from the history store `DIR` (profdiff history add): the record of --base-commit stands for the before runs, and every argument is an after run (profdiff --base-store DIR --base-commit SHA AFTER...)")
	fs.StringVar(&o.previous, "previous", "", "the earlier pull-request comment's body (`FILE`): markdown adds its results, and theirs, as \"Previous results (N)\"")
	fs.Float64Var(&o.alpha, "alpha", 0.05, "significance level of the verdicts, after correction for the number of rows")
	fs.StringArrayVar(&o.minDelta, "min-delta", nil, "smallest change a verdict can call real, as Npp of on-CPU time or N% relative (repeatable; default 0.1pp and 5%)")
	fs.StringArrayVar(&o.failOn, "fail-on", nil, "exit 1 when a change judged real breaks this `RULE` (repeatable; see Rules below)")
	fs.StringVar(&o.thread, "thread", "", "in a trace with several profiles, take the one of this thread: a `tid`, pid:tid, or a thread name such as CrRendererMain (default: the one with the most on-CPU time)")
	fs.StringVar(&o.sampleType, "sample-type", "", "pprof sample `type` to weigh samples by, e.g. cpu or wall/nanoseconds (default: cpu, else wall, else count x period, else another time such as delay)")
	fs.StringArrayVar(&o.sourceMapDirs, "sourcemaps", nil, "search `DIR` for scripts and their source maps by file name (repeatable); for profiles recorded on another machine; NAME=DIR for the side NAME only")
	fs.StringArrayVar(&o.sourceMaps, "sourcemap", nil, "use the source map MAP for the script SCRIPT (a URL, path or file name), given as `SCRIPT=MAP` (repeatable); NAME=SCRIPT=MAP for the side NAME only")
	fs.StringArrayVar(&o.sourceRoots, "source-root", nil, "also read scripts, maps and sources that profiles and maps name below `DIR` (repeatable); the current folder and the --root, --sourcemaps and --path-map folders are read already, and nothing else is")
	fs.StringArrayVar(&o.pathMaps, "path-map", nil, "rewrite a recorded path or URL prefix before looking for scripts and maps, given as `FROM=TO` (repeatable), e.g. /srv/app=./build")
	fs.StringArrayVar(&o.sourceDirsBefore, "sourcemaps-before", nil, "like --sourcemaps, for the BEFORE side of a comparison only (`DIR`)")
	fs.StringArrayVar(&o.sourceDirsAfter, "sourcemaps-after", nil, "like --sourcemaps, for the AFTER side of a comparison only (`DIR`)")
	fs.StringArrayVar(&o.sourceMapsBefore, "sourcemap-before", nil, "like --sourcemap, for the BEFORE side only (`SCRIPT=MAP`)")
	fs.StringArrayVar(&o.sourceMapsAfter, "sourcemap-after", nil, "like --sourcemap, for the AFTER side only (`SCRIPT=MAP`)")
	fs.StringArrayVar(&o.roots, "root", nil, "match a side's files by their path below its checkout DIR, given as `NAME=DIR` (repeatable, every side's): for sides run from checkouts at different paths, when the guess is wrong")
	fs.StringVar(&o.rootBefore, "root-before", "", "like --root, the BEFORE side's checkout (`DIR`), with --root-after")
	fs.StringVar(&o.rootAfter, "root-after", "", "like --root, the AFTER side's checkout (`DIR`), with --root-before")
	fs.BoolVar(&o.noRootMatch, "no-root-match", false, "keep every file's path as recorded: do not match the files of sides run from different checkouts by their path below each")
	fs.BoolVar(&o.noSourceMaps, "no-sourcemaps", false, "do not apply source maps: report frames as the profiler recorded them")
	fs.BoolVar(&o.allowMixed, "allow-mixed-formats", false, "compare sides of different formats (a .cpuprofile against a pprof), whose names and packages rarely match")
	addLineFlags(fs, o)
	fs.BoolVar(&o.list, "list", false, "list the profiles a file holds (threads of a trace, sample types of a pprof) and exit")
	fs.StringVar(&o.focus, "focus", "", "keep only samples with a frame matching `RE` (a regular expression on the function name, package, file or file:line), as pprof -focus")
	fs.StringVar(&o.ignore, "ignore", "", "drop samples with a frame matching `RE`, as pprof -ignore")
	fs.StringVar(&o.hide, "hide", "", "remove frames matching `RE` from stacks, their time going to their caller, as pprof -hide")
	fs.StringVar(&o.show, "show", "", "keep only frames matching `RE` in stacks, as pprof -show")
	fs.StringVar(&o.showFrom, "show-from", "", "cut each stack above its first frame matching `RE`, which becomes a root, as pprof -show_from")
	fs.StringVar(&o.pruneFrom, "prune-from", "", "cut stacks below their lowest frame matching `RE`, its callees' time becoming its own, as pprof -prune_from")
	fs.StringVar(&o.window, "window", "", "keep the samples taken between FROM and TO after the start of each run (`FROM..TO`: 2s..12s, ..30s, 500ms..); not for pprof, which records no sample times")
	fs.StringArrayVar(&o.phases, "phase", nil, "also judge the stretch FROM..TO of every run (as --window) or between two User Timing marks (as --window-marks), given as `NAME=FROM..TO` (repeatable): one headline block per phase in text, markdown and JSON")
	fs.StringVar(&o.windowMarks, "window-marks", "", "in a Chrome trace, keep the samples between two User Timing marks or measures (`A..B`, from performance.mark), or within one measure M")
	fs.BoolVar(&o.trimIdle, "trim-idle", false, "drop the samples off the CPU ((idle), (program)) before the first and after the last on-CPU one of each run, so that wall and busy time describe the work")
	fs.Float64Var(&o.frameShare, "min-frame-share", 0.01, "leave call-tree frames under this share of on-CPU time on every side (`PCT`, percent) out of the flame graph, paths and UI tree, as pprof's -nodefraction; their time stays in their callers'")
	fs.StringVar(&o.foldedUnit, "folded-unit", "samples", "what the counts of folded-stack input are: samples (taken every --folded-interval), or times in ns, us or ms")
	fs.StringVar(&o.foldedEvery, "folded-interval", "10ms", "the sampling interval of folded-stack input counted in samples (`DURATION`: perf -F 999 is 1ms, py-spy and async-profiler 10ms)")
	fs.StringVar(&o.maxInputSize, "max-input-size", "4GiB", "refuse input larger than this after decompression (`SIZE` in bytes, or with KiB, MiB, GiB)")
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	fs.BoolVarP(&o.help, "help", "h", false, "show a short help (the rest: profdiff help TOPIC)")
	fs.BoolVar(&o.helpAll, "help-all", false, "show the whole help: every flag, the rules and the examples")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of profdiff's own run to `FILE` (pprof), to report a slow run: go tool pprof -top FILE, or profdiff FILE")
	fs.StringVar(&o.memProfile, "memprofile", "", "write the allocations of profdiff's own run to `FILE` (pprof; go tool pprof -sample_index=alloc_space FILE)")
	return fs
}

// diffOptions turns the comparison flags into options.
func diffOptions(o options, nsides int) (diff.Options, error) {
	opts := diff.DefaultOptions()
	if o.alpha <= 0 || o.alpha >= 1 {
		return opts, fmt.Errorf("--alpha %g: give a level between 0 and 1, such as 0.05", o.alpha)
	}
	opts.Alpha = o.alpha
	for _, m := range o.minDelta {
		unit := "%"
		if strings.HasSuffix(m, "pp") {
			unit = "pp"
		}
		v, err := strconv.ParseFloat(strings.TrimSuffix(m, unit), 64)
		if err != nil || v < 0 || !strings.HasSuffix(m, unit) {
			return opts, fmt.Errorf("--min-delta %q: give Npp (percentage points of on-CPU) or N%% (relative)", m)
		}
		if unit == "pp" {
			opts.MinDeltaPP = v
		} else {
			opts.MinDeltaPct = v
		}
	}
	if o.sort != "self" && o.sort != "total" {
		return opts, fmt.Errorf("--sort %q: choose self or total", o.sort)
	}
	if o.by != "" && o.by != "file" {
		return opts, fmt.Errorf("--by %q: the one extra table is by file (--by file)", o.by)
	}
	opts.WorkUnit = o.workUnit
	for _, f := range o.failOn {
		rule, err := diff.ParseRule(f)
		if err != nil {
			return opts, fmt.Errorf("--fail-on %w", err)
		}
		opts.Rules = append(opts.Rules, rule)
	}
	if nsides == 1 && (len(opts.Rules) > 0 || len(o.works) > 0 || o.workBeforeSet || o.workAfterSet || o.workBefore != 0 || o.workAfter != 0) {
		return opts, fmt.Errorf("--fail-on and --work are for comparing two sides")
	}
	switch {
	case o.frameShare < 0 || o.frameShare >= 100:
		return opts, fmt.Errorf("--min-frame-share %g: give a percentage from 0 (every frame) to under 100", o.frameShare)
	case o.frameShare == 0:
		opts.TreeMinShare = -1 // every frame
	default:
		opts.TreeMinShare = o.frameShare / 100
	}
	return opts, nil
}

// sortMetric is the metric --sort names.
func (o options) sortMetric() diff.Metric {
	if o.sort == "total" {
		return diff.MetricTotal
	}
	return diff.MetricSelf
}

// symbolicateOptions turns the source-map flags into options.
func symbolicateOptions(maps, dirs, pathMaps []string) (symbolicate.Options, error) {
	opts := symbolicate.Options{Dirs: dirs}
	for _, m := range maps {
		script, mp, ok := strings.Cut(m, "=")
		if !ok || script == "" || mp == "" {
			return opts, fmt.Errorf("--sourcemap %q: give SCRIPT=MAP", m)
		}
		opts.Maps = append(opts.Maps, symbolicate.ScriptMap{Script: script, Map: mp})
	}
	for _, pm := range pathMaps {
		from, to, ok := strings.Cut(pm, "=")
		if !ok || from == "" {
			return opts, fmt.Errorf("--path-map %q: give FROM=TO", pm)
		}
		opts.PathMap = append(opts.PathMap, symbolicate.PathRewrite{From: from, To: to})
	}
	for _, d := range dirs {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			return opts, fmt.Errorf("--sourcemaps %s: not a folder", d)
		}
	}
	return opts, nil
}

// parseSize reads "4GiB", "512MiB", "100000".
func parseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}}
	mult := int64(1)
	for _, u := range units {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%q is not a size", s)
	}
	return n * mult, nil
}

// parseOptions turns the reading flags into options; foldedUnitSet says
// whether --folded-unit was given.
func parseOptions(o options, foldedUnitSet bool) (analyze.ParseOptions, error) {
	maxSize, err := parseSize(o.maxInputSize)
	if err != nil {
		return analyze.ParseOptions{}, fmt.Errorf("--max-input-size: %v", err)
	}
	every, err := time.ParseDuration(o.foldedEvery)
	if err != nil || every <= 0 {
		return analyze.ParseOptions{}, fmt.Errorf("--folded-interval %q: give a duration such as 10ms or 250us", o.foldedEvery)
	}
	switch o.foldedUnit {
	case analyze.FoldedSamples, analyze.FoldedNs, analyze.FoldedUs, analyze.FoldedMs:
	default:
		return analyze.ParseOptions{}, fmt.Errorf("--folded-unit %q: choose samples, ns, us or ms", o.foldedUnit)
	}
	return analyze.ParseOptions{Thread: o.thread, SampleType: o.sampleType, MaxInputSize: maxSize,
		FoldedUnit: o.foldedUnit, FoldedUnitSet: foldedUnitSet, FoldedIntervalNs: int64(every)}, nil
}

// chooseFormat sets the output format when --format is not given (the
// explorer when interactive, else text) and checks that it can be written
// where the output goes.
func (o *options) chooseFormat(interactive, stdoutTerminal bool) error {
	if o.format == "" {
		o.format = "text"
		if o.output == "" && interactive && !o.list && o.baseStore == "" {
			o.format = "tui" // the explorer is the default on a terminal
		}
	}
	f, ok := formatNamed(o.format)
	if !ok {
		return fmt.Errorf("--format %q: choose %s", o.format, formatList(func(outputFormat) bool { return true }))
	}
	if o.baseStore != "" && !f.fromRecord {
		return fmt.Errorf("--format %s needs call trees or profiles, and a history record keeps neither: with --base-store use %s", o.format, formatList(func(f outputFormat) bool { return f.fromRecord }))
	}
	if o.format == "tui" && !interactive {
		return errors.New("--format tui needs a terminal on standard input and output; use --format text, markdown or json")
	}
	if f.binary && (o.output == "" || o.output == "-") && stdoutTerminal {
		return fmt.Errorf("--format %s writes a binary file: give it with -o FILE", o.format)
	}
	return nil
}

// perSideSourceMaps reports whether source maps were given for one side
// only (--sourcemaps-before, --sourcemap-after, ...).
func (o options) perSideSourceMaps() bool {
	return len(o.sourceDirsBefore)+len(o.sourceDirsAfter)+len(o.sourceMapsBefore)+len(o.sourceMapsAfter) > 0
}

// rows is how many rows per table an output whose own default is dflt
// shows: --top when given (0: all of them), else dflt. (Text reads
// --top itself, whose default is its own.)
func (o options) rows(dflt int) int {
	switch {
	case !o.topSet:
		return dflt
	case o.top == 0:
		return math.MaxInt32
	}
	return o.top
}
