// Command profdiff ranks the on-CPU time of a CPU profile (V8 .cpuprofile,
// Chrome trace, pprof) by package, function and file, and compares two
// profiles or two sets of runs with a verdict on noise.
//
//	profdiff profile.cpuprofile
//	profdiff before.cpuprofile after.cpuprofile
//
// This file is the only place that touches os.Args, os.Exit, the environment
// and the terminal; the work is done by the analyze, symbolicate, diff and
// tui packages.
package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/pflag"
	"golang.org/x/sync/errgroup"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/flamegraph"
	"github.com/profdiff/profdiff/narrow"
	"github.com/profdiff/profdiff/symbolicate"
	"github.com/profdiff/profdiff/tui"
)

// Exit statuses.
const (
	exitOK    = 0
	exitRule  = 1 // a --fail-on rule was broken
	exitUsage = 2 // bad usage or unreadable input
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usageHead = `profdiff ranks where a CPU profile spends its on-CPU time, by package,
function and file, and compares two profiles (or two sets of repeated runs)
with a verdict on noise. It reads V8 .cpuprofile files (Node --cpu-prof, Chrome
DevTools, CDP Profiler.stop), Chrome Performance-panel traces and pprof files
(Go, @datadog/pprof), gzipped or not; the format is detected from the content.
(idle) and (program) are left out of on-CPU time; garbage collection is kept
and shown as the package (gc).

Usage:
  profdiff [flags] PROFILE
  profdiff [flags] BEFORE AFTER        each a profile or a directory of runs
  profdiff [flags] --before F... --after F...

Flags:
`

const usageRules = `
Rules (--fail-on): TARGET>LIMIT or TARGET<LIMIT, where TARGET is on-cpu,
on-cpu/work, package:NAME, function:NAME or file:NAME (NAME may be *) and
LIMIT is +N% (relative) or +Npp (percentage points of on-CPU time, for rows).
A rule breaks only on a change judged real (better/worse/new/gone):
  on-cpu>+5%   on-cpu/work>+3%   package:*>+2pp   package:lodash>+10%   function:match>+5%
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
  profdiff --sourcemaps-before old/dist --sourcemaps-after new/dist runs-before/ runs-after/

  # The same per request served, as markdown for a pull request, gated in CI
  profdiff --work 40000 --work-unit request --format markdown \
      --fail-on 'on-cpu/work>+3%' --fail-on 'package:*>+2pp' before.cpuprofile after.cpuprofile

Exit status: 0 success, 1 a --fail-on rule broke (the report is written
first), 2 bad usage or unreadable input.
`

// options are the parsed command line.
type options struct {
	format       string
	output       string
	jsonOutput   string
	top          int
	thread       string
	sampleType   string
	list         bool
	version      bool
	help         bool
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
	work          float64
	workBefore    float64
	workAfter     float64
	workUnit      string
	alpha         float64
	minDelta      []string
	sort          string
	by            string
	failOn        []string

	allowMixed       bool
	noSourceMaps     bool
	sourceMaps       []string // SCRIPT=MAP
	sourceMapDirs    []string
	sourceMapsBefore []string
	sourceMapsAfter  []string
	sourceDirsBefore []string
	sourceDirsAfter  []string
	pathMaps         []string // FROM=TO
}

func newFlagSet(o *options) *pflag.FlagSet {
	fs := pflag.NewFlagSet("profdiff", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.StringVarP(&o.format, "format", "f", "", "output format: tui, an interactive explorer (the default when standard input and output are a terminal), text (the default otherwise), markdown, json, html (an offline flame graph page); or for other tools: pprof (gzipped profile.proto, a pprof diff for two sides), speedscope, folded (flamegraph.pl)")
	fs.StringVarP(&o.output, "output", "o", "", "write the report to `FILE` instead of standard output")
	fs.StringVar(&o.jsonOutput, "json-output", "", "also write the comparison as JSON to `FILE`, from the same run (for CI: markdown to post, JSON to read)")
	fs.IntVarP(&o.top, "top", "n", 20, "rows per table in text output (0 for all); JSON always has every row")
	fs.StringArrayVar(&o.before, "before", nil, "a profile of the BEFORE side (repeatable: repeated runs); with --after, instead of BEFORE AFTER")
	fs.StringArrayVar(&o.after, "after", nil, "a profile of the AFTER side (repeatable)")
	fs.Float64Var(&o.work, "work", 0, "work each run did on both sides (requests, iterations): adds values per unit of work")
	fs.Float64Var(&o.workBefore, "work-before", 0, "work each BEFORE run did, when the sides differ")
	fs.Float64Var(&o.workAfter, "work-after", 0, "work each AFTER run did")
	fs.StringVar(&o.workUnit, "work-unit", "unit", "name of the unit of work in output, e.g. run or request")
	fs.StringVar(&o.sort, "sort", "self", "rank the detail tables by the change in self or total time (both are always judged)")
	fs.StringVar(&o.by, "by", "", "also list rows by file (--by file)")
	fs.Float64Var(&o.alpha, "alpha", 0.05, "significance level of the verdicts, after correction for the number of rows")
	fs.StringArrayVar(&o.minDelta, "min-delta", nil, "smallest change a verdict can call real, as Npp of on-CPU time or N% relative (repeatable; default 0.1pp and 5%)")
	fs.StringArrayVar(&o.failOn, "fail-on", nil, "exit 1 when a change judged real breaks this `RULE` (repeatable; see Rules below)")
	fs.StringVar(&o.thread, "thread", "", "in a trace with several profiles, take the one of this thread: a `tid`, pid:tid, or a thread name such as CrRendererMain (default: the one with the most on-CPU time)")
	fs.StringVar(&o.sampleType, "sample-type", "", "pprof sample `type` to weigh samples by, e.g. cpu or wall/nanoseconds (default: cpu, else wall, else count x period)")
	fs.StringArrayVar(&o.sourceMapDirs, "sourcemaps", nil, "search `DIR` for scripts and their source maps by file name (repeatable); for profiles recorded on another machine")
	fs.StringArrayVar(&o.sourceMaps, "sourcemap", nil, "use the source map MAP for the script SCRIPT (a URL, path or file name), given as `SCRIPT=MAP` (repeatable)")
	fs.StringArrayVar(&o.pathMaps, "path-map", nil, "rewrite a recorded path or URL prefix before looking for scripts and maps, given as `FROM=TO` (repeatable), e.g. /srv/app=./build")
	fs.StringArrayVar(&o.sourceDirsBefore, "sourcemaps-before", nil, "like --sourcemaps, for the BEFORE side of a comparison only (`DIR`)")
	fs.StringArrayVar(&o.sourceDirsAfter, "sourcemaps-after", nil, "like --sourcemaps, for the AFTER side of a comparison only (`DIR`)")
	fs.StringArrayVar(&o.sourceMapsBefore, "sourcemap-before", nil, "like --sourcemap, for the BEFORE side only (`SCRIPT=MAP`)")
	fs.StringArrayVar(&o.sourceMapsAfter, "sourcemap-after", nil, "like --sourcemap, for the AFTER side only (`SCRIPT=MAP`)")
	fs.BoolVar(&o.noSourceMaps, "no-sourcemaps", false, "do not apply source maps: report frames as the profiler recorded them")
	fs.BoolVar(&o.allowMixed, "allow-mixed-formats", false, "compare sides of different formats (a .cpuprofile against a pprof), whose names and packages rarely match")
	fs.BoolVar(&o.list, "list", false, "list the profiles a file holds (threads of a trace, sample types of a pprof) and exit")
	fs.StringVar(&o.focus, "focus", "", "keep only samples with a frame matching `RE` (a regular expression on the function name, package, file or file:line), as pprof -focus")
	fs.StringVar(&o.ignore, "ignore", "", "drop samples with a frame matching `RE`, as pprof -ignore")
	fs.StringVar(&o.hide, "hide", "", "remove frames matching `RE` from stacks, their time going to their caller, as pprof -hide")
	fs.StringVar(&o.show, "show", "", "keep only frames matching `RE` in stacks, as pprof -show")
	fs.StringVar(&o.showFrom, "show-from", "", "cut each stack above its first frame matching `RE`, which becomes a root, as pprof -show_from")
	fs.StringVar(&o.pruneFrom, "prune-from", "", "cut stacks below their lowest frame matching `RE`, its callees' time becoming its own, as pprof -prune_from")
	fs.StringVar(&o.window, "window", "", "keep the samples taken between FROM and TO after the start of each run (`FROM..TO`: 2s..12s, ..30s, 500ms..); not for pprof, which records no sample times")
	fs.StringVar(&o.windowMarks, "window-marks", "", "in a Chrome trace, keep the samples between two User Timing marks or measures (`A..B`, from performance.mark), or within one measure M")
	fs.BoolVar(&o.trimIdle, "trim-idle", false, "drop the samples off the CPU ((idle), (program)) before the first and after the last on-CPU one of each run, so that wall and busy time describe the work")
	fs.Float64Var(&o.frameShare, "min-frame-share", 0.01, "leave call-tree frames under this share of on-CPU time on every side (`PCT`, percent) out of the flame graph, paths and UI tree, as pprof's -nodefraction; their time stays in their callers'")
	fs.StringVar(&o.foldedUnit, "folded-unit", "samples", "what the counts of folded-stack input are: samples (taken every --folded-interval), or times in ns, us or ms")
	fs.StringVar(&o.foldedEvery, "folded-interval", "10ms", "the sampling interval of folded-stack input counted in samples (`DURATION`: perf -F 999 is 1ms, py-spy and async-profiler 10ms)")
	fs.StringVar(&o.maxInputSize, "max-input-size", "4GiB", "refuse input larger than this after decompression (`SIZE` in bytes, or with KiB, MiB, GiB)")
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	fs.BoolVarP(&o.help, "help", "h", false, "show this help")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a Go CPU profile of profdiff itself to `FILE`")
	_ = fs.MarkHidden("cpuprofile")
	fs.StringVar(&o.memProfile, "memprofile", "", "write a Go allocation profile of profdiff itself to `FILE`")
	_ = fs.MarkHidden("memprofile")
	return fs
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var o options
	fs := newFlagSet(&o)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "profdiff: %s (see profdiff --help)\n", errorText(err))
		return exitUsage
	}
	if o.help {
		fmt.Fprint(stdout, usageHead)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fmt.Fprint(stdout, usageRules+usageExamples)
		return exitOK
	}
	if o.version {
		fmt.Fprintf(stdout, "profdiff %s\n", version())
		return exitOK
	}
	maxSize, err := parseSize(o.maxInputSize)
	if err != nil {
		return usageError(stderr, "--max-input-size: %v", err)
	}
	every, err := time.ParseDuration(o.foldedEvery)
	if err != nil || every <= 0 {
		return usageError(stderr, "--folded-interval %q: give a duration such as 10ms or 250us", o.foldedEvery)
	}
	switch o.foldedUnit {
	case analyze.FoldedSamples, analyze.FoldedNs, analyze.FoldedUs, analyze.FoldedMs:
	default:
		return usageError(stderr, "--folded-unit %q: choose samples, ns, us or ms", o.foldedUnit)
	}
	popts := analyze.ParseOptions{Thread: o.thread, SampleType: o.sampleType, MaxInputSize: maxSize,
		FoldedUnit: o.foldedUnit, FoldedUnitSet: fs.Changed("folded-unit"), FoldedIntervalNs: int64(every)}
	filters, err := narrowFilters(o)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	sides, err := sidesFromArgs(fs.Args(), o)
	if err == nil {
		err = checkStdin(sides)
	}
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	// Interactive means a terminal on both ends: output sent to a file,
	// a pipe or /dev/null (a character device, but no terminal) gets text.
	interactive := isTerminal(stdin) && isTerminal(stdout)
	if o.format == "" {
		o.format = "text"
		if o.output == "" && interactive && !o.list {
			o.format = "tui" // the explorer is the default on a terminal
		}
	}
	if o.format == "tui" && !interactive {
		return usageError(stderr, "--format tui needs a terminal on standard input and output; use --format text, markdown or json")
	}
	switch o.format {
	case "text", "json", "markdown", "md", "tui", "html", "pprof", "speedscope", "folded":
	default:
		return usageError(stderr, "--format %q: choose text, markdown, json, html, tui, pprof, speedscope or folded", o.format)
	}
	if o.format == "pprof" && (o.output == "" || o.output == "-") && isTerminal(stdout) {
		return usageError(stderr, "--format pprof writes a binary file: give it with -o FILE")
	}
	if len(sides) == 1 && len(o.sourceDirsBefore)+len(o.sourceDirsAfter)+len(o.sourceMapsBefore)+len(o.sourceMapsAfter) > 0 {
		return usageError(stderr, "--sourcemaps-before/--sourcemaps-after/--sourcemap-before/--sourcemap-after are for comparing two sides; with one profile use --sourcemaps and --sourcemap")
	}
	dopts, err := diffOptions(o, len(sides))
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	dopts.Narrowing = filters.Describe()
	syms := make([]*symbolicate.Symbolicator, len(sides))
	for i := range sides {
		maps, dirs := o.sourceMaps, o.sourceMapDirs
		if len(sides) == 2 && i == 0 {
			maps, dirs = append(slices.Clone(maps), o.sourceMapsBefore...), append(slices.Clone(dirs), o.sourceDirsBefore...)
		} else if i == 1 {
			maps, dirs = append(slices.Clone(maps), o.sourceMapsAfter...), append(slices.Clone(dirs), o.sourceDirsAfter...)
		}
		symOpts, err := symbolicateOptions(maps, dirs, o.pathMaps)
		if err != nil {
			return usageError(stderr, "%v", err)
		}
		switch {
		case o.noSourceMaps:
		case i == 1 && len(o.sourceMapsBefore)+len(o.sourceMapsAfter)+len(o.sourceDirsBefore)+len(o.sourceDirsAfter) == 0:
			// Both sides look for maps the same way, so they find the
			// same maps: decode each once.
			syms[i] = syms[0]
		default:
			syms[i] = symbolicate.New(symOpts)
		}
	}

	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return usageError(stderr, "%v", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return usageError(stderr, "%v", err)
		}
		defer pprof.StopCPUProfile()
	}
	if o.memProfile != "" {
		defer writeMemProfile(o.memProfile, stderr)
	}
	if o.list {
		if len(sides) != 1 || len(sides[0].files) != 1 {
			return usageError(stderr, "--list takes one file")
		}
		return finish(stderr, o.output, stdout, func(out io.Writer) error { return list(out, sides[0].files[0], stdin, popts) }, false)
	}
	tui := o.format == "tui"
	ds, profiles, scriptDirs, err := readSides(sides, stdin, syms, popts, filters, o)
	if err != nil {
		fmt.Fprintf(stderr, "profdiff: %s\n", errorText(err))
		return exitUsage
	}
	if filters.WindowMarks != nil { // the window each run's marks gave
		dopts.Narrowing = append(dopts.Narrowing, filters.WindowMarks.Used()...)
	}
	if len(ds) == 2 && !o.allowMixed {
		a, b := ds[0].Tables[0], ds[1].Tables[0]
		if a.Format != b.Format {
			return usageError(stderr, "%s is %s but %s is %s: the sides' names, packages and times do not compare (--allow-mixed-formats if that is intended)",
				diff.Clean(a.File), a.Format.Describe(), diff.Clean(b.File), b.Format.Describe())
		}
	}
	rep, err := diff.Compare(ds, dopts)
	if err != nil {
		fmt.Fprintf(stderr, "profdiff: %s\n", errorText(err))
		return exitUsage
	}
	advise(rep.Warnings)
	if tui {
		dirs := append(append(append(slices.Clone(o.sourceMapDirs), o.sourceDirsBefore...), o.sourceDirsAfter...), scriptDirs...)
		// The explorer's f, i and x keys: the whole comparison again,
		// narrowed by their flags after the command's own.
		renarrow := func(flags []string) (*diff.Report, error) {
			extra, err := explorerFilters(flags)
			if err != nil {
				return nil, err
			}
			for _, s := range sides {
				if slices.Contains(s.files, "-") {
					return nil, errors.New("standard input cannot be read again")
				}
			}
			f := *filters
			f.Then = append(slices.Clone(f.Then), extra...)
			ds, _, _, err := readSides(sides, stdin, syms, popts, &f, o)
			if err != nil {
				return nil, errors.New(errorText(err))
			}
			opts := dopts
			opts.Narrowing = f.Describe()
			rep, err := diff.Compare(ds, opts)
			if err == nil {
				advise(rep.Warnings)
			}
			return rep, err
		}
		return explore(rep, o.sortMetric(), syms, newSourceFiles(dirs), renarrow, stderr)
	}
	color := o.output == "" && isTerminal(stdout) && os.Getenv("NO_COLOR") == ""
	if (o.output != "" && o.output != "-") || !isTerminal(stdout) {
		// The report goes to a file, a pipe or /dev/null, where nobody may
		// read it: its warnings are said here too.
		for _, w := range rep.Warnings {
			fmt.Fprintf(stderr, "profdiff: warning: %s\n", diff.Clean(w.String()))
		}
	}
	return finish(stderr, o.output, stdout, func(out io.Writer) error {
		if o.jsonOutput != "" {
			if err := writeJSONFile(o.jsonOutput, rep); err != nil {
				return err
			}
		}
		switch o.format {
		case "json":
			return diff.WriteJSON(out, rep)
		case "html":
			return flamegraph.Write(out, rep, flamegraph.Options{Title: htmlTitle(sides)})
		case "pprof", "speedscope", "folded":
			return writeExport(out, o.format, ds, profiles)
		case "markdown", "md":
			return diff.WriteMarkdown(out, rep, diff.MarkdownOptions{Files: o.by == "file", Sort: o.sortMetric()})
		}
		return diff.WriteText(out, rep, diff.TextOptions{Top: o.top, Color: color, Files: o.by == "file", Sort: o.sortMetric()})
	}, rep.Broken())
}

