// Command profdiff ranks the on-CPU time of a CPU profile (V8 .cpuprofile,
// Chrome trace, pprof) by package, function and file, and compares two
// profiles or two sets of runs with a verdict on noise.
//
//	profdiff profile.cpuprofile
//	profdiff before.cpuprofile after.cpuprofile
//
// This command is the only place that touches os.Args, os.Exit, the
// environment and the terminal; the work is done by the side, analyze,
// symbolicate, diff, report and tui packages. main.go holds the run,
// flags.go the command line, sides.go and perside.go the wiring of the
// side flags into package side (which makes and reads the sides),
// output.go the writing of the report, export.go the exports and
// record.go profdiff record, which makes the runs (package record) and
// then compares them.
package main

import (
	"errors"
	"fmt"
	"github.com/profdiff/profdiff/side"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"

	"github.com/spf13/pflag"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/narrow"
	"github.com/profdiff/profdiff/record"
	"github.com/profdiff/profdiff/report"
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

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "help" {
		return runHelp(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "history" {
		return runHistory(args[1:], stdin, stdout, stderr)
	}
	if len(args) > 0 && args[0] == "record" {
		return runRecord(args[1:], stdin, stdout, stderr)
	}
	var o options
	o.ceilings = ceilingsFromEnv(os.Getenv)
	fs := newFlagSet(&o)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(expandListFlags(args)); err != nil {
		fmt.Fprintf(stderr, "profdiff: %s (see profdiff --help)\n", errorText(err))
		return exitUsage
	}
	if o.helpAll {
		helpAll(stdout, fs)
		return exitOK
	}
	if o.help {
		fmt.Fprint(stdout, usageShort)
		return exitOK
	}
	if o.version {
		fmt.Fprintf(stdout, "profdiff %s\n", version())
		return exitOK
	}
	if a := fs.Args(); len(a) == 1 && len(o.before)+len(o.after)+len(o.named) == 0 && o.baseStore == "" && recordingFolder(a[0]) {
		// A recording's folder: compared again as record compared it.
		rec, err := record.Read(a[0])
		if err == nil {
			extra := slices.Clone(args)
			for i := len(extra) - 1; i >= 0; i-- { // the folder, as the one argument
				if extra[i] == a[0] {
					extra = slices.Delete(extra, i, i+1)
					break
				}
			}
			args, err = replayArgs(a[0], rec, extra)
		}
		if err != nil {
			return usageError(stderr, "%s", errorText(err))
		}
		if len(rec.Steps) > 0 {
			return replaySteps(a[0], rec, args, stdin, stdout, stderr)
		}
		return run(args, stdin, stdout, stderr)
	}
	inv, err := newInvocation(o, fs, stdin, stdout)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	if w := recordingNote(comparisonArgs(args, fs, outputFlags), inv.sides); w != nil {
		inv.notes = append(inv.notes, *w)
	}
	stop, err := profileSelf(inv.o, stderr)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	defer stop()
	if inv.o.list {
		if len(inv.sides) != 1 || len(inv.sides[0].Files) != 1 {
			return usageError(stderr, "--list takes one file")
		}
		return finish(stderr, inv.o.output, stdout, func(out io.Writer) error {
			return list(out, inv.sides[0].Files[0], stdin, inv.popts)
		}, false)
	}
	return inv.report(stdin, stdout, stderr)
}

// invocation is a checked command line: what to read, how to narrow, map
// and compare it, and in which format to write it.
type invocation struct {
	o       options
	popts   analyze.ParseOptions
	filters *narrow.Filters
	sides   []side.Side
	dopts   diff.Options
	variant int                         // the side drawn against the base where one pair is shown
	phases  []phase                     // --phase: stretches compared on their own
	syms    []*symbolicate.Symbolicator // per side; nil without source maps
	// notes are warnings about how the command line was read (the sides
	// the files' names gave), added to the report.
	notes []analyze.Warning
	// roots are the directories each side's files are matched below,
	// chosen on the first reading (nil for none); readings again (phases,
	// the explorer's narrowing) use the same.
	roots []string
}

// newInvocation checks the flags and arguments against each other and
// turns them into the options of each stage; its errors are usage errors.
func newInvocation(o options, fs *pflag.FlagSet, stdin io.Reader, stdout io.Writer) (*invocation, error) {
	o.workBeforeSet, o.workAfterSet = fs.Changed("work-before"), fs.Changed("work-after")
	o.topSet = fs.Changed("top")
	if o.top < 0 {
		return nil, fmt.Errorf("--top %d: give the number of rows per table, or 0 for all", o.top)
	}
	popts, err := parseOptions(o, fs.Changed("folded-unit"))
	if err != nil {
		return nil, err
	}
	filters, err := narrowFilters(o)
	if err != nil {
		return nil, err
	}
	sides, byName, err := sidesAndNote(fs.Args(), o)
	if err == nil {
		err = side.CheckStdin(sides)
	}
	if err == nil {
		err = checkOutputs(o, sides)
	}
	if err != nil {
		return nil, err
	}
	// Interactive means a terminal on both ends: output sent to a file,
	// a pipe or /dev/null (a character device, but no terminal) gets text.
	if err := o.checkLineFlags(); err != nil {
		return nil, err
	}
	if err := o.chooseFormat(isTerminal(stdin) && isTerminal(stdout), isTerminal(stdout)); err != nil {
		return nil, err
	}
	if len(sides) == 1 && o.perSideSourceMaps() {
		return nil, errors.New("--sourcemaps-before/--sourcemaps-after/--sourcemap-before/--sourcemap-after are for comparing two sides; with one profile use --sourcemaps and --sourcemap")
	}
	dopts, err := diffOptions(o, len(sides))
	if err != nil {
		return nil, err
	}
	syms, err := prepareSides(o, sides)
	if err != nil {
		return nil, err
	}
	if dopts.Base, err = side.Index(sides, o.base, "--base", 0); err != nil {
		return nil, err
	}
	firstVariant := 0
	if dopts.Base == 0 && len(sides) > 1 {
		firstVariant = 1
	}
	variant, err := side.Index(sides, o.variant, "--variant", firstVariant)
	if err != nil {
		return nil, err
	}
	if variant == dopts.Base && len(sides) > 1 {
		return nil, fmt.Errorf("--variant %s is the base: name a side to draw against it", o.variant)
	}
	if o.previousResults, err = previousComment(o); err != nil {
		return nil, err
	}
	phases, err := parsePhases(o)
	if err != nil {
		return nil, err
	}
	dopts.Narrowing = filters.Describe()
	dopts.PathsOnlyTree = needsOf(o.format, o.jsonOutput != "").tree == treeCompared
	if o.format != "tui" {
		// Of the calls, the JSON report writes the heaviest and the
		// real ones; only the explorer reads them all.
		dopts.MaxCalls = report.MaxJSONCalls
	}
	inv := &invocation{o: o, popts: popts, filters: filters, sides: sides, dopts: dopts, syms: syms, variant: variant, phases: phases}
	if byName != nil {
		inv.notes = append(inv.notes, *byName)
	}
	if threads := side.ThreadsNote(sides); threads != nil {
		inv.notes = append(inv.notes, *threads)
	}
	return inv, nil
}

// report reads and compares the sides, then opens the explorer or writes
// the report, and returns the exit status.
func (inv *invocation) report(stdin io.Reader, stdout, stderr io.Writer) int {
	o := inv.o
	adviseHugePages(inputBytes(inv.sides))
	need := needsOf(o.format, o.jsonOutput != "").withLineFlags(o)
	defer limitMemory(inv.sides, need.aggregateOptions(len(inv.sides)))()
	ds, profiles, err := readSides(inv.sides, stdin, inv.syms, inv.popts, inv.filters, o, need)
	if err == nil {
		err = side.MapsOfAnotherBuild(ds)
	}
	if err == nil && o.baseStore != "" {
		err = inv.baseFromStore(ds) // the base is a history record (basestore.go)
	}
	if err != nil {
		return failed(stderr, err)
	}
	roots, rootWarnings := side.ChooseRoots(ds, inv.sides, inv.dopts.Base, !o.noRootMatch)
	inv.roots = roots
	side.Relocate(ds, profiles, roots)
	dopts := inv.dopts
	if inv.filters.WindowMarks != nil { // the window each run's marks gave
		dopts.Narrowing = append(dopts.Narrowing, inv.filters.WindowMarks.Used()...)
	}
	for _, d := range ds[1:] {
		if a, b := ds[0].Tables[0], d.Tables[0]; a.Format != b.Format && !o.allowMixed {
			return usageError(stderr, "%s is %s but %s is %s: the sides' names, packages and times do not compare (--allow-mixed-formats if that is intended)",
				termtext.Clean(a.File), a.Format.Describe(), termtext.Clean(b.File), b.Format.Describe())
		}
	}
	rep, err := diff.Compare(ds, dopts)
	if err != nil {
		return failed(stderr, err)
	}
	if rep.Phases, err = inv.comparePhases(stdin, dopts); err != nil {
		return failed(stderr, err)
	}
	if err := unmatchedRule(rep); err != nil {
		return failed(stderr, err)
	}
	addWarnings(rep, narrowedAway(ds, dopts.Narrowing))
	addWarnings(rep, rootWarnings)
	addWarnings(rep, inv.notes)
	advise(rep.Warnings)
	if o.format == "tui" {
		last := &compared{ds, dopts}
		in := tui.Input{Report: inv.pair(rep), Sort: o.sortMetric(), Narrow: inv.renarrow(stdin, dopts, last)}
		// The explorer switches between the variants of a report laid
		// out as a table of sides (each variant a pair of its own), and
		// compares again with another base.
		if report.NewView(rep).Layout() == report.LayoutSides {
			in.Several = rep
			in.Variant = slices.IndexFunc(rep.Variants(), func(v diff.Variant) bool { return v.Pair() == in.Report })

			in.Rebase = func(base int) (*diff.Report, error) {
				opts := last.opts
				opts.Base = base
				r, err := diff.Compare(last.sides, opts)
				if err == nil {
					last.opts = opts // narrowing again keeps this base
				}
				return r, err
			}
		}
		files := userFolders(o, inv.sides)
		src := newSourceFiles(files, o)
		src.relative = side.RelativeTo(roots, inv.variant)
		read := inv.sideSources(files, len(rep.Sides))
		in.Source = func(side int, file string) (string, bool) {
			text, why := read(side, file)
			return text, why == "" && text != ""
		}
		return explore(in, inv.syms, src, inv.pairSide(rep), stderr)
	}
	if o.source != "" {
		return inv.writeSource(rep, stdout, stderr)
	}
	o.readSource = inv.sourceOf(rep)
	return writeReport(o, rep, inv.pair(rep), inv.drawn(rep), ds, profiles, inv.sides, stdout, stderr)
}

// comparePhases compares each --phase: every run read again and narrowed
// to the phase's window, its rows and headline only.
func (inv *invocation) comparePhases(stdin io.Reader, dopts diff.Options) ([]diff.Phase, error) {
	if len(inv.phases) > 0 && slices.ContainsFunc(inv.sides, func(s side.Side) bool { return slices.Contains(s.Files, "-") }) {
		return nil, errors.New("--phase reads every run again, and standard input (-) can be read once: give the profile as a file")
	}
	var out []diff.Phase
	for _, ph := range inv.phases {
		f := ph.filters(inv.filters)
		ds, _, err := readSides(inv.sides, stdin, inv.syms, inv.popts, f, inv.o, needs{})
		if err != nil {
			return nil, fmt.Errorf("--phase %s: %w", ph.name, err)
		}
		side.Relocate(ds, nil, inv.roots)
		opts := dopts
		opts.Narrowing = f.Describe()
		if f.WindowMarks != nil {
			opts.Narrowing = append(opts.Narrowing, f.WindowMarks.Used()...)
		}
		opts.Rules, opts.MaxPaths = nil, -1
		rep, err := diff.Compare(ds, opts)
		if err != nil {
			return nil, fmt.Errorf("--phase %s: %w", ph.name, err)
		}
		out = append(out, diff.Phase{Name: ph.name, Window: ph.spec, Report: rep})
	}
	return out, nil
}

// pair returns the report drawn where one comparison of two sides is
// shown (the explorer, the flame graph, the exports): the base against
// --variant as a report of two sides (for two sides, the report itself),
// or the report of one side.
func (inv *invocation) pair(rep *diff.Report) *diff.Report {
	if v, ok := rep.VariantOf(inv.variant); ok {
		return v.Pair()
	}
	return rep
}

// drawn returns, for each side of the report pair draws, its index among
// every side: the base and --variant, or the one side.
func (inv *invocation) drawn(rep *diff.Report) []int {
	if _, ok := rep.VariantOf(inv.variant); ok {
		return []int{rep.Base, inv.variant}
	}
	return []int{rep.Base}
}

// compared is what the explorer shows was compared from: the sides read
// and the options, which its b key compares again with another base.
type compared struct {
	sides []diff.Side
	opts  diff.Options
}

// renarrow returns what the explorer's f, i and x keys run: the whole
// comparison again, narrowed by their flags after the command's own; last
// receives what it compared.
func (inv *invocation) renarrow(stdin io.Reader, dopts diff.Options, last *compared) func([]string) (*diff.Report, error) {
	return func(flags []string) (*diff.Report, error) {
		extra, err := explorerFilters(flags)
		if err != nil {
			return nil, err
		}
		for _, s := range inv.sides {
			if slices.Contains(s.Files, "-") {
				return nil, errors.New("standard input cannot be read again")
			}
		}
		f := *inv.filters
		f.Then = append(slices.Clone(f.Then), extra...)
		ds, _, err := readSides(inv.sides, stdin, inv.syms, inv.popts, &f, inv.o, needsOf(inv.o.format, false))
		if err != nil {
			return nil, errors.New(errorText(err))
		}
		side.Relocate(ds, nil, inv.roots)
		opts := dopts
		opts.Narrowing, opts.Base = f.Describe(), last.opts.Base
		rep, err := diff.Compare(ds, opts)
		if err != nil {
			return nil, err
		}
		*last = compared{ds, opts}
		advise(rep.Warnings)
		return rep, nil // with several variants, the explorer keeps the one it shows
	}
}

// failed writes err on one line and returns exit status 2.
func failed(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "profdiff: %s\n", errorText(err))
	return exitUsage
}

// usageError writes a one-line error, through termtext.Clean, and returns
// exit status 2.
func usageError(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "profdiff: %s\n", termtext.Clean(fmt.Sprintf(format, args...)))
	return exitUsage
}

