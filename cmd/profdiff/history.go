package main

import (
	"errors"
	"fmt"
	"github.com/profdiff/profdiff/side"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/profdiff/profdiff/fleet"
	"github.com/profdiff/profdiff/history"
	"github.com/profdiff/profdiff/internal/units"
)

const historyUsage = `usage:
  profdiff history add --store DIR --commit SHA [--date RFC3339]
      [--branch NAME] [--message TEXT] [flags] PROFILE...
      record a commit's runs (PROFILE: files, directories of runs or globs, or
      one server query, parca+http://... or pyroscope+http://...; the
      usual reading, source-map, narrowing and --work flags apply). A record
      keeps every row above its floor (--floor 0.1% of on-CPU, --floor-samples
      3, at most --keep 1000 of a kind) and says so: a row it left out is
      below the floor there, not 0. --process-cpu 8.4s,7.4s,... adds each
      run's process CPU time, a headline series of its own.
  profdiff history [--order FILE] [--last N]
      [--format text|markdown|json|html] [-o FILE] DIR
      the commits where the headline, a package, a function or a file changed
      for real, and the series of each (--order lists commits oldest first, as
      git rev-list --reverse prints them; without it records are in date order;
      --last N keeps the last N of them). Records are read one at a time.
  profdiff --base-store DIR --base-commit SHA [flags] AFTER...
      compare runs with the store's record of SHA (a pull request's merge base)
      as the base, read with the flags history add was given

`

// historyFlags are the flags of the history commands beyond the usual.
type historyFlags struct {
	store, commit, date, branch, message, order string
	keep, last, floorSamples                    int
	floor                                       string
	processCPU                                  []string
}

func addHistoryFlags(fs *pflag.FlagSet, h *historyFlags) {
	fs.StringVar(&h.store, "store", "", "history add: the store's folder (made if missing)")
	fs.StringVar(&h.date, "date", "", "history add: the commit's date, RFC 3339 (default: now)")
	fs.StringVar(&h.branch, "branch", "", "history add: the commit's branch")
	fs.StringVar(&h.message, "message", "", "history add: the commit's message (its first line is kept)")
	fs.IntVar(&h.keep, "keep", history.DefaultTop, "history add: the most functions, files or packages a record keeps; it keeps every one above --floor (the rest summed as (other)), and where more are, its floor rises")
	fs.StringVar(&h.floor, "floor", "0.1%", "history add: keep every row whose total over the runs is at least this share of their on-CPU time (and --floor-samples); a row left out reads as below it, not as 0")
	fs.IntVar(&h.floorSamples, "floor-samples", history.DefaultFloorSamples, "history add: keep only rows of at least `N` samples over the runs (with --floor)")
	fs.StringSliceVar(&h.processCPU, "process-cpu", nil, "history add: each run's process CPU time (user + sys, as 8.4s or 8436ms), one per run in order, comma-separated; it becomes a headline series of its own")
	fs.IntVar(&h.last, "last", 0, "history: analyse only the last `N` commits of the order (0: all)")
	fs.StringVar(&h.order, "order", "", "history: a `FILE` listing the commits oldest first (git rev-list --reverse)")
}

// runHistory runs `profdiff history add …` and `profdiff history DIR`.
func runHistory(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var o options
	o.ceilings = ceilingsFromEnv(os.Getenv)
	var h historyFlags
	fs := newFlagSet(&o)
	addHistoryFlags(fs, &h)
	fs.SetOutput(io.Discard)
	add := len(args) > 0 && args[0] == "add"
	if add {
		args = args[1:]
	}
	if err := fs.Parse(expandListFlags(args)); err != nil {
		fmt.Fprintf(stderr, "profdiff history: %s (see profdiff history --help)\n", errorText(err))
		return exitUsage
	}
	if o.help {
		fmt.Fprint(stdout, historyUsage)
		return exitOK
	}
	h.commit = o.commit
	if add {
		return historyAdd(o, h, fs, stdin, stdout, stderr)
	}
	return historyShow(o, h, fs, stdout, stderr)
}