// finish writes the report to its destination and returns the exit
// status: 2 if writing failed, 1 if a --fail-on rule broke, else 0.
func finish(stderr io.Writer, path string, stdout io.Writer, write func(io.Writer) error, broken bool) int {
	out, closeOut, err := openOutput(path, stdout)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	err = write(out)
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(stderr, "profdiff: %s\n", errorText(err))
		return exitUsage
	}
	if broken {
		return exitRule
	}
	return exitOK
}

// writeJSONFile writes the comparison as JSON to path.
func writeJSONFile(path string, rep *diff.Report) error {
	if path == "-" {
		return errors.New("--json-output takes a file, not -")
	}
	out, closeOut, err := openOutput(path, nil)
	if err != nil {
		return err
	}
	err = diff.WriteJSON(out, rep)
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	return err
}

// isTerminal reports whether f is a terminal (not just any character
// device: /dev/null is one too).
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(file.Fd())
}

// sideArg is one side as given: its name and its profile files.
type sideArg struct {
	name  string
	files []string
}

// profileSuffixes are the file names a directory of runs is searched for.
var profileSuffixes = []string{".cpuprofile", ".cpuprofile.gz", ".json", ".json.gz", ".pprof", ".pb.gz", ".pb", ".prof", ".cpu", ".gz"}