// errorText returns an error as profdiff prints it: through termtext.Clean,
// since errors quote their input (file names, thread names, sample types,
// flag values) and no control character or bidi override from it may reach
// the terminal (Clean also keeps it to one line); with the flag that lifts
// a limit; and a file that cannot be opened as "path: reason".
func errorText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) && !errors.As(err, new(*analyze.Error)) {
		return termtext.Clean(fmt.Sprintf("%s: %v", pe.Path, pe.Err))
	}
	msg := err.Error()
	if errors.Is(err, analyze.ErrTooLarge) {
		msg += " (see --max-input-size)"
	}
	return termtext.Clean(msg)
}

// writeMemProfile writes the allocations profdiff made (a heap profile read
// with -sample_index=alloc_space) for work on its memory use.
func writeMemProfile(path string, stderr io.Writer) {
	runtime.GC() // the allocations profile is as of the last collection
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

// profileSelf starts the Go CPU profile of profdiff itself that --cpuprofile
// asks for, and returns what stops it and writes --memprofile's.
func profileSelf(o options, stderr io.Writer) (stop func(), err error) {
	var f *os.File
	if o.cpuProfile != "" {
		if f, err = os.Create(o.cpuProfile); err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, err
		}
	}
	return func() {
		if o.memProfile != "" {
			writeMemProfile(o.memProfile, stderr)
		}
		if f != nil {
			pprof.StopCPUProfile()
			f.Close()
		}
	}, nil
}