// historyAdd reads a commit's runs and writes its record into the store.
func historyAdd(o options, h historyFlags, fs *pflag.FlagSet, stdin io.Reader, stdout, stderr io.Writer) int {
	if h.store == "" || h.commit == "" || fs.NArg() == 0 {
		return usageError(stderr, "history add needs --store DIR, --commit SHA and the commit's profiles")
	}
	date := time.Now().UTC().Truncate(time.Second)
	if h.date != "" {
		d, err := time.Parse(time.RFC3339, h.date)
		if err != nil {
			return usageError(stderr, "--date %q: give it as RFC 3339 (2026-11-01T08:52:24Z)", h.date)
		}
		date = d
	}
	commit, err := commitSide(o, h.commit, fs.Args())
	if err != nil {
		return failed(stderr, err)
	}
	sides := []side.Side{commit}
	o.workOfOneSide = true
	popts, err := parseOptions(o, fs.Changed("folded-unit"))
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	filters, err := narrowFilters(o)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	syms, err := prepareSides(o, sides)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	adviseHugePages(inputBytes(sides))
	ds, _, err := readSides(sides, stdin, syms, popts, filters, o, needs{})
	if err != nil {
		return failed(stderr, err)
	}
	var work []float64
	if w := sides[0].Work; w > 0 {
		for range ds[0].Tables {
			work = append(work, w)
		}
	}
	share, err := parseFloorShare(h.floor)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	processCPU, err := processCPUTimes(h.processCPU, len(ds[0].Tables))
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	rec, err := history.NewRecord(history.Meta{Commit: h.commit, Date: date, Branch: h.branch, Message: h.message, WorkUnit: workUnit(o, work), Top: h.keep,
		FloorShare: share, FloorSamples: h.floorSamples, ProcessCPUNs: processCPU}, ds[0].Tables, work)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	path, err := history.Add(h.store, rec)
	if err != nil {
		return failed(stderr, err)
	}
	if !o.quiet {
		fmt.Fprintf(stderr, "profdiff: recorded %s (%s) in %s\n", h.commit, units.Plural(len(rec.Runs), "run", "runs"), path)
	}
	return exitOK
}

// commitSide is the one side of history add, named after the commit: its
// runs are the profiles the arguments name (files, directories of runs or
// globs), or the runs of the one server query given.
func commitSide(o options, commit string, args []string) (side.Side, error) {
	s := side.Side{Name: commit}
	for _, a := range args {
		if fleet.IsURI(a) { // the commit's runs from a profiling server (fleet.go)
			if len(args) != 1 {
				return s, errors.New("history add: a server query is the commit's one side; give it alone (its runs come from --replicate-by or --windows)")
			}
			return fleetSide(a, commit, o)
		}
		files, err := side.Expand(a)
		if err != nil {
			return s, err
		}
		s.Files = append(s.Files, files...)
	}
	return s, nil
}

// processCPUTimes reads --process-cpu: one duration per run, in order.
func processCPUTimes(values []string, runs int) ([]int64, error) {
	var out []int64
	for _, v := range values {
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil || d < 0 {
			return nil, fmt.Errorf("--process-cpu %q: give each run's CPU time as a duration (8.4s, 8436ms)", v)
		}
		out = append(out, int64(d))
	}
	if out != nil && len(out) != runs {
		return nil, fmt.Errorf("--process-cpu gives %d times for %d runs: give one per run, in order", len(out), runs)
	}
	return out, nil
}

// parseFloorShare reads --floor: a percentage of on-CPU time ("0.1%").
func parseFloorShare(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || !strings.HasSuffix(strings.TrimSpace(s), "%") || !(v > 0 && v < 100) {
		return 0, fmt.Errorf("--floor %q: give a share of on-CPU time between 0%% and 100%% (0.1%%)", s)
	}
	return v / 100, nil
}

// workUnit is the unit a record's work counts, "" without work.
func workUnit(o options, work []float64) string {
	if len(work) == 0 {
		return ""
	}
	return o.workUnit
}

// historyShow reads a store and writes its change points.
func historyShow(o options, h historyFlags, fs *pflag.FlagSet, stdout, stderr io.Writer) int {
	if fs.NArg() != 1 {
		return usageError(stderr, "history takes one store folder (or: history add …)")
	}
	if h.last < 0 {
		return usageError(stderr, "--last %d: give how many of the last commits to analyse (0: all)", h.last)
	}
	write, err := historyWriter(o.format)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	dopts, err := diffOptions(o, 2)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	src, err := history.OpenSource(fs.Arg(0), h.order, h.last)
	if err != nil {
		return failed(stderr, err)
	}
	res, err := history.AnalyzeSource(src, history.Options{Alpha: dopts.Alpha, MinDeltaPct: dopts.MinDeltaPct, MinDeltaPP: dopts.MinDeltaPP, Seed: 1})
	if err != nil {
		return failed(stderr, err)
	}
	if !o.quiet {
		for _, w := range res.Warnings {
			fmt.Fprintf(stderr, "profdiff: warning: %s\n", w)
		}
	}
	return finish(stderr, o.output, stdout, func(w io.Writer) error { return write(w, res) }, false)
}