// sidesFromArgs turns BEFORE [AFTER] (files or directories of runs) or
// --before/--after lists into sides.
func sidesFromArgs(args []string, o options) ([]sideArg, error) {
	if len(o.before)+len(o.after) > 0 {
		if len(args) > 0 {
			return nil, fmt.Errorf("give the sides either as BEFORE AFTER or with --before/--after, not both")
		}
		if len(o.before) == 0 || len(o.after) == 0 {
			return nil, fmt.Errorf("--before and --after go together: give each side at least one file")
		}
		return []sideArg{{"before", o.before}, {"after", o.after}}, nil
	}
	switch len(args) {
	case 0:
		return nil, fmt.Errorf("give a profile to rank, or BEFORE AFTER to compare (see profdiff --help)")
	case 1, 2:
	default:
		return nil, fmt.Errorf("too many arguments: give PROFILE, or BEFORE AFTER (each a file or a directory of runs)")
	}
	names := []string{"before", "after"}
	if len(args) == 1 {
		names = []string{"profile"}
	}
	if slices.Equal(args, []string{"-", "-"}) {
		return nil, fmt.Errorf("standard input (-) can be one side only")
	}
	var sides []sideArg
	for i, a := range args {
		files, err := expandSide(a)
		if err != nil {
			return nil, err
		}
		sides = append(sides, sideArg{names[i], files})
	}
	return sides, nil
}

