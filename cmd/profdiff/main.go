// Command profdiff ranks the on-CPU time of a CPU profile (V8 .cpuprofile,
// Chrome trace, pprof) by package, function and file.
//
//	profdiff profile.cpuprofile
//
// This file is the only place that touches os.Args, os.Exit, the environment
// and the terminal; the work is done by the analyze and diff packages.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/symbolicate"
)

// Exit statuses.
const (
	exitOK    = 0
	exitRule  = 1 // a --fail-on rule was broken
	exitUsage = 2 // bad usage or unreadable input
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usageHead = `profdiff ranks where a CPU profile spends its on-CPU time, by package,
function and file. It reads V8 .cpuprofile files (Node --cpu-prof, Chrome
DevTools, CDP Profiler.stop), Chrome Performance-panel traces and pprof files
(Go, @datadog/pprof), gzipped or not; the format is detected from the content.
(idle) and (program) are left out of on-CPU time; garbage collection is kept
and shown as the package (gc).

Usage:
  profdiff [flags] PROFILE

Flags:
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

Exit status: 0 success, 2 bad usage or unreadable input.
`

// options are the parsed command line.
type options struct {
	format       string
	output       string
	top          int
	thread       string
	sampleType   string
	list         bool
	version      bool
	help         bool
	maxInputSize string
	cpuProfile   string

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
	fs.StringVarP(&o.format, "format", "f", "text", "output format: text or json")
	fs.StringVarP(&o.output, "output", "o", "", "write the report to `FILE` instead of standard output")
	fs.IntVarP(&o.top, "top", "n", 20, "rows per table in text output (0 for all); JSON always has every row")
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
	fs.BoolVar(&o.list, "list", false, "list the profiles a file holds (threads of a trace, sample types of a pprof) and exit")
	fs.StringVar(&o.maxInputSize, "max-input-size", "4GiB", "refuse input larger than this after decompression (`SIZE` in bytes, or with KiB, MiB, GiB)")
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	fs.BoolVarP(&o.help, "help", "h", false, "show this help")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a Go CPU profile of profdiff itself to `FILE`")
	_ = fs.MarkHidden("cpuprofile")
	return fs
}

func run(args []string, stdout, stderr io.Writer) int {
	var o options
	fs := newFlagSet(&o)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "profdiff: %v (see profdiff --help)\n", err)
		return exitUsage
	}
	if o.help {
		fmt.Fprint(stdout, usageHead)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fmt.Fprint(stdout, usageExamples)
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
	popts := analyze.ParseOptions{Thread: o.thread, SampleType: o.sampleType, MaxInputSize: maxSize}
	files := fs.Args()
	switch {
	case len(files) == 0:
		return usageError(stderr, "give a profile to rank (see profdiff --help)")
	case len(files) > 2:
		return usageError(stderr, "too many arguments: give one profile (see profdiff --help)")
	case len(files) == 2:
		return usageError(stderr, "comparing two profiles is not implemented yet; give one profile")
	}
	if o.format != "text" && o.format != "json" {
		return usageError(stderr, "--format %q: choose text or json", o.format)
	}
	if len(o.sourceDirsBefore)+len(o.sourceDirsAfter)+len(o.sourceMapsBefore)+len(o.sourceMapsAfter) > 0 {
		return usageError(stderr, "--sourcemaps-before/--sourcemaps-after/--sourcemap-before/--sourcemap-after are for comparing two profiles; with one profile use --sourcemaps and --sourcemap")
	}
	symOpts, err := symbolicateOptions(o.sourceMaps, o.sourceMapDirs, o.pathMaps)
	if err != nil {
		return usageError(stderr, "%v", err)
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
	out, closeOut, err := openOutput(o.output, stdout)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	if o.list {
		err = list(out, files[0], popts)
	} else {
		var sym *symbolicate.Symbolicator
		if !o.noSourceMaps {
			sym = symbolicate.New(symOpts)
		}
		err = report(out, files[0], popts, sym, o)
	}
	if cerr := closeOut(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(stderr, "profdiff: %s\n", oneLine(err))
		return exitUsage
	}
	return exitOK
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

func report(out io.Writer, file string, popts analyze.ParseOptions, sym *symbolicate.Symbolicator, o options) error {
	p, err := analyze.ParseFile(file, popts)
	if err != nil {
		return err
	}
	if sym != nil {
		sym.Apply(p)
	}
	t := analyze.Aggregate(p, analyze.AggregateOptions{ReadPackageJSON: true})
	r, err := diff.Compare([]diff.Side{{Name: "profile", Tables: []*analyze.Table{t}}})
	if err != nil {
		return err
	}
	if o.format == "json" {
		return diff.WriteJSON(out, r)
	}
	return diff.WriteText(out, r, diff.TextOptions{Top: o.top})
}

func list(out io.Writer, file string, popts analyze.ParseOptions) error {
	infos, err := analyze.ListFile(file, popts)
	if err != nil {
		return err
	}
	for _, in := range infos {
		mark := " "
		if in.Default {
			mark = "*"
		}
		desc := in.Format.Describe()
		if in.Thread != "" {
			desc = in.Thread
		}
		fmt.Fprintf(out, "%s %s: %s samples, %s on-CPU", mark, desc, diff.Count(in.Samples), diff.Duration(in.OnCPUNs))
		if len(in.SampleTypes) > 0 {
			fmt.Fprintf(out, ", sample types %s", strings.Join(in.SampleTypes, ", "))
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

func usageError(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "profdiff: %s\n", fmt.Sprintf(format, args...))
	return exitUsage
}

// oneLine keeps an error to one line.
func oneLine(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s: %v", pe.Path, pe.Err)
	}
	return strings.Join(strings.Fields(err.Error()), " ")
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

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