// expandSide lists the profiles of a directory, or returns the file itself
// ("-" is standard input).
func expandSide(path string) ([]string, error) {
	if path == "-" {
		return []string{path}, nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, errors.New(errorText(err))
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		for _, suf := range profileSuffixes {
			if strings.HasSuffix(name, suf) {
				files = append(files, filepath.Join(path, name))
				break
			}
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: a directory with no profiles (looked for %s)", path, strings.Join(profileSuffixes, ", "))
	}
	return files, nil
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
	if nsides == 1 && (len(opts.Rules) > 0 || o.work > 0 || o.workBefore > 0 || o.workAfter > 0) {
		return opts, fmt.Errorf("--fail-on and --work are for comparing two sides")
	}
	if (o.workBefore > 0) != (o.workAfter > 0) {
		return opts, fmt.Errorf("--work-before and --work-after go together (or give --work for both)")
	}
	if o.work < 0 || o.workBefore < 0 || o.workAfter < 0 {
		return opts, fmt.Errorf("--work must be positive")
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

// workOf returns the work per run of side i (0 when not given).
func (o options) workOf(i int) float64 {
	switch {
	case i == 0 && o.workBefore > 0:
		return o.workBefore
	case i == 1 && o.workAfter > 0:
		return o.workAfter
	}
	return o.work
}

// explore runs the interactive explorer on the terminal.
func explore(rep *diff.Report, sort diff.Metric, syms []*symbolicate.Symbolicator, disk *sourceFiles, renarrow func([]string) (*diff.Report, error), stderr io.Writer) int {
	in := tui.Input{Report: rep, Sort: sort, Color: os.Getenv("NO_COLOR") == "", Narrow: renarrow}
	in.Source = func(file string) (string, bool) {
		for i := len(syms) - 1; i >= 0; i-- { // the AFTER side's maps first: the newer source
			if syms[i] != nil {
				if text, ok := syms[i].Source(file); ok {
					return text, true
				}
			}
		}
		text, why := disk.read(file)
		return text, why == ""
	}
	in.SourceWhy = func(file string) string {
		for i := len(syms) - 1; i >= 0; i-- {
			if syms[i] != nil {
				if _, ok := syms[i].Source(file); ok {
					return ""
				}
			}
		}
		return disk.whyNot(file)
	}
	in.WriteHTML = func() (string, error) {
		f, err := os.CreateTemp("", "profdiff-*.html")
		if err != nil {
			return "", err
		}
		err = flamegraph.Write(f, rep, flamegraph.Options{Title: "profdiff"})
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return f.Name(), err
	}
	if err := tui.Run(in, os.Stdin, os.Stdout, 0, 0); err != nil {
		fmt.Fprintf(stderr, "profdiff: %s\n", errorText(err))
		return exitUsage
	}
	if rep.Broken() {
		return exitRule
	}
	return exitOK
}

// needsTree says whether a report needs the merged call tree: a
// comparison does (its paths), and so does every view that draws the tree;
// a single profile's tables do not, and a deep profile's tree costs as much
// as its reading (the 63 MiB tsc profile: 271,450 nodes).
func needsTree(sides int, format string) bool {
	return sides > 1 || (format != "text" && format != "markdown" && format != "json")
}

// readSides reads every run (in parallel, bounded by the cores), maps it
// through its side's source maps and aggregates it, with the caller ->
// callee edges and the call tree the comparison joins.
func readSides(sides []sideArg, stdin io.Reader, syms []*symbolicate.Symbolicator, popts analyze.ParseOptions, filters *narrow.Filters, o options) ([]diff.Side, [][]*analyze.Profile, []string, error) {
	var mu sync.Mutex
	dirs := map[string]bool{} // the folders of the profiles' scripts
	type job struct{ side, run int }
	var jobs []job
	tables := make([][]*analyze.Table, len(sides))
	keep := isExport(o.format)
	profiles := make([][]*analyze.Profile, len(sides))
	for si, s := range sides {
		tables[si] = make([]*analyze.Table, len(s.files))
		profiles[si] = make([]*analyze.Profile, len(s.files))
		for ri := range s.files {
			jobs = append(jobs, job{si, ri})
		}
	}
	// Errors are kept per job, so that the first in the order given is
	// the one reported, whichever run failed first.
	errs := make([]error, len(jobs))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, j := range jobs {
		g.Go(func() error {
			var p *analyze.Profile
			var err error
			if name := sides[j.side].files[j.run]; name == "-" {
				p, err = analyze.Parse(stdin, popts)
				if err != nil {
					err = fmt.Errorf("standard input: %w", err)
				} else {
					p.File = "-"
				}
			} else {
				p, err = analyze.ParseFile(name, popts)
			}
			if err != nil {
				errs[i] = err
				return nil
			}
			local := map[string]bool{}
			for _, f := range p.Frames {
				if f.Kind == analyze.KindCode && strings.HasPrefix(f.File, "/") {
					local[filepath.Dir(f.File)] = true
				}
			}
			mu.Lock()
			for d := range local {
				dirs[d] = true
			}
			mu.Unlock()
			if sym := syms[j.side]; sym != nil {
				sym.Apply(p) // one at a time: the sides may share it
			}
			analyze.AttributePackages(p, true) // names and packages as the report shows them
			var before int64
			if filters.Active() {
				before = p.OnCPUNs()
				if err := filters.Apply(p); err != nil {
					errs[i] = fmt.Errorf("%s: %w", p.File, filterFlag(err))
					return nil
				}
			}
			t := analyze.Aggregate(p, analyze.AggregateOptions{Edges: true,
				Tree: needsTree(len(sides), o.format), NodeFunctions: keep})
			t.Summary.NarrowedFromNs = before
			tables[j.side][j.run] = t
			if keep {
				profiles[j.side][j.run] = p
			}
			return nil
		})
	}
	_ = g.Wait() // the jobs report through errs
	for _, err := range errs {
		if err != nil {
			return nil, nil, nil, err
		}
	}
	var ds []diff.Side
	for si, s := range sides {
		ds = append(ds, diff.Side{Name: s.name, Tables: tables[si], Work: o.workOf(si)})
	}
	return ds, profiles, slices.Sorted(maps.Keys(dirs)), nil
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

func list(out io.Writer, file string, stdin io.Reader, popts analyze.ParseOptions) error {
	infos, err := listProfiles(file, stdin, popts)
	if err != nil {
		return err
	}
	for _, in := range infos {
		mark := " "
		if in.Default {
			mark = "*"
		}
		desc := in.Format.Describe()
		if !in.Thread.IsZero() {
			desc = in.Thread.String()
		}
		fmt.Fprintf(out, "%s %s: %s samples, %s on-CPU", mark, diff.Clean(desc), diff.Count(in.Samples), diff.Duration(float64(in.OnCPUNs)))
		if len(in.SampleTypes) > 0 {
			fmt.Fprintf(out, ", sample types %s", diff.Clean(strings.Join(in.SampleTypes, ", ")))
		}
		fmt.Fprintln(out)
	}
	if len(infos) > 1 {
		fmt.Fprintln(out, "(* is the profile taken by default; choose another with --thread)")
	}
	return nil
}

// openOutput returns the report's destination and a function that closes it.
func openOutput(path string, stdout io.Writer) (io.Writer, func() error, error) {
	if path == "" || path == "-" {
		return stdout, func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, err
	}
	return f, f.Close, nil
}

// usageError writes a one-line error, through diff.Clean, and returns
// exit status 2.
func usageError(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "profdiff: %s\n", diff.Clean(fmt.Sprintf(format, args...)))
	return exitUsage
}

// errorText returns an error as profdiff prints it: through diff.Clean,
// since errors quote their input (file names, thread names, sample types,
// flag values) and no control character or bidi override from it may reach
// the terminal (Clean also keeps it to one line); with the flag that lifts
// a limit; and a file that cannot be opened as "path: reason".
func errorText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) && !errors.As(err, new(*analyze.Error)) {
		return diff.Clean(fmt.Sprintf("%s: %v", pe.Path, pe.Err))
	}
	msg := err.Error()
	if errors.Is(err, analyze.ErrTooLarge) {
		msg += " (see --max-input-size)"
	}
	return diff.Clean(msg)
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

// writeMemProfile writes the allocations profdiff made (a heap profile read
// with -sample_index=alloc_space) for work on its memory use.
func writeMemProfile(path string, stderr io.Writer) {
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("allocs").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "profdiff: %s\n", errorText(err))
	}
}
